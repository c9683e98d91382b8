"""The one name the compiled build needs from ``mypy_extensions``, and its stand-in.

``python3 dev.py build-compiled`` compiles the core's hot modules with mypyc
(see ``build_compiled.py``). A class that must stay an ordinary Python class
there (it keeps a ``__dict__``, swaps its ``__class__`` or is a metaclass) is
marked ``@mypyc_attr(native_class=False)``; mypyc reads the marker, and at run
time it is ``mypy_extensions``' own or, where that is not installed (the
pure-Python package needs nothing but its dependencies), a decorator that
changes nothing.

What else the compiled modules do differently, each for a reason of mypyc's:

* no ``attrs.field(...)`` in a class body is typed as its field's value
  (attrs' stubs type ``field(default=(), ...)`` or ``field(factory=dict)`` so, and
  compiled code checks the type at run time, which attrs' marker object fails):
  a plain default instead, or a factory that returns ``Any``;
* two attrs values typed as one class are compared with :func:`equal`, not
  ``==``: mypyc sees no ``__eq__`` on an attrs class (attrs adds it at run time)
  and compiles ``==`` between them to identity (``tests/test_compiled.py`` finds
  such a comparison in a compiled module);
* ``object.__new__`` is called through a name (``_new_object``) in the classes
  that intern their objects, and no closure is made in a method of a class
  that stays a Python class;
* a public entry point that checks an untrusted argument itself takes it as a
  type compiled code does not check (``SupportsIndex`` for a seat, ``Any`` in
  the implementation under overloads): compiled code checks every annotated
  argument first, with mypyc's words;
* the fields of :class:`~unorules.Position` and :class:`~unorules.Draft` are
  declared for the type checker in :mod:`unorules._declared` (mypyc compiles no
  ``if TYPE_CHECKING:`` inside a class).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["equal", "mypyc_attr"]

_T = TypeVar("_T")

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pragma: no cover - mypy_extensions comes with mypy, a development tool

    def mypyc_attr(*attrs: str, **kwattrs: Any) -> Callable[[_T], _T]:  # type: ignore[misc]
        """The stand-in of ``mypy_extensions.mypyc_attr``: the class unchanged."""

        def keep(cls: _T) -> _T:
            return cls

        return keep


def equal(a: object, b: object) -> bool:
    """``a == b``, run as Python whatever the build (see the module's docstring)."""
    return a == b
