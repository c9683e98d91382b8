"""What the dispatch declarations removed in plugin API version 2 would save, for instruction counts.

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out \
        .venv/bin/python benchmarks/declarations.py MODE 2000
    callgrind_annotate /tmp/cg.out | head -3     # then again with 0 actions; (a - b) / 2000

Plays run.py's "all plugins" rule set as ``instructions.py`` does, with its
hook callers replaced (after the rule set is built) by callers that ask only
the implementations the old declarations would have named: ``kinds`` as
``play_kinds`` narrowed ``on_play`` (stacking: Draw Two and Wild Draw Four;
seven-o: 7 and 0; swap-hands, shuffle-hands, custom-wilds and blank-cards:
their cards), ``phases`` as ``legal_phases`` narrowed ``legal_actions``
(stacking and custom-wilds in their phases), ``all`` both, ``none``
neither. The replacement callers are plain Python functions, so the saving
they show is a lower bound of what compiled callers would save; the
difference against ``none`` is the figure ``benchmarks/README.md`` records.
"""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from typing import Any

from run import all_plugins_ruleset, shipped_plugins

from unorules import Action, Draft, GameState

OnPlay = Callable[[Draft, Action, GameState], Any]

CLAIMED_KINDS = {
    "stacking": {"+2", "W+4"},
    "seven-o": {"7", "0"},
    "swap-hands": {"SW"},
    "shuffle-hands": {"SH"},
    "custom-wilds": {"CW1", "CW2", "CW3"},
    "blank-cards": {"BLANK"},
}
CLAIMED_PHASES = {
    "stacking": {"penalty", "challenge"},
    "custom-wilds": {"draw-color", "discard", "joke", "keep", "rooster"},
}


def _first(functions: list[OnPlay]) -> OnPlay:
    if len(functions) == 1:
        return functions[0]

    def call(draft: Draft, action: Action, previous: GameState) -> Any:
        for function in functions:
            result = function(draft, action, previous)
            if result is not None:
                return result
        return None

    return call


def main() -> None:
    mode, wanted = sys.argv[1], int(sys.argv[2])
    rules = all_plugins_ruleset(shipped_plugins())[0]
    hooks = rules.hooks
    if mode in ("kinds", "all"):
        impls = rules.hook.on_play.get_hookimpls()[::-1]  # pluggy's calling order
        by_kind = {
            kind: _first(
                [
                    i.function
                    for i in impls
                    if i.plugin_name not in CLAIMED_KINDS or kind in CLAIMED_KINDS[i.plugin_name]
                ]
            )
            for kind in {card.kind for card in rules.deck}
        }

        def on_play(draft: Draft, action: Action, previous: GameState) -> Any:
            assert action.card is not None
            return by_kind[action.card.kind](draft, action, previous)

        object.__setattr__(hooks, "on_play", on_play)
    if mode in ("phases", "all"):
        listers = rules.hook.legal_actions.get_hookimpls()[::-1]
        by_phase: dict[str, list[Callable[[GameState], Any]]] = {}

        def legal_actions(state: GameState) -> list[Action]:
            name = state.phase.name
            found = by_phase.get(name)
            if found is None:
                found = by_phase[name] = [
                    i.function
                    for i in listers
                    if i.plugin_name not in CLAIMED_PHASES or name in CLAIMED_PHASES[i.plugin_name]
                ]
            acts: list[Action] = []
            for function in found:
                listed = function(state)
                if listed:
                    acts += listed
            return acts

        object.__setattr__(hooks, "legal_actions", legal_actions)
    done = seed = 0
    while done < wanted:
        rng = random.Random(seed)
        state = rules.new_game(4, seed=seed)
        while done < wanted:
            legal = state.legal_actions()
            if not legal:
                break
            state = state.apply(rng.choice(legal))
            done += 1
        seed += 1
    print(mode, done, "actions", seed, "games")


if __name__ == "__main__":
    main()
