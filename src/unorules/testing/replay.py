"""Replays: a game written down as its rule set, seed, arranged deck and actions.

A :class:`Replay` is everything needed to reach a game state again: the rule
set, the number of players, the seed, the arranged deck (if any), the dealer
(if given) and the actions in action notation. The toolkit records one for
every game it plays, and prints it when an invariant fails, as Python that can
be pasted into a test (:meth:`Replay.format`).

The seeded random play the conformance runner and the state machine use
(:func:`choose_action`, :func:`play_randomly`) is defined in
:mod:`unorules.testing.play` and importable from here. This module imports
the invariants (:meth:`Replay.check` runs them) and needs no hypothesis.
"""

from __future__ import annotations

import textwrap
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import attrs

from unorules.actions import Action
from unorules.cards import Card, parse_cards
from unorules.ruleset import Ruleset, installed_plugins
from unorules.state import GameState
from unorules.testing.invariants import check_replay_game
from unorules.testing.play import choose_action, play_randomly

__all__ = ["Replay", "choose_action", "play_randomly", "ruleset_line"]

_WIDTH = 100


def _to_actions(actions: Iterable[Action | str]) -> tuple[Action, ...]:
    return tuple(a if isinstance(a, Action) else Action.parse(a) for a in actions)


def _to_deck(deck: Iterable[str | Card] | str | None) -> tuple[Card, ...] | None:
    return None if deck is None else parse_cards(deck)


@attrs.frozen
class Replay:
    """A game from its start: rebuild it with :meth:`play`, print it with :meth:`format`.

    ``actions`` and ``deck`` may be given as text (``["0: play R7", "1: draw"]``,
    ``"R1 G1 R2"``); they are parsed when the replay is built. Equal replays
    give equal states (an invariant, checked by :meth:`check`).
    """

    ruleset: Ruleset
    players: int
    seed: int | str
    actions: tuple[Action, ...] = attrs.field(default=(), converter=_to_actions)
    deck: tuple[Card, ...] | None = attrs.field(default=None, converter=_to_deck)
    dealer: int | None = None

    def start(self) -> GameState:
        """The first state: the deal."""
        return self.ruleset.new_game(self.players, seed=self.seed, deck=self.deck, dealer=self.dealer)

    def states(self) -> Iterator[GameState]:
        """The deal, then the state after each action."""
        state = self.start()
        yield state
        for action in self.actions:
            state = state.apply(action)
            yield state

    def play(self) -> GameState:
        """The state after the last action."""
        state = self.start()
        for action in self.actions:
            state = state.apply(action)
        return state

    def then(self, *actions: Action | str) -> Replay:
        """This replay with ``actions`` appended."""
        return attrs.evolve(self, actions=self.actions + _to_actions(actions))

    def prefix(self, count: int) -> Replay:
        """This replay cut after its first ``count`` actions."""
        return attrs.evolve(self, actions=self.actions[:count])

    def check(self, *, deep: bool = True, repeat_limit: int | None = None) -> GameState:
        """Replay the game checking every invariant on every state; return the last state.

        Raises :class:`~unorules.testing.invariants.InvariantViolation` (an
        ``AssertionError``) naming the step and the invariant that failed.
        ``repeat_limit`` is the round monitor's (see
        :class:`~unorules.testing.invariants.RoundMonitor`).
        """
        return check_replay_game(self, deep=deep, repeat_limit=repeat_limit)

    def format(self, failure: str | None = None) -> str:
        """Python that rebuilds this game, for pasting into a test.

        ``failure`` (a one-line description) is written as a comment above the
        code and after the final ``replay.check()`` line.
        """
        lines: list[str] = []
        if failure:
            lines += [f"# {line}" for line in textwrap.wrap(failure, _WIDTH - 2)]
        lines += ["from unorules import Ruleset", "from unorules.testing import Replay", ""]
        lines.append("replay = Replay(")
        lines.append(f"    {ruleset_line(self.ruleset)},")
        lines.append(f"    players={self.players},")
        lines.append(f"    seed={self.seed!r},")
        if self.deck is not None:
            lines.append("    deck=(")
            lines += _wrapped([str(c) for c in self.deck], "        ", as_text=True)
            lines.append("    ),")
        if self.dealer is not None:
            lines.append(f"    dealer={self.dealer},")
        if self.actions:
            lines.append("    actions=[")
            lines += _wrapped(_compressed([str(a) for a in self.actions]), "        ", as_text=False)
            lines.append("    ],")
        else:
            lines.append("    actions=[],")
        lines.append(")")
        lines.append("state = replay.play()")
        check = "replay.check()"
        if failure:
            name = failure.split("]")[0] + "]" if failure.startswith("[") else "see above"
            check += f"  # fails: {name}"
        lines.append(check)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()


def _compressed(actions: Sequence[str], longest: int = 8, fewest: int = 3) -> list[str]:
    """List items (Python source) for ``actions``: each quoted, except that a
    block of up to ``longest`` actions repeated ``fewest`` or more times in a
    row is written once, ``*["0: draw", "1: draw"] * 50``."""
    items: list[str] = []
    i = 0
    while i < len(actions):
        best_length, best_times = 0, 0
        for length in range(1, longest + 1):
            block = actions[i : i + length]
            times = 1
            while actions[i + times * length : i + (times + 1) * length] == block:
                times += 1
            if times >= fewest and length * times > best_length * best_times:
                best_length, best_times = length, times
        if best_times:
            block_text = ", ".join(f'"{a}"' for a in actions[i : i + best_length])
            items.append(f"*[{block_text}] * {best_times}")
            i += best_length * best_times
        else:
            items.append(f'"{actions[i]}"')
            i += 1
    return items


def _wrapped(items: Sequence[str], indent: str, *, as_text: bool) -> list[str]:
    """``items`` as indented source lines: list items (Python source, each
    followed by a comma), or with ``as_text`` one string literal split over
    lines (for the deck, whose cards are space-separated)."""
    lines: list[str] = []
    current = ""
    for item in items:
        piece = f"{item} " if as_text else f"{item}, "
        if current and len(indent) + len(current) + len(piece) > _WIDTH - 2:
            lines.append(current)
            current = ""
        current += piece
    if current:
        lines.append(current)
    if as_text:
        return [indent + f'"{line}"' for line in lines]
    return [indent + line.rstrip() for line in lines]


def ruleset_line(ruleset: Ruleset) -> str:
    """Python that rebuilds ``ruleset``: ``Ruleset.from_names([...], options={...})``.

    Plugins that are not installed under their name (plugin objects made in a
    test) are written as ``plugins=[ClassName()]``.
    """
    installed = installed_plugins()
    names: list[str] = []
    objects: list[str] = []
    for plugin in ruleset.plugins:
        name = plugin.name
        if installed.get(name) is plugin:
            names.append(name)
        else:
            objects.append(_plugin_expr(plugin))
    args = [repr(names)]
    options = ruleset.spec()["options"]
    if options:
        args.append(f"options={options!r}")
    if objects:
        args.append(f"plugins=[{', '.join(objects)}]")
    return f"Ruleset.from_names({', '.join(args)})"


def _plugin_expr(plugin: Any) -> str:
    cls = type(plugin)
    if cls.__name__ == "module":
        return str(plugin.__name__)
    return f"{cls.__name__}()"
