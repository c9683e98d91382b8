"""The house rules that left classic (issue 42), as four plugins of one distribution.

Each plugin answers the core's shared questions (``unorules.hookspecs``,
"The questions every rule shares") for its own rules, so no card plugin needs
to know about it and none of them requires a rule set by name: each combines
with any base (classic, flip, no-mercy) whose plays, draws, UNO calls and
scores go through the core's mechanics.

===============  ===========================================  =================================
plugin           options                                      the question it answers
===============  ===========================================  =================================
``last-card``    ``last_card_ban``, ``last_draw_card``        what a seat's last card may be,
                                                              and what a last draw card does
``turn-rules``   ``forced_play``, ``hand_limit``,             what a seat must, may not or may
                 ``misplay_penalty``                          try to do on its ordinary turn
``uno-calls``    ``uno_call``, ``false_uno_penalty``          when UNO is called, and what a
                                                              wrong call or catch costs
``score-rules``  ``blocked_round``, ``double_score``          what a round scores
===============  ===========================================  =================================

**Why this grouping.** The plugins are cut along the hooks they answer, as
issue 42's design names them: one plugin per question rather than one per
option, because the options of one question meet each other (a banned last
card and a last draw card are both about the card a seat goes out on; forced
play and the hand cap both refuse the turn's draw, and a misplay is the other
side of a refused play; a false call depends on when calls are made) and
their interactions are documented in one place; and not one plugin for all,
so that a rule set pays only for the hooks of the questions it changes (a
rule set without a house rule pays nothing: the core skips a hook no plugin
implements). They ship as one distribution because they are small, released
together and were one set of options of classic: ``pip install
unorules-house-rules`` gives back everything classic offered.

**Defaults.** Every option keeps its name, its values and its default from
classic, the value meaning "off": a plugin named without options plays the
rules reference, and a rule set, state or record written before the move
(``classic last_card_ban=none`` included) means what it meant.

**Old spellings.** ``classic last_card_ban=wild`` still builds: a rule set
built by names (spec texts, rulebooks, ``--option``, state JSON) adds the one
installed plugin that declares an option none of the named plugins declares
(:func:`unorules.spec.option_owners`); its canonical spec text then names the
plugin (``classic,last-card last_card_ban=wild``).

The modules import only ``unorules`` and this package's :func:`whole`; no
plugin imports another plugin's module.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["whole"]


def whole(least: int, what: str) -> Callable[[Any], int]:
    """An option check accepting 0 (off) or a whole number from ``least``."""

    def check(value: Any) -> int:
        if isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or (value != 0 and value < least):
            raise ValueError(f"{value!r} is not 0 (off) or {what}")
        return value

    return check
