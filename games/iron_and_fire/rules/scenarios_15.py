"""Book section 15, Scenarios: set-up rolls and placement, the cable (Scenarios 3 and 4), the
bombardment of Antofagasta (Scenario 4) and a fresh game's state.
"""

from __future__ import annotations

from games.core.dice import roll
from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase, quote
from games.core.hexgrid import Hex, distance
from games.core.rng import seal
from games.core.ruleset import Event
from games.iron_and_fire import scene
from games.iron_and_fire.data import (
    SIDE_NAMES,
    DeploySpec,
    RollSpec,
    Zone,
    battery,
    mine_mix,
    scenarios,
    ships,
)
from games.iron_and_fire.dice import Dice
from games.iron_and_fire.orders import (
    Bombard,
    CableAt,
    CableWith,
    Cut,
    Done,
    IronOrder,
    Place,
    PlaceBattery,
    PlaceMine,
    Roll,
    ref,
)
from games.iron_and_fire.report import describe_mods, reveal, say, tell
from games.iron_and_fire.rules import sequence_3
from games.iron_and_fire.state import LastAction, Secret, State, Unit


def setup_remaining(s: State, side: str) -> list[str]:
    """What ``side`` still has to do before ``done`` (empty when complete)."""
    scn = scene.scenario(s)
    todo: list[str] = []
    if s.phase == "arrive":
        for u in s.units:
            if u.controller == side and u.status == "waiting" and u.arrive_turn == s.turn:
                todo.append(f"place {u.name}")
        return todo
    for r in scene.rolls_for(s, side):
        if r.key not in s.rolls_done:
            todo.append(f"roll {r.key}")
    for d in scene.deploy_for(s, side, arriving=False):
        if scene.unit(s, d.ship).status == "waiting":
            todo.append(f"place {scene.unit(s, d.ship).name}")
    if scn.mines is not None and scn.mines.side == side and s.mines_to_place:
        todo.append(f"place {s.mines_to_place} more mine{'s' if s.mines_to_place > 1 else ''}")
    if scn.batteries is not None and scn.batteries.side == side and s.batteries_to_place:
        todo.append(f"place {s.batteries_to_place} more land batter{'ies' if s.batteries_to_place > 1 else 'y'}")
    if scn.cable is not None and scn.cable.side == side and s.cable is None:
        todo.append("place the cable buoy")
    return todo


def setup_guard(s: State, side: str) -> None:
    """15.0: set-up orders come during set-up or arrivals, from the side placing (Chile first, then Peru)."""
    if s.phase not in ("setup", "arrive"):
        raise WrongPhase("Set-up is over.", hint="Give activation orders now.")
    if side != s.setup_side:
        raise NotYourTurn(f"{SIDE_NAMES[s.setup_side]} is setting up now, not {SIDE_NAMES.get(side, side)}.")


def do_roll(s: State, dice: Dice, events: list[Event], side: str, order: Roll) -> None:
    """The scenario's set-up rolls (15.x): steam, arrivals, inshore squadron, cable, mines, batteries, damage; secret ones sealed to their side."""
    key = order.what
    setup_guard(s, side)
    if s.phase != "setup":
        raise WrongPhase("Set-up rolls are made before play.")
    specs = {r.key: r for r in scene.rolls_for(s, side)}
    if key not in specs:
        known = ", ".join(sorted(specs)) or "none"
        raise IllegalOrder(f"{SIDE_NAMES[side]} has no set-up roll {quote(key)} in this scenario.", hint=f"Rolls: {known}.")
    if key in s.rolls_done:
        raise IllegalOrder(f"The {quote(key)} roll is already made.")
    spec = specs[key]
    rolled = roll(spec.dice, dice.rng)
    value = rolled.total
    s.rolls_done[key] = value
    meaning = _roll_effect(s, spec, value)
    text = f"{spec.dice} = {value}: {meaning}"
    if spec.secret:
        nonce = dice.rng.nonce()
        digest = seal(text, nonce)
        s.secrets.append(Secret(key, side, spec.purpose, value, text, nonce, digest))
        say(events, f"{SIDE_NAMES[side]} makes a secret roll: {spec.purpose}. Commitment: `{digest}`.")
        tell(events, side, f"Your secret roll ({spec.purpose}): {rolled.describe()} → {meaning}. Nonce `{nonce}`.")
    else:
        say(events, f"{SIDE_NAMES[side]} rolls for {spec.purpose}: {rolled.describe()} → {meaning}.")


def _roll_effect(s: State, spec: RollSpec, value: int) -> str:
    scn = scene.scenario(s)
    if spec.key == "steam":
        s.steam_turns = 1 if value <= 2 else 2 if value <= 4 else 3
        return f"the Covadonga moves at 1 MP for {s.steam_turns} turn{'s' if s.steam_turns > 1 else ''}"
    if spec.key == "arrival":
        for d in scn.deploy:
            if d.arrive_roll == "arrival":
                scene.unit(s, d.ship).arrive_turn = value
        return f"the Unión arrives on turn {value}"
    if spec.key == "inshore":
        turn = 2 if value % 2 == 0 else 3
        for d in scn.deploy:
            if d.arrive_roll == "inshore":
                scene.unit(s, d.ship).arrive_turn = turn
        return f"the Inshore Squadron enters on turn {turn}"
    if spec.key == "cable":
        return f"the cable is cut after {value} consecutive activations atop the buoy"
    if spec.key == "mines":
        s.mines_to_place = value
        return f"{value} mine counters to place"
    if spec.key == "batteries":
        n = max(0, value) if s.scenario != "s4" else (2 if value % 2 == 0 else 3)
        s.batteries_to_place = n
        return f"{n} land batter{'ies' if n != 1 else 'y'}"
    if spec.key == "damage":
        u = scene.unit(s, "independencia")
        hits = (1 if value % 2 else 2) if s.scenario == "s3" else (2 if value % 2 == 0 else 3)
        u.hits = hits
        return f"the Independencia starts with {hits} hits"
    return str(value)


def place_unit(s: State, events: list[Event], side: str, order: Place) -> None:
    """Set a ship up in its scenario zone with a printed compass facing (15.x set-up), or bring an arrival on."""
    uid, h, printed_facing = order.unit.id, scene.layout(s).parse(order.hex), order.facing
    setup_guard(s, side)
    u = scene.unit(s, uid)
    if u.side != side:
        raise NotYourTurn(f"{u.name} is not a {SIDE_NAMES[side]} ship.")
    spec = scene.spec_of(s, uid)
    if spec is None:
        raise IllegalOrder(f"{u.name} does not take part in this scenario.")
    arriving = bool(spec.arrive_turn or spec.arrive_roll)
    if s.phase == "setup" and arriving:
        raise IllegalOrder(f"{u.name} is not set up now: it arrives later in the game.")
    if s.phase == "arrive" and not (u.status == "waiting" and u.arrive_turn == s.turn):
        raise IllegalOrder(f"{u.name} is not arriving now.")
    why = scene.in_zone(s, spec.zone, h)
    if why:
        raise IllegalOrder(f"{u.name} cannot set up in {quote(scene.label(s, h) if scene.layout(s).on_map(h) else '?')}: {why}.", hint=f"Zone: {spec.zone.describe()}.")
    if scene.terrain(s, h) in scene.LAND:
        raise IllegalOrder(f"{u.name} cannot set up on {scene.terrain(s, h)} ({scene.label(s, h)}).")
    occupant = scene.unit_at(s, h)
    if occupant is not None and occupant.id != uid:
        raise IllegalOrder(f"{scene.label(s, h)} is occupied by {occupant.name}: no stacking.")
    if scene.mine_at(s, h) is not None:
        raise IllegalOrder(f"{scene.label(s, h)} holds a mine counter; set up elsewhere.")
    printed_facing = _checked_facing(u, spec, printed_facing)
    _check_group(s, u, spec, h)
    u.q, u.r = h.q, h.r
    u.facing = scene.dir_of(s, printed_facing)
    u.status = "afloat"
    say(events, f"{u.name} sets up in {scene.label(s, h)} facing {printed_facing}.")
    if s.scenario == "s3" and s.cable is not None and s.cable_ship == uid:
        s.cable = (h.q, h.r)


def _checked_facing(u: Unit, spec: DeploySpec, printed_facing: int | None) -> int:
    """A set-up needs a facing, one of those the scenario allows if it lists any."""
    if printed_facing is None:
        if spec.facings:
            raise IllegalOrder(f"Give {u.name}'s facing: " + " or ".join(str(f) for f in spec.facings) + ".")
        raise IllegalOrder(f"Give {u.name}'s facing, a compass number 1-6.")
    if spec.facings and printed_facing not in spec.facings:
        raise IllegalOrder(
            f"{u.name} must face " + " or ".join(str(f) for f in spec.facings) + f", not {printed_facing}.",
        )
    return printed_facing


def _check_group(s: State, u: Unit, spec: DeploySpec, h: Hex) -> None:
    """Ships of one set-up group stay within the scenario's distance of each other."""
    if not (spec.group and spec.group_within):
        return
    for mate in s.units:
        mspec = scene.spec_of(s, mate.id)
        if mate.id != u.id and mate.afloat and mspec is not None and mspec.group == spec.group and distance(h, scene.pos(mate)) > spec.group_within:
            raise IllegalOrder(f"{u.name} must be within {spec.group_within} hexes of {mate.name} ({scene.label(s, scene.pos(mate))}).")


def place_battery(s: State, events: list[Event], side: str, order: PlaceBattery) -> None:
    """7.2 and Scenario 4 set-up: place one of the rolled land batteries on a land hex of its zone."""
    h = scene.layout(s).parse(order.hex)
    scn = scene.scenario(s)
    setup_guard(s, side)
    spec = scn.batteries
    if spec is None or spec.side != side:
        raise IllegalOrder(f"{SIDE_NAMES[side]} places no land batteries in this scenario.")
    if "batteries" not in s.rolls_done:
        raise IllegalOrder("Roll for the number of land batteries first.", hint="Order: roll batteries")
    if s.batteries_to_place <= 0:
        raise IllegalOrder("All land batteries are placed.")
    if scene.terrain(s, h) not in scene.LAND:
        raise IllegalOrder(f"A land battery goes on a land or town hex; {scene.label(s, h)} is {scene.terrain(s, h)}.")
    why = scene.in_zone(s, spec.zone, h)
    if why:
        raise IllegalOrder(f"No battery in {quote(scene.label(s, h))}: {why}.", hint=f"Zone: {spec.zone.describe()}.")
    if scene.unit_at(s, h) is not None:
        raise IllegalOrder(f"{scene.label(s, h)} already holds a battery: one per hex.")
    b = battery()
    n = sum(1 for u in s.units if u.battery) + 1
    s.units.append(
        Unit(id=f"battery{n}", name=f"{b.name} {n}", side=side, type="battery", mf=0, cf=b.cf, pf=b.pf, q=h.q, r=h.r, status="afloat", controller=side)
    )
    s.batteries_to_place -= 1
    say(events, f"{SIDE_NAMES[side]} places {b.name} {n} in {scene.label(s, h)}.")


def place_cable(s: State, events: list[Event], side: str, order: CableAt) -> None:
    """Scenarios 3 and 4 (15.4, 15.5): place the cable buoy on a hex, or under a ship in Scenario 3."""
    _put_cable(s, events, side, scene.layout(s).parse(order.hex))


def _put_cable(s: State, events: list[Event], side: str, h: Hex) -> None:
    """The buoy in hex ``h``: ``cable 2004`` and ``cable <ship>`` both come here."""
    scn = scene.scenario(s)
    setup_guard(s, side)
    spec = scn.cable
    if spec is None or spec.side != side:
        raise IllegalOrder("There is no cable buoy for you to place in this scenario.")
    if spec.on_ship:
        ship = scene.unit_at(s, h)
        if ship is None or ship.side != side or ship.battery:
            raise IllegalOrder(f"The buoy goes in the same hex as a {SIDE_NAMES[side]} ship; {scene.label(s, h)} holds none.", hint="Set up the ship first, then: cable <ship>.")
        s.cable_ship = ship.id
    else:
        why = scene.in_zone(s, spec.zone, h)
        if why or scene.terrain(s, h) in (*scene.LAND, *scene.WATER_SHALLOW):
            raise IllegalOrder(f"The buoy cannot go in {scene.label(s, h)}: {why or 'it must be deep water'}.", hint=f"Zone: {spec.zone.describe()}, not land or shallow water.")
    s.cable = (h.q, h.r)
    say(events, f"{SIDE_NAMES[side]} places the Underwater Cable Buoy in {scene.label(s, h)}.")


def setup_done(s: State, dice: Dice, events: list[Event], side: str) -> None:
    """End a side's set-up (Chile first, then Peru) or its arrivals; play starts when both are done
    (the caller then draws the first card, ``activations_4.advance``)."""
    setup_guard(s, side)
    todo = setup_remaining(s, side)
    if todo:
        raise IllegalOrder(f"{SIDE_NAMES[side]} is not finished setting up.", hint="Still to do: " + "; ".join(todo) + ".")
    if s.phase == "arrive":
        say(events, f"{SIDE_NAMES[side]}'s arrivals are in place.")
        sequence_3.begin_activations(s)
        return
    say(events, f"{SIDE_NAMES[side]} has finished setting up.")
    if side == "chile":
        s.setup_side = "peru"
    else:
        sequence_3.begin_turn(s, dice, events, 1)


def cable_turn_check(s: State, dice: Dice, events: list[Event]) -> None:
    """15.4.2: a whole turn atop the buoy without moving, firing, ramming or boarding."""
    if not s.cable_ship or s.cable is None:
        return
    u = scene.unit(s, s.cable_ship)
    if not u.afloat or (u.q, u.r) != s.cable or not s.cable_clean or u.controller != "peru":
        s.cable_progress = 0
        return
    s.cable_progress += 1
    die = dice.d(10)
    mod = s.cable_progress - 1
    total = die + mod
    text = f"{u.name} works on the cable (turn {s.cable_progress} atop the buoy): d10 **{die}**{describe_mods([('turns after the first', mod)])} = {total} vs 5"
    if total >= 5:
        s.cable_cut = True
        say(events, f"{text}: **the cable is cut**.")
    else:
        say(events, f"{text}: not yet.")


def bombard(s: State, dice: Dice, events: list[Event], side: str, order: Bombard) -> None:
    """15.5.4: Huáscar fires on Antofagasta for bombardment points."""
    scn = scene.scenario(s)
    uid = order.unit.id
    u = sequence_3.activation_guard(s, side, uid)
    if scn.bombard_target <= 0:
        raise IllegalOrder("There is no bombardment in this scenario.")
    if u.id != "huascar":
        raise IllegalOrder("Only the Huáscar bombards the town (15.5.4).")
    if u.boarding_with:
        raise IllegalOrder(f"{u.name} is locked in a Boarding Combat.")
    towns = [h for h, t in scene.hexmap(s).terrain.items() if t == "town"]
    in_range = [h for h in towns if distance(scene.pos(u), h) <= 4 and not scene.line_blocker(s, scene.pos(u), h)]
    if not in_range:
        raise IllegalOrder(f"{u.name} has no Antofagasta hex within range 4 and line of sight.")
    rng = min(distance(scene.pos(u), h) for h in in_range)
    die = dice.d(6)
    mods: list[tuple[str, int]] = []
    if "abtao" in s.fired_on_huascar:
        mods.append(("fired upon by the Abtao", -1))
    if "magallanes" in s.fired_on_huascar:
        mods.append(("fired upon by the Magallanes", -1))
    if rng >= 3:
        mods.append((f"range {rng}", -1))
    total = max(0, die + sum(v for _, v in mods))
    s.bombard_hits += total
    s.last = LastAction("fire", side, [(u.q, u.r), (in_range[0].q, in_range[0].r)], f"bombard {total}")
    say(events, f"{u.name} bombards Antofagasta: d6 **{die}**{describe_mods(mods)} = {total} bombardment hits (total {s.bombard_hits} of {scn.bombard_target}).")


def cut(s: State, events: list[Event], side: str, order: Cut) -> None:
    """Scenario 4 (15.5): an activation atop the buoy works on cutting the cable; the secret roll says how many it takes."""
    scn = scene.scenario(s)
    uid = order.unit.id
    u = sequence_3.activation_guard(s, side, uid)
    spec = scn.cable
    if spec is None or spec.rule != "activations":
        raise IllegalOrder("Cable cutting by activations is not part of this scenario.", hint="In Scenario 3 the ship just stays atop the buoy all turn.")
    if s.cable_cut:
        raise IllegalOrder("The cable is already cut.")
    if s.cable is None or (u.q, u.r) != s.cable:
        raise IllegalOrder(f"{u.name} is not atop the Underwater Cable Buoy.")
    if u.boarding_with:
        raise IllegalOrder(f"{u.name} is locked in a Boarding Combat.")
    s.cable_ship = u.id
    s.cable_slow = True
    s.cable_progress += 1
    need = scene.secret_value(s, "cable")
    say(events, f"{u.name} spends an activation cutting the cable ({s.cable_progress} so far).")
    tell(events, side, f"Cable cutting: {s.cable_progress} of {need} activations.")
    if s.cable_progress >= need:
        s.cable_cut = True
        say(events, "**The cable is cut.**")
        reveal(s, events, "cable")
    s.last = LastAction()


def new_state(scenario_id: str, options: dict[str, str]) -> State:
    """A fresh state in the set-up phase (no dice yet: set-up rolls are orders)."""
    scn = scenarios()[scenario_id]
    state = State(scenario=scenario_id, options=dict(options))
    state.turns = int(options["turns"]) if options.get("turns") else scn.turns
    specs = ships()
    for d in scn.deploy:
        if not scene.variant_ok(state, d.variant):
            continue
        sp = specs[d.ship]
        u = Unit(id=sp.id, name=sp.name, side=sp.side, type=sp.type, mf=sp.mf, cf=sp.cf, pf=sp.pf, bow=sp.bow, controller=sp.side, arrive_turn=d.arrive_turn)
        if d.arrive_roll:
            u.arrive_turn = 99  # set by the secret roll
        state.units.append(u)
    if scenario_id == "s1" and scene.opt(state, "boilers") == "bad":
        e = next(u for u in state.units if u.id == "esmeralda")
        e.criticals.append("propulsion")
        e.bad_boilers = True
    state.mine_bag = list(mine_mix())
    if scene.on(state, "fow"):
        state.fow_holder = "peru"
    state.setup_side = "chile"
    return state


def setup_orders(s: State, side: str) -> list[IronOrder]:
    """Set-up orders ``side`` may give now (15.x set-up): its rolls, ship placements, mines,
    batteries, the cable, then ``done``; hexes are a spread sample for autocomplete."""
    out: list[IronOrder] = []
    if s.phase == "setup":
        out.extend(Roll(r.key) for r in scene.rolls_for(s, side) if r.key not in s.rolls_done)
        pending = [scene.unit(s, d.ship) for d in scene.deploy_for(s, side, arriving=False)]
    else:
        pending = [u for u in s.units if u.controller == side and u.status == "waiting" and u.arrive_turn == s.turn]
    for u in pending:
        out.extend(_placements(s, u))
    out.extend(_counter_placements(s, side))
    if not setup_remaining(s, side):
        out.append(Done())
    return out


def _placements(s: State, u: Unit) -> list[IronOrder]:
    """Sample ``at`` orders for one waiting ship: free hexes of its zone, near its group mates."""
    spec = scene.spec_of(s, u.id)
    if u.status != "waiting" or spec is None:
        return []
    facings = spec.facings or (1, 2, 3, 4, 5, 6)
    mates = [
        scene.pos(m) for m in s.units
        if m.id != u.id and m.afloat and spec.group and (scene.spec_of(s, m.id) or spec).group == spec.group
    ]
    cells = [h for h in scene.layout(s).all_hexes()
             if _free_for_ship(s, spec.zone, h) and all(distance(h, m) <= spec.group_within for m in mates)]
    return [Place(ref(u), scene.label(s, h), facings[k % len(facings)]) for k, h in enumerate(spread(cells, 6))]


def _counter_placements(s: State, side: str) -> list[IronOrder]:
    """Sample mine, battery and cable placements the scenario still asks of ``side``."""
    scn = scene.scenario(s)
    hexes = scene.layout(s).all_hexes()
    out: list[IronOrder] = []
    mines = scn.mines
    if mines is not None and mines.side == side and s.mines_to_place > 0:
        cells = [h for h in hexes if not scene.in_zone(s, mines.zone, h) and scene.terrain(s, h) not in scene.LAND and scene.mine_at(s, h) is None and scene.unit_at(s, h) is None]
        out.extend(PlaceMine(scene.label(s, h)) for h in spread(cells, 6))
    bats = scn.batteries
    if bats is not None and bats.side == side and s.batteries_to_place > 0:
        cells = [h for h in hexes if not scene.in_zone(s, bats.zone, h) and scene.terrain(s, h) in scene.LAND and scene.unit_at(s, h) is None]
        out.extend(PlaceBattery(scene.label(s, h)) for h in spread(cells, 6))
    cable = scn.cable
    if cable is not None and cable.side == side and s.cable is None and s.phase == "setup":
        if cable.on_ship:
            out.extend(CableWith(ref(u)) for u in s.units if u.side == side and u.afloat)
        else:
            cells = [h for h in hexes if not scene.in_zone(s, cable.zone, h) and scene.terrain(s, h) == "deep"]
            out.extend(CableAt(scene.label(s, h)) for h in spread(cells, 6))
    return out


def _free_for_ship(s: State, zone: Zone, h: Hex) -> bool:
    return not scene.in_zone(s, zone, h) and scene.terrain(s, h) not in scene.LAND and scene.unit_at(s, h) is None and scene.mine_at(s, h) is None


def spread(items: list[Hex], n: int) -> list[Hex]:
    """Up to ``n`` items spread evenly through the list (varied autocomplete suggestions)."""
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def place_cable_with(s: State, events: list[Event], side: str, order: CableWith) -> None:
    """Scenario 3: the buoy goes in the hex of a ship already set up (``cable <ship>``)."""
    uid = order.ship.id
    u = scene.unit(s, uid)
    if not u.afloat:
        raise IllegalOrder(f"Set up {u.name} before putting the buoy with it.")
    _put_cable(s, events, side, scene.pos(u))
