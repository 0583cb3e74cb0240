"""Book section 15.9 (with 15.10 and 15.12): fires in woods, urban areas and wooden obstacles, and
the wind, on the measured table.

A fire is set by an F on the Artillery Shooting Chart (an owner's sheet; the house chart has none)
or by `check fire about AREA` rolled by two stands in the area in the Shooting Phase (a 6). What
burns is a square (house size, rules.toml [fires]) where it was set, swept downwind 2" in each
Movement Phase (15.9), within its piece and into the woods, towns and wooden obstacles it reaches
that touch a burning part (RULINGS.md 15.9). With no wind (option wind=none, the default) a fire
does not spread. Troops in a burning part have three Movement Phases to leave; a unit still in it at
the end of the third is lost and removed (15.9). The wind (15.12) is the option `wind`: a compass
point, or `roll` (1d8 from the game's own stream when both sides are ready).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase
from games.core.geometry import (
    Point,
    Polygon,
    add,
    bearing_vector,
    clip_half_plane,
    convex_hull,
    dot,
    overlaps,
    point_in_polygon,
    polygon_distance,
    scale,
    signed_area,
    sub,
)
from games.core.rng import Rng
from games.core.ruleset import UMPIRE, Event, public
from games.days_of_iron.data import rules
from games.days_of_iron.rules import formations_12, losses_17_5
from games.days_of_iron.schema import FiresSchema
from games.days_of_iron.state import STAFF, STEPS, TURN, Blaze, State, TerrainPiece, Unit

NO_WIND, ROLL = "none", "roll"
# 15.12 "Determine the direction either by a die roll, or using a clock face": the eight compass
# points a wind blows from (the top of the table is north); `roll` reads 1d8 in this order (RULINGS.md 15.12)
COMPASS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
WIND_CHOICES = (NO_WIND, *COMPASS, ROLL)
POINT_NAMES = {"N": "north", "NE": "north-east", "E": "east", "SE": "south-east", "S": "south",
               "SW": "south-west", "W": "west", "NW": "north-west"}
AREA_EPS = 1e-6  # square inches: a clipped part smaller than this is no part


def spec() -> FiresSchema:
    """The fire rules' numbers (``[fires]`` in rules.toml: the book's, and the house's tagged)."""
    return rules().fires


def blows_towards(point: str) -> float:
    """The bearing a wind from ``point`` blows towards (the top of the table is north)."""
    return (COMPASS.index(point) * 360.0 / len(COMPASS) + 180.0) % 360.0


def _towards(point: str) -> str:
    """The compass point a wind from ``point`` blows towards."""
    return COMPASS[(COMPASS.index(point) + len(COMPASS) // 2) % len(COMPASS)]


def wind_words(point: str) -> str:
    """"from the north (blowing south)"."""
    return f"from the {POINT_NAMES[point]} (blowing {POINT_NAMES[_towards(point)]})"


def set_wind(state: State, rng: Rng) -> list[str]:
    """15.12: "Determine wind direction before play": the option's compass point, or 1d8 (house
    die: COMPASS in order) from the game's stream. Called when both sides are ready; with
    wind=none nothing is rolled, so games from before the option replay unchanged."""
    choice = state.options.get("wind", NO_WIND)
    if choice == NO_WIND:
        return []
    if choice == ROLL:
        face = rng.die(len(COMPASS))
        state.wind = COMPASS[face - 1]
        how = f"1d{len(COMPASS)} = {face}: "
    else:
        state.wind, how = choice, "as agreed, "
    return [f"Wind (15.12): {how}{wind_words(state.wind)}; smoke drifts and fires spread "
            f"{POINT_NAMES[_towards(state.wind)]}."]


# --- where a fire burns ---------------------------------------------------------------------------
def flammable(piece: TerrainPiece) -> bool:
    """15.9 woods and urban areas; 15.10 a wall piece only when its name says it is wooden."""
    if piece.type in spec().burns:
        return True
    name = piece.name.casefold()
    return piece.type == "wall" and any(w in name for w in spec().wooden)


def _outline(piece: TerrainPiece) -> Polygon:
    return tuple((p[0], p[1]) for p in piece.points)


def clip(subject: Sequence[Point], clipper: Sequence[Point]) -> Polygon:
    """The part of a convex polygon inside another convex polygon."""
    out: Polygon = tuple(subject)
    n = len(clipper)
    cx = sum(p[0] for p in clipper) / n
    cy = sum(p[1] for p in clipper) / n
    for i in range(n):
        a, b = clipper[i], clipper[(i + 1) % n]
        normal = (a[1] - b[1], b[0] - a[0])
        if dot(sub((cx, cy), a), normal) < 0:
            normal = (-normal[0], -normal[1])
        out = clip_half_plane(out, a, normal)
        if len(out) < 3:
            return ()
    return out


def swept(state: State, blaze: Blaze) -> Polygon:
    """The ground the fire has reached: its first square swept ``spread`` inches downwind."""
    h = spec().seat / 2
    square = [(blaze.x - h, blaze.y - h), (blaze.x + h, blaze.y - h), (blaze.x + h, blaze.y + h), (blaze.x - h, blaze.y + h)]
    if not blaze.spread or not state.wind:
        return tuple(square)
    step = scale(bearing_vector(blows_towards(state.wind)), blaze.spread)
    return convex_hull(square + [add(p, step) for p in square])


def burning(state: State, blaze: Blaze) -> list[tuple[TerrainPiece, Polygon]]:
    """Each piece the fire burns in and the part of it burning: its own piece, then every other
    flammable piece the swept ground covers that touches a part already burning (RULINGS.md 15.9)."""
    reach = swept(state, blaze)
    origin = next((t for t in state.terrain if t.name == blaze.piece), None)
    if origin is None:
        return []
    parts = [(origin, clip(reach, _outline(origin)))]
    others = [t for t in state.terrain if t is not origin and flammable(t)]
    grew = True
    while grew:
        grew = False
        for t in list(others):
            part = clip(reach, _outline(t))
            if len(part) >= 3 and abs(signed_area(part)) > AREA_EPS and any(
                    len(p) >= 3 and polygon_distance(part, p) <= 1e-6 for _, p in parts):
                parts.append((t, part))
                others.remove(t)
                grew = True
    return [(t, p) for t, p in parts if len(p) >= 3]


def fire_parts(state: State) -> list[tuple[TerrainPiece, Polygon]]:
    """Every burning part of the table now: the piece and the ground of it on fire."""
    return [part for blaze in state.fires for part in burning(state, blaze)]


def in_fire(state: State, unit: Unit, parts: list[tuple[TerrainPiece, Polygon]]) -> TerrainPiece | None:
    """The burning piece a unit on the table stands in (any part of its stands), if any."""
    if not formations_12.on_table(unit) or (unit.type in STAFF and unit.attached):
        return None
    body = formations_12.base(unit).polygon()
    return next((t for t, p in parts if overlaps(body, p)), None)


# --- setting a fire -------------------------------------------------------------------------------
def area_named(state: State, about: str | None) -> TerrainPiece | None:
    """The terrain piece a `check fire about ...` names on the measured table (None: free text)."""
    if not about or not formations_12.measured(state):
        return None
    names = {t.name.casefold(): t for t in state.terrain}
    return names.get(about.strip().casefold())


def _setters(state: State, side: str, piece: TerrainPiece) -> list[Polygon]:
    """The part in ``piece`` of each of the side's units standing (wholly or partly) in it."""
    outline = _outline(piece)
    parts = [clip(formations_12.base(u).polygon(), outline) for u in state.units
             if u.side == side and u.type != "general" and formations_12.on_table(u)]
    return [p for p in parts if len(p) >= 3 and abs(signed_area(p)) > AREA_EPS]


def _stands_in(state: State, side: str, piece: TerrainPiece) -> int:
    outline = _outline(piece)
    return sum(u.stands for u in state.units if u.side == side and u.type != "general" and formations_12.on_table(u)
               and overlaps(formations_12.base(u).polygon(), outline))


def check_setting(state: State, seat: str, about: str | None) -> None:
    """15.9 on the measured table, `check fire about AREA` naming a piece: a wood, urban area or
    wooden obstacle (15.10), in the Shooting Phase, by the acting side with two stands in it."""
    piece = area_named(state, about)
    if piece is None:
        return
    if not flammable(piece):
        burns = ", ".join(spec().burns)
        raise IllegalOrder(f"{piece.name} ({piece.type}) does not burn: 15.9 sets urban areas and woods on "
                           f"fire, 15.10 wooden obstacles.", hint=f"Types that burn: {burns}, or a wall named wooden.")
    if state.phase != TURN or STEPS[state.step] != "Shooting":
        raise WrongPhase("fires are set in the Shooting Phase (15.9).", hint="Say `next` to reach it.")
    side = state.acting_side()
    if seat not in (side, UMPIRE):
        raise NotYourTurn(f"the {state.side_name(side)} act now: only they may set a fire.")
    stands = _stands_in(state, side, piece)
    if stands < spec().stands:
        raise IllegalOrder(f"the {state.side_name(side)} have {stands} stand{'s' if stands != 1 else ''} in "
                           f"{piece.name}: it takes {spec().stands} within the area to set it alight (15.9).",
                           hint="Move a unit into it in the Movement phase first.")
    centre = _centre(_setters(state, side, piece))
    if any(point_in_polygon(centre, p) for _, p in fire_parts(state)):
        raise IllegalOrder(f"{piece.name} is already burning where the {state.side_name(side)} stand.")
    if _tried(state, side, piece) in state.fires_tried:
        raise IllegalOrder(f"the {state.side_name(side)} have already tried to set {piece.name} alight this "
                           "Shooting Phase (one roll a phase, RULINGS.md 15.9).", hint="Try again next turn.")


def _tried(state: State, side: str, piece: TerrainPiece) -> str:
    return f"{state.turn}:{side}:{piece.name}"


def _centre(parts: list[Polygon]) -> Point:
    """The middle of the setting units' parts in the piece (the mean of their vertices' means)."""
    mids = [(sum(p[0] for p in part) / len(part), sum(p[1] for p in part) / len(part)) for part in parts]
    return (sum(m[0] for m in mids) / len(mids), sum(m[1] for m in mids) / len(mids))


def after_check(state: State, about: str | None, roll: int) -> list[Event]:
    """A 6 on `check fire about AREA` sets the piece alight where the acting side's stands stand."""
    piece = area_named(state, about)
    if piece is None:
        return []
    state.fires_tried = [t for t in state.fires_tried if t.startswith(f"{state.turn}:")] + [
        _tried(state, state.acting_side(), piece)]  # this turn's tries only: the state does not grow
    if roll != 6:  # 15.9 "on a roll of a 6 on a 1d6"
        return []
    return [public(" ".join(ignite(state, piece, _centre(_setters(state, state.acting_side(), piece)), "two stands' 6")))]


def artillery_f(state: State, target: Unit) -> str:
    """15.9: "Rolling an F on the Artillery Shooting Chart sets urban areas and woods on fire": the
    flammable piece the target stands in catches fire around it (the F itself causes no casualties);
    the words added to the shot's line ("" if nothing catches)."""
    if not formations_12.measured(state):
        return ""
    piece = next((t for t in state.terrain if flammable(t) and point_in_polygon((target.x, target.y), _outline(t))), None)
    if piece is None or any(point_in_polygon((target.x, target.y), p) for _, p in fire_parts(state)):
        return ""
    return "; F: " + " ".join(ignite(state, piece, (target.x, target.y), "an F on the Artillery chart"))


def ignite(state: State, piece: TerrainPiece, at: Point, how: str) -> list[str]:
    """A new fire in ``piece`` centred ``at``; every unit in it is warned and counted (15.9)."""
    state.fires.append(Blaze(piece.name, round(at[0], 6), round(at[1], 6), state.turn))
    lines = [f"{piece.name} is on fire ({how}, 15.9): {spec().seat:g}\" square burning around "
             f"({at[0]:g}\", {at[1]:g}\")" + (f", spreading {spec().spread:g}\" {POINT_NAMES[_towards(state.wind)]} "
                                              "in each Movement Phase." if state.wind else "; no wind, so it does not spread.")]
    parts = fire_parts(state)
    for u in state.units:
        if in_fire(state, u, parts) is not None and u.id not in state.in_fire:
            state.in_fire[u.id] = 0
            lines.append(_warning(u, spec().turns))
    return lines


def _warning(unit: Unit, left: int) -> str:
    return (f"{unit.name} is in the fire: it must leave within {left} Movement Phase{'s' if left != 1 else ''} "
            "or be lost (15.9).")


# --- the Movement Phase --------------------------------------------------------------------------
def end_of_movement(state: State) -> list[Event]:
    """As the Movement Phase ends: each fire spreads 2" downwind (15.9, 15.12), then every unit in a
    burning part is counted; one still in it at the end of its third Movement Phase is lost."""
    if not state.fires and not state.in_fire:
        return []
    lines: list[str] = []
    if state.wind:
        for blaze in state.fires:
            before = sum(abs(signed_area(p)) for _, p in burning(state, blaze))
            blaze.spread += spec().spread
            after = sum(abs(signed_area(p)) for _, p in burning(state, blaze))
            if after > before + AREA_EPS:
                lines.append(f"The fire in {blaze.piece} spreads {spec().spread:g}\" "
                             f"{POINT_NAMES[_towards(state.wind)]} (15.9).")
            else:
                blaze.spread -= spec().spread  # burnt out to the edge downwind: nothing more to reach
    events = [public(" ".join(lines))] if lines else []
    parts = fire_parts(state)
    for u in state.units:
        if in_fire(state, u, parts) is None:
            state.in_fire.pop(u.id, None)
            continue
        if u.id not in state.in_fire:
            state.in_fire[u.id] = 0
            events.append(public(_warning(u, spec().turns)))
            continue
        state.in_fire[u.id] += 1
        left = spec().turns - state.in_fire[u.id]
        if left > 0:
            events.append(public(_warning(u, left)))
            continue
        del state.in_fire[u.id]
        events.append(public(f"{u.name} did not leave the fire in {spec().turns} turns: lost from play and removed (15.9)."))
        events += losses_17_5.loss(state, u, u.stands)
    return events


# --- what everyone sees ---------------------------------------------------------------------------
def status_lines(state: State) -> list[str]:
    """The wind and the fires, with the units in them and how long they have left."""
    lines = [f"Wind (15.12): {wind_words(state.wind)}."] if state.wind else []
    if state.fires:
        where = sorted({t.name for t, _ in fire_parts(state)})
        caught = [f"{state.unit(uid).name} {spec().turns - n} left" for uid, n in state.in_fire.items()]
        lines.append("On fire (15.9): " + ", ".join(where) + (f"; in the fire: {', '.join(caught)}" if caught else "") + ".")
    return lines

