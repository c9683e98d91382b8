"""Property-testing a plugin with hypothesis and the ``unorules.testing`` toolkit.

The plugin under test, "last card shown", is defined here: a seat holding
one card plays it face up, so every other seat sees it (a ``visible_hands``
hook), and the table is shown the card when it comes to be the last one (a
``show`` event from ``after_action``: the toolkit's ``hidden`` invariant lets
a seat see a hand only once an event showed it). Two properties are checked
over games reached by random legal play from random seeds:

* the invariants every rule set must keep (``unorules.testing.check_state``:
  every card accounted for, one seat to move, legal actions accepted and
  everything else refused, JSON round trips, views);
* the rule itself: in every state, each seat sees exactly the hands of the
  other seats holding one card, and no other hand.

Run it directly (``python examples/property_testing.py``) or collect the
``test_*`` functions with pytest. The same strategies work for an installed
plugin: pass ``Ruleset.from_names(["classic", "your-plugin"])``.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from hypothesis import HealthCheck, given, settings

from unorules import Action, Draft, GameState, Plugin, Ruleset, hookimpl
from unorules.testing import check_state
from unorules.testing.strategies import game_states


class LastCardShown(Plugin):
    """A seat down to one card shows it to everyone (house rule H-LAST-SHOWN)."""

    name = "last-card-shown"
    api_version = 2
    requires = ("classic",)
    rules = ("H-LAST-SHOWN",)

    @hookimpl
    def visible_hands(self, state: GameState, seat: int) -> Iterable[int]:
        # H-LAST-SHOWN: every other seat holding exactly one card.
        return [s for s, hand in enumerate(state.hands) if len(hand) == 1 and s != seat]

    @hookimpl
    def after_action(self, draft: Draft, action: Action, before: GameState) -> None:
        # H-LAST-SHOWN: a hand that has just come down to one card is shown to the table.
        for s, hand in enumerate(draft.hands):
            if len(hand) == 1 and hand != before.hands[s]:
                draft.show_hand(s)


RULES = Ruleset.from_names(["classic"], options={"target_score": 100}, plugins=[LastCardShown()])
CHECKS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@CHECKS
@given(game_states(RULES, players=[2, 3, 4], max_actions=150))
def test_invariants_hold(state: GameState) -> None:
    # The plugin is not installed, so the JSON check must not rebuild the rule set by name.
    check_state(state, rebuild_ruleset=False)


@CHECKS
@given(game_states(RULES, players=[2, 3, 4], max_actions=150))
def test_h_last_shown_every_single_card_is_visible(state: GameState) -> None:
    for seat in range(state.players):
        view = state.view(seat)
        expected = {s for s, hand in enumerate(state.hands) if len(hand) == 1} | {seat}
        assert set(view.visible_hands) == expected
        for other in expected:
            assert view.visible_hands[other] == state.hands[other]


def main() -> int:
    test_invariants_hold()
    test_h_last_shown_every_single_card_is_visible()
    print("all properties hold for last-card-shown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
