"""Golden game digests: seeded games whose every step must play the same, always.

    .venv/bin/python tests/golden/games.py            # check, printing what moved
    .venv/bin/python tests/golden/games.py --write    # record (only for a change of behaviour
                                                      # that has a CHANGELOG line)

Each entry is one rule set (classic alone, every other installed plugin with
classic, every pair and triple of them, and option variants) played with 2,
3, 4 and 6 seats (where the rule set deals that many) from three seeds. A
game's choices come from ``random.Random(seed)`` over ``legal_actions()``,
so the order of the legal actions is part of what is fixed. The digest
hashes every action taken, every event of every step (as JSON, private
cards included), every state's JSON every ``FULL_EVERY`` steps and the final
state's JSON, which holds the scores, rounds and outcome. A game stops at its
end or after ``MAX_ACTIONS`` actions.

``tests/test_golden.py`` compares each rule set's digests with
``digests.json``; a rule set refused at build time must stay refused.

``--without KIND,...`` digests the games as if the events of those kinds
did not exist (dropped from every step's events and every state's JSON),
and ``--against FILE`` compares with another digests file: when a change
only adds events (the ``move`` and ``show`` events of card movements),
``--without move,show --against <the digests from before>`` shows that
nothing else moved, before ``--write`` records the new digests.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import random
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from unorules import Ruleset, RulesetError, installed_plugins

HERE = Path(__file__).resolve().parent
DIGESTS = HERE / "digests.json"
SEEDS = (1, 2, 3)
PLAYERS = (2, 3, 4, 6)
MAX_ACTIONS = 1200
FULL_EVERY = 40

EFFECTS_A = {"custom_wild_1": "discard-wilds", "custom_wild_2": "all-to-3", "custom_wild_3": "open-hands"}
EFFECTS_B = {"custom_wild_1": "next-to-7", "custom_wild_2": "joke", "custom_wild_3": "crow-or-draw-4"}
EFFECTS_C = {
    "custom_wild_1": "draw-until-color",
    "custom_wild_2": "cannot-play-draw-3",
    "custom_wild_3": "extra-turn",
}
EFFECTS_D = {
    "custom_wild_1": "stiff-elbows",
    "custom_wild_2": "discard-specials",
    "custom_wild_3": "crow-and-draw-4",
}

COMBO_OPTIONS: dict[str, dict[str, Any]] = {
    "penalties": {"enforcement": "table"},
    "custom-wilds": EFFECTS_A,
    "blank-cards": {"blank_cards": ("house-rule", "house-rule", "aside")},
}
"""Options the pairs and triples give a plugin whose defaults leave it idle."""

VARIANTS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("classic", {"scoring": "low-score", "target_score": 150}),
    ("classic", {"uno_penalty": 4, "wd4_points": 70, "target_score": 200}),
    ("classic", {"challenge": False}),
    ("classic", {"challenger": "anyone"}),
    ("classic", {"drawn_card": "must-play", "dealer_draw": "points"}),
    ("classic", {"opening_wild": "redraw", "opening_reverse": "right-of-dealer-starts"}),
    ("classic,stacking", {"stack_mix": True}),
    ("classic,stacking", {"stack_mix": True, "challenger": "anyone"}),
    ("classic,stacking", {"challenge": False}),
    ("classic,jump-in", {"jump_in_match": "color-or-number"}),
    ("classic,jump-in,stacking", {"jump_in_match": "color-or-number", "stack_mix": True}),
    ("classic,penalties", {"enforcement": "table"}),
    ("classic,penalties", {"enforcement": "table", "challenge": False, "challenger": "anyone"}),
    ("classic,custom-wilds", EFFECTS_A),
    ("classic,custom-wilds", EFFECTS_B),
    ("classic,custom-wilds", EFFECTS_C),
    ("classic,custom-wilds", EFFECTS_D),
    ("classic,custom-wilds", {"customizable_wilds": 1, "custom_wild_1": "all-to-3"}),
    ("classic,blank-cards", {"blank_cards": ("house-rule", "Y7", "aside"), "lost_cards": ("Y7",)}),
    ("classic,shuffle-hands", {"with_swap_hands": True}),
    ("classic,draw-until-playable", {"draw_limit": 3}),
    ("classic,elimination", {"elimination_limit": 100}),
    ("classic,partners", {"target_score": 200}),
    (
        "classic,stacking,jump-in,seven-o,swap-hands,shuffle-hands,custom-wilds,blank-cards",
        {**EFFECTS_B, "stack_mix": True, "blank_cards": ("house-rule",)},
    ),
    (
        "classic,stacking,jump-in,seven-o,penalties,custom-wilds,draw-until-playable",
        {**EFFECTS_C, "enforcement": "table", "challenger": "anyone", "jump_in_match": "color-or-number"},
    ),
    ("classic,elimination,stacking,seven-o,jump-in", {"elimination_limit": 150}),
    ("classic,partners,stacking,seven-o,jump-in,penalties", {"enforcement": "table"}),
)


def recorded_plugins() -> set[str]:
    """The plugins the recorded digests name: plugins shipped since are left to their
    own tests (recording them would change the count the golden run reports)."""
    return {name for key in load() for name in key.split(" ")[0].split(",")}


def rule_sets() -> Iterator[tuple[str, tuple[str, ...], dict[str, Any]]]:
    """Every golden rule set as (key, plugin names, options)."""
    recorded = recorded_plugins()
    others = sorted(n for n in installed_plugins() if n != "classic" and n in recorded)
    for size in range(4):
        for extra in itertools.combinations(others, size):
            names = ("classic", *extra)
            options: dict[str, Any] = {}
            if size > 1:
                for name in extra:
                    options.update(COMBO_OPTIONS.get(name, {}))
            yield _key(names, options), names, options
    for text, options in VARIANTS:
        names = tuple(text.split(","))
        yield _key(names, options), names, options


def _key(names: tuple[str, ...], options: dict[str, Any]) -> str:
    opts = " ".join(f"{k}={_text(v)}" for k, v in sorted(options.items()))
    return ",".join(names) + (f" {opts}" if opts else "")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return ",".join(map(str, value))
    return str(value)


def _event(event: Any) -> list[Any]:
    return [
        event.kind,
        event.seat,
        [str(c) for c in event.cards],
        event.rule,
        event.detail,
        event.private,
        event.target,
        event.count,
        None if event.color is None else str(event.color),
        repr(event.data),
    ]


def game_digest(rules: Ruleset, players: int, seed: int, without: frozenset[str] = frozenset()) -> str:
    """The digest of one seeded game (see the module's docstring); events of
    the kinds ``without`` are left out of it."""
    h = hashlib.sha256()
    state = rules.new_game(players=players, seed=seed)
    choose = random.Random(seed).choice

    def text(s: Any) -> str:
        if without and any(e.kind in without for e in s.events):
            s = s.replace(events=tuple(e for e in s.events if e.kind not in without))
        json_text: str = s.to_json()
        return json_text

    h.update(text(state).encode())
    steps = 0
    while not state.is_over and steps < MAX_ACTIONS:
        legal = state.legal_actions()
        action = choose(legal)
        state = state.apply(action)
        steps += 1
        h.update(f"{steps} {action}".encode())
        h.update(json.dumps([_event(e) for e in state.events if e.kind not in without]).encode())
        if steps % FULL_EVERY == 0:
            h.update(text(state).encode())
    h.update(text(state).encode())
    h.update(" ".join(map(str, state.legal_actions())).encode())
    return h.hexdigest()[:24]


def digests_of(
    names: tuple[str, ...], options: dict[str, Any], without: frozenset[str] = frozenset()
) -> dict[str, str] | str:
    """``{"<players>/<seed>": digest}`` for a rule set, or ``"refused"``."""
    try:
        rules = Ruleset.from_names(list(names), options=options)
    except RulesetError:
        return "refused"
    found: dict[str, str] = {}
    for players in PLAYERS:
        for seed in SEEDS:
            try:
                found[f"{players}/{seed}"] = game_digest(rules, players, seed, without)
            except RulesetError:
                found[f"{players}/{seed}"] = "refused"
    return found


def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DIGESTS.read_text(encoding="utf-8"))
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the digests in digests.json")
    parser.add_argument("--only", default="", help="only rule sets whose key contains this text")
    parser.add_argument(
        "--without", default="", metavar="KINDS", help="leave the events of these kinds (comma-separated) out"
    )
    parser.add_argument("--against", metavar="FILE", help="compare with this digests file (not digests.json)")
    args = parser.parse_args(argv)
    without = frozenset(k for k in args.without.split(",") if k)
    if args.write and without:
        parser.error("--write records the full digests: drop --without")
    found = {
        key: digests_of(names, options, without) for key, names, options in rule_sets() if args.only in key
    }
    if args.write:
        DIGESTS.write_text(json.dumps(found, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {len(found)} rule sets to {DIGESTS}")
        return 0
    expected = json.loads(Path(args.against).read_text(encoding="utf-8")) if args.against else load()
    moved = [key for key, value in found.items() if expected.get(key) != value]
    for key in moved:
        print(f"moved: {key}")
    print(f"{len(found) - len(moved)} of {len(found)} rule sets play as recorded")
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main())
