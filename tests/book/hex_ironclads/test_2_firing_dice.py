"""Book 003, "Firing Dice" (numbered 2 here: see test_sections_covered for the numbering)."""

from __future__ import annotations

import pytest

from games.hex_ironclads.state import State
from tests.book.hex_ironclads.book import (
    NE,
    SE,
    E,
    ScriptedDice,
    W,
    along,
    fails,
    fire_turn,
    fv,
    game,
    order,
    path,
    stand,
    texts,
)


def firing(firer: str, facing: int, target: str, hexes: int, direction: int = E) -> State:
    """``firer`` on 0105 facing ``facing``, ``target`` ``hexes`` away along ``direction``; a third
    ship far off keeps both sides in the game."""
    state = game(firer, target, "Teaser" if "Teaser" not in (firer, target) else "Jamestown")
    stand(state, firer, "0105", facing)
    stand(state, target, along(state, "0105", direction, hexes), NE)
    other = next(s.name for s in state.ships if s.name not in (firer, target))
    stand(state, other, "1308", W)
    return state


def side_of(state: State, name: str) -> str:
    return next(s.side for s in state.ships if s.name == name)


def _thrown(state: State, firer: str, target: str, dice: int) -> str:
    """Seal both sides with exactly ``dice`` firing dice (all Misses) and the initiative pair
    scripted; a rule that throws one die more or fewer fails. Returns the fire line."""
    stream = ScriptedDice([1] * dice + [1, 2])
    a, b = (s.id for s in state.sides)
    out = texts(order(state, a, "seal", stream) + order(state, b, "seal", stream))
    assert not stream.dice, f"fewer dice thrown than {dice}"
    line = next(x for x in out.splitlines() if x.startswith(f"{firer} fires at {target}"))
    assert line.count("Miss") == dice
    return line


def test_the_firing_die_faces() -> None:
    """2.1: "1 x Major hit (worth two Flotation Value points) = White"; "2 x Minor hit (worth one
    Flotation Value point) = Blue"; "3 x Miss = Red". On an ordinary d6 (RULINGS.md, firing die) a 6
    is the Major, 4 and 5 the Minors, 1-3 the Misses: six dice showing 1-6 cost 2 + 1 + 1 points."""
    state = firing("Monitor", E, "Virginia", 1)
    out = fire_turn(state, ["Monitor fire Virginia"], [], [6, 5, 4, 3, 2, 1, 1, 2])
    assert "6 Major, 5 Minor, 4 Minor, 3 Miss, 2 Miss, 1 Miss" in out
    assert fv(state, "Virginia") == 8 - 4


def test_a_ship_fires_at_one_target_only() -> None:
    """2.2: "No ship may fire its guns at more than one target each turn." A second target for
    Monitor is refused while the first stands."""
    state = firing("Monitor", E, "Virginia", 1)
    stand(state, "Teaser", along(state, "0105", SE, 1), NE)
    order(state, "union", "Monitor fire Virginia", ScriptedDice())
    assert "one target" in fails(state, "union", "Monitor fire Teaser")


def test_no_fire_without_direct_line_of_sight() -> None:
    """2.3: "No ship may fire its guns at a target that is not in direct line-of-sight." Teaser lies
    on the straight line between Monitor and Virginia; the book leaves open whether ships block, and
    the ruling (RULINGS.md, line of sight) says they do."""
    state = firing("Monitor", E, "Virginia", 2)
    stand(state, "Teaser", along(state, "0105", E, 1), NE)
    assert "sight" in fails(state, "union", "Monitor fire Virginia").lower()


COUNTDOWN = [(1, 6), (2, 5), (3, 4), (4, 3), (5, 2), (6, 1)]


@pytest.mark.parametrize(
    ("bearing", "hexes", "dice"),
    [(E, h, d) for h, d in COUNTDOWN] + [(W, h, d) for h, d in COUNTDOWN] + [(SE, h, d) for h, d in COUNTDOWN[:4]],
)
def test_a_turret_ship_fires_full_dice_all_round_one_fewer_a_hex(bearing: int, hexes: int, dice: int) -> None:
    """2.4: "Turreted Monitors: Can fire at targets that are within a three hundred and sixty degree
    arc (i.e. they can fire will full effect at any target). The number of dice thrown is reduced by
    one for every hex the target ship is distant from the firing ship." The countdown "6-5-4-3-2-1"
    (the book's "four hexes away ... two dice" contradicts it: RULINGS.md, turret countdown).
    Monitor faces E; the target lies ahead, astern or abeam (SE: open water reaches four hexes)."""
    state = game("Monitor", "Virginia", "Teaser")
    stand(state, "Monitor", "0705", E)
    stand(state, "Teaser", "1308", W)
    stand(state, "Virginia", along(state, "0705", bearing, hexes), NE)
    _fire(state, "Monitor", "Virginia", dice)


def test_a_turret_ship_cannot_fire_beyond_its_countdown() -> None:
    """2.4: "The number of dice thrown depends upon the range, and is counted down as follows:
    6-5-4-3-2-1." At seven hexes no die is left."""
    state = game("Monitor", "Virginia", "Teaser")
    stand(state, "Monitor", "0105", E)
    stand(state, "Teaser", "1308", W)
    stand(state, "Virginia", along(state, "0105", E, 7), NE)
    assert "reaches 6 hexes" in fails(state, "union", "Monitor fire Virginia")


@pytest.mark.parametrize(("hexes", "dice"), [(1, 4), (2, 3), (3, 2), (4, 1)])
def test_a_casemate_ironclad_abeam_fires_full_dice(hexes: int, dice: int) -> None:
    """2.5: "a Casemate Ironclad firing at a target ship that is abeam of it ‘fires’ by throwing four
    dice. The number of dice thrown depends upon the range, and is counted down as follows: 4-3-2-1."
    Virginia faces NE; Monitor lies due E, sixty degrees off the keel: abeam."""
    state = game("Virginia", "Monitor", "Minnesota")
    stand(state, "Virginia", "0105", NE)
    stand(state, "Minnesota", "1308", W)
    stand(state, "Monitor", along(state, "0105", E, hexes), NE)
    _fire(state, "Virginia", "Monitor", dice)


def test_a_casemate_ironclad_abeam_cannot_reach_five_hexes() -> None:
    """2.5: "if it is four hexes away, the Casemate ironclad ‘fires’ one die." The countdown ends
    there: five hexes abeam is out of range."""
    state = game("Virginia", "Monitor", "Minnesota")
    stand(state, "Virginia", "0105", NE)
    stand(state, "Minnesota", "1308", W)
    stand(state, "Monitor", along(state, "0105", E, 5), NE)
    assert "reaches 4 hexes" in fails(state, "confederate", "Virginia fire Monitor")


@pytest.mark.parametrize(("hexes", "dice"), [(1, 2), (2, 2), (3, 1), (4, 1)])
@pytest.mark.parametrize(("facing", "where"), [(E, "ahead"), (W, "astern")])
def test_ahead_or_astern_fires_half_dice_one_fewer_every_two_hexes(
    facing: int, where: str, hexes: int, dice: int
) -> None:
    """2.6: "If the target ship is ahead or astern of the firing ship ... the firing ship may ‘fire’
    with half effect (i.e. it only throws half the number of dice it may normally throw). The number
    of dice thrown is reduced by one for every two hexes the target ship is distant from the firing
    ship." The example: "counted down as follows: 2-2-1-1"."""
    state = game("Virginia", "Monitor", "Minnesota")
    stand(state, "Virginia", "0105", facing)
    stand(state, "Minnesota", "1308", W)
    stand(state, "Monitor", along(state, "0105", E, hexes), NE)
    noted = texts(order(state, "confederate", "Virginia fire Monitor", ScriptedDice()))
    assert where in noted
    _thrown(state, "Virginia", "Monitor", dice)


def _fire(state: State, firer: str, target: str, dice: int) -> None:
    order(state, side_of(state, firer), f"{firer} fire {target}", ScriptedDice())
    _thrown(state, firer, target, dice)


def test_a_hex_on_the_arc_line_is_not_wholly_within_the_arc_ahead() -> None:
    """2.5: "If the target ship is not ahead or astern of the firing ship (i.e. it is in a hex that is
    not wholly within a sixty degree arc either side of the hex ahead or astern of the firing ship),
    the firing ship may ‘fire’ with full effect." The hex one E then one NE of a ship facing E lies
    on the thirty-degree line, half outside the arc: abeam, full dice (RULINGS.md, arcs); the hex
    two E then one NE is inside: ahead."""
    state = game("Virginia", "Monitor", "Minnesota")
    stand(state, "Virginia", "0105", E)
    stand(state, "Minnesota", "1308", W)
    stand(state, "Monitor", path(state, "0105", E, NE), NE)
    assert "abeam, 3 dice" in texts(order(state, "confederate", "Virginia fire Monitor", ScriptedDice()))
    order(state, "confederate", "Virginia hold", ScriptedDice())
    stand(state, "Monitor", path(state, "0105", E, E, NE), NE)
    assert "ahead, 1 die" in texts(order(state, "confederate", "Virginia fire Monitor", ScriptedDice()))


def test_land_blocks_the_line_of_sight() -> None:
    """2.3: "No ship may fire its guns at a target that is not in direct line-of-sight." The line
    from 1202 to 1403 runs along the hexside of 1302, a land hex: blocked (RULINGS.md, line of
    sight)."""
    state = game("Monitor", "Virginia", "Teaser")
    stand(state, "Monitor", "1202", W)
    stand(state, "Virginia", "1403", NE)
    stand(state, "Teaser", "0108", E)
    assert "blocked by land at 1302" in fails(state, "union", "Monitor fire Virginia")
