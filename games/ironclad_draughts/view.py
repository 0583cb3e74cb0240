"""What a seat sees: the board with every ship (nothing is hidden in this game), the status strip
and the result. Renderers and messages only ever receive this ``View``."""

from __future__ import annotations

from typing import Literal

from games.core.decks import card_name
from games.core.ruleset import Outcome
from games.core.view import Board, Counter, Overlay, SideInfo, View
from games.ironclad_draughts.data import house_values
from games.ironclad_draughts.rules.movement_4 import movement_mode
from games.ironclad_draughts.rules.sequence_3 import activation_order
from games.ironclad_draughts.state import (
    AFLOAT,
    CONNING,
    DEAL,
    FIRE,
    OFF,
    OVER,
    STEERING,
    SUNK,
    Ship,
    State,
    has,
    in_play,
    owner,
    seat_label,
    ship_by_id,
)

SYSTEM_ID = "ironclad-draughts"
OVERLAY_KINDS: dict[str, Literal["path", "fire", "ram"]] = {"path": "path", "fire": "fire", "ram": "ram"}


def damage_text(ship: Ship) -> str:
    cards = " ".join(f"{card_name(d.card)}" for d in ship.damage)
    return f"{ship.flotation}/{ship.flotation_max}" + (f" {cards}" if cards else "")


def _counter(state: State, ship: Ship) -> Counter:
    markers: list[str] = []
    if has(ship, FIRE):
        markers.append("fire")
    if movement_mode(ship) == "stopped":
        markers.append("stopped")
    if has(ship, CONNING) or has(ship, STEERING) or movement_mode(ship) == "ahead":
        markers.append("critical")
    return Counter(
        id=ship.id,
        label=ship.short or ship.name,
        side=ship.side,
        pos=(float(ship.x), float(ship.y)),
        facing=45.0 * ship.heading,
        damage=ship.flotation_max - ship.flotation,
        damage_max=ship.flotation_max,
        damage_text=damage_text(ship),
        markers=tuple(markers),
        highlight=ship.id == state.active,
    )


def view(state: State, seat: str | None) -> View:
    board = Board(
        kind="square",
        key=f"{SYSTEM_ID}:{state.width}x{state.height}",
        name=state.scenario_name,
        width=state.width,
        height=state.height,
    )
    overlays = tuple(
        Overlay(kind=OVERLAY_KINDS[mk.kind], points=tuple(mk.points), side=mk.side, text=mk.text) for mk in state.marks
    )
    return View(
        board=board,
        viewer=seat,
        sides=tuple(SideInfo(s.id, s.name, s.colour) for s in state.sides),
        counters=tuple(_counter(state, ship) for ship in state.ships if in_play(ship)),
        overlays=overlays,
        status=tuple(status(state)),
        title=f"Ironclad Draughts: {state.scenario_name}",
    )


def _now(state: State) -> list[str]:
    if state.phase == OVER:
        found = outcome(state)
        return [f"Turn {state.turn}: game over. {found.reason if found else ''}"]
    if state.phase == DEAL:
        return [f"Turn {state.turn + 1}: waiting for the umpire to deal."]
    active = ship_by_id(state, state.active)
    lines = [
        f"Turn {state.turn}: {active.name} ({card_name(active.card)}) acts - "
        f"{seat_label(state, owner(state, active))} to order."
    ]
    lines.extend(state.report[1:])
    later = [s for s in activation_order(state) if in_play(s) and not s.activated and s.id != active.id]
    if later:
        lines.append(f"Then: {later[0].name} ({card_name(later[0].card)}).")
    return lines


def status(state: State) -> list[str]:
    lines = _now(state)
    order = []
    for ship in activation_order(state):
        tag = " (sunk)" if ship.status == SUNK else " (off)" if ship.status == OFF else ""
        tag = tag or (" done" if ship.activated else " <- now" if ship.id == state.active else "")
        order.append(f"{card_name(ship.card)} {ship.name}{tag}")
    if order:
        lines.append("Cards: " + ", ".join(order))
    gone = [f"{s.name} {'sunk' if s.status == SUNK else 'off board'}" for s in state.ships if s.status != AFLOAT]
    if gone:
        lines.append("Out: " + ", ".join(gone))
    deck = state.damage_deck
    lines.append(f"Damage pack: {len(deck.draw_pile)} face down, {len(deck.discards)} discarded.")
    return lines


def summary(state: State) -> list[str]:
    """The status strip plus which values are the house's, not the book's."""
    house = house_values()
    return status(state) + ([f"House values in use: {', '.join(house)}."] if house else [])


def outcome(state: State) -> Outcome | None:
    """The result (Sequence 5) and what became of each ship, with the pass-through-and-return manoeuvre (Movement 5)."""
    if state.phase != OVER:
        return None
    fates = {AFLOAT: "afloat", SUNK: "sunk", OFF: "left the board"}
    details = []
    for side in state.sides:
        parts = [
            f"{s.name} " + (f"afloat {s.flotation}/{s.flotation_max}" if s.status == AFLOAT else fates[s.status])
            for s in state.ships
            if s.side == side.id
        ]
        details.append(f"{side.name}: " + "; ".join(parts) + ".")
    done = [s.name for s in state.ships if s.returned]
    half = [s.name for s in state.ships if s.reached_far and not s.returned]
    details.append(
        "Passed through and returned: "
        + (", ".join(done) if done else "none")
        + (f"; reached the far edge only: {', '.join(half)}" if half else "")
        + "."
    )
    return Outcome(state.winner or None, state.end_reason, tuple(details))
