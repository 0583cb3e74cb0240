"""What a seat sees of an Oak & Iron game: the table, the ships with their tokens, the last move
or attack drawn, the focused ship's range rings and broadside paths, the wind, and the status
strip. A side's own hand and sealed card appear only in its own view (and the umpire's)."""

from __future__ import annotations

from games.core.geometry import add, scale
from games.core.ruleset import UMPIRE
from games.core.view import Arrow, Board, Counter, Overlay, SideInfo, Terrain, View
from games.oak_and_iron.data import event_cards, initiative_cards, rules
from games.oak_and_iron.measure import WIND_BEARING, broadside_strip
from games.oak_and_iron.rules import scenario_cards_7
from games.oak_and_iron.rules.activation_4 import to_act
from games.oak_and_iron.rules.attack_4_3 import targets_in_reach
from games.oak_and_iron.rules.fleet_battles_9 import holders, seat_holders, seat_of
from games.oak_and_iron.rules.initiative_4_1 import hands_text
from games.oak_and_iron.rules.range_ruler_2 import band_text
from games.oak_and_iron.rules.ship_status_4_2 import describe_ship
from games.oak_and_iron.state import ShipState, State

PHASE_NAMES = {
    "setup": "Starting a Game (set-up)",
    "select": "Initiative Phase (sealing cards)",
    "movement": "Movement Phase",
    "attack": "Attack Phase",
    "end": "End Phase",
    "over": "Game over",
}


def view(state: State, seat: str | None) -> View:
    """The View for ``seat`` (None: a spectator)."""
    terrain = tuple(Terrain(t.kind, tuple(t.points), label=t.label) for t in state.terrain)
    board = Board(
        kind="table",
        key=f"oak-and-iron:{state.scenario}:{state.table_width:g}x{state.table_height:g}",
        name=state.scenario_name,
        width=state.table_width,
        height=state.table_height,
        table_terrain=terrain,
    )
    private_text: list[str] = []
    for holder in holders(state):  # the sides, or each squadron of the fleets (ch. 9): to its seat
        if seat in (seat_of(state, holder), UMPIRE):
            private_text.append(hands_text([holder]))
            if holder.sealed:
                private_text.append(f"{holder.name} sealed: {initiative_cards()[holder.sealed].name} (nonce {holder.sealed_nonce})")
    return View(
        board=board,
        viewer=seat,
        sides=tuple(SideInfo(s.id, s.name, s.colour) for s in state.sides),
        counters=tuple(c for ship in state.ships if ship.on_table for c in _counters(state, ship)),
        overlays=tuple(_overlays(state)),
        arrows=(Arrow("wind", WIND_BEARING[state.weather_edge], "wind"),),
        status=tuple(status(state)),
        headline=len(headline(state)),
        title=f"Oak & Iron - {state.scenario_name} - turn {state.turn}",
        private_text=tuple(private_text),
    )


def _markers(ship: ShipState) -> tuple[str, ...]:
    flags = (
        ("reload", ship.reload_port or ship.reload_starboard),
        ("crippled", ship.crippled),
        ("shaken", ship.shaken),
        ("captured", bool(ship.captured_by)),
        ("grounded", ship.aground),
        ("boarding", bool(ship.entangled)),
        ("stopped", ship.sail == "anchored"),
        ("flag", ship.flagship),
    )
    return tuple(name for name, on in flags if on)


def _counters(state: State, ship: ShipState) -> list[Counter]:
    """The ship, its Wake marker while it has moved but not attacked, and its Landing Party."""
    reload = "".join(x for x, on in (("P", ship.reload_port), ("S", ship.reload_starboard)) if on)
    out = [
        Counter(
            id=ship.id,
            label=ship.name,
            side=ship.controller,
            pos=(ship.x, ship.y),
            facing=ship.heading,
            damage=ship.damage,
            damage_max=rules().damage_max,
            damage_text=f"D{ship.damage} F{ship.fatigue}" + (f" R:{reload}" if reload else ""),
            markers=_markers(ship),
            highlight=ship.id in (state.focus, state.activation.ship),
            size=(ship.length, ship.beam),
        )
    ]
    if ship.moved and not ship.attacked and state.phase in ("movement", "attack"):
        stern = add(ship.base.edge_midpoint("stern"), scale(ship.base.forward, -0.4))
        out.append(Counter(f"{ship.id}-wake", "wake", ship.controller, stern, ship.heading, kind="wake", size=(0.6, ship.beam)))
    if ship.landing is not None:
        out.append(Counter(f"{ship.id}-landing", f"{ship.name} landing party", ship.controller, ship.landing, kind="landing"))
    return out


def _overlays(state: State) -> list[Overlay]:
    """The last path or attack, and the focused ship's range rings and broadside paths."""
    r = rules()
    overlays = [Overlay("path" if m.kind == "path" else "fire", tuple(m.points), m.side, m.text) for m in state.marks]
    if state.phase == "setup" and state.setup is not None and state.setup.step == "deploy":
        for side in state.sides:  # the deployment zones while the ships go down
            x0, y0, x1, y1 = scenario_cards_7.zone(state, side.id)
            overlays.append(Overlay("arc", ((x0, y0), (x1, y0), (x1, y1), (x0, y1)), side.id, f"{side.name} deployment zone"))
    focus = state.activation.ship or state.focus
    if focus and state.ship(focus).on_table:
        ship = state.ship(focus)
        for band in ("pistol_shot", "musket_shot", "cannon_shot"):
            overlays.append(
                Overlay("ring", ((ship.x, ship.y),), ship.controller, f"{r.distance(band):g}\"", radius=r.distance(band) + ship.beam / 2)
            )
        for edge in ("port", "starboard"):
            strip = broadside_strip(ship.base, edge, r.distance("cannon_shot"))
            overlays.append(Overlay("arc", strip, ship.controller, f"{edge} broadside path"))
    return overlays


def headline(state: State) -> list[str]:
    """Where the game stands: turn and phase, initiative, who acts, the activation. These lines
    are drawn readable at chat size (``View.headline``), so a player sees whose move it is."""
    lines = [f"Turn {state.turn}/{rules().turn_limit} - {PHASE_NAMES.get(state.phase, state.phase)}"]
    lines += scenario_cards_7.status_lines(state)
    if state.initiative:
        lines.append(f"Initiative: {state.side(state.initiative).name}")
    acting = to_act(state)
    if acting:
        names = {h.id: h.name for h in seat_holders(state)}
        lines.append("To act: " + ", ".join(names[a] for a in acting))
    if state.activation.ship:
        act = state.activation
        lines.append(f"Activating {state.ship(act.ship).name}: speed {act.speed}, {act.pos_text}")
    return lines


def status(state: State) -> list[str]:
    """The status strip: the headline (see ``headline``), then each side and ship."""
    lines = headline(state)
    for side in state.sides:
        if state.squadrons:  # Fleet Battles: the fleet has no hand of its own, each Squadron has (ch. 9)
            lines.append(f"{side.name}: fortune {side.fortune}, strike points {side.strike_points}")
            continue
        face = initiative_cards()[side.face_up].name if side.face_up else "-"
        sealed = "card sealed" if side.sealed else "no card sealed"
        lines.append(
            f"{side.name}: admiral {side.admiral_name} ({side.admiral_value}), fortune {side.fortune}, strike points {side.strike_points}, "
            f"face-up {face}, {sealed}, {len(side.hand)} cards in hand"
        )
    for q in state.squadrons:  # Fleet Battles: each squadron's admiral and cards
        face = initiative_cards()[q.face_up].name if q.face_up else "-"
        lines.append(f"{q.name} ({state.side(q.fleet).name}): admiral {q.admiral_name} ({q.admiral_value}), face-up {face}, "
                     f"{'card sealed' if q.sealed else 'no card sealed'}, {len(q.hand)} cards in hand"
                     + (" - activating" if q.id == state.moving_squadron else ""))
    if state.events_active:
        lines.append("Events: " + ", ".join(event_cards()[e].name for e in state.events_active))
    squadron_names = {q.id: q.name for q in state.squadrons}
    for ship in state.ships:
        where = f" - {squadron_names[ship.squadron]}" if ship.squadron else ""
        lines.append(describe_ship(ship) + ("" if ship.on_table else f" ({ship.status})") + where)
    lines.append(f"House values in use (data/oak_and_iron); wind blows from the {state.weather_edge} edge")
    return lines


def preview_overlays(state: State, moved: frozenset[str]) -> list[Overlay]:
    """Aiming aids for a previewed move: from each moved ship as it would stand, its range rings,
    both broadside paths to Cannon Shot, and a line to each enemy ship a broadside could fire on
    (all ships on the table are in plain sight: nothing here is hidden from the asker)."""
    r = rules()
    out: list[Overlay] = []
    for ship in (s for s in state.ships if s.id in moved and s.on_table):
        out += [Overlay("ring", ((ship.x, ship.y),), ship.controller, f"{r.distance(band):g}\"",
                        radius=r.distance(band) + ship.beam / 2) for band in ("pistol_shot", "musket_shot", "cannon_shot")]
        out += [Overlay("arc", broadside_strip(ship.base, edge, r.distance("cannon_shot")), ship.controller,
                        f"{edge} broadside path") for edge in ("port", "starboard")]
        out += [Overlay("fire", (ship.base.centre, target.base.centre), ship.controller, f"{side}: {band_text(check.distance)}")
                for side, target, check in targets_in_reach(state, ship)]
    return out
