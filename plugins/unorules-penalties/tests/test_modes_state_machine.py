"""The testing toolkit's state machine over the game modes, alone and with the house rules.

Each machine deals games (sometimes from arranged decks), takes legal and
arbitrary actions, plays rounds out and checks every invariant of
:mod:`unorules.testing.invariants` after every step.
"""

from __future__ import annotations

from hypothesis import settings

from unorules import installed_plugins
from unorules.testing.machine import machine_for

_HOUSE = [n for n in ("stacking", "seven-o", "jump-in", "swap-hands") if n in installed_plugins()]

PartnersTableMachine = machine_for(
    ["classic", *_HOUSE, "partners", "penalties"],
    name="PartnersTableMachine",
    options={"enforcement": "table", "target_score": 200},
)
EliminationTableMachine = machine_for(
    ["classic", *_HOUSE, "elimination", "penalties"],
    name="EliminationTableMachine",
    options={"enforcement": "table", "elimination_limit": 120},
    players=(2, 3, 5),
)
EliminationMachine = machine_for(
    ["classic", "elimination"], name="EliminationMachine", options={"elimination_limit": 100}, players=(3, 4)
)
PenaltiesStrictMachine = machine_for(["classic", "penalties"], name="PenaltiesStrictMachine", players=(2, 4))

_BOUNDED = settings(max_examples=10, stateful_step_count=25, deadline=None)

TestPartnersTableMachine = PartnersTableMachine.TestCase
TestPartnersTableMachine.settings = _BOUNDED
TestEliminationTableMachine = EliminationTableMachine.TestCase
TestEliminationTableMachine.settings = _BOUNDED
TestEliminationMachine = EliminationMachine.TestCase
TestEliminationMachine.settings = _BOUNDED
TestPenaltiesStrictMachine = PenaltiesStrictMachine.TestCase
TestPenaltiesStrictMachine.settings = _BOUNDED
