"""JSON Schemas (draft 2020-12) of the JSON that unorules writes.

* ``"state"``: a whole game state, :meth:`GameState.to_json <unorules.GameState.to_json>`
  (every hand and the draw pile: never send it to a player);
* ``"view"``: what one seat or a spectator may know,
  :meth:`SeatView.to_json <unorules.SeatView.to_json>`;
* ``"record"``: a game record's data,
  :meth:`GameRecord.to_data <unorules.record.GameRecord.to_data>`.

>>> from unorules.schemas import schema
>>> schema("view")["title"]
'unorules seat view'
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

__all__ = ["SCHEMAS", "schema"]

SCHEMAS = ("state", "view", "record")
"""The names of the published schemas."""


def schema(name: str) -> dict[str, Any]:
    """The JSON Schema ``name`` (one of :data:`SCHEMAS`) as a dictionary (a fresh copy)."""
    if name not in SCHEMAS:
        raise ValueError(f"no schema {name!r}; schemas: {', '.join(SCHEMAS)}")
    text = resources.files(__name__).joinpath(f"{name}.schema.json").read_text(encoding="utf-8")
    loaded: dict[str, Any] = json.loads(text)
    return loaded
