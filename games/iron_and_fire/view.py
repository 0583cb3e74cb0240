"""What each seat sees of an Iron and Fire game: counters, the last activation's path or line of
fire, set-up zones, the status strip, and the secret rolls of the viewer's own side.
"""

from __future__ import annotations

from typing import Any

from games.core.decks import card_name
from games.core.ruleset import UMPIRE
from games.core.view import Board, Counter, Overlay, SideInfo, View, Zone
from games.iron_and_fire import scene
from games.iron_and_fire.data import SIDE_NAMES
from games.iron_and_fire.rules import activations_4, damage_7
from games.iron_and_fire.state import State, Unit

COLOURS = {"peru": "#c8102e", "chile": "#1f3a93"}


def view(state: State, seat: str | None) -> View:
    """What ``seat`` (a side, the umpire, or None for spectators) may see: secret rolls only to their side."""
    scn = scene.scenario(state)
    counters = [_unit_counter(state, u) for u in state.units if u.afloat]
    for i, m in enumerate(state.mines):
        counters.append(
            Counter(
                id=f"mine{i}",
                label=f"Mine {m.value}" if m.value else "",
                side="",
                pos=(float(m.q), float(m.r)),
                face_down=not m.value,
                kind="mine",
            )
        )
    if state.cable is not None:
        counters.append(
            Counter(id="cable", label="Cable" + (" (cut)" if state.cable_cut else ""), side="", pos=(float(state.cable[0]), float(state.cable[1])), kind="marker", markers=("flag",))
        )
    overlays: list[Overlay] = []
    last = state.last
    if last.kind in ("path", "fire", "ram") and last.points:
        kind: Any = last.kind
        overlays.append(Overlay(kind, tuple((float(q), float(r)) for q, r in last.points), last.side, last.text))
    board: Board = scene.hexmap(state).board()
    return View(
        board=board,
        viewer=seat,
        sides=(SideInfo("peru", "Peru", COLOURS["peru"]), SideInfo("chile", "Chile", COLOURS["chile"])),
        counters=tuple(counters),
        overlays=tuple(overlays),
        zones=tuple(_setup_zones(state) if state.phase in ("setup", "arrive") else ()),
        status=tuple(status(state, seat)),
        title=scn.name,
        private_text=tuple(_private_text(state, seat)),
    )


def _unit_counter(state: State, u: Unit) -> Counter:
    """A ship or battery counter with its markers; ringed while it may still act on the card in play (4.2)."""
    flags = (("grounded", u.grounded), ("fire", "fire" in u.criticals), ("critical", any(c != "fire" for c in u.criticals)),
             ("captured", u.captured), ("boarding", bool(u.boarding_with)), ("crippled", damage_7.crippled(state, u)))
    markers = [name for name, on in flags if on]
    acting = state.phase == "activations" and bool(state.card)
    return Counter(
        id=u.id,
        label=u.name,
        side=u.side,
        pos=(float(u.q), float(u.r)),
        facing=None if u.battery else scene.layout(state).bearing(u.facing),
        damage=u.hits,
        damage_max=3 if u.battery else u.pf + 1,
        damage_text=f"{u.hits}H" if u.hits else "",
        markers=tuple(markers),
        highlight=acting and activations_4.can_activate(state, u),
        kind="battery" if u.battery else "ship",
    )


def _setup_zones(state: State) -> list[Zone]:
    """The set-up zones of the side placing now; ships sharing a zone share one outline and label
    (labels drawn apart overlap)."""
    scn = scene.scenario(state)
    layout = scene.layout(state)
    side = state.setup_side
    pending = [u for u in state.units if u.side == side and u.status == "waiting" and ((state.phase == "setup" and not u.arrive_turn) or (state.phase == "arrive" and u.arrive_turn == state.turn))]
    by_cells: dict[tuple[tuple[float, float], ...], list[str]] = {}
    for u in pending:
        spec = scene.spec_of(state, u.id)
        if spec is None:
            continue
        cells = tuple((float(h.q), float(h.r)) for h in layout.all_hexes() if not scene.in_zone(state, spec.zone, h) and scene.terrain(state, h) not in ("land", "town"))
        by_cells.setdefault(cells, []).append(u.name)
    zones = [Zone(names[0] if len(names) == 1 else f"{len(names)} ships", side, cells) for cells, names in by_cells.items()]
    mines = scn.mines
    if mines is not None and mines.side == side and state.mines_to_place:
        cells = tuple((float(h.q), float(h.r)) for h in layout.all_hexes() if not scene.in_zone(state, mines.zone, h) and scene.terrain(state, h) not in ("land", "town"))
        zones.append(Zone("Mines", side, cells))
    return zones


def _private_text(state: State, seat: str | None) -> list[str]:
    """Secret rolls for their side (and the umpire); Peru's count of cable-cutting activations."""
    scn = scene.scenario(state)
    umpire = seat == UMPIRE
    out = [f"Secret ({sec.purpose}): {sec.text}" + (" (revealed)" if sec.revealed else "")
           for sec in state.secrets if umpire or seat == sec.side]
    if (umpire or seat == "peru") and scn.cable is not None and scn.cable.rule == "activations":
        out.append(f"Cable cutting: {state.cable_progress} of {scene.secret_value(state, 'cable') or '?'} activations.")
    return out


def status(state: State, seat: str | None) -> list[str]:
    """The status strip: phase, card in play, the advanced rules' state, each unit's condition."""
    scn = scene.scenario(state)
    s = state
    lines = _phase_lines(state)
    if scene.on(state, "fow"):
        holder = SIDE_NAMES.get(s.fow_holder, "nobody")
        used = ", ".join(SIDE_NAMES[x] for x in s.fow_used_turn) or "nobody"
        lines.append(f"Fortunes of War: held by {holder}; used this turn by {used}.")
    if scene.on(state, "fow") and s.snapshot and s.snapshot_dice:
        dice = ", ".join(f"{i + 1}) d{f} {v}" for i, (f, v) in enumerate(s.snapshot_dice))
        lines.append(f"Dice of the last activation (`fow reroll N` re-rolls one): {dice}.")
    if scn.bombard_target:
        lines.append(f"Bombardment hits on Antofagasta: {s.bombard_hits} of {scn.bombard_target}.")
    if scn.cable is not None:
        lines.append("Cable: " + ("cut." if s.cable_cut else "intact."))
    if s.lucky_shot or s.save_captain or s.save_admiral:
        pending = [f"Lucky Shot ({SIDE_NAMES[x]})" for x in s.lucky_shot]
        pending += ["Save the Captain"] if s.save_captain else []
        pending += ["Save the Admiral"] if s.save_admiral else []
        lines.append("Pending events: " + ", ".join(pending) + ".")
    secret_steam = any(sec.key == "steam" and not sec.revealed for sec in s.secrets)
    lines.extend(_unit_line(state, u, seat, secret_steam) for u in s.units if u.status != "waiting")
    lines.append("House values in use: ship stats, maps, mine mix" + (", turn limit" if scn.turns_source == "house" and not s.options.get("turns") else "") + ".")
    return lines


def _phase_lines(state: State) -> list[str]:
    """Set-up, the result, or the turn, phase and card in play."""
    s = state
    if s.phase == "setup":
        return [f"Set-up: {SIDE_NAMES[s.setup_side]} is placing (Chile first, then Peru)."]
    if s.phase == "over":
        winner = SIDE_NAMES.get(s.result_winner, "Nobody (draw)")
        reason = s.result_reason[:1].upper() + s.result_reason[1:]  # written to follow "Peru wins: "
        return [f"Game over after turn {s.turn}: {winner}. {reason}"]
    phase = {"arrive": f"arrivals ({SIDE_NAMES[s.setup_side]} places)", "joker": f"first Joker ({SIDE_NAMES.get(s.decider, '')} decides)", "boarding": f"Boarding Combat ({SIDE_NAMES.get(s.decider, 'either side')} decides)"}.get(s.phase, "activations")
    lines = [f"Turn {s.turn}{scene.of_turns(s)}: {phase}. Cards left {len(s.deck)}, Jokers drawn {s.jokers_drawn}" + (f", extra draws left {s.extra_draws}" if s.extra_draws >= 0 else "") + "."]
    if s.card:
        left = s.acts_left
        lines.append(f"Card {card_name(s.card)}: {SIDE_NAMES[s.card_side]}, {left} activation{'s' if left != 1 else ''} left" + (f" (done: {', '.join(scene.unit(state, x).name for x in s.used)})" if s.used else "") + ".")
    return lines


def _unit_line(state: State, u: Unit, seat: str | None, secret_steam: bool) -> str:
    """One unit's place and condition; the Covadonga's MP stays hidden from Peru while its steam roll is secret (15.3)."""
    where = scene.label(state, scene.pos(u)) if u.afloat else u.status
    bits = [f"{u.name} ({SIDE_NAMES[u.side]}{', held by ' + SIDE_NAMES[u.controller] if u.captured else ''}): {where}"]
    if u.afloat and u.battery:
        bits.append(f"hits {u.hits}/3, CF {sign_text(u.cf)}, PF {u.pf}")
    elif u.afloat:
        show_mp = not (u.id == "covadonga" and secret_steam and seat not in ("chile", UMPIRE))
        mp = f"MP {damage_7.eff_mp(state, u)}, " if show_mp else ""
        bits.append(f"facing {scene.printed(state, u.facing)}, hits {u.hits}/{u.pf}, {mp}CF {sign_text(damage_7.eff_cf(state, u))}, PF {u.pf}")
        extras = [c.title() for c in u.criticals]
        if u.grounded:
            extras.append("grounded")
        if u.boarding_with:
            extras.append(f"boarding {scene.unit(state, u.boarding_with).name}")
        if damage_7.crippled(state, u):
            extras.append("crippled")
        if extras:
            bits.append(", ".join(extras))
    return "; ".join(bits)


def sign_text(n: int) -> str:
    """A CF as printed: +2, 0 → +0, -1."""
    return f"+{n}" if n >= 0 else str(n)
