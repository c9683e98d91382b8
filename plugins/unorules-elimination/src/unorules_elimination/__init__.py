"""Elimination tournament (R-ELIM): every seat pays for its own hand; reach the limit and you are out.

Enable it with ``Ruleset.from_names(["classic", "elimination"])`` (or
``["flip", "elimination"]``); it needs a base rule set that deals the cards
and plays them, and names none.

Rules
-----

**R-ELIM** [LT][CZ]
    After every round each seat still in the game is charged the points of
    the cards left in its own hand (R-SCORE values; the seat that went out is
    charged nothing). A seat whose total reaches the limit (option
    ``elimination_limit``, 500 by default) leaves the game: it is added to
    ``state.left``, is dealt no cards, is skipped by the turn order and
    appears in no seat's legal actions. When two seats remain they play head
    to head under the two-player rules (R-2P, already in ``classic``: a
    Reverse acts as a Skip and the player of a Skip, Reverse, Draw Two or Wild
    Draw Four plays again). The last seat left wins:
    ``state.outcome.winners == (survivor,)`` with reason ``"last-standing"``.

**R-HOUSE-ELIM-CARDS** (house rule; [LU] ``elimination``; ``elimination_by=most-cards``)
    After every round the seat holding the most cards leaves the game
    (never the round's winner); the last seat left wins.

Options
-------

``elimination_limit`` (positive integer, default 500)
    The total at which a seat leaves (R-ELIM: "e.g. 500").
``elimination_by`` (``points`` by default; ``most-cards``)
    Who leaves after a round: every seat whose total reached the limit
    (R-ELIM), or the one seat holding the most cards (R-HOUSE-ELIM-CARDS).
    ``elimination_limit`` does not apply to ``most-cards`` and is refused
    with it.

Classic's ``target_score`` and ``scoring`` do not apply: the game ends only
when one seat is left, and scoring is always "charged your own hand". Giving
``target_score`` or ``scoring="winner-takes-all"`` together with this plugin is
refused when the rule set is built (``scoring="low-score"`` is accepted: it is
what this mode does).

Decisions where the rules are silent
------------------------------------

* **The leaving seat's cards.** A seat can only leave at the end of a round,
  when every card goes back into the deck for the next deal; its last hand is
  kept in that round's ``RoundResult.hands``. Nothing is set aside. In the
  game's final state (after the last round) the hands are left as the round
  ended, as in every rule set.
* **Several seats at once.** Every seat at or over the limit leaves after the
  same round. If that would leave nobody, the seat with the lowest total among
  them stays and wins (equal totals: the round's winner if among them, else
  the lowest seat). So the game always ends with exactly one survivor.
* **Dealing** goes on to the next seat still in the game (the core skips
  seats that left), and the round's first player is the next seat still in.
* Scores of seats that left stay in ``state.scores`` (their final totals).
* **Most cards** (``elimination_by=most-cards``): ties for the most cards go
  to the seat whose cards are worth the most points, then to the lowest
  seat; exactly one seat leaves after each round, so with ``n`` seats the
  game lasts ``n - 1`` rounds. A round nobody won (classic's
  ``blocked_round=draw``) still sends the seat with the most cards out. Every
  seat is still charged its own hand, so the scores tell how each fared.

Interactions
------------

``partners`` conflicts (refused when the rule set is built): a pair game cannot
lose a single seat.

``flip``
    Each seat pays for its hand by the faces in play (``Position.hand_value``).
``no-mercy``
    Conflicts (no-mercy declares it): elimination by points is not defined
    with the Mercy rule's knockouts (R-NM-MERCY).

The other plugins already skip seats that have left: ``seven-o`` passes hands
only among seats still in, a 7 or a Swap Hands names only such a seat, only
they may jump in, stack, catch or be caught, and ``penalties`` lets only them
report or be reported.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping, Sequence
from typing import ClassVar

from unorules import (
    Draft,
    Event,
    EventSpec,
    GameState,
    Option,
    Outcome,
    Plugin,
    RoundResult,
    Ruleset,
    RulesetError,
    hookimpl,
    one_of,
    positive_int,
)
from unorules.validate import require

__all__ = ["EliminationPlugin", "plugin"]


def _eliminated_text(event: Event) -> str:
    """How an elimination reads: by points (R-ELIM) or by the most cards (R-HOUSE-ELIM-CARDS)."""
    if event.rule == "R-HOUSE-ELIM-CARDS":
        return "{seat} held the most cards, {data[cards]}, and left the game"
    return "{seat} reached {data[points]} points (the limit is {data[limit]}) and left the game"


class EliminationPlugin(Plugin):
    """Elimination tournament: each seat charged its own hand, out at the limit, last one wins.

    Each seat pays its own hand; a seat at the limit leaves; the last one wins (R-ELIM).
    """

    name = "elimination"
    api_version = 2
    conflicts: ClassVar[Mapping[str, str]] = {
        "partners": "partners play as fixed pairs, but elimination removes single seats"
    }
    rules = ("R-ELIM", "R-HOUSE-ELIM-CARDS")
    events = (
        EventSpec(
            "eliminated",
            "a seat left the game: its total reached the points limit (R-ELIM), or it held the most "
            "cards (R-HOUSE-ELIM-CARDS)",
            (
                ("seat", "the seat eliminated"),
                ("data.points", "its score"),
                ("data.limit", "the limit (R-ELIM)"),
                ("data.cards", "the cards it held, the most (R-HOUSE-ELIM-CARDS)"),
            ),
            _eliminated_text,
        ),
    )
    options = (
        Option(
            "elimination_limit",
            500,
            "the total of own-hand points at which a seat leaves the game (R-ELIM)",
            positive_int,
            "a positive integer",
        ),
        Option(
            "elimination_by",
            "points",
            "who leaves after a round: every seat whose total reaches the points limit (R-ELIM), "
            "or the seat holding the most cards (R-HOUSE-ELIM-CARDS)",
            one_of("points", "most-cards"),
            "points, most-cards",
        ),
    )

    @hookimpl
    def check_ruleset(self, ruleset: Ruleset) -> None:
        given = ruleset.spec()["options"]
        if "target_score" in given:
            raise RulesetError(
                "elimination ends the game when one seat is left, so target_score does not apply; "
                "set the point limit with elimination_limit (R-ELIM)"
            )
        if "elimination_limit" in given and ruleset.options["elimination_by"] == "most-cards":
            raise RulesetError(
                "with elimination_by=most-cards the seat holding the most cards leaves after each "
                "round (R-HOUSE-ELIM-CARDS), so elimination_limit does not apply: leave it out"
            )
        if given.get("scoring") == "winner-takes-all":
            raise RulesetError(
                "elimination charges every seat its own hand (R-ELIM), which contradicts "
                "scoring='winner-takes-all'; leave scoring out"
            )

    @hookimpl
    def check_state(self, state: GameState) -> None:
        # R-ELIM: only seats at the limit leave, and they hold no cards while the game goes on.
        limit = state.ruleset.options["elimination_limit"]
        by_points = state.ruleset.options["elimination_by"] == "points"
        if by_points and state.outcome is None:
            for seat in state.active_seats:
                require(
                    state.scores[seat] < limit,
                    f"scores[{seat}]",
                    f"R-ELIM: seat {seat} has {state.scores[seat]} points, the limit {limit} or more, "
                    "yet is still in the game: it left at the end of the round that took it there",
                )
        for i, seat in enumerate(state.left):
            require(
                state.scores[seat] >= limit or not by_points,
                f"left[{i}]",
                f"R-ELIM: seat {seat} has {state.scores[seat]} points, under the limit {limit}, "
                "so it cannot have left",
            )
            require(
                by_points or len(state.left) <= len(state.rounds),
                "left",
                "R-HOUSE-ELIM-CARDS: one seat leaves after each round",
            )
            if state.outcome is None:
                require(
                    not state.hands[seat],
                    f"hands[{seat}]",
                    "R-ELIM: a seat that has left the game holds no cards",
                )

    @hookimpl
    def score_round(self, draft: Draft, result: RoundResult) -> Sequence[int]:
        state = draft
        # R-ELIM: each seat still in is charged the points of its own hand.
        points = [0] * len(state.hands)
        for seat in state.active_seats:
            points[seat] = state.hand_value(seat)  # by the faces in play (two-faced decks)
        return points

    @hookimpl
    def on_round_end(self, draft: Draft, result: RoundResult) -> None:
        # R-ELIM: a seat that reached the limit leaves the game.
        limit = draft.ruleset.options["elimination_limit"]
        scores = draft.scores
        active = draft.active_seats
        if draft.ruleset.options["elimination_by"] == "most-cards":
            _most_cards_out(draft, result)
            return
        out = [s for s in active if scores[s] >= limit]
        if not out:
            return
        if len(out) == len(active):
            # Nobody would be left: the lowest total stays (ties: the round's
            # winner, then the lowest seat).
            best = min(scores[s] for s in out)
            tied = [s for s in out if scores[s] == best]
            keep = result.winner if result.winner in tied else tied[0]
            out.remove(keep)
        draft.leave(out)
        draft.add_event(
            *(
                Event(
                    "eliminated",
                    s,
                    (),
                    "R-ELIM",
                    f"{scores[s]} points, limit {limit}",
                    data=(("limit", limit), ("points", scores[s])),
                )
                for s in out
            )
        )

    @hookimpl(wrapper=True)
    def game_outcome(self, draft: Draft) -> Generator[None, Outcome | None, Outcome | None]:
        state = draft
        # R-ELIM: the game ends only when one seat is left; the other plugins'
        # verdicts (classic's target score) are overruled.
        yield
        active = state.active_seats
        if len(active) == 1:
            return Outcome(active, "last-standing")
        return None


def _most_cards_out(draft: Draft, result: RoundResult) -> None:
    """R-HOUSE-ELIM-CARDS: the seat holding the most cards leaves (never the round's
    winner); ties: the most points in hand, then the lowest seat."""
    hands = draft.hands
    value = draft.hand_value  # by the faces in play (two-faced decks)
    candidates = [s for s in draft.active_seats if s != result.winner]
    out = max(candidates, key=lambda s: (len(hands[s]), value(s), -s))
    draft.leave((out,))
    draft.add_event(
        Event(
            "eliminated",
            out,
            (),
            "R-HOUSE-ELIM-CARDS",
            f"{len(hands[out])} cards, the most",
            data=(("cards", len(hands[out])), ("points", draft.scores[out])),
        )
    )


plugin = EliminationPlugin()
"""The plugin object the ``unorules`` entry point ``elimination`` names."""
