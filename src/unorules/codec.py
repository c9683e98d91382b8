"""The JSON form of states and views (``unorules.state/1``, ``unorules.view/1``).

``GameState.to_json``/``from_json`` and ``SeatView.to_json``/``from_json``
are these functions, lent to the state layer when the package is imported
(see ``unorules.state.lend``). Reading checks sizes before it builds
anything and names the bad part of the text in a
:class:`~unorules.StateFormatError`; a state read is validated
(:func:`~unorules.validate_state`).
"""

from __future__ import annotations

import json
from typing import Any

from unorules.actions import Action
from unorules.cards import Card, Color
from unorules.discovery import installed_plugins
from unorules.errors import NotationError, StateFormatError, excerpt
from unorules.ruleset import Ruleset
from unorules.state import Event, GameState, Outcome, Phase, RoundResult, SeatView, Value, lend
from unorules.validate import MAX_ROUNDS, max_events, validate_state

__all__ = [
    "FORMAT",
    "VIEW_FORMAT",
    "decode_value",
    "encode_value",
    "state_from_data",
    "state_from_json",
    "state_to_data",
    "state_to_json",
    "view_from_data",
    "view_from_json",
    "view_to_data",
    "view_to_json",
]

FORMAT = "unorules.state/1"


def encode_value(value: Value) -> Any:
    """Encode a plugin value (see :data:`Value`) for JSON."""
    if value is None or isinstance(value, bool | int | str):
        return value
    if isinstance(value, Card):
        return {"card": str(value)}
    if isinstance(value, Color):
        return {"color": value.value}
    if isinstance(value, Action):
        return {"action": str(value)}
    if isinstance(value, tuple):
        return {"tuple": [encode_value(v) for v in value]}
    raise TypeError(
        f"cannot store {value!r} in a game state: use None, bool, int, str, Card, Color, Action or tuples"
    )


def decode_value(data: Any, where: str, depth: int = 0) -> Value:
    """Decode ``data``, a value written by :func:`encode_value`; ``where`` names it
    in a :class:`~unorules.StateFormatError` (``"extras[2]"``) and ``depth`` is how
    deep in a value it lies (tuples nest at most so deep)."""
    if data is None or isinstance(data, bool | int | str):
        return data
    if isinstance(data, dict) and len(data) == 1:
        ((tag, inner),) = data.items()
        if tag == "card":
            return _card(inner, where)
        if tag == "color":
            return _color(inner, where)
        if tag == "action":
            return _action(inner, where)
        if tag == "tuple" and isinstance(inner, list):
            if depth >= _MAX_VALUE_DEPTH:
                raise StateFormatError(f"{where}: tuples nested more than {_MAX_VALUE_DEPTH} deep", where)
            return tuple(decode_value(v, f"{where}[{i}]", depth + 1) for i, v in enumerate(inner))
    raise StateFormatError(f"{where}: cannot decode {excerpt(data)}", where)


_MAX_VALUE_DEPTH = 16


def _card(text: Any, where: str) -> Card:
    if not isinstance(text, str):
        raise StateFormatError(f"{where}: expected card text, got {excerpt(text)}", where)
    try:
        return Card.parse(text)
    except NotationError as exc:
        raise StateFormatError(f"{where}: {exc}", where) from None


def _cards(items: Any, where: str, limit: int = 1000) -> tuple[Card, ...]:
    _list(items, where, limit, "cards")
    return tuple(_card(c, f"{where}[{i}]") for i, c in enumerate(items))


def _color(text: Any, where: str) -> Color:
    try:
        return Color.parse(text) if isinstance(text, str) else Color(text)
    except (NotationError, ValueError):
        raise StateFormatError(f"{where}: bad colour {excerpt(text)}", where) from None


def _action(text: Any, where: str) -> Action:
    if not isinstance(text, str):
        raise StateFormatError(f"{where}: expected action text, got {excerpt(text)}", where)
    try:
        return Action.parse(text)
    except NotationError as exc:
        raise StateFormatError(f"{where}: {exc}", where) from None


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateFormatError(f"{where}: expected an integer, got {excerpt(value)}", where)
    return value


def _ints(items: Any, where: str, limit: int = 16) -> tuple[int, ...]:
    _list(items, where, limit, "integers")
    return tuple(_int(v, f"{where}[{i}]") for i, v in enumerate(items))


def _list(items: Any, where: str, limit: int, what: str) -> list[Any]:
    """``items`` if it is a list of at most ``limit`` items (sizes are checked
    before anything is built from them)."""
    if not isinstance(items, list):
        raise StateFormatError(f"{where}: expected a list of {what}, got {excerpt(items)}", where)
    if len(items) > limit:
        raise StateFormatError(f"{where}: {len(items)} {what}, more than {limit}", where)
    return items


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise StateFormatError(f"{where}: expected text, got {excerpt(value)}", where)
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise StateFormatError(f"{where}: expected true or false, got {excerpt(value)}", where)
    return value


def _opt(value: Any, convert: Any, where: str) -> Any:
    return None if value is None else convert(value, where)


def _phase_data(p: Phase) -> dict[str, Any]:
    return {
        "name": p.name,
        "count": p.count,
        "card": None if p.card is None else str(p.card),
        "seat": p.seat,
        "color": None if p.color is None else p.color.value,
        "data": [encode_value(v) for v in p.data],
        "secret": p.secret,
    }


def _phase_from(data: Any, where: str, limit: int = 1000) -> Phase:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise StateFormatError(f"{where}: expected an object with a 'name'", where)
    items = _list(data.get("data", []), f"{where}.data", limit, "values")
    return Phase(
        data["name"],
        _int(data.get("count", 0), f"{where}.count"),
        _opt(data.get("card"), _card, f"{where}.card"),
        _opt(data.get("seat"), _int, f"{where}.seat"),
        _opt(data.get("color"), _color, f"{where}.color"),
        tuple(decode_value(v, f"{where}.data[{i}]") for i, v in enumerate(items)),
        _bool(data.get("secret", False), f"{where}.secret"),
    )


def _event_data(e: Event) -> dict[str, Any]:
    return {
        "kind": e.kind,
        "seat": e.seat,
        "cards": [str(c) for c in e.cards],
        "rule": e.rule,
        "detail": e.detail,
        "private": e.private,
        "target": e.target,
        "count": e.count,
        "color": None if e.color is None else e.color.value,
        "data": {k: encode_value(v) for k, v in e.data},
    }


def _event_from(data: Any, where: str, limit: int = 1000) -> Event:
    # The typed fields (target, count, color, data) may be missing: JSON written
    # before they existed reads as events without them.
    if not isinstance(data, dict) or not isinstance(data.get("kind"), str):
        raise StateFormatError(f"{where}: expected an object with a 'kind'", where)
    values = data.get("data", {})
    if not isinstance(values, dict):
        raise StateFormatError(f"{where}.data: expected an object, got {excerpt(values)}", f"{where}.data")
    if len(values) > limit:
        raise StateFormatError(f"{where}.data: {len(values)} values, more than {limit}", f"{where}.data")
    return Event(
        data["kind"],
        _opt(data.get("seat"), _int, f"{where}.seat"),
        _cards(data.get("cards", []), f"{where}.cards", limit),
        _opt(data.get("rule"), _text, f"{where}.rule"),
        _text(data.get("detail", ""), f"{where}.detail"),
        _bool(data.get("private", False), f"{where}.private"),
        _opt(data.get("target"), _int, f"{where}.target"),
        _opt(data.get("count"), _int, f"{where}.count"),
        _opt(data.get("color"), _color, f"{where}.color"),
        tuple((str(k), decode_value(v, f"{where}.data.{excerpt(k, 40)[1:-1]}")) for k, v in values.items()),
    )


def _round_data(r: RoundResult) -> dict[str, Any]:
    return {
        "number": r.number,
        "winner": r.winner,
        "reason": r.reason,
        "points": list(r.points),
        "hands": [[str(c) for c in h] for h in r.hands],
    }


def _rounds_from(rounds: Any, where: str = "rounds") -> tuple[RoundResult, ...]:
    if not isinstance(rounds, list):
        raise StateFormatError(f"{where}: expected a list")
    try:
        return tuple(
            RoundResult(
                _int(r["number"], f"{where}[{i}].number"),
                _opt(r["winner"], _int, f"{where}[{i}].winner"),
                str(r["reason"]),
                _ints(r["points"], f"{where}[{i}].points"),
                tuple(_cards(h, f"{where}[{i}].hands[{j}]") for j, h in enumerate(r["hands"])),
            )
            for i, r in enumerate(rounds)
        )
    except (KeyError, TypeError) as exc:
        raise StateFormatError(f"{where}: missing or bad field {exc}") from None


def _outcome_data(o: Outcome | None) -> dict[str, Any] | None:
    return None if o is None else {"winners": list(o.winners), "reason": o.reason}


def _outcome_from(data: Any, where: str = "outcome") -> Outcome | None:
    if data is None:
        return None
    try:
        return Outcome(_ints(data["winners"], f"{where}.winners"), str(data["reason"]))
    except (KeyError, TypeError) as exc:
        raise StateFormatError(f"{where}: missing or bad field {exc}") from None


VIEW_FORMAT = "unorules.view/1"


def view_to_data(v: SeatView) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for name, value in v.options.items():
        try:
            options[name] = encode_value(value)
        except TypeError:  # a third-party option value that is no plugin value: its text
            options[name] = str(value)
    return {
        "format": VIEW_FORMAT,
        "seat": v.seat,
        "players": v.players,
        "ruleset": v.ruleset,
        "options": options,
        "hand": [str(c) for c in v.hand],
        "hand_sizes": list(v.hand_sizes),
        "visible_hands": {str(s): [str(c) for c in hand] for s, hand in sorted(v.visible_hands.items())},
        "discard_pile": [str(c) for c in v.discard_pile],
        "draw_pile_size": v.draw_pile_size,
        "top_card": str(v.top_card),
        "color": None if v.color is None else v.color.value,
        "direction": v.direction,
        "current_player": v.current_player,
        "dealer": v.dealer,
        "phase": _phase_data(v.phase),
        "scores": list(v.scores),
        "uno_declared": list(v.uno_declared),
        "uno_exposed": list(v.uno_exposed),
        "left": list(v.left),
        "rounds": [_round_data(r) for r in v.rounds],
        "outcome": _outcome_data(v.outcome),
        "is_over": v.is_over,
        "legal_actions": [str(a) for a in v.legal_actions],
        "last_action": None if v.last_action is None else str(v.last_action),
        "events": [_event_data(e) for e in v.events],
        "extras": {k: encode_value(x) for k, x in v.extras},
    }


def _view_from_data(data: Any) -> SeatView:
    if not isinstance(data, dict):
        raise StateFormatError("view JSON must be an object")
    if data.get("format") != VIEW_FORMAT:
        raise StateFormatError(f"format: expected {VIEW_FORMAT!r}, got {data.get('format')!r}")

    def need(key: str) -> Any:
        if key not in data:
            raise StateFormatError(f"{key}: missing")
        return data[key]

    shown = need("visible_hands")
    if not isinstance(shown, dict):
        raise StateFormatError("visible_hands: expected an object")
    visible: dict[int, tuple[Card, ...]] = {}
    for key, hand in shown.items():
        try:
            seat = int(key)
        except ValueError:
            raise StateFormatError(f"visible_hands: {key!r} is not a seat number") from None
        visible[seat] = _cards(hand, f"visible_hands.{key}")
    options = need("options")
    extras = need("extras")
    events = need("events")
    legal = need("legal_actions")
    ruleset = need("ruleset")
    for key, value, kind in (
        ("options", options, dict),
        ("extras", extras, dict),
        ("events", events, list),
        ("legal_actions", legal, list),
        ("ruleset", ruleset, str),
    ):
        if not isinstance(value, kind):
            raise StateFormatError(f"{key}: expected {'text' if kind is str else kind.__name__}")
    is_over = need("is_over")
    if not isinstance(is_over, bool):
        raise StateFormatError(f"is_over: expected true or false, got {is_over!r}")
    return SeatView(
        seat=_opt(need("seat"), _int, "seat"),
        hand=_cards(need("hand"), "hand"),
        hand_sizes=_ints(need("hand_sizes"), "hand_sizes"),
        visible_hands=visible,
        discard_pile=_cards(need("discard_pile"), "discard_pile"),
        draw_pile_size=_int(need("draw_pile_size"), "draw_pile_size"),
        top_card=_card(need("top_card"), "top_card"),
        color=_opt(need("color"), _color, "color"),
        direction=_int(need("direction"), "direction"),
        current_player=_int(need("current_player"), "current_player"),
        dealer=_int(need("dealer"), "dealer"),
        phase=_phase_from(need("phase"), "phase"),
        scores=_ints(need("scores"), "scores"),
        uno_exposed=_ints(need("uno_exposed"), "uno_exposed"),
        left=_ints(need("left"), "left"),
        rounds=_rounds_from(need("rounds")),
        legal_actions=tuple(_action(a, f"legal_actions[{i}]") for i, a in enumerate(legal)),
        last_action=_opt(need("last_action"), _action, "last_action"),
        events=tuple(_event_from(e, f"events[{i}]") for i, e in enumerate(events)),
        is_over=is_over,
        players=_int(need("players"), "players"),
        ruleset=ruleset,
        options={str(k): decode_value(v, f"options.{k}") for k, v in options.items()},
        uno_declared=_ints(need("uno_declared"), "uno_declared"),
        outcome=_outcome_from(need("outcome")),
        extras=tuple(sorted((str(k), decode_value(v, f"extras.{k}")) for k, v in extras.items())),
    )


def state_to_data(s: GameState) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "ruleset": s.ruleset.spec(),
        "hands": [[str(c) for c in h] for h in s.hands],
        "draw_pile": [str(c) for c in s.draw_pile],
        "discard_pile": [str(c) for c in s.discard_pile],
        "color": None if s.color is None else s.color.value,
        "direction": s.direction,
        "current_player": s.current_player,
        "phase": _phase_data(s.phase),
        "dealer": s.dealer,
        "scores": list(s.scores),
        "uno_declared": list(s.uno_declared),
        "uno_exposed": list(s.uno_exposed),
        "stalled": s.stalled,
        "left": list(s.left),
        "rounds": [_round_data(r) for r in s.rounds],
        "outcome": _outcome_data(s.outcome),
        "rng": f"{s.rng:016x}",
        "extras": {k: encode_value(v) for k, v in s.extras},
        "last_action": None if s.last_action is None else str(s.last_action),
        "events": [_event_data(e) for e in s.events],
    }


def state_from_data(data: Any, ruleset: Ruleset | None) -> GameState:
    if not isinstance(data, dict):
        raise StateFormatError("state JSON must be an object")
    if data.get("format") != FORMAT:
        raise StateFormatError(f"format: expected {FORMAT!r}, got {excerpt(data.get('format'))}", "format")

    def need(key: str) -> Any:
        if key not in data:
            raise StateFormatError(f"{key}: missing", key)
        return data[key]

    if ruleset is None:
        ruleset = Ruleset.from_spec(need("ruleset"))
    # Lists are measured before anything is built from them: no list of a state
    # is longer than the deck (cards), the seats (seat numbers) or the size limits.
    deck = len(ruleset.deck)
    hands = need("hands")
    if not isinstance(hands, list) or not 2 <= len(hands) <= 10:
        raise StateFormatError("hands: expected a list of 2 to 10 hands", "hands")
    players = len(hands)
    rng_text = need("rng")
    if not isinstance(rng_text, str) or not 1 <= len(rng_text) <= 16:
        raise StateFormatError(f"rng: expected 1 to 16 hexadecimal digits, got {excerpt(rng_text)}", "rng")
    try:
        rng = int(rng_text, 16)
    except ValueError:
        raise StateFormatError(f"rng: expected hexadecimal text, got {excerpt(rng_text)}", "rng") from None
    rounds = _list(need("rounds"), "rounds", MAX_ROUNDS, "rounds")
    outcome = need("outcome")
    extras = need("extras")
    if not isinstance(extras, dict):
        raise StateFormatError("extras: expected an object", "extras")
    if len(extras) > 1000:
        raise StateFormatError(f"extras: {len(extras)} keys, more than 1000", "extras")
    direction = _int(need("direction"), "direction")
    if direction not in (1, -1):
        raise StateFormatError(f"direction: expected 1 or -1, got {direction}", "direction")
    current = _int(need("current_player"), "current_player")
    if not 0 <= current < players:
        raise StateFormatError(f"current_player: {current} is not a seat of {players}", "current_player")
    discard = _cards(need("discard_pile"), "discard_pile", deck)
    if not discard:
        raise StateFormatError("discard_pile: must hold at least the top card", "discard_pile")
    round_results = []
    for i, r in enumerate(rounds):
        where = f"rounds[{i}]"
        if not isinstance(r, dict) or not {"number", "winner", "reason", "points", "hands"} <= r.keys():
            raise StateFormatError(
                f"{where}: expected an object with number, winner, reason, points, hands", where
            )
        round_hands = _list(r["hands"], f"{where}.hands", players, "hands")
        round_results.append(
            RoundResult(
                _int(r["number"], f"{where}.number"),
                _opt(r["winner"], _int, f"{where}.winner"),
                _text(r["reason"], f"{where}.reason"),
                _ints(r["points"], f"{where}.points", players),
                tuple(_cards(h, f"{where}.hands[{j}]", deck) for j, h in enumerate(round_hands)),
            )
        )
    if outcome is None:
        out = None
    elif isinstance(outcome, dict) and {"winners", "reason"} <= outcome.keys():
        out = Outcome(
            _ints(outcome["winners"], "outcome.winners", players), _text(outcome["reason"], "outcome.reason")
        )
    else:
        raise StateFormatError("outcome: expected null or an object with winners and reason", "outcome")
    scores = _ints(need("scores"), "scores", players)
    if len(scores) != players:
        raise StateFormatError(f"scores: expected {players} scores, got {len(scores)}", "scores")
    last = need("last_action")
    limit = max_events(ruleset)
    events = _list(need("events"), "events", limit, "events")
    return GameState(
        ruleset=ruleset,
        hands=tuple(_cards(h, f"hands[{i}]", deck) for i, h in enumerate(hands)),
        draw_pile=_cards(need("draw_pile"), "draw_pile", deck),
        discard_pile=discard,
        color=_opt(need("color"), _color, "color"),
        direction=direction,
        current_player=current,
        phase=_phase_from(need("phase"), "phase", deck),
        dealer=_int(need("dealer"), "dealer"),
        scores=scores,
        uno_declared=_ints(need("uno_declared"), "uno_declared", players),
        uno_exposed=_ints(need("uno_exposed"), "uno_exposed", players),
        stalled=_int(need("stalled"), "stalled"),
        left=_ints(need("left"), "left", players),
        rounds=tuple(round_results),
        outcome=out,
        rng=rng,
        extras=tuple(
            sorted((str(k), decode_value(v, f"extras.{excerpt(k, 40)[1:-1]}")) for k, v in extras.items())
        ),
        last_action=_opt(last, _action, "last_action"),
        events=tuple(_event_from(e, f"events[{i}]", deck) for i, e in enumerate(events)),
    )


def state_to_json(state: GameState, indent: int | None = None) -> str:
    """``state`` as JSON text (``GameState.to_json``)."""
    return json.dumps(state_to_data(state), indent=indent)


def state_from_json(text: str | bytes, ruleset: Ruleset | None = None) -> GameState:
    """The state of :func:`state_to_json` text, validated (``GameState.from_json``)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StateFormatError(f"state JSON is not valid JSON: {exc}") from None
    except RecursionError:
        raise StateFormatError("state JSON is nested too deeply") from None
    except (ValueError, TypeError) as exc:  # e.g. an integer over Python's digit limit
        raise StateFormatError(f"state JSON cannot be read: {exc}") from None
    state = state_from_data(data, ruleset)
    validate_state(state)
    return state


def view_to_json(view: SeatView, indent: int | None = None) -> str:
    """``view`` as JSON text (``SeatView.to_json``)."""
    return json.dumps(view_to_data(view), indent=indent)


def view_from_data(data: Any) -> SeatView:
    """The view of :func:`view_to_data` output (``SeatView.from_data``)."""
    installed_plugins()  # plugins register the card kinds and verbs a view may hold
    return _view_from_data(data)


def view_from_json(text: str) -> SeatView:
    """The view of :func:`view_to_json` text (``SeatView.from_json``)."""
    try:
        data = json.loads(text)
    except (TypeError, json.JSONDecodeError) as exc:
        raise StateFormatError(f"view JSON is not valid JSON: {exc}") from None
    except RecursionError:
        raise StateFormatError("view JSON is nested too deeply") from None
    return view_from_data(data)


lend("state_to_json", state_to_json)
lend("state_from_json", state_from_json)
lend("view_to_data", view_to_data)
lend("view_to_json", view_to_json)
lend("view_from_data", view_from_data)
lend("view_from_json", view_from_json)
lend("ruleset_from_spec_text", Ruleset.from_spec_text)
