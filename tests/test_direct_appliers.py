"""Direct appliers (``Plugin.direct_appliers``): a plugin's shortcut next to its
``apply_action``, used where that hook asks the plugin alone, or where every
plugin asked before it offers a wrapper (``Plugin.direct_wrappers``) or a
finisher (``Plugin.direct_finishers``).

Classic offers ``play``, ``draw``, ``pass``, ``accept`` and ``challenge`` in
one copy of the state before the action; jump-in and custom-wilds finish them
(in that same copy). They are optimisations, not
rules: state by state they give what the general path (the state handed to
``apply_action``, then each plugin's handler) gives, and a rule set in which
another plugin (or a wrapper) without its share is asked for a verb does not
use them.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Generator, Mapping

import pytest
from unorules_classic import ClassicPlugin

from unorules import Action, GameState, Plugin, Ruleset, RulesetError, hookimpl
from unorules.chain import rest_of_chain
from unorules.plugin import Applier, ApplierWrapper, Finisher
from unorules.state import draw_event
from unorules.testing.replay import play_randomly


def _steps(rules: Ruleset, players: int, seed: int, actions: int) -> list[tuple[GameState, Action]]:
    """Each state of seeded random games (game ``seed``, ``seed + 1``, ...) and
    the action taken in it, ``actions`` of them."""
    steps: list[tuple[GameState, Action]] = []
    while len(steps) < actions:
        states = [rules.new_game(players, seed=seed)]
        _, taken = play_randomly(
            states[0], random.Random(seed), max_actions=actions - len(steps), each=states.append
        )
        steps += zip(states[:-1], taken, strict=True)
        seed += 1
    return steps


_CASES: list[tuple[list[str], dict[str, object]]] = [
    (["classic"], {}),
    (["classic"], {"challenge": False, "drawn_card": "must-play", "challenger": "anyone"}),
    (["classic"], {"challenger": "anyone"}),
    (["classic", "elimination"], {}),
    (["classic", "penalties"], {}),
    (["classic", "partners"], {}),
    (["classic", "seven-o", "stacking"], {}),
    (["classic", "jump-in"], {}),
    (["classic", "jump-in"], {"jump_in_match": "color-or-number"}),
    (["classic", "jump-in", "stacking", "seven-o", "penalties"], {"enforcement": "table"}),
    (
        ["classic", "custom-wilds"],
        {
            "custom_wild_1": "open-hands",
            "custom_wild_2": "draw-until-color",
            "custom_wild_3": "crow-or-draw-4",
        },
    ),
    (
        ["classic", "custom-wilds", "jump-in"],
        {"custom_wild_1": "discard-wilds", "custom_wild_2": "joke", "custom_wild_3": "extra-turn"},
    ),
    (
        [
            "classic",
            "blank-cards",
            "custom-wilds",
            "jump-in",
            "seven-o",
            "shuffle-hands",
            "stacking",
            "swap-hands",
        ],
        {
            "with_swap_hands": True,
            "stack_mix": True,
            "custom_wild_1": "extra-turn",
            "custom_wild_2": "draw-until-color",
            "custom_wild_3": "open-hands",
            "blank_cards": "house-rule house-rule W Y7",
        },
    ),
]


@pytest.mark.parametrize(
    ("names", "options", "players"),
    [
        (names, options, players)
        for names, options in _CASES
        for players in (2, 4)
        if "partners" not in names or players == 4  # partners is played by 4 seats only
    ],
)
def test_direct_appliers_give_the_general_path_state_by_state(
    names: list[str], options: dict[str, object], players: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules = Ruleset.from_names(names, options)
    steps = _steps(rules, players, seed=players, actions=2500)
    fast = [state.replace().apply(action) for state, action in steps]
    with monkeypatch.context() as patch:
        patch.setattr(rules, "_direct_apply", {})
        slow = [state.replace().apply(action) for state, action in steps]
    for (state, action), a, b in zip(steps, fast, slow, strict=True):
        assert a == b, (state, action)
        assert a.events == b.events
        assert a.last_action is b.last_action is action
    # The shortcuts did run (and not only return None).
    if rules.direct_applier("play") is not None:
        verbs = {a.verb for _, a in steps}
        assert {"play", "draw"} <= verbs
    if "jump-in" in names:
        # Jump-ins take the direct play too (jump-in's wrapper sets the jumper's
        # turn up first), except in custom-wilds' own phases.
        jumps = [(s, a) for s, a in steps if a.verb == "play" and a.seat != s.current_player]
        applier = rules.direct_applier("play")
        assert jumps
        assert applier is not None
        direct = [applier(s, a) for s, a in jumps]
        if "custom-wilds" in names:
            assert sum(d is not None for d in direct) > len(jumps) // 2
        else:
            assert None not in direct
        how = {e.detail for d in direct if d is not None for e in d.events if e.kind == "jump-in"}
        expected = {"replaces the action of the card jumped on"}
        if rules.options["jump_in_match"] == "color-or-number":
            expected.add("matches the top card")
        assert how == expected
    if rules.direct_applier("challenge") is not None and rules.options["challenge"]:
        # Challenges of every kind: guilty and innocent, by the victim and (with
        # challenger=anyone) by a third seat, and accepted Wild Draw Fours.
        answers = {
            (a.verb, a.seat == s.current_player, a.verb == "challenge" and a.seat != s.current_player)
            for s, a in steps
            if a.verb in ("challenge", "accept")
        }
        assert {("challenge", True, False), ("accept", True, False)} <= answers
        guilty = {e.value("guilty") for b in fast for e in b.events if e.kind == "challenge"}
        assert guilty == {True, False}
        if rules.options["challenger"] == "anyone" and players > 2:
            assert ("challenge", False, True) in answers


@pytest.mark.parametrize("players", [3, 4])
def test_direct_appliers_skip_the_seats_that_left(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Ruleset.from_names(["classic", "elimination"])
    steps = [(s, a) for s, a in _steps(rules, players, seed=1, actions=12_000) if s.left]
    assert len({a.verb for _, a in steps} & {"play", "draw", "pass"}) == 3
    fast = [state.replace().apply(action) for state, action in steps]
    monkeypatch.setattr(rules, "_direct_apply", {})
    slow = [state.replace().apply(action) for state, action in steps]
    assert fast == slow


def test_classic_alone_uses_its_direct_appliers() -> None:
    rules = Ruleset.from_names(["classic"])
    assert rules.apply_claimants("play") == ("classic",)
    assert {v for v in ("play", "draw", "pass", "accept", "challenge", "uno") if rules.direct_applier(v)} == {
        "play",
        "draw",
        "pass",
        "accept",
        "challenge",
    }


class _Undeclared(Plugin):
    """A third-party plugin that implements apply_action and declares nothing."""

    name = "undeclared"
    requires = ("classic",)

    @hookimpl
    def apply_action(self, state: GameState, action: Action) -> GameState | None:
        return None


class _Wrapper(Plugin):
    """A new-style wrapper around apply_action, declaring the verbs it wraps."""

    name = "wrapper"
    requires = ("classic",)
    apply_verbs = frozenset({"draw"})

    @hookimpl(wrapper=True)
    def apply_action(self, state: GameState, action: Action) -> Generator[None, GameState, GameState]:
        return (yield)


class _WatchesDraws(Plugin):
    """Watches draws (``on_draw``)."""

    name = "watches-draws"
    requires = ("classic",)

    @hookimpl
    def on_draw(self, state: GameState, seat: int, cards: tuple[object, ...], reason: str) -> GameState:
        return state.replace(stalled=state.stalled + 100)


def test_classic_offers_no_direct_draw_where_draws_are_watched(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = Ruleset.from_names(["classic"], plugins=[_WatchesDraws()])
    assert rules.direct_applier("draw") is None
    assert rules.direct_applier("play") is not None
    steps = _steps(rules, 3, seed=1, actions=400)
    fast = [state.replace().apply(action) for state, action in steps]
    monkeypatch.setattr(rules, "_direct_apply", {})
    assert fast == [state.replace().apply(action) for state, action in steps]


def test_direct_appliers_are_dropped_where_others_are_asked() -> None:
    undeclared = Ruleset.from_names(["classic"], plugins=[_Undeclared()])
    assert undeclared.apply_claimants("play") == ("undeclared", "classic")
    assert all(undeclared.direct_applier(v) is None for v in ("play", "draw", "pass"))
    wrapped = Ruleset.from_names(["classic"], plugins=[_Wrapper()])
    assert wrapped.apply_claimants("draw") == ("wrapper", "classic")
    assert wrapped.direct_applier("draw") is None
    assert wrapped.direct_applier("play") is not None
    # Jump-in finishes classic's shortcuts; a plugin without its share before them drops them again.
    jump = Ruleset.from_names(["classic", "jump-in"])
    assert jump.apply_claimants("play") == ("jump-in", "classic")
    assert all(jump.direct_applier(v) is not None for v in ("play", "draw", "pass"))
    assert jump.direct_applier("uno") is None
    both = Ruleset.from_names(["classic", "jump-in"], plugins=[_Undeclared()])
    assert all(both.direct_applier(v) is None for v in ("play", "draw", "pass"))


class _Recorder(Plugin):
    """apply_action asked first for every verb; wraps classic's shortcuts for
    ``play`` and ``draw`` only, recording the order of the calls in ``log``,
    and declines (``None``) when ``decline`` says so."""

    def __init__(
        self, name: str, log: list[str], decline: Callable[[Action], bool] = lambda a: False
    ) -> None:
        self.name = name  # type: ignore[misc]
        self.log = log
        self.decline = decline

    requires = ("classic",)

    @hookimpl(tryfirst=True)
    def apply_action(self, state: GameState, action: Action) -> GameState | None:
        self.log.append(f"{self.name} hook")
        return None

    def direct_wrappers(self, ruleset: Ruleset) -> Mapping[str, ApplierWrapper]:
        def wrap(inner: Applier) -> Applier:
            def apply(state: GameState, action: Action) -> GameState | None:
                self.log.append(f"{self.name} in")
                if self.decline(action):
                    return None
                after = inner(state, action)
                self.log.append(f"{self.name} out")
                return after

            return apply

        return {"play": wrap, "draw": wrap}


def _first(state: GameState, verb: str) -> tuple[GameState, Action]:
    """A state of a seeded game with a legal action of ``verb``, and that action."""
    rng = random.Random(3)
    while True:
        found = [a for a in state.legal_actions() if a.verb == verb and a.seat == state.current_player]
        if found:
            return state, found[0]
        state = state.apply(rng.choice(state.legal_actions()))


def test_direct_wrappers_compose_in_the_hooks_order() -> None:
    log: list[str] = []
    rules = Ruleset.from_names(["classic"], plugins=[_Recorder("a", log), _Recorder("b", log)])
    outer, inner = rules.apply_claimants("draw")[:2]
    state, draw = _first(rules.new_game(3, seed=4), "draw")
    log.clear()
    fast = state.apply(draw)
    # The wrappers run in the hook's calling order, around classic's shortcut; no hook is asked.
    assert log == [f"{outer} in", f"{inner} in", f"{inner} out", f"{outer} out"]
    log.clear()
    slow = rules._apply_caller("draw")(state.replace(last_action=draw, events=()), draw)
    assert log == [f"{outer} hook", f"{inner} hook"]
    assert fast == slow
    assert fast.events == slow.events
    # pass: the recorders offer no wrapper, so the hook path.
    assert rules.direct_applier("pass") is None
    assert rules.direct_applier("draw") is not None


def test_a_wrapper_declining_sends_the_action_through_the_hook() -> None:
    log: list[str] = []
    declining = _Recorder("declining", log, decline=lambda a: a.verb == "play")
    rules = Ruleset.from_names(["classic"], plugins=[declining])
    state, play = _first(rules.new_game(2, seed=5), "play")
    log.clear()
    after = state.apply(play)
    assert log == ["declining in", "declining hook"]
    assert after == rules._apply_caller("play")(state.replace(last_action=play, events=()), play)
    assert after.last_action is play


class _BadWrapper(Plugin):
    name = "bad-wrapper"
    requires = ("classic",)

    @hookimpl(tryfirst=True)
    def apply_action(self, state: GameState, action: Action) -> GameState | None:
        return None

    def direct_wrappers(self, ruleset: Ruleset) -> Mapping[str, Callable[..., object]]:  # type: ignore[override]
        return {"draw": lambda inner: "nonsense", "pass": "not a function"}  # type: ignore[dict-item]


def test_a_wrapper_must_be_callable_and_return_an_applier() -> None:
    with pytest.raises(RulesetError, match="direct wrapper for 'pass' that is not callable"):
        Ruleset.from_names(["classic"], plugins=[_BadWrapper()])


class _OnlyReturnsNonsense(_BadWrapper):
    def direct_wrappers(self, ruleset: Ruleset) -> Mapping[str, Callable[..., object]]:  # type: ignore[override]
        return {"draw": lambda inner: "nonsense"}


def test_a_wrapper_that_returns_no_applier_is_refused() -> None:
    with pytest.raises(RulesetError, match="direct wrapper for 'draw' did not return an applier"):
        Ruleset.from_names(["classic"], plugins=[_OnlyReturnsNonsense()])


def _boom_wrapper(inner: Applier) -> Applier:
    def boom(state: GameState, action: Action) -> GameState | None:
        raise ValueError("wrapped boom")

    return boom


class _BoomWrapper(_BadWrapper):
    name = "boom-wrapper"

    def direct_wrappers(self, ruleset: Ruleset) -> Mapping[str, Callable[..., object]]:  # type: ignore[override]
        return {"draw": _boom_wrapper}


def test_an_exception_in_a_wrapper_names_its_plugin() -> None:
    state = Ruleset.from_names(["classic"], plugins=[_BoomWrapper()]).new_game(2, seed=1)
    state, draw = _first(state, "draw")
    with pytest.raises(ValueError, match="wrapped boom") as info:
        state.apply(draw)
    assert any("plugin 'boom-wrapper' in hook 'apply_action'" in note for note in info.value.__notes__)


def _boom(state: GameState, action: Action) -> GameState | None:
    raise ValueError("boom")


class _Boom(ClassicPlugin):
    """Classic with a direct applier of ``draw`` that raises."""

    def direct_appliers(self, ruleset: Ruleset) -> Mapping[str, Applier]:
        return {"draw": _boom}


class _NotCallable(ClassicPlugin):
    def direct_appliers(self, ruleset: Ruleset) -> Mapping[str, Applier]:
        return {"draw": "nonsense"}  # type: ignore[dict-item]


def test_an_exception_in_a_direct_applier_names_the_plugin() -> None:
    state = Ruleset([_Boom()]).new_game(2, seed=1)
    draw = next(a for a in state.legal_actions() if a.verb == "draw")
    with pytest.raises(ValueError, match="boom") as info:
        state.apply(draw)
    assert any("plugin 'classic' in hook 'apply_action'" in note for note in info.value.__notes__)


def test_a_direct_applier_must_be_callable() -> None:
    with pytest.raises(Exception, match="not callable"):
        Ruleset([_NotCallable()])


def test_draw_event_is_the_event_draw_records() -> None:
    state = Ruleset.from_names(["classic"]).new_game(3, seed=2)
    for count, reason in ((1, "turn"), (2, "penalty"), (4, "penalty")):
        drawn, cards = state.draw(1, count, reason)
        assert drawn.events[-1] == draw_event(1, cards, reason)


_STAMPS = "test.stamps"


def _stamped(extras: tuple[tuple[str, object], ...], name: str) -> tuple[tuple[str, object], ...]:
    """``extras`` with ``name`` added to the stamps, kept sorted as ``with_extra`` keeps them."""
    items = dict(extras)
    items[_STAMPS] = (*items.get(_STAMPS, ()), name)  # type: ignore[misc]
    return tuple(sorted(items.items()))


class _Stamp(Plugin):
    """Asked first for ``play`` and ``draw``: adds its name to the stamps of the
    rest of the chain's result, through the hook or as a finisher (also a
    wrapper that only logs, with ``wrapper``), logging the order of the
    calls; the finisher declines when ``decline`` says so."""

    requires = ("classic",)
    apply_verbs = frozenset({"play", "draw"})

    def __init__(
        self,
        name: str,
        log: list[str],
        decline: Callable[[Action], bool] = lambda a: False,
        wrapper: bool = False,
    ) -> None:
        self.name = name  # type: ignore[misc]
        self.log = log
        self.decline = decline
        self.wrapper = wrapper

    @hookimpl(tryfirst=True)
    def apply_action(self, state: GameState, action: Action) -> GameState | None:
        self.log.append(f"{self.name} hook")
        after: GameState | None = rest_of_chain(state.ruleset, "apply_action", self)(state, action)
        return None if after is None else after.replace(extras=_stamped(after.extras, self.name))

    def direct_finishers(self, ruleset: Ruleset) -> Mapping[str, Finisher]:
        def finish(state: GameState, action: Action, fields: dict[str, object]) -> bool:
            self.log.append(f"{self.name} finish")
            if self.decline(action):
                return False
            assert fields["_legal"] is None
            fields["extras"] = _stamped(fields["extras"], self.name)  # type: ignore[arg-type]
            return True

        return {"play": finish, "draw": finish}

    def direct_wrappers(self, ruleset: Ruleset) -> Mapping[str, ApplierWrapper]:
        if not self.wrapper:
            return {}

        def wrap(inner: Applier) -> Applier:
            def apply(state: GameState, action: Action) -> GameState | None:
                self.log.append(f"{self.name} before")
                return inner(state, action)

            return apply

        return {"play": wrap, "draw": wrap}


class _LogWrapper(_Recorder):
    """A wrapper-only plugin asked for ``play`` and ``draw`` (see :class:`_Recorder`)."""

    apply_verbs = frozenset({"play", "draw"})


def _hook_path(rules: Ruleset, state: GameState, action: Action) -> GameState:
    after: GameState | None = rules._apply_caller(action.verb)(
        state.replace(last_action=action, events=()), action
    )
    assert after is not None
    return after


def _draw_and_play(rules: Ruleset, log: list[str]) -> list[tuple[GameState, Action, GameState]]:
    """A draw and a play of seeded games of ``rules``: the state, the action
    and the state ``apply`` made, each also checked against the hook path."""
    done = []
    for verb, seed in (("draw", 4), ("play", 5)):
        state, action = _first(rules.new_game(3, seed=seed), verb)
        log.clear()
        after = state.apply(action)
        done.append((state, action, after))
        assert after == _hook_path(rules, state, action)
        assert after.events == _hook_path(rules, state, action).events
    log.clear()
    return done


def test_finishers_run_in_the_direct_appliers_copy_in_the_hooks_order() -> None:
    log: list[str] = []
    rules = Ruleset.from_names(["classic"], plugins=[_Stamp("a", log), _Stamp("b", log)])
    outer, inner, last = rules.apply_claimants("draw")
    assert last == "classic"
    assert len(rules.direct_finishers("draw")) == 2
    for state, action, after in _draw_and_play(rules, log):
        # The last plugin before classic first, as its apply_action sees the rest's result first.
        assert after.extra(_STAMPS) == (inner, outer)
        log.clear()
        state.apply(action)
        assert log == [f"{inner} finish", f"{outer} finish"]
    # pass: no finisher offered, and the stamps' apply_action is not asked: classic's own shortcut.
    assert rules.direct_finishers("pass") == ()
    assert rules.direct_applier("pass") is not None


def test_a_finisher_outside_a_wrapper_runs_on_a_copy_around_it() -> None:
    log: list[str] = []
    rules = Ruleset.from_names(["classic"], plugins=[_LogWrapper("inner-wrapper", log), _Stamp("stamp", log)])
    assert rules.apply_claimants("draw") == ("stamp", "inner-wrapper", "classic")
    # Classic takes no finisher in: the one before classic offers only a wrapper.
    assert rules.direct_finishers("draw") == ()
    for state, action, _ in _draw_and_play(rules, log):
        state.apply(action)
        assert log == ["inner-wrapper in", "inner-wrapper out", "stamp finish"]
        log.clear()


def test_a_wrapper_and_a_finisher_of_one_plugin_run_before_and_after_the_rest() -> None:
    log: list[str] = []
    rules = Ruleset.from_names(["classic"], plugins=[_Stamp("both", log, wrapper=True)])
    assert len(rules.direct_finishers("play")) == 1
    for state, action, after in _draw_and_play(rules, log):
        assert after.extra(_STAMPS) == ("both",)
        state.apply(action)
        assert log == ["both before", "both finish"]
        log.clear()


class _TakesNoFinisher(ClassicPlugin):
    """Classic whose direct appliers do not take the finishers in."""

    def direct_appliers(self, ruleset: Ruleset) -> Mapping[str, Applier]:
        own = ClassicPlugin().direct_appliers(Ruleset.from_names(["classic"]))
        return {"play": own["play"], "draw": own["draw"]}


def test_finishers_a_direct_applier_did_not_take_in_run_on_copies() -> None:
    log: list[str] = []
    rules = Ruleset([_TakesNoFinisher(), _Stamp("a", log), _Stamp("b", log)])
    assert rules.direct_applier("draw") is not None
    outer, inner, _ = rules.apply_claimants("draw")
    for state, action, after in _draw_and_play(rules, log):
        assert after.extra(_STAMPS) == (inner, outer)
        state.apply(action)
        assert log == [f"{inner} finish", f"{outer} finish"]
        log.clear()


def test_a_finisher_declining_sends_the_action_through_the_hook() -> None:
    log: list[str] = []
    rules = Ruleset.from_names(
        ["classic"], plugins=[_Stamp("declining", log, decline=lambda a: a.verb == "play")]
    )
    state, play = _first(rules.new_game(2, seed=5), "play")
    log.clear()
    after = state.apply(play)
    assert log == ["declining finish", "declining hook"]
    assert after == _hook_path(rules, state, play)
    assert after.extra(_STAMPS) == ("declining",)
    assert after.last_action is play
    state, draw = _first(rules.new_game(2, seed=5), "draw")
    log.clear()
    state.apply(draw)
    assert log == ["declining finish"]


class _BadFinisher(_BadWrapper):
    name = "bad-finisher"

    def direct_wrappers(self, ruleset: Ruleset) -> Mapping[str, ApplierWrapper]:
        return {}

    def direct_finishers(self, ruleset: Ruleset) -> Mapping[str, Finisher]:
        return {"draw": "not a function"}  # type: ignore[dict-item]


def test_a_finisher_must_be_callable() -> None:
    with pytest.raises(RulesetError, match="direct finisher for 'draw' that is not callable"):
        Ruleset.from_names(["classic"], plugins=[_BadFinisher()])


def _boom_finisher(state: GameState, action: Action, fields: dict[str, object]) -> bool:
    raise ValueError("finished boom")


class _BoomFinisher(_BadFinisher):
    name = "boom-finisher"

    def direct_finishers(self, ruleset: Ruleset) -> Mapping[str, Finisher]:
        return {"draw": _boom_finisher}


@pytest.mark.parametrize("taken", [True, False])
def test_an_exception_in_a_finisher_names_its_plugin(taken: bool) -> None:
    classic = ClassicPlugin() if taken else _TakesNoFinisher()
    state = Ruleset([classic, _BoomFinisher()]).new_game(2, seed=1)
    state, draw = _first(state, "draw")
    with pytest.raises(ValueError, match="finished boom") as info:
        state.apply(draw)
    assert any("plugin 'boom-finisher' in hook 'apply_action'" in note for note in info.value.__notes__)
