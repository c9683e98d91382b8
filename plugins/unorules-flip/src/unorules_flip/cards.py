"""The cards of UNO FLIP!: the dark side's colours, the kinds both sides add, the
faces' points and the 112 two-faced cards, light face first (R-FLIP-DECK, R-FLIP-PAIR,
R-FLIP-SCORE). Importing it registers the colours and kinds in the notation."""

from __future__ import annotations

from collections.abc import Mapping

from unorules import COLORS, Card, Color, Rng, register_color, register_kind, seed_state

__all__ = [
    "DARK",
    "DARK_KINDS",
    "DRAWS",
    "FIXED_PAIRING",
    "KINDS",
    "LIGHT",
    "LIGHT_KINDS",
    "MAPPED",
    "POINTS",
    "SIDE_COLORS",
    "SIDE_NAMES",
    "deck",
]

PINK = register_color("P", "pink")
TEAL = register_color("T", "teal")
ORANGE = register_color("O", "orange")
PURPLE = register_color("V", "purple")

LIGHT: tuple[Color, ...] = COLORS
"""The light side's colours: red, yellow, green, blue."""
DARK: tuple[Color, ...] = (PINK, TEAL, ORANGE, PURPLE)
"""The dark side's colours: pink, teal, orange, purple (``P T O V``)."""
SIDE_COLORS: tuple[tuple[Color, ...], tuple[Color, ...]] = (LIGHT, DARK)
"""The colours of each side, by :attr:`GameState.side <unorules.GameState.side>`."""
SIDE_NAMES = ("light", "dark")
MAPPED: Mapping[Color, Color] = {
    **dict(zip(LIGHT, (PINK, ORANGE, TEAL, PURPLE), strict=True)),
    **dict(zip((PINK, ORANGE, TEAL, PURPLE), LIGHT, strict=True)),
}
"""``flip_exposed_wild=keep-mapped``: each colour's counterpart on the other side (R↔P, Y↔O, G↔T, B↔V)."""

KINDS: tuple[tuple[str, str, bool], ...] = (
    ("+1", "Draw One", False),
    ("+5", "Draw Five", False),
    ("F", "Flip", False),
    ("SE", "Skip Everyone", False),
    ("W+2", "Wild Draw Two", True),
    ("W+C", "Wild Draw Colour", True),
)
"""The kinds FLIP! adds to the notation: symbol, name, whether it is a wild."""
for _symbol, _name, _wild in KINDS:
    register_kind(_symbol, _name, wild=_wild)

_NUMBERS = tuple(str(n) for n in range(1, 10))
LIGHT_KINDS = (*_NUMBERS, "+1", "S", "R", "F")
"""The coloured kinds of the light side, in canonical order (two of each a colour)."""
DARK_KINDS = (*_NUMBERS, "+5", "R", "SE", "F")
"""The coloured kinds of the dark side, in canonical order (two of each a colour)."""

POINTS: Mapping[str, int] = {
    "+1": 10,
    "+5": 20,
    "R": 20,
    "S": 20,
    "F": 20,
    "SE": 30,
    "W": 40,
    "W+2": 50,
    "W+C": 60,
}
"""What each symbol face is worth at the end of a round (R-FLIP-SCORE); numbers their value."""

DRAWS: Mapping[str, int] = {"+1": 1, "+5": 5, "W+2": 2}
"""The draw faces that make the next seat draw a number of cards (R-FLIP-D1, R-FLIP-D5, R-FLIP-WD2)."""

FIXED_PAIRING = """
R1:P3 V2 · R2:OR V+5 · R3:P7 W+C · R4:OF V+5 · R5:P2 T5 · R6:O9 PSE · R7:O1 V5
R8:VR T7 · R9:V5 TR · R+1:P3 P4 · RS:O+5 W · RR:V3 T7 · RF:P8 V3
Y1:PSE W · Y2:T1 T8 · Y3:P+5 V1 · Y4:P+5 VF · Y5:V9 T8 · Y6:OSE W+C · Y7:O2 V6
Y8:O2 P1 · Y9:V4 T5 · Y+1:P1 V8 · YS:O3 TF · YR:TF W · YF:O8 P4
G1:O5 OF · G2:T+5 TSE · G3:PF V2 · G4:P8 T9 · G5:O7 T4 · G6:P5 W+C · G7:O6 T2
G8:PR T9 · G9:O+5 PR · G+1:O6 T6 · GS:O9 V4 · GR:O1 P7 · GF:T3 W+C
B1:VSE VSE · B2:O8 P6 · B3:V8 T2 · B4:V1 T+5 · B5:OR P9 · B6:VR TSE · B7:O3 OSE
B8:T4 TR · B9:O5 VF · B+1:P6 T6 · BS:P9 T1 · BR:O4 W · BF:V6 V7
W:P5 PF V7 T3 · W+2:O4 O7 P2 V9
"""
"""The published pairing of faces (R-FLIP-PAIR, ``flip_pairing=fixed``): each
entry is a light face and the dark faces printed behind its copies."""


def _light_faces() -> list[Card]:
    """The 112 light faces in canonical order (R-FLIP-DECK)."""
    faces = [Card.of(c, k) for c in LIGHT for k in LIGHT_KINDS for _ in range(2)]
    return faces + [Card.of(None, "W")] * 4 + [Card.of(None, "W+2")] * 4


def _dark_faces() -> list[Card]:
    """The 112 dark faces in canonical order (R-FLIP-DECK)."""
    faces = [Card.of(c, k) for c in DARK for k in DARK_KINDS for _ in range(2)]
    return faces + [Card.of(None, "W")] * 4 + [Card.of(None, "W+C")] * 4


def deck(pairing: str = "fixed", seed: int = 0) -> list[Card]:
    """The 112 two-faced cards (R-FLIP-DECK), light faces in canonical order,
    paired as the published table says (``"fixed"``) or by a bijection drawn
    from ``seed`` (``"seeded"``: the dark faces shuffled, R-FLIP-PAIR)."""
    light = _light_faces()
    if pairing == "seeded":
        dark = _dark_faces()
        Rng(seed_state(seed)).shuffle(dark)
        return [Card.two_faced(a, b) for a, b in zip(light, dark, strict=True)]
    backs: dict[Card, list[Card]] = {}
    for entry in FIXED_PAIRING.replace("·", "\n").split("\n"):
        if entry.strip():
            face, _, behind = entry.partition(":")
            backs[Card.parse(face.strip())] = [Card.parse(b) for b in behind.split()]
    return [Card.two_faced(face, backs[face].pop(0)) for face in light]
