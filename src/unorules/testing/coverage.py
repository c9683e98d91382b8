"""What a plugin declares, and how much of it a run of games reached.

A plugin tells the rule set what it brings: cards (the kinds it deals), verbs,
phases, event kinds, extras and options (see :class:`~unorules.Plugin`). Each
of these is a :class:`Declaration`; a :class:`Coverage` counts, game by game,
how often each was reached and used:

==========  =================================  ====================================
category    reached                            used
==========  =================================  ====================================
``card``    a play of the kind was legal       a card of the kind was played (and
                                               how its effect ended is counted)
``verb``    an action with the verb was legal  an action with the verb was taken
``phase``   a state was in the phase           an action was taken in the phase
``event``   an event of the kind happened      (the same)
``extra``   a state held the key               a state holding it was deep-checked
                                               (JSON and pickle round trips)
``option``  a game was played with the value   (the same)
``while``   a play of the card was legal in a  the card was played in the situation
            situation of :data:`SITUATIONS`
            (a seat has left)
==========  =================================  ====================================

A declaration is *covered* when it was used at least the target number of
times (``card``, ``verb``, ``while``) or reached that often (the others; an
option value once).

**Situations.** Some rules act only once a game mode has changed the table:
a card that passes hands must skip the seats that left (``elimination``,
``last-loses``). A situation (:data:`SITUATIONS`) is such a change, read from
the state; the first time a state of the run is in one, each card of the
plugins under test gets a ``while`` declaration ("PW while a seat has left")
to cover like any other. The game modes of the rule set (``watch``) are
watched too: until each event kind they declare has happened, the run is not
:meth:`~Coverage.settled` (a pair with ``elimination`` plays on until a seat
was eliminated, so that its situation comes), though nothing is reported as
uncovered for them. A situation a game ended in (a seat eliminated at a
table of two) makes the ``while`` declarations too: the combination can
make it, and games that play on in it are what covers them.

The conformance runner keeps one coverage per combination of plugins, steers
its games toward what is not covered yet (:mod:`unorules.testing.explore`),
stops a combination once everything is covered and the run is settled (or
its time is up), and prints the report (:meth:`Coverage.format`).
"""

from __future__ import annotations

import types
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import attrs

from unorules.actions import Action
from unorules.cards import Card, kind_info
from unorules.markers import PROJECT
from unorules.plugin import Option
from unorules.ruleset import Ruleset
from unorules.state import GameState
from unorules.testing.combinations import option_values

__all__ = [
    "CATEGORIES",
    "SITUATIONS",
    "Coverage",
    "Declaration",
    "Tally",
    "card_kinds",
    "declarations",
    "effect_ending",
    "ends_a_hand",
    "option_declarations",
    "situations",
]

CATEGORIES = ("card", "while", "verb", "phase", "event", "extra", "option")
"""The kinds of declaration, in the order reports list them."""

_USED = frozenset({"card", "verb", "while"})
"""Categories covered by being used (a card played), not only reached (listed)."""


def _a_seat_has_left(state: GameState) -> bool:
    return bool(state.left)


SITUATIONS: tuple[tuple[str, Callable[[GameState], bool]], ...] = (("a seat has left", _a_seat_has_left),)
"""The situations a game mode makes, each a name and a test of a state: a
seat has left the game or the round (``state.left``: ``elimination``,
``last-loses``, no-mercy's Mercy rule). (A partner going out under
``partners`` ends the round, so it makes no situation to play on in.)"""


def situations(state: GameState) -> tuple[str, ...]:
    """The names of the :data:`SITUATIONS` ``state`` is in (none once the game is over)."""
    if state.is_over:
        return ()
    return tuple(name for name, holds in SITUATIONS if holds(state))


@attrs.frozen(order=True)
class Declaration:
    """One thing a plugin declares: its ``category`` (:data:`CATEGORIES`), its
    ``name`` (a card kind, a verb, a phase or event kind, an extras key, or
    ``option=value``) and the ``owner`` plugin's name."""

    category: str
    name: str
    owner: str

    def __str__(self) -> str:
        return f"{self.category} {self.name}"


@attrs.define
class Tally:
    """How often a declaration was reached and used (see the module docstring);
    ``held``: how often a card of the kind was in the hand of the seat to move;
    ``endings``: how a card's effect ended (``"play, next seat"``, ``"went
    out"``...)."""

    reached: int = 0
    used: int = 0
    held: int = 0
    endings: Counter[str] = attrs.Factory(Counter)
    legal_in: Counter[str] = attrs.Factory(Counter)
    """A card's: how often a play of it was legal, by phase."""
    played_in: Counter[str] = attrs.Factory(Counter)
    """A card's: how often it was played, by the phase it was played in."""
    ended_in: Counter[str] = attrs.Factory(Counter)
    """A card's: how often playing it ended a round or emptied its player's
    hand, by the phase it was played in."""

    @property
    def ended(self) -> int:
        """How often playing the card ended a round or emptied its player's hand."""
        return sum(self.ended_in.values())

    def count(self, category: str) -> int:
        """The number that counts toward covering a declaration of ``category``."""
        return self.used if category in _USED else self.reached


def _module_of(plugin: Any) -> str:
    return plugin.__name__ if isinstance(plugin, types.ModuleType) else type(plugin).__module__


def _is_plain_impl(method: Any) -> bool:
    options = getattr(method, f"{PROJECT}_impl", None)
    return isinstance(options, dict) and not options.get("wrapper") and not options.get("hookwrapper")


def card_kinds(plugin: Any, ruleset: Ruleset) -> tuple[str, ...]:
    """The kinds of the cards ``plugin`` brings into ``ruleset``'s deck: those
    its own ``deck_cards`` implementation returns (a plain one; a wrapper is
    not asked), and those the plugin's module registered with
    :func:`~unorules.register_kind` that the deck holds."""
    in_deck = {card.kind for card in ruleset.deck}
    own: set[str] = set()
    method = getattr(plugin, "deck_cards", None)
    if method is not None and _is_plain_impl(method):
        try:
            own = {card.kind for card in method(ruleset)}
        except Exception:  # a plugin whose hook cannot be asked alone: its registered kinds still count
            own = set()
    module = _module_of(plugin)
    for kind in in_deck - own:
        if kind_info(kind).module == module:
            own.add(kind)
    return tuple(sorted(own & in_deck))


def option_declarations(plugin: Any) -> list[tuple[Option, list[Any]]]:
    """Each option of ``plugin`` with the values worth testing
    (:func:`~unorules.testing.strategies.option_values`)."""
    return [(option, option_values(plugin, option)) for option in getattr(plugin, "options", ())]


def option_name(option: Option, value: Any) -> str:
    """``name=value`` as the command line writes it."""
    try:
        text = option.to_text(value)
    except Exception:
        text = repr(value)
    return f"{option.name}={text or repr(value)}"


def declarations(plugin: Any, ruleset: Ruleset) -> list[Declaration]:
    """Every declaration of ``plugin`` in ``ruleset`` but its option values
    (the cards its deck holds, its verbs, phases, event kinds and extras)."""
    owner = str(plugin.name)
    found = [Declaration("card", kind, owner) for kind in card_kinds(plugin, ruleset)]
    found += [Declaration("verb", verb, owner) for verb in sorted(getattr(plugin, "verbs", {}) or {})]
    found += [Declaration("phase", spec.name, owner) for spec in getattr(plugin, "phases", ())]
    found += [Declaration("event", spec.kind, owner) for spec in getattr(plugin, "events", ())]
    found += [Declaration("extra", spec.key, owner) for spec in getattr(plugin, "extras", ())]
    return found


def ends_a_hand(before: GameState, action: Action, after: GameState) -> bool:
    """Whether the play ``action`` ended a round (or the game) or left its
    player's hand empty (a seat that goes out and leaves, under last-loses)."""
    return (
        len(after.rounds) != len(before.rounds)
        or after.is_over
        or (action.seat is not None and not after.hands[action.seat])
    )


def effect_ending(before: GameState, action: Action, after: GameState) -> str:
    """How the effect of the card of ``action`` (a play) ended: ``"went
    out"``, ``"round ended"``, ``"game over"``, or the phase the game is in
    and whose turn it is (``"play, next seat"``, ``"penalty, next seat"``,
    ``"play, same seat"``, ``"play, skips"``)."""
    if len(after.rounds) != len(before.rounds) or after.is_over:
        last = after.rounds[-1] if after.rounds else None
        if last is not None and last.winner == action.seat and not last.hands[action.seat]:
            return "went out"
        return "game over" if after.is_over else "round ended"
    seat = action.seat
    current = after.current_player
    if current == seat:
        turn = "same seat"
    elif current == before.next_seat(seat):
        turn = "next seat"
    elif current == before.next_seat(seat, 2):
        turn = "skips"
    else:
        turn = "other seat"
    return f"{after.phase.name}, {turn}"


class Coverage:
    """The declarations of the plugins under test, counted as games are played.

    ``plugins`` are the plugin objects whose declarations are counted (the
    plugin under test, and in a pair the other plugin's cards: give those in
    ``cards_of``); without ``options`` their option values are not
    declarations to cover (the runner covers them with classic alone; it
    still steers each game's options by :meth:`option_count`). Rule sets are added as games are dealt
    (:meth:`start_game`), so declarations that depend on options (a card an
    option puts into the deck) appear once a game has them, and the ``while``
    declarations of the plugins' cards once a state is in a situation
    (:data:`SITUATIONS`). ``watch``: the game modes of the rule set whose
    event kinds must each have happened before the run is
    :meth:`settled` (not declarations: nothing is reported as uncovered
    for them).
    """

    def __init__(
        self,
        plugins: Sequence[Any],
        cards_of: Sequence[Any] = (),
        *,
        options: bool = True,
        to_the_end: bool = False,
        watch: Sequence[Any] = (),
    ) -> None:
        self.plugins = tuple(plugins)
        self.watched: dict[str, Counter[str]] = {
            str(p.name): Counter({spec.kind: 0 for spec in getattr(p, "events", ())})
            for p in watch
            if p not in self.plugins and bool(getattr(p, "events", ()))
        }
        """How often each event kind of each watched game mode happened, by mode."""
        self._watched_kinds = {kind: mode for mode, kinds in self.watched.items() for kind in kinds}
        self._mode_options = [
            (option, values, str(p.name))
            for p in watch
            if str(p.name) in self.watched
            for option, values in option_declarations(p)
        ]
        self._own_kinds: dict[str, str] = {}
        """The card kinds of the plugins under test (not ``cards_of``), with their owner."""
        self._situated: dict[tuple[str, str], Declaration] = {}
        self._dealt_kinds: dict[int, tuple[Ruleset, tuple[str, ...]]] = {}
        """The plugins' card kinds each rule set's deck holds, by the rule set's id."""
        """The ``while`` declarations, by card kind and situation."""
        self.to_the_end = to_the_end
        """Whether a card of the plugins under test is covered only once playing
        it has also ended a round or emptied a hand (:meth:`card_failures`)."""
        self.cards_of = tuple(p for p in cards_of if p not in self.plugins)
        self.tallies: dict[Declaration, Tally] = {}
        self.games = 0
        self.actions = 0
        self.deep_checks = 0
        self.starters: Counter[str] = Counter()
        """How often each counted card kind was dealt as the starter (deals steer by it)."""
        self._kinds: dict[str, Declaration] = {}
        self._verbs: dict[str, Declaration] = {}
        self._phases: dict[str, Declaration] = {}
        self._events: dict[str, Declaration] = {}
        self._extras: dict[str, Declaration] = {}
        self._options: list[tuple[Option, list[Any], str]] = []
        self._option_games: Counter[tuple[str, str]] = Counter()
        self._seen_rulesets: set[int] = set()
        for plugin in self.plugins:
            owner = str(plugin.name)
            for option, values in option_declarations(plugin):
                self._options.append((option, values, owner))
                if options:
                    for value in values:
                        self._tally(Declaration("option", option_name(option, value), owner))

    def _tally(self, declaration: Declaration) -> Tally:
        tally = self.tallies.get(declaration)
        if tally is None:
            tally = self.tallies[declaration] = Tally()
        return tally

    # -- what is declared ------------------------------------------------------------------

    def add_ruleset(self, ruleset: Ruleset) -> None:
        """Count the declarations the plugins under test make in ``ruleset``."""
        if id(ruleset) in self._seen_rulesets:
            return
        self._seen_rulesets.add(id(ruleset))
        present = {id(p) for p in ruleset.plugins}
        for plugin in self.plugins:
            if id(plugin) not in present:
                continue
            for declaration in declarations(plugin, ruleset):
                self._tally(declaration)
                if declaration.category == "card":
                    self._own_kinds.setdefault(declaration.name, declaration.owner)
                index = {
                    "card": self._kinds,
                    "verb": self._verbs,
                    "phase": self._phases,
                    "event": self._events,
                    "extra": self._extras,
                }[declaration.category]
                index.setdefault(declaration.name, declaration)
        for plugin in self.cards_of:
            if id(plugin) in present:
                for kind in card_kinds(plugin, ruleset):
                    declaration = Declaration("card", kind, str(plugin.name))
                    self._tally(declaration)
                    self._kinds.setdefault(kind, declaration)

    @property
    def focus_kinds(self) -> frozenset[str]:
        """The card kinds counted (the plugins' own cards)."""
        return frozenset(self._kinds)

    def option_choices(self) -> list[tuple[Option, list[Any], str]]:
        """Each option of the plugins under test, its values and its owner."""
        return list(self._options)

    def mode_option_choices(self) -> list[tuple[Option, list[Any], str]]:
        """Each option of the watched game modes, its values and its owner (the
        runner goes through them while the run is not :meth:`settled`)."""
        return list(self._mode_options)

    def option_count(self, option: Option, value: Any, owner: str) -> int:
        """How many games were played with ``option`` at ``value`` (counted
        whether or not option values are declarations to cover)."""
        return self._option_games[owner, option_name(option, value)]

    # -- counting -------------------------------------------------------------------------

    def start_game(self, ruleset: Ruleset, options: dict[str, Any], state: GameState) -> None:
        """A game of ``ruleset`` was dealt (``state``), its options as given."""
        self.add_ruleset(ruleset)
        self.games += 1
        values = ruleset.options
        for option, _, owner in self._options + self._mode_options:
            if option.name in values:
                name = option_name(option, values[option.name])
                self._option_games[owner, name] += 1
                declared = self.tallies.get(Declaration("option", name, owner))
                if declared is not None:
                    declared.reached += 1
        self.observe_state(state)

    def observe_state(self, state: GameState) -> None:
        """Count what ``state`` reaches: its phase, its events, its extras, the
        plays and verbs it lists, the cards the seat to move holds."""
        phase = self._phases.get(state.phase.name)
        if phase is not None:
            self.tallies[phase].reached += 1
        if self._events or self._watched_kinds:
            for event in state.events:
                declared = self._events.get(event.kind)
                if declared is not None:
                    self.tallies[declared].reached += 1
                mode = self._watched_kinds.get(event.kind)
                if mode is not None:
                    self.watched[mode][event.kind] += 1
        if self._extras and state.extras:
            for key, _ in state.extras:
                declared = self._extras.get(key)
                if declared is not None:
                    self.tallies[declared].reached += 1
        if self._own_kinds and state.is_over:
            # A situation the game ended in (a seat eliminated, the game over for two
            # seats) still shows the combination makes it: the cards are to be played in it.
            for name, holds in SITUATIONS:
                if holds(state):
                    for kind in self._dealt(state):
                        self._situation_declaration(kind, name)
        if state.is_over:
            return
        kinds = self._kinds
        if kinds:
            for kind in {card.kind for card in state.hands[state.current_player]}:
                declared = kinds.get(kind)
                if declared is not None:
                    self.tallies[declared].held += 1
        listed_kinds: set[str] = set()
        listed_verbs: set[str] = set()
        for action in state.legal_actions():
            listed_verbs.add(action.verb)
            if action.verb == "play" and action.card is not None:
                listed_kinds.add(action.card.kind)
        for kind in listed_kinds:
            declared = kinds.get(kind)
            if declared is not None:
                tally = self.tallies[declared]
                tally.reached += 1
                tally.legal_in[state.phase.name] += 1
        if self._own_kinds:
            for name in situations(state):
                for kind in self._dealt(state):
                    situated = self._situation_declaration(kind, name)
                    if kind in listed_kinds:
                        self.tallies[situated].reached += 1
        for verb in listed_verbs:
            declared = self._verbs.get(verb)
            if declared is not None:
                self.tallies[declared].reached += 1

    def observe(self, before: GameState, action: Action, after: GameState) -> None:
        """Count the step ``after = before.apply(action)`` and the state it reached."""
        self.actions += 1
        phase = self._phases.get(before.phase.name)
        if phase is not None:
            self.tallies[phase].used += 1
        verb = self._verbs.get(action.verb)
        if verb is not None:
            self.tallies[verb].used += 1
        card = action.card
        if action.verb == "play" and card is not None:
            declared = self._kinds.get(card.kind)
            if declared is not None:
                tally = self.tallies[declared]
                tally.used += 1
                tally.endings[effect_ending(before, action, after)] += 1
                played_in = before.phase.name
                tally.played_in[played_in] += 1
                if ends_a_hand(before, action, after):
                    tally.ended_in[played_in] += 1
                if card.kind in self._own_kinds:
                    for name in situations(before):
                        self.tallies[self._situation_declaration(card.kind, name)].used += 1
        self.observe_state(after)

    def _dealt(self, state: GameState) -> tuple[str, ...]:
        """The card kinds of the plugins under test that ``state``'s deck holds."""
        rules = state.ruleset
        known = self._dealt_kinds.get(id(rules))
        if known is not None and known[0] is rules:
            return known[1]
        deck = {card.kind for card in rules.deck}
        found = tuple(k for k in self._own_kinds if k in deck)
        self._dealt_kinds[id(rules)] = (rules, found)  # the rule set kept, so its id is not reused
        return found

    def _situation_declaration(self, kind: str, situation: str) -> Declaration:
        """The ``while`` declaration of the card ``kind`` in ``situation``, made the first time."""
        found = self._situated.get((kind, situation))
        if found is None:
            found = self._situated[kind, situation] = Declaration(
                "while", f"{kind} while {situation}", self._own_kinds[kind]
            )
            self._tally(found)
        return found

    def situation_declarations(self, state: GameState, card: Card | None) -> list[Declaration]:
        """The ``while`` declarations a play of ``card`` in ``state`` would count toward."""
        if card is None or card.kind not in self._own_kinds:
            return []
        return [self._situation_declaration(card.kind, name) for name in situations(state)]

    def unsituated(self, state: GameState, minimum: int) -> list[str]:
        """The card kinds of the plugins under test not yet played ``minimum`` times in
        a situation ``state`` is in (what a probe should play there)."""
        found = []
        for name in situations(state):
            for kind in self._dealt(state):
                if self.tallies[self._situation_declaration(kind, name)].used < max(minimum, 1):
                    found.append(kind)
        return sorted(set(found))

    def unsituated_kinds(self, minimum: int) -> frozenset[str]:
        """The card kinds with a ``while`` declaration not yet covered ``minimum``
        times (games should deal them, and reach the situation)."""
        return frozenset(
            kind for (kind, _), d in self._situated.items() if self.tallies[d].used < max(minimum, 1)
        )

    def settled(self) -> bool:
        """Whether every event kind of every watched game mode has happened."""
        return all(all(kinds.values()) for kinds in self.watched.values())

    def unshown(self) -> list[str]:
        """The watched game modes' event kinds that never happened, as ``mode: kind``."""
        watched = self.watched.items()
        return [f"{mode}: {kind}" for mode, kinds in watched for kind, n in kinds.items() if not n]

    def deep_checked(self, state: GameState) -> None:
        """``state`` went through the deep checks (JSON and pickle round trips):
        its extras count as round-tripped."""
        self.deep_checks += 1
        if self._extras and state.extras:
            for key, _ in state.extras:
                declared = self._extras.get(key)
                if declared is not None:
                    self.tallies[declared].used += 1

    def merge(self, other: Coverage) -> None:
        """Add ``other``'s counts to these (the same plugins, another run)."""
        for declaration, tally in other.tallies.items():
            mine = self._tally(declaration)
            mine.reached += tally.reached
            mine.used += tally.used
            mine.held += tally.held
            mine.endings.update(tally.endings)
            mine.legal_in.update(tally.legal_in)
            mine.played_in.update(tally.played_in)
            mine.ended_in.update(tally.ended_in)
        self._option_games.update(other._option_games)
        for mode, kinds in other.watched.items():
            self.watched.setdefault(mode, Counter()).update(kinds)
        self.games += other.games
        self.actions += other.actions
        self.deep_checks += other.deep_checks

    # -- what is left to cover ----------------------------------------------------------------

    def target(self, declaration: Declaration, minimum: int) -> int:
        """The count that covers ``declaration`` at ``minimum`` (an option value: one game)."""
        return min(minimum, 1) if declaration.category == "option" else minimum

    def missing(self, minimum: int) -> list[Declaration]:
        """The declarations not yet covered ``minimum`` times (with
        ``to_the_end``, a card whose play never ended a round counts as not
        covered), in report order."""
        return [d for d in self.sorted() if not self._covered(d, minimum)]

    def _covered(self, declaration: Declaration, minimum: int) -> bool:
        tally = self.tallies[declaration]
        if tally.count(declaration.category) < self.target(declaration, minimum):
            return False
        return not (self.to_the_end and declaration.category == "card" and minimum > 0 and not tally.ended)

    def card_failures(self) -> list[tuple[Declaration, str]]:
        """The cards of the plugins under test (not the other plugins' cards
        counted beside them) that were never legal, never played, or whose
        play never ended a round or emptied its player's hand, each with the
        reason in words: the explorer keeps the plugin's cards for last, so a
        card that cannot be someone's last card is a rule that cannot be
        finished (a wild spent at once never tests going out on it)."""
        owners = {str(p.name) for p in self.plugins}
        found: list[tuple[Declaration, str]] = []
        for declaration in self.sorted():
            if declaration.category != "card" or declaration.owner not in owners:
                continue
            tally = self.tallies[declaration]
            if not tally.reached:
                held = f"held {tally.held} times by the seat to move" if tally.held else "never held"
                found.append((declaration, f"never legal to play in {self.games} games ({held})"))
            elif not tally.used:
                found.append(
                    (declaration, f"legal {tally.reached} times ({_phases(tally.legal_in)}), never played")
                )
            elif not tally.ended:
                found.append(
                    (
                        declaration,
                        f"played {tally.used} times ({_phases(tally.played_in)}), never as the last card: "
                        "no play of it ended a round or emptied its player's hand",
                    )
                )
        return found

    def never_reached(self) -> list[Declaration]:
        """The declarations never reached (a card never playable, a phase never entered...)."""
        return [d for d in self.sorted() if not self.tallies[d].reached]

    def covered(self, minimum: int) -> bool:
        """Whether every declaration is covered ``minimum`` times."""
        return not self.missing(minimum)

    def sorted(self) -> list[Declaration]:
        """The declarations, by owner, then category (:data:`CATEGORIES`), then name."""
        order = {c: i for i, c in enumerate(CATEGORIES)}
        return sorted(self.tallies, key=lambda d: (d.owner, order[d.category], d.name))

    def novelty(self, declaration: Declaration | None) -> float:
        """How much reaching ``declaration`` again is worth to the steering: 1
        for a declaration never counted, less the more it was."""
        if declaration is None:
            return 0.0
        tally = self.tallies[declaration]
        return 1.0 / (1 + tally.count(declaration.category))

    def card_declaration(self, card: Card | None) -> Declaration | None:
        """The declaration of ``card``'s kind, if it is one of the counted kinds."""
        return None if card is None else self._kinds.get(card.kind)

    def verb_declaration(self, verb: str) -> Declaration | None:
        """The declaration of ``verb``, if the plugins under test declare it."""
        return self._verbs.get(verb)

    def phase_declaration(self, name: str) -> Declaration | None:
        """The declaration of the phase ``name``, if the plugins under test declare it."""
        return self._phases.get(name)

    def event_declaration(self, kind: str) -> Declaration | None:
        """The declaration of the event kind ``kind``, if the plugins under test declare it."""
        return self._events.get(kind)

    def extra_declaration(self, key: str) -> Declaration | None:
        """The declaration of the extras key ``key``, if the plugins under test declare it."""
        return self._extras.get(key)

    def ending_novelty(self, card: Card, ending: str) -> float:
        """How new the ending ``ending`` of a play of ``card`` would be (0 if not counted)."""
        declared = self._kinds.get(card.kind)
        if declared is None:
            return 0.0
        return 1.0 / (1 + self.tallies[declared].endings[ending])

    # -- the report ---------------------------------------------------------------------------

    def summary(self, minimum: int) -> str:
        """One line: how many declarations are covered, and what is not."""
        total = len(self.tallies)
        if minimum < 1:
            unreached = self.never_reached()
            head = f"{total - len(unreached)} of {total} declarations reached (no target)"
            return head if not unreached else head + "; not: " + ", ".join(_short_list(map(str, unreached)))
        missing = self.missing(minimum)
        head = f"{total - len(missing)} of {total} declarations covered"
        head += f" {minimum} time{'s' * (minimum != 1)}" if minimum > 1 else ""
        if not missing:
            return head
        return head + "; not: " + ", ".join(_short_list(str(d) for d in missing))

    def lines(self, minimum: int) -> Iterator[str]:
        """The report, one declaration a line (see :meth:`format`)."""
        owner = None
        for declaration in self.sorted():
            if declaration.owner != owner:
                owner = declaration.owner
                yield f"{owner}:"
            tally = self.tallies[declaration]
            category = declaration.category
            if category == "card":
                text = f"played {tally.used}, playable {tally.reached}, held {tally.held}"
                if tally.endings:
                    ends = ", ".join(f"{e} {n}" for e, n in tally.endings.most_common(4))
                    text += f"; ended: {ends}"
                if tally.used:
                    last = _phases(tally.ended_in) if tally.ended else "never"
                    text += f"; last card: {last}"
            elif category == "while":
                text = f"played {tally.used}, playable {tally.reached}"
            elif category == "verb":
                text = f"used {tally.used}, legal {tally.reached}"
            elif category == "phase":
                text = f"reached {tally.reached}, acted in {tally.used}"
            elif category == "extra":
                text = f"held {tally.reached}, round-tripped {tally.used}"
            elif category == "option":
                text = f"games {tally.reached}"
            else:
                text = f"happened {tally.reached}"
            short = not self._covered(declaration, minimum)
            mark = "  NOT REACHED" if not tally.reached else ("  under target" if short else "")
            yield f"  {category:6} {declaration.name:28} {text}{mark}"

    def format(self, minimum: int = 1) -> str:
        """The coverage report: each declaration with its counts, the ones
        never reached marked ``NOT REACHED`` and those under ``minimum`` marked
        ``under target``, then :meth:`summary`."""
        return "\n".join([*self.lines(minimum), self.summary(minimum)])


def _phases(counts: Counter[str]) -> str:
    """``"play 3, penalty 1"``: counts by phase."""
    return ", ".join(f"{phase} {n}" for phase, n in counts.most_common()) or "none"


def _short_list(items: Iterable[str], most: int = 8) -> list[str]:
    listed = list(items)
    if len(listed) <= most:
        return listed
    return [*listed[:most], f"and {len(listed) - most} more"]
