"""Rule sets for the toolkit to play: the combinations that build, the option
values worth testing and the player counts a rule set deals for.

Plain functions, without hypothesis: the coverage and the conformance
runner use them as they are, and :mod:`unorules.testing.strategies` (which
needs hypothesis) re-exports them and draws rule sets from them.
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from unorules.errors import RulesetError
from unorules.plugin import Option
from unorules.ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset, installed_plugins

__all__ = [
    "build_ruleset",
    "buildable_combinations",
    "drawn_subsets",
    "option_values",
    "supported_players",
]

_SMALL_INTS = (1, 2, 3, 4, 7, 10, 50, 100, 200)


_refused: dict[tuple[tuple[str, ...], str], str] = {}
"""Why a combination does not build, by names and options (the rule sets that build are
cached by :meth:`Ruleset.from_names`)."""


def build_ruleset(names: Iterable[str], options: Mapping[str, Any] | None = None) -> Ruleset | str:
    """The rule set of installed plugins ``names`` with ``options``, or the
    ``RulesetError`` message saying why it does not build (cached)."""
    names = tuple(names)
    key = (names, repr(sorted((options or {}).items())))
    refused = _refused.get(key)
    if refused is not None:
        return refused
    try:
        # Rule sets themselves are cached by Ruleset.from_names (one object per spec).
        return Ruleset.from_names(list(names), options=dict(options or {}))
    except RulesetError as exc:
        refused = _refused[key] = str(exc)
        return refused


def buildable_combinations(
    names: Iterable[str] | None = None,
    required: Sequence[str] = ("classic",),
    max_size: int | None = None,
) -> list[tuple[str, ...]]:
    """Every subset of ``names`` (default: every installed plugin) that builds
    together with ``required``, smallest first, as rule-set name tuples
    (``required`` first). Subsets of more than ``max_size`` extra plugins are
    left out. This builds every subset (a few milliseconds each): with many
    plugins, prefer :func:`rulesets`, which draws them."""
    pool = sorted(set(installed_plugins() if names is None else names) - set(required))
    top = len(pool) if max_size is None else min(max_size, len(pool))
    found: list[tuple[str, ...]] = []
    for size in range(top + 1):
        for extra in itertools.combinations(pool, size):
            combo = tuple(required) + extra
            if isinstance(build_ruleset(combo), Ruleset):
                found.append(combo)
    return found


def drawn_subsets(
    names: Sequence[str], count: int, smallest: int, largest: int | None = None, seed: int = 0
) -> list[tuple[str, ...]]:
    """``count`` distinct subsets of ``smallest`` to ``largest`` (default: all)
    of ``names``, drawn with ``seed`` and sorted, each a sorted name tuple:
    a fixed sample for a parametrised test where every subset would be
    ``2**len(names)`` of them (fewer when fewer exist). Unlike
    :func:`buildable_combinations`, nothing is built."""
    pool = sorted(set(names))
    top = len(pool) if largest is None else min(largest, len(pool))
    if smallest > top:
        return []
    possible = sum(math.comb(len(pool), size) for size in range(smallest, top + 1))
    rng = random.Random(seed)
    found: set[tuple[str, ...]] = set()
    while len(found) < min(count, possible):
        found.add(tuple(sorted(rng.sample(pool, rng.randint(smallest, top)))))
    return sorted(found)


def option_values(plugin: Any, option: Option) -> list[Any]:
    """The values of ``option`` worth testing, the default first.

    A plugin's ``testing.option_values`` (:class:`~unorules.TestHints`) wins; else candidates are the
    default, the items and words of ``option.allowed`` (``"on, off"``, ``"2,
    4"``, ``"such as C4"``) and a few small integers, each kept if
    ``option.validate`` accepts it.
    """
    hints = getattr(plugin, "testing", None)
    declared = getattr(hints, "option_values", None)
    if isinstance(declared, Mapping) and option.name in declared:
        return [option.default, *(option.validate(v) for v in declared[option.name])]
    # The comma-separated items of ``allowed``, then its single words (which
    # finds the examples in texts like "an effect name such as C4, or none").
    words = [w.strip() for w in option.allowed.replace(";", ",").split(",")]
    words += [w.strip("()'\".,:;") for w in option.allowed.split()]
    numbers: tuple[Any, ...] = _SMALL_INTS
    if _accepts(option, "no-such-value-x9"):
        words, numbers = [], ()  # the check takes anything: guesses would be noise
    found: list[Any] = [option.default]
    for candidate in [*words, *numbers]:
        try:
            value = option.validate(candidate)
        except (TypeError, ValueError):
            continue
        if not any(value == v and type(value) is type(v) for v in found):
            found.append(value)
    return found


def _accepts(option: Option, value: Any) -> bool:
    try:
        option.validate(value)
    except (TypeError, ValueError):
        return False
    return True


def _static_conflict(names: Sequence[str]) -> bool:
    """Whether two of ``names`` declare a conflict (known without building)."""
    plugins = installed_plugins()
    chosen = set(names)
    return any(other in chosen for name in names for other in getattr(plugins.get(name), "conflicts", {}))


@functools.lru_cache(maxsize=1024)
def _supported(ruleset: Ruleset, candidates: tuple[int, ...]) -> tuple[int, ...]:
    found = []
    for players in candidates:
        try:
            ruleset.new_game(players, seed=0)
        except RulesetError:
            continue  # refused: the rule set does not deal for this many players
        except Exception:  # a crash is not a refusal: playing the game will report it
            pass
        found.append(players)
    return tuple(found)


def supported_players(ruleset: Ruleset, candidates: Iterable[int] | None = None) -> tuple[int, ...]:
    """The player counts among ``candidates`` (default 2 to 10) that ``ruleset``
    can deal a game for (a partners game needs four, say)."""
    wanted = tuple(range(MIN_PLAYERS, MAX_PLAYERS + 1) if candidates is None else candidates)
    return _supported(ruleset, wanted)
