"""What a seat sees: the board's counters and marks, the status lines, a side's own fire orders.

Sealed fire orders show only to their own side (and the umpire) until the reveal; renderers and
messages get nothing but this ``View``.
"""

from __future__ import annotations

from games.core.ruleset import UMPIRE
from games.core.view import Counter, Overlay, SideInfo, View
from games.hex_ironclads.data import load_scenario, ship_types
from games.hex_ironclads.orders import fire_order
from games.hex_ironclads.rules.firing_dice_2 import can_fire
from games.hex_ironclads.rules.movement_4 import unmoved
from games.hex_ironclads.rules.turn_sequence_1 import sealed_note, to_act
from games.hex_ironclads.state import BROKEN_OFF, FIGHTING, FIRE, MOVE, SAVED, SUNK, State, game_map

TALLY = ((SUNK, "sunk"), (BROKEN_OFF, "broken off"), (SAVED, "saved"), (FIGHTING, "fighting"))


def view(state: State, seat: str | None) -> View:
    layout = game_map(state).layout
    acting = set(to_act(state))
    afloat = {(s.q, s.r) for s in state.ships if s.on_board}
    counters = []
    for ship in state.ships:
        if ship.status == SAVED or (ship.status == SUNK and (ship.q, ship.r) in afloat):
            continue  # saved ships have left; a wreck never hides a ship now in its hex
        counters.append(
            Counter(
                id=ship.id,
                label=ship.name,
                side=ship.side,
                pos=(float(ship.q), float(ship.r)),
                facing=layout.bearing(ship.facing),
                damage=ship.lost,
                damage_max=ship.flotation,
                damage_text=f"FV {ship.remaining}/{ship.flotation}",
                markers=(ship.status,) if ship.status in (BROKEN_OFF, SUNK) else (),
                highlight=state.phase == MOVE and ship.side in acting and ship.status == FIGHTING and not ship.moved,
            )
        )
    overlays = tuple(
        Overlay("path" if m.kind == "path" else ("ram" if m.kind == "ram" else "fire"), tuple((float(q), float(r)) for q, r in m.cells), m.side, m.text)
        for m in state.marks
    )
    return View(
        board=game_map(state).board(),
        viewer=seat,
        sides=tuple(SideInfo(s.id, s.name, s.colour) for s in state.sides),
        counters=tuple(counters),
        overlays=overlays,
        status=tuple(status(state)),
        headline=1 + len(state.sides),  # the turn and phase, then each side's line
        title=f"{load_scenario(state.scenario).name}, turn {state.turn}",
        private_text=tuple(private_lines(state, seat)),
    )


def tally(state: State) -> list[str]:
    """Per side: sunk, broken-off, saved and still fighting ships."""
    lines = []
    for side in state.sides:
        parts = []
        for status_id, label in TALLY:
            names = [s.name for s in state.ships if s.side == side.id and s.status == status_id]
            parts.append(f"{label}: {', '.join(names) if names else 'none'}")
        lines.append(f"{side.name}: " + "; ".join(parts) + ".")
    return lines


def status(state: State) -> list[str]:
    if state.phase == FIRE:
        lines = [f"Turn {state.turn} of {state.turn_limit}: fire orders (sealed until both sides have sealed)."]
    elif state.phase == MOVE:
        lines = [f"Turn {state.turn} of {state.turn_limit}: movement, {state.side(state.mover()).name} to move."]
    else:
        lines = [f"Game over after turn {state.turn}: {state.result}"]
    lines += [_side_line(state, side_id) for side_id in (s.id for s in state.sides)]
    if state.rams:
        made = ", ".join(f"{state.ship(r.rammer).name} rammed {state.ship(r.target).name}" for r in state.rams)
        lines.append(f"Rams to adjudicate once both sides have moved: {made}.")
    types = ship_types()
    for ship in state.ships:
        if ship.status in (FIGHTING, BROKEN_OFF):
            extra = " (broken off)" if ship.status == BROKEN_OFF else ""
            type_name = types[ship.type].name if ship.type in types else ship.type
            lines.append(f"{ship.name} [{state.side(ship.side).name}, {type_name}]: FV {ship.remaining}/{ship.flotation}{extra}.")
    if state.house:
        lines.append("House values in use (ship types, maps, scenarios).")
    return lines


def _side_line(state: State, side_id: str) -> str:
    side = state.side(side_id)
    counts = []
    for status_id, label in ((FIGHTING, "fighting"), (BROKEN_OFF, "broken off"), (SUNK, "sunk"), (SAVED, "saved")):
        n = sum(1 for s in state.ships if s.side == side.id and s.status == status_id)
        if n:
            counts.append(f"{n} {label}")
    line = f"{side.name} (home edge {side.home_edge}): {', '.join(counts)}"
    if state.phase == FIRE:
        # the start of the commitment in brackets: "...3d89329327725203...." ended the line in four dots
        line += f"; fire orders sealed (commitment {side.commitment[:16]}…)" if side.sealed else "; writing fire orders"
    elif state.phase == MOVE and side.initiative:
        line += f"; initiative {'/'.join(str(v) for v in side.initiative)}"
    return line + "."


def private_lines(state: State, seat: str | None) -> list[str]:
    """A side sees its own orders this turn; the umpire sees every side's."""
    if seat is None:
        return []
    if state.phase == MOVE and seat in (state.mover(), UMPIRE):
        waiting = [f"{s.name} ({s.move} points)" for s in unmoved(state)]
        return [f"{state.side(state.mover()).name} still to move: {', '.join(waiting)}; `done` when finished."]
    if state.phase != FIRE:
        return []
    lines = []
    for side in state.sides if seat == UMPIRE else [s for s in state.sides if s.id == seat]:
        if side.sealed:
            # the umpire reads both sides' seals; a side reads its own as the seal's note told it
            lines.append(f"{side.name} sealed: {side.sealed_text} (nonce `{side.nonce}`)." if seat == UMPIRE else sealed_note(side))
            continue
        given = [fire_order(state, state.ship(sid), t).text for sid, t in side.orders.items()]
        waiting = [s.name for s in state.ships if s.side == side.id and can_fire(state, s) and s.id not in side.orders]
        lines.append(f"{side.name} fire orders so far: {'; '.join(given) if given else 'none'}.")
        if waiting:
            lines.append(f"{side.name} ships without an order (they hold if you seal now): {', '.join(waiting)}.")
    return lines
