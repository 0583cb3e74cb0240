"""What an order would do, drawn only for the player who asks (``/order ... preview:true``).

The order runs on a copy of the game with a stream that refuses every draw (``NoDraws``): no
number of the game's real stream is spent or shown ahead of time, so an order that would roll
cannot be previewed. Nothing else of the copy is shown either. The picture is the asker's own view
before the order, with the asker's own pieces that would move drawn again, translucent, where they
would end (and the path there), plus whatever the rule system adds for aiming
(``Ruleset.preview_overlays``: range and arc lines to targets the asker can already see). Messages
the order would post are not shown: one could announce a hidden unit the move would run into, and
a preview must not be a free scouting probe.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from games.core.ruleset import UMPIRE, Ruleset
from games.core.view import Counter, Overlay, View


def moved_pieces(before: View, after: View, sides: frozenset[str] | None) -> list[tuple[Counter, Counter]]:
    """(before, after) of each face-up counter of ``sides`` (None: any) that the order moves or turns."""
    old = {c.id: c for c in before.counters if not c.face_down}
    out = []
    for new in after.counters:
        was = old.get(new.id)
        if was is None or new.face_down or (sides is not None and was.side not in sides):
            continue
        if (was.pos, was.facing) != (new.pos, new.facing):
            out.append((was, new))
    return out


def preview_view(rules: Ruleset[Any, Any], before: Any, after: Any, seat: str, text: str) -> View:
    """The asker's view before the order, with ghosts where their pieces would end."""
    seen_before, seen_after = rules.view(before, seat), rules.view(after, seat)
    own = None if seat == UMPIRE else frozenset(s.side or s.id for s in rules.seats(before) if s.id == seat)
    moved = moved_pieces(seen_before, seen_after, own)
    ghosts = tuple(dataclasses.replace(new, id=f"{new.id}~preview", ghost=True, highlight=False) for _, new in moved)
    paths = tuple(Overlay("path", (was.pos, new.pos), side=new.side) for was, new in moved if was.pos != new.pos)
    marks = tuple(rules.preview_overlays(after, seat, frozenset(new.id for _, new in moved)))
    return dataclasses.replace(
        seen_before,
        counters=seen_before.counters + ghosts,
        overlays=paths + marks,
        title=f"Preview (not ordered): {text}",
    )
