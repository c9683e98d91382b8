"""Writing a custom variant: a house rule as a plugin object, without packaging it.

The variant, "long skip", makes a Skip skip more than one player (``skip_count``
players, two by default). It shows the shape of every plugin:

* ``name``, ``api_version = 2`` (the plugin API it is written against),
  ``requires`` (it builds on ``classic``), ``options`` checked when the rule
  set is built, ``rules`` (the rule ids it implements: a house rule of our
  own here, ``H-LONG-SKIP``); the first line of its docstring is the summary
  ``unorules rules`` lists;
* an ``on_play`` hook that overrides classic's effect for its card only,
  writing the next state through the draft it is given and returning
  ``True``, and steps aside (returns ``None``) for everything else: the
  plugin is registered after ``classic``, so pluggy asks it first;
* a ``check_game`` hook that refuses a table too small for the rule when a
  game is created, never in the middle of one.

An installed plugin would be found by name through its entry point; here the
object is passed directly with ``Ruleset.from_names([...], plugins=[...])``.
"""

from __future__ import annotations

import sys

import unorules
from unorules import Action, Draft, GameState, Option, Plugin, Ruleset, RulesetError, hookimpl, positive_int
from unorules.bots import HeuristicBot, play_game
from unorules.testing import arrange_deck


class LongSkip(Plugin):
    """A Skip skips ``skip_count`` players instead of one (house rule H-LONG-SKIP)."""

    name = "long-skip"
    api_version = 2
    requires = ("classic",)
    rules = ("H-LONG-SKIP",)
    options = (
        Option("skip_count", 2, "players a Skip skips (H-LONG-SKIP)", positive_int, "a positive integer"),
    )

    @hookimpl
    def check_game(self, ruleset: Ruleset, players: int) -> None:
        # H-LONG-SKIP: skipping everybody else would be a different rule.
        if ruleset.options["skip_count"] >= players - 1:
            raise RulesetError(
                f"long-skip: skip_count={ruleset.options['skip_count']} would skip every other player "
                f"of {players}; use a smaller skip_count or more players"
            )

    @hookimpl
    def on_play(self, draft: Draft, action: Action, previous: GameState) -> bool | None:
        card = action.card
        if card is None or card.kind != "S" or draft.going_out(action.seat) is not None:
            return None  # not ours, or its player's last card (the core's going_out): classic decides
        # H-LONG-SKIP: pass over skip_count players; the next one plays.
        draft.pass_turn(1 + draft.ruleset.options["skip_count"], action.seat)
        return True


def main() -> int:
    rules = Ruleset.from_names(["classic"], plugins=[LongSkip()])
    print("plugins in registration order:", rules.names, "options:", dict(rules.options))

    # A scenario from an arranged deck: seat 0 plays a Skip in a 5-player game.
    hands = [
        "RS R1 R2 R3 R4 R5 R6",
        "G1 G2 G3 G4 G5 G6 G7",
        "B1 B2 B3 B4 B5 B6 B7",
        "Y1 Y2 Y3 Y4 Y5 Y6 Y7",
        "G8 G9 B8 B9 Y8 Y9 R9",
    ]
    deck = arrange_deck(hands, "R7", dealer=4)
    state = rules.new_game(players=5, deck=deck, dealer=4)
    assert state.current_player == 0
    after = state.apply("0: play RS")
    print("after 0: play RS the next player is seat", after.current_player)
    assert after.current_player == 3  # seats 1 and 2 were skipped

    # Options are checked when the rule set is built, tables when a game is created.
    for bad in ({"skip_count": 0}, {"skip_count": "many"}):
        try:
            Ruleset.from_names(["classic"], options=bad, plugins=[LongSkip()])
        except RulesetError as exc:
            print("refused:", exc)
    try:
        rules.new_game(players=3, seed=1)
    except RulesetError as exc:
        print("refused:", exc)

    # And a whole game between bots with the variant.
    final = play_game(rules.new_game(players=4, seed=9), [HeuristicBot(seed=s) for s in range(4)])
    print(f"a 4-player game with long skips: {len(final.rounds)} rounds, seat {final.winner} wins")
    assert isinstance(final.outcome, unorules.Outcome)
    return 0


if __name__ == "__main__":
    sys.exit(main())
