"""Schema of ``data/table/table.toml``, checked at start-up by ``games.core.schema``."""

from __future__ import annotations

from typing import Annotated

import msgspec

from games.core.schema import Sourced

Colour = Annotated[str, msgspec.Meta(pattern=r"^#[0-9a-fA-F]{6}$")]


class TableFile(Sourced, kw_only=True):
    palette: Annotated[list[Colour], msgspec.Meta(min_length=2)]
    max_pieces: Annotated[int, msgspec.Meta(ge=1, le=1000)]
    max_side_name: Annotated[int, msgspec.Meta(ge=1, le=80)]
    max_label: Annotated[int, msgspec.Meta(ge=1, le=40)]
    max_sides: Annotated[int, msgspec.Meta(ge=2, le=12)]
    max_board: Annotated[int, msgspec.Meta(ge=2, le=26)]  # squares are lettered a-z


SCHEMAS = {"table/table.toml": TableFile}
