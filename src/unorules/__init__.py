"""unorules: the rules of UNO as an immutable core with plugin rule sets.

>>> import unorules
>>> rules = unorules.Ruleset.from_names(["classic"])
>>> state = rules.new_game(players=3, seed=1)
>>> len(state.hands), len(state.hands[0])
(3, 7)
"""

from unorules.actions import Action, register_verb
from unorules.cards import COLORS, Card, Color, parse_cards, register_color, register_kind
from unorules.codec import decode_value, encode_value
from unorules.discovery import PluginLoadWarning, installed_plugins, load_plugin
from unorules.display import CardLook, Display
from unorules.draft import Draft
from unorules.errors import (
    IllegalActionError,
    NotationError,
    RulesetError,
    SeatError,
    StateFormatError,
    UnorulesError,
)
from unorules.markers import active_when, hookimpl, hookspec
from unorules.plugin import (
    PLUGIN_API_VERSION,
    CardEffect,
    EventSpec,
    ExtraSpec,
    Option,
    PhaseSpec,
    Plugin,
    TestHints,
    one_of,
    positive_int,
    switch,
)
from unorules.rng import Rng, Seed, seed_state
from unorules.ruleset import MAX_PLAYERS, MIN_PLAYERS, Ruleset
from unorules.state import PLAY, Event, GameState, GoingOut, Outcome, Phase, Position, RoundResult, SeatView
from unorules.validate import validate_state

__version__ = "0.2.0"

__all__ = [
    "COLORS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "PLAY",
    "PLUGIN_API_VERSION",
    "Action",
    "Card",
    "CardEffect",
    "CardLook",
    "Color",
    "Display",
    "Draft",
    "Event",
    "EventSpec",
    "ExtraSpec",
    "GameState",
    "GoingOut",
    "IllegalActionError",
    "NotationError",
    "Option",
    "Outcome",
    "Phase",
    "PhaseSpec",
    "Plugin",
    "PluginLoadWarning",
    "Position",
    "Rng",
    "RoundResult",
    "Ruleset",
    "RulesetError",
    "SeatError",
    "SeatView",
    "Seed",
    "StateFormatError",
    "TestHints",
    "UnorulesError",
    "active_when",
    "decode_value",
    "encode_value",
    "hookimpl",
    "hookspec",
    "installed_plugins",
    "load_plugin",
    "one_of",
    "parse_cards",
    "positive_int",
    "register_color",
    "register_kind",
    "register_verb",
    "seed_state",
    "switch",
    "validate_state",
]
