"""Book section 4.3 (ch. 4, phase III: The Attack Phase): players alternate attacking with one ship at a time:
Broadside (one from each side), Partial Fire, Close Combat (``close_combat_4_3``) or hold.

A Broadside checks range, the Broadside Path, Line of Sight and the reload marker, then: roll the
dice, re-roll (skill, cards, a Fortune Point, 5.3), Fatigue, damage against Fortitude, Critical
Damage, and the reload marker. Raking Shots (5.6), Targeting Rigging (5.7) and Targeting Crew (5.8)
change those steps; fog (5.9) scores one band farther.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.errors import IllegalOrder, WrongPhase
from games.core.rng import Rng
from games.core.ruleset import Event
from games.oak_and_iron.data import rules
from games.oak_and_iron.measure import (
    BAND_NAMES,
    BANDS,
    band_of,
    base_distance,
    in_broadside_path,
    line_of_sight,
    raking,
)
from games.oak_and_iron.orders import Broadside, Partial
from games.oak_and_iron.rules import public_lines
from games.oak_and_iron.rules.activation_4 import own_ship
from games.oak_and_iron.rules.captains_6 import captain_hit
from games.oak_and_iron.rules.dice_2 import count, roll, show
from games.oak_and_iron.rules.events_5_4 import event_amount
from games.oak_and_iron.rules.fleet_battles_9 import holder_of
from games.oak_and_iron.rules.formation_5_5 import formation
from games.oak_and_iron.rules.initiative_4_1 import card_amount
from games.oak_and_iron.rules.movement_4_2 import execute_move
from games.oak_and_iron.rules.range_ruler_2 import band_text, distances
from games.oak_and_iron.rules.ship_status_4_2 import add_damage, add_fatigue, cripple, knock_out, lower_sail
from games.oak_and_iron.rules.terrain_5_9 import fog_between, sight_blockers
from games.oak_and_iron.state import Mark, ShipState, State


@dataclass
class FireCheck:
    ok: bool
    distance: float
    band: str
    text: str
    raking: str = ""
    fog: bool = False


def check_fire(state: State, firer: ShipState, side: str, target: ShipState, *, partial: bool) -> FireCheck:
    """The qualifications of a Broadside (range, path, sight, no reload marker) or Partial Fire
    (Musket Shot, sight from any edge), with the measured numbers, for the reply and the error."""
    d = base_distance(firer.base, target.base)
    band = band_of(d, distances())
    refusal = _target_refusal(state, firer, target)
    if refusal:
        return FireCheck(False, d, band, refusal)
    limit = "musket_shot" if partial else "cannon_shot"
    if band == "beyond" or BANDS.index(band) > BANDS.index(limit):
        return FireCheck(False, d, band, f"{target.name} is at {band_text(d)}, beyond {BAND_NAMES[limit]} ({distances()[limit]:.0f}\")")
    if not partial:
        if not in_broadside_path(firer.base, side, target.base):
            return FireCheck(False, d, band, f"{target.name} ({band_text(d)}) is not in the {side} broadside path of {firer.name}")
        if (side == "port" and firer.reload_port) or (side == "starboard" and firer.reload_starboard):
            return FireCheck(False, d, band, f"{firer.name}'s {side} side has a reload marker (not reloaded)")
    edges: tuple[str, ...] = ("bow", "starboard", "stern", "port") if partial else (side,)
    sight = line_of_sight(firer.base, target.base, sight_blockers(state, firer.id, target.id), edges)
    if sight is None:
        return FireCheck(False, d, band, f"no Line of Sight from {firer.name} to {target.name} ({band_text(d)})")
    rake = "" if partial else raking(firer.base, side, target.base)
    fog = fog_between(state, sight[0], sight[1], target.base)
    facts = [f"distance {band_text(d)}"]
    if rake:
        facts.append(f"raking through the {rake}")
    if fog:
        facts.append("through fog")
    return FireCheck(True, d, band, "; ".join(facts), rake, fog)


def _target_refusal(state: State, firer: ShipState, target: ShipState) -> str:
    """Why the ship may not be targeted at all (itself, gone, friendly, Entangled with a friend)."""
    if target.id == firer.id or not target.on_table:
        return f"{target.name} cannot be targeted"
    if target.controller == firer.controller:
        return f"{target.name} is a friendly ship"
    if any(state.ship(e).controller == firer.controller for e in target.entangled):
        return f"{target.name} is Entangled with a friendly ship and may not be fired on"
    return ""


def hit_faces(state: State, firer: ShipState, band: str, fog: bool) -> tuple[tuple[str, ...], str]:
    """ROLL BROADSIDE DICE (4.3 step 1): the faces that hit at this band, after fog (5.9, one band
    farther) and Effective Fire (one band closer)."""
    order = ["yard_arm", "pistol_shot", "musket_shot", "cannon_shot"]
    idx = order.index(band)
    label = BAND_NAMES[band]
    if card_amount(state, firer.controller, "band_closer", firer):
        idx = max(0, idx - 1)
        label += ", scored one band closer"
    if fog:
        if idx == len(order) - 1:
            return rules().hit_faces("fog_beyond_cannon"), label + ", fog beyond Cannon Shot: only Skulls"
        idx += 1
        label += f", fog: scored at {BAND_NAMES[order[idx]]}"
    key = {"yard_arm": "yard_arm", "pistol_shot": "pistol", "musket_shot": "musket", "cannon_shot": "cannon"}[order[idx]]
    return rules().hit_faces(key), label


@dataclass
class Shot:
    """One attack being resolved: who fires at whom, and how it is aimed."""

    firer: ShipState
    target: ShipState
    check: FireCheck
    aim: str
    fortune: bool
    helm: str


def resolve_attack(state: State, rng: Rng, shot: Shot, dice: int, label: str) -> list[str]:
    """Steps 1-5 of a Broadside or Partial Fire: roll, re-roll, Fatigue, damage, Critical Damage;
    aimed at rigging (5.7) or crew (5.8) half the dice count Sails or Helms instead."""
    r = rules()
    firer, target, check, aim = shot.firer, shot.target, shot.check, shot.aim
    wanted, band_label = hit_faces(state, firer, check.band, check.fog)
    if aim in ("rigging", "crew"):
        dice = max(1, dice // 2)
    faces = roll(rng, dice)
    notes = [f"{label} from {firer.name} at {target.name}: {check.text}; hits on {', '.join(wanted)} ({band_label}); {dice} dice: {show(faces)}"]
    counted = {"rigging": r.faces_of("critical_rigging"), "crew": r.faces_of("critical_crew")}.get(aim, wanted)
    faces = _rerolls(state, rng, shot, faces, counted, notes)
    if aim == "rigging":
        sails = count(faces, counted)
        notes.append(f"rigging: {sails} x Sail")
        apply_rigging(target, sails, notes)
        return notes
    if aim == "crew":
        helms = count(faces, counted)
        notes.append(f"crew: {helms} x Helm")
        if helms and check.raking:
            add_fatigue(target, 1, notes, from_attack=True)
        apply_crew(state, rng, target, helms, shot.helm, notes)
        return notes
    _hull_hits(state, rng, shot, faces, wanted, notes)
    return notes


def _rerolls(state: State, rng: Rng, shot: Shot, faces: list[str], counted: tuple[str, ...], notes: list[str]) -> list[str]:
    """RE-ROLL (4.3 step 2): missed dice for Skill and cards, then all dice for a Fortune Point
    (5.3) when the hits fall short of what is needed."""
    firer, target, check = shot.firer, shot.target, shot.check
    rerolls = firer.skill + card_amount(state, firer.controller, "reroll_attack", firer)
    misses = [i for i, f in enumerate(faces) if f not in counted]
    if rerolls and misses:
        idxs = misses[:rerolls]
        new = roll(rng, len(idxs))
        for i, f in zip(idxs, new, strict=True):
            faces[i] = f
        notes.append(f"re-roll {len(idxs)} missed: {show(new)}")
    side = state.side(firer.controller)
    need = 1 if shot.aim != "hull" else (1 if check.raking == "stern" else target.fortitude)
    if shot.fortune and side.fortune > 0 and count(faces, counted) < need:
        side.fortune -= 1
        faces = roll(rng, len(faces))
        notes.append(f"Fortune Point re-roll of all dice ({side.fortune} left): {show(faces)}")
    return faces


def _hull_hits(state: State, rng: Rng, shot: Shot, faces: list[str], wanted: tuple[str, ...], notes: list[str]) -> None:
    """APPLY FATIGUE, INFLICT DAMAGE, CHECK FOR CRITICAL DAMAGE (4.3 steps 3-5); a Raking Shot
    (5.6) adds Fatigue, more critical triggers, and Fortitude 1 through the stern."""
    r = rules()
    target, check = shot.target, shot.check
    hits = count(faces, wanted)
    fortitude = 1 if check.raking == "stern" else target.fortitude
    notes.append(f"{hits} hit(s) against Fortitude {fortitude}")
    if hits:
        add_fatigue(target, 1 + (1 if check.raking else 0), notes, from_attack=True)
    add_damage(target, hits // fortitude, notes)
    triggers = r.faces_of("critical_trigger_raking" if check.raking else "critical_trigger")
    crit_dice = count(faces, triggers)
    if crit_dice and target.on_table:
        crit = roll(rng, crit_dice)
        notes.append(f"critical check, {crit_dice} dice: {show(crit)}")
        hull = count(crit, r.faces_of("critical_hull"))
        if hull >= 2:
            if target.crippled:
                knock_out(target, notes)
            else:
                cripple(target, notes)
        elif hull == 1:
            add_damage(target, 1, notes)
        apply_rigging(target, count(crit, r.faces_of("critical_rigging")), notes)
        apply_crew(state, rng, target, count(crit, r.faces_of("critical_crew")), shot.helm, notes)


def apply_rigging(target: ShipState, sails: int, notes: list[str]) -> None:
    """Critical Damage to rigging (4.3 step 5): one Sail lowers the sail setting; two, a mast is
    lost (an Aground token)."""
    if sails >= 1:
        lower_sail(target, notes)
    if sails >= 2:
        target.aground = True
        notes.append(f"{target.name} loses a mast and takes an Aground token")


def apply_crew(state: State, rng: Rng, target: ShipState, helms: int, direction: str, notes: list[str]) -> None:
    """Critical Damage to crew (4.3 step 5): one Helm is a point of Fatigue; two, the helm is
    struck: a Full Turn with the speed 2 tool, and the Admiral of a Flagship may fall."""
    if helms >= 1:
        add_fatigue(target, 1, notes, from_attack=True)
    if helms >= 2 and target.on_table:
        r = rules()
        notes.append(f"{target.name}'s helm is struck: a Full Turn to {direction} with the speed {r.helm_full_turn_speed} tool")
        notes += execute_move(
            state, target, rng, forward=0.0, turn_when="start", direction=direction, degrees=r.turn_angle,
            speed_for_collision=r.helm_full_turn_speed,
        )
        captain_hit(state, rng, target, notes)
        side = holder_of(state, target)  # its squadron's admiral in a Fleet Battle
        if target.flagship and side.admiral_name != "none":
            faces = roll(rng, 1)
            hit = count(faces, r.faces_of("officer_hit")) > 0
            notes.append(f"officer check for the Admiral: {show(faces)}" + (" - hit" if hit else ""))
            if hit:
                notes.append(f"{side.name}'s admiral ({side.admiral_name}) is lost; the Flagship now has admiral value 0")
                side.admiral_name, side.admiral_value = "none", 0


def attack_dice(state: State, ship: ShipState, *, partial: bool) -> tuple[int, str]:
    """Broadside value less Fatigue (never below Crew) or, for Partial Fire, Crew less Fatigue;
    then Formation (5.5), cards and events."""
    if partial:
        base = max(1, ship.crew - ship.fatigue)
        notes = [f"Crew {ship.crew} - Fatigue {ship.fatigue}"]
    else:
        base = max(1, ship.broadside - ship.fatigue, min(ship.crew, ship.broadside))
        notes = [f"Broadside {ship.broadside} - Fatigue {ship.fatigue} (not below Crew {ship.crew})"]
    extra = 0
    if ship.id in formation(state, ship.controller):
        extra += 1
        notes.append("Formation +1")
    card = card_amount(state, ship.controller, "partial_dice" if partial else "attack_dice", ship)
    ev = event_amount(state, "attack_dice")
    if card:
        notes.append(f"initiative card {card:+d}")
    if ev:
        notes.append(f"event {ev:+d}")
    return max(1, base + extra + card + ev), ", ".join(notes)


# --- the attack orders ---------------------------------------------------------------------------


def attacking_ship(state: State, seat: str, ship_id: str) -> ShipState:
    """The ship an Attack Phase order names, if it is its side's turn and it has not attacked."""
    if state.phase != "attack":
        raise WrongPhase(f"That is an Attack Phase order; it is now the {state.phase} phase.")
    ship = own_ship(state, seat, ship_id)
    if ship.attacked:
        raise IllegalOrder(f"{ship.name} has already attacked this turn.")
    state.focus = ship.id
    return ship


def finish_attack(ship: ShipState, lines: list[str]) -> list[Event]:
    """The ship has attacked this phase (``turn_4`` picks who attacks next)."""
    ship.attacked = True
    return public_lines(lines)


def _crew_in_reach(check: FireCheck, target: ShipState, aim: str) -> None:
    """TARGETING CREW (5.8): at Pistol Shot or less."""
    if aim == "crew" and band_of(check.distance, distances()) not in ("yard_arm", "pistol_shot"):
        raise IllegalOrder(f"Targeting crew needs Pistol Shot or less; {target.name} is at {band_text(check.distance)}.")


def broadside(state: State, seat: str, order: Broadside, rng: Rng) -> list[Event]:
    """BROADSIDE (4.3): every side's qualifications first, then each attack and its reload marker."""
    ship = attacking_ship(state, seat, order.ship.id)
    checks = []
    for side, ref, aim in order.shots():
        target = state.ship(ref.id)
        check = check_fire(state, ship, side, target, partial=False)
        if not check.ok:
            raise IllegalOrder(f"{ship.name} cannot fire its {side} broadside at {target.name}: {check.text}.")
        _crew_in_reach(check, target, aim)
        checks.append((side, target, aim, check))
    lines: list[str] = []
    for side, target, aim, check in checks:
        dice, how = attack_dice(state, ship, partial=False)
        lines.append(f"{ship.name} fires its {side} broadside: {dice} dice ({how}).")
        shot = Shot(ship, target, check, aim, order.fortune, order.helm)
        lines += resolve_attack(state, rng, shot, dice, f"{side.title()} broadside")
        if side == "port":
            ship.reload_port = True
        else:
            ship.reload_starboard = True
        fire = Mark("fire", [ship.base.edge_midpoint(side), target.base.centre], ship.controller, f"{check.distance:.2f}\"")
        state.marks = [m for m in state.marks if m.kind != "fire"] + [fire]
    return finish_attack(ship, lines)


def partial_fire(state: State, seat: str, order: Partial, rng: Rng) -> list[Event]:
    """PARTIAL FIRE (4.3): sight from any edge, Musket Shot at most, Crew dice, no reload marker."""
    ship = attacking_ship(state, seat, order.ship.id)
    target = state.ship(order.target.id)
    check = check_fire(state, ship, "", target, partial=True)
    if not check.ok:
        raise IllegalOrder(f"{ship.name} cannot make Partial Fire at {target.name}: {check.text}.")
    _crew_in_reach(check, target, order.aim)
    dice, how = attack_dice(state, ship, partial=True)
    lines = [f"{ship.name} makes Partial Fire: {dice} dice ({how})."]
    lines += resolve_attack(state, rng, Shot(ship, target, check, order.aim, order.fortune, order.helm), dice, "Partial Fire")
    fire = Mark("fire", [ship.base.centre, target.base.centre], ship.controller, f"{check.distance:.2f}\"")
    state.marks = [m for m in state.marks if m.kind != "fire"] + [fire]
    return finish_attack(ship, lines)


def hold(state: State, seat: str, ship_id: str) -> list[Event]:
    """The ship does not attack this phase."""
    ship = attacking_ship(state, seat, ship_id)
    return finish_attack(ship, [f"{ship.name} holds its fire."])


def targets_in_reach(state: State, firer: ShipState) -> list[tuple[str, ShipState, FireCheck]]:
    """Section 4.3's qualifications, asked of every enemy ship for both broadsides: (side, target,
    check) for each broadside the firer could give as it stands (previews draw these as lines)."""
    found = []
    for target in state.ships:
        if not target.on_table or target.controller == firer.controller:
            continue
        for side in ("port", "starboard"):
            check = check_fire(state, firer, side, target, partial=False)
            if check.ok:
                found.append((side, target, check))
    return found
