"""Rule sets the unorules.rl tests share (a module with a name of its own: ``conftest`` is taken)."""

from __future__ import annotations

HOUSE = ["classic", "stacking", "seven-o", "jump-in", "swap-hands", "custom-wilds", "blank-cards"]
HOUSE_OPTIONS = {"customizable_wilds": 3, "blank_cards": "R0 house-rule"}
