"""The API reference is complete (issue 33, item 5), in the manner of datasette's test_docs.py.

Every name ``unorules`` exports is documented on a page of the docs; every class the API
reference (``docs/api.rst``) and the hooks page document with their members has a docstring on
each public field (attrs attributes and class attributes, read from the source as Sphinx reads
them), property and method, so none of them is left out of the built reference; and every
parameter of a documented function, method or class is named in its docstring.

``unorules.testing`` is documented on its own page (``testing-plugins.rst``) and checked by
its own tests; it is left out here.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

import unorules

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
PAGES = ("api.rst", "hooks.rst")
"""The reference pages whose objects are checked."""
LEFT_OUT = ("unorules.testing",)
"""Modules documented and checked elsewhere."""

_DIRECTIVE = re.compile(r"^\.\. auto(class|function|data|exception|module):: (\S+)((?:\n   :[^\n]*)*)", re.M)


def _resolve(path: str) -> Any:
    parts = path.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj: Any = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for part in parts[i:]:
            obj = getattr(obj, part)
        return obj
    raise ImportError(path)


def _documented() -> Iterator[tuple[str, str, Any, str]]:
    """(directive, dotted path, object, options) of every object the reference pages document."""
    for page in PAGES:
        for kind, path, options in _DIRECTIVE.findall((DOCS / page).read_text(encoding="utf-8")):
            if path.startswith(LEFT_OUT):
                continue
            try:
                obj = _resolve(path)
            except ImportError as exc:
                if "unorules" in str(exc):
                    raise
                continue  # an extra that is not installed (rl, serve)
            yield kind, path, obj, options
            members = re.search(r":members: (.+)", options)
            if kind == "module" and members:
                for name in members.group(1).split(","):
                    member = getattr(obj, name.strip())
                    yield (
                        ("class" if inspect.isclass(member) else "function"),
                        f"{path}.{name.strip()}",
                        member,
                        (":members:"),
                    )


def _attribute_docs(cls: type) -> dict[str, str]:
    """The docstrings written under attributes of ``cls`` and its unorules bases, as Sphinx
    reads them from the source."""
    from sphinx.pycode import ModuleAnalyzer

    found: dict[str, str] = {}
    for klass in cls.__mro__:
        if not klass.__module__.startswith("unorules"):
            continue
        docs = ModuleAnalyzer.for_module(klass.__module__).find_attr_docs()
        for (qualname, name), lines in docs.items():
            if qualname == klass.__qualname__:
                found.setdefault(name, "\n".join(lines))
    return found


def _unnamed_parameters(function: Callable[..., Any], doc: str) -> list[str]:
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return []
    return [
        p.name
        for p in signature.parameters.values()
        if p.name not in ("self", "cls")
        and not p.name.startswith("_")
        and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
        and not re.search(rf"\b{re.escape(p.name)}\b", doc)
    ]


def _problems_of_class(path: str, cls: type, options: str) -> Iterator[str]:
    if not inspect.getdoc(cls):
        yield f"{path}: the class has no docstring"
    init = vars(cls).get("__init__")
    if init is not None and not attrs.has(cls) and callable(init):
        doc = (inspect.getdoc(cls) or "") + "\n" + (inspect.getdoc(init) or "")
        for name in _unnamed_parameters(init, doc):
            yield f"{path}({name}=...): the parameter is not named in the class's docstring"
    if ":members:" not in options:
        return
    listed = re.search(r":members: (.+)", options)
    wanted = {n.strip() for n in listed.group(1).split(",")} if listed else None
    notes = _attribute_docs(cls)
    fields = {f.name for f in attrs.fields(cls)} if attrs.has(cls) else set()
    names = set(vars(cls)) | fields
    for name in sorted(names):
        if name.startswith("_") or (wanted is not None and name not in wanted):
            continue
        member = vars(cls).get(name)
        if name in fields or not (
            callable(member)
            or isinstance(member, property | functools.cached_property | classmethod | staticmethod)
        ):
            if isinstance(member, type) or name in ("__test__",):
                continue
            if name not in notes:
                yield f"{path}.{name}: the field has no docstring (write one under it)"
            continue
        function: Any
        if isinstance(member, property):
            function = member.fget
        elif isinstance(member, functools.cached_property):
            function = member.func
        else:
            function = getattr(member, "__func__", member)
        doc = inspect.getdoc(function) or ""
        if not doc:
            yield f"{path}.{name}: no docstring"
        elif not isinstance(member, property | functools.cached_property):
            for parameter in _unnamed_parameters(function, doc):
                yield f"{path}.{name}({parameter}=...): the parameter is not named in its docstring"


def _problems() -> list[str]:
    problems: list[str] = []
    for kind, path, obj, options in _documented():
        if kind in ("data", "module"):
            continue
        if inspect.isclass(obj):
            problems += _problems_of_class(path, obj, options)
        elif callable(obj):
            doc = inspect.getdoc(obj) or ""
            if not doc:
                problems.append(f"{path}: no docstring")
            problems += [
                f"{path}({name}=...): the parameter is not named in its docstring"
                for name in _unnamed_parameters(obj, doc)
            ]
    return problems


def test_every_name_unorules_exports_is_documented() -> None:
    text = "\n".join(p.read_text(encoding="utf-8") for p in DOCS.glob("*.rst"))
    documented = {id(obj) for _, _, obj, _ in _documented()}
    missing = [
        name
        for name in unorules.__all__
        if id(getattr(unorules, name)) not in documented and not re.search(rf"\bunorules\.{name}\b", text)
    ]
    assert not missing, f"exported by unorules but in no page of the docs: {', '.join(missing)}"


def test_every_public_field_method_and_parameter_of_the_reference_is_documented() -> None:
    problems = _problems()
    assert not problems, "undocumented in the API reference:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "name",
    ["hands", "current_player", "phase", "direction", "dealer", "scores", "rounds", "outcome", "rng"]
    + ["last_action", "events", "ruleset"],
)
def test_the_fields_people_use_most_have_docstrings(name: str) -> None:
    """The fields issue 33 found missing from the reference."""
    assert name in _attribute_docs(unorules.GameState)


def test_register_kinds_parameters_are_documented() -> None:
    doc = inspect.getdoc(unorules.register_kind) or ""
    for parameter in ("wild", "number", "name"):
        assert re.search(rf"``{parameter}``|:param {parameter}:", doc), parameter
