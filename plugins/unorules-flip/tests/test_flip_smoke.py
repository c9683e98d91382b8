"""The testing toolkit's invariants over FLIP!: seeded random games with every invariant checked
(the cheap ones after every action, all of them every few actions, the rounds and the replay),
with the default options and option values drawn for the edition; the conformance runner's
combination check (random games and the hypothesis state machine); the leak test, which follows
what each seat may see of two-faced cards (and catches a view that shows a seat its own backs);
JSON and pickles of two-faced cards; every other installed plugin refused with its reason."""

from __future__ import annotations

import random

import pytest

from unorules import Card, GameState, Ruleset, RulesetError, installed_plugins, state
from unorules.testing import InvariantViolation
from unorules.testing.combinations import supported_players
from unorules.testing.conformance import (
    CI_BUDGET,
    Combination,
    option_variant,
    play_checked_game,
    run_combination,
)
from unorules.testing.embedding import check_pickle_round_trip, check_view_secrets, random_states

PLAYERS = (2, 3, 4, 6, 10)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("seed", [1, 2])
def test_random_games_keep_every_invariant(players: int, seed: int) -> None:
    rules = Ruleset.from_names(["flip"])
    violation, played = play_checked_game(rules, players, seed, max_actions=700, eager=0.6, deep_every=9)
    assert violation is None, violation.format()
    assert played > 0


@pytest.mark.parametrize("seed", range(8))
def test_random_games_with_drawn_options_keep_every_invariant(seed: int) -> None:
    options = option_variant(Combination(("flip",)), seed)
    rules = Ruleset.from_names(["flip"], options=options)
    players = PLAYERS[seed % len(PLAYERS)]
    violation, _ = play_checked_game(rules, players, seed, max_actions=600, eager=0.5, deep_every=11)
    assert violation is None, violation.format()


def test_the_conformance_check_of_flip_alone() -> None:
    result = run_combination(Combination(("flip",)), CI_BUDGET)
    assert not result.violations, "\n".join(v.format() for v in result.violations)
    assert "flip" in result.summary


def sides_seen(states: list[GameState]) -> set[int]:
    return {s.side for s in states}


@pytest.mark.parametrize("own_backs", ["hidden", "shown"])
def test_r_flip_view_no_view_depends_on_what_its_seat_may_not_know(own_backs: str) -> None:
    rules = Ruleset.from_names(["flip"], options={"flip_own_backs": own_backs})
    compared = 0
    seen: list[GameState] = []
    for players in (2, 4):
        for i, st in enumerate(random_states(rules, players, f"backs/{players}", steps=250, eager=0.8)):
            compared += check_view_secrets(st, random.Random(i))
            seen.append(st)
            if i % 50 == 0:
                check_pickle_round_trip(st)
    assert compared > 1000
    assert sides_seen(seen) == {0, 1}


def test_r_flip_view_the_leak_test_catches_a_view_that_shows_a_seat_its_own_backs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A view that forgot to turn the seat's own hand into faces would tell it its backs.
    original = state._show_faces

    def leaky(st: GameState, seat: int | None, fields: dict[str, object]) -> None:
        hand = fields["hand"]
        original(st, seat, fields)
        fields["hand"] = hand  # the physical cards: both faces

    monkeypatch.setattr(state, "_show_faces", leaky)
    states = list(random_states(Ruleset.from_names(["flip"]), 3, "leak", steps=40))

    def check_all() -> None:
        for i, st in enumerate(states):
            check_view_secrets(st, random.Random(i))

    with pytest.raises(InvariantViolation, match="hand"):
        check_all()


def test_r_flip_view_json_and_pickles_keep_two_faced_cards_and_the_side() -> None:
    rules = Ruleset.from_names(["flip"])
    for st in random_states(rules, 3, "json", steps=300, eager=0.9):
        if st.side == 1:
            break
    assert st.side == 1
    text = st.to_json()
    assert '"side": 1' in text
    assert "/" in text  # cards are written with both faces in a state
    assert GameState.from_json(text) == st
    data = st.view(0).to_data()  # and as faces in a view
    shown = [data["top_card"], *data["hand"], *data["discard_pile"], *data["legal_actions"]]
    shown += [c for cards in data["backs"].values() for c in cards]
    shown += [c for e in data["events"] for c in e["cards"]]
    assert not any("/" in text for text in shown)
    assert Card.parse("R1/P3").faces == (Card.parse("R1"), Card.parse("P3"))


OTHERS = sorted(n for n in installed_plugins() if n != "flip")


@pytest.mark.parametrize("other", OTHERS)
def test_combined_with_another_plugin_it_builds_or_is_refused_with_the_reason(other: str) -> None:
    # A plugin that makes sense with this edition combines with it and keeps every invariant;
    # one that does not is refused, the reason naming the plugin or the kind of deck.
    try:
        rules = Ruleset.from_names(["flip", other])
    except RulesetError as exc:
        message = str(exc)
    else:
        players = supported_players(rules, (3, 4))[0]
        violation, _ = play_checked_game(rules, players, 1, max_actions=400, eager=0.5, deep_every=10)
        assert violation is None, violation.format()
        return
    assert any(word in message for word in (other, "two-faced", "FLIP!", "classic")), message
