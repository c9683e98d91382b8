"""The narrator's sentence cache is bounded (issue 48, point 8): a rule set telling many games
keeps at most ``_TOLD_LIMIT`` sentences, the recent ones."""

from __future__ import annotations

from unorules import Ruleset
from unorules.bots import make_bot, next_action
from unorules.narrate import _TOLD_LIMIT, Narrator


def test_the_sentences_kept_stay_within_the_limit_and_the_recent_ones_stay() -> None:
    ruleset = Ruleset.from_names(["classic"], options={"target_score": 500})
    narrators = [Narrator(ruleset, me, names=[f"P{n}" for n in range(3)]) for me in (None, 0, 1, 2)]
    told = narrators[0]._told
    most = 0
    last = None
    for seed in range(40):
        state = ruleset.new_game(players=3, seed=seed)
        bots = [make_bot("random", seed=f"{seed}:{s}") for s in range(3)]
        for _ in range(200):
            if state.is_over:
                break
            action = next_action(state, bots)
            state = state.apply(action)
            for narrator in narrators:
                for event in state.events:
                    narrator.event(event)
                last = narrator.action(action)
            most = max(most, len(told))
    assert most > _TOLD_LIMIT // 2  # the limit was met
    assert most <= _TOLD_LIMIT
    assert last in told.values()  # the latest sentence is kept
