"""Templates of the words user interfaces show: their fields, checked where they are declared.

An event's text (:attr:`unorules.EventSpec.text`) and a verb's
(:func:`unorules.register_verb`) are ``str.format`` templates such as
``"{seat} stacked {cards}: {target} must draw {count} or stack"``;
:mod:`unorules.narrate` fills them in for a reader. This module only reads
them, so that a template naming a field its event does not have is refused
when the plugin declares it, not when a player first meets the event.
"""

from __future__ import annotations

import string
from collections.abc import Set

__all__ = ["check_template", "template_fields"]


def template_fields(text: str) -> list[tuple[str, str]]:
    """The ``(field, format spec)`` pairs the template ``text`` names, in order, with
    ``data[NAME]`` as ``"data.NAME"`` and an index dropped (``cards[0]`` is
    ``"cards"``). ``ValueError`` for a template ``str.format`` cannot read
    (an unmatched brace) or a field that is not a plain name."""
    found: list[tuple[str, str]] = []
    try:
        parsed = list(string.Formatter().parse(text))
    except ValueError as exc:
        raise ValueError(f"bad template {text!r}: {exc} (write a literal brace as {{{{ or }}}})") from None
    for _, name, spec, conversion in parsed:
        if name is None:
            continue
        if not name or conversion:
            raise ValueError(f"bad template {text!r}: name a field, e.g. {{seat}}, without '!'")
        head, _, rest = name.partition("[")
        if "." in head:
            raise ValueError(f"bad template {text!r}: {{{name}}} reads an attribute; name a field")
        if head == "data":
            key = rest.removesuffix("]")
            if not rest or not key or "[" in key:
                raise ValueError(f"bad template {text!r}: write a value of event.data as {{data[NAME]}}")
            found.append((f"data.{key}", spec or ""))
        else:
            if rest and not rest.removesuffix("]").isdigit():
                raise ValueError(f"bad template {text!r}: {{{name}}}: index a field by a number")
            found.append((head, spec or ""))
    return found


def check_template(text: str, declared: Set[str], what: str) -> None:
    """Refuse (``ValueError`` naming ``what``) a template that ``str.format``
    cannot read or that names a field outside ``declared`` (an event's
    declared fields; ``"seat"``, ``"card"``, ``"color"``, ``"target"`` for a
    verb's text)."""
    try:
        named = template_fields(text)
    except ValueError as exc:
        raise ValueError(f"{what}: {exc}") from None
    for field, _ in named:
        if field not in declared:
            shown = f"data[{field[5:]}]" if field.startswith("data.") else field
            listed = ", ".join(sorted(declared)) or "none"
            raise ValueError(
                f"{what}: its text names {{{shown}}}, which is not among its declared fields ({listed})"
            )
