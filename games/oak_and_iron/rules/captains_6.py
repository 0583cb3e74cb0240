"""Book section 6 (Creating a Squadron), captain cards in play (the commander cards, house contents in ``data/oak_and_iron/cards``):
a captain is turned face down and ignored while the Admiral is aboard (4.2 TRANSFER FLAG), and a
struck helm may remove it from the game (4.3 Critical Damage, "the captain or admiral card
assigned to that ship"). The ship's values follow at once (``squadron_6.refresh``)."""

from __future__ import annotations

from games.core.rng import Rng
from games.oak_and_iron.data import CardChanges, captain_cards, rules, scenario_cards
from games.oak_and_iron.rules.dice_2 import count, roll, show
from games.oak_and_iron.rules.fleet_battles_9 import holder_of
from games.oak_and_iron.rules.squadron_6 import refresh
from games.oak_and_iron.state import ShipState, State


def faction_of(state: State, ship: ShipState) -> str:
    """The faction card of the ship's Squadron (its side, or its squadron in a Fleet Battle), "" for
    none; a game stored before the records carried it reads the ``faction_a`` option."""
    found = holder_of(state, ship).faction
    if found:
        return found
    option = state.options.get(f"faction_{ship.side}", "")
    return "" if "|" in option else option


def side_changes(state: State, side_id: str) -> tuple[CardChanges, ...]:
    """Ship changes of the side's advantage card (ch. 7 decks), once the set-up is done."""
    setup = state.setup
    if setup is None or setup.step != "done":
        return ()
    cards = scenario_cards().cards
    found = [cards[k].changes for k in setup.picks.get(side_id, []) if cards[k].deck == "advantage"]
    return tuple(c for c in found if c is not None)


def admiral_aboard(state: State, ship: ShipState) -> bool:
    """The ship carries the admiral card (a Flagship named after the Admiral was lost has none)."""
    return ship.flagship and holder_of(state, ship).admiral_name != "none"


def captain_face_up(state: State, ship: ShipState) -> bool:
    """The ship's captain counts: it has one and the Admiral is not aboard."""
    return bool(ship.captain) and not admiral_aboard(state, ship)


def flag_moved(state: State, *ships: ShipState) -> list[str]:
    """After the Admiral moves: a captain where the Admiral now is goes face down, one the Admiral
    left comes face up again; only ships with a captain change (their values are recomputed)."""
    lines = []
    for ship in ships:
        if not ship.captain:
            continue
        aboard = admiral_aboard(state, ship)
        refresh(ship, faction_of(state, ship), aboard, extra=side_changes(state, ship.side))
        name = captain_cards()[ship.captain].name
        lines.append(f"{ship.name}'s captain ({name}) is " + ("face down while the Admiral is aboard" if aboard else "face up"))
    return lines


def captain_hit(state: State, rng: Rng, ship: ShipState, notes: list[str]) -> None:
    """A struck helm (4.3): a die for a face-up captain; on an officer-hit face it is removed."""
    if not captain_face_up(state, ship):
        return
    faces = roll(rng, 1)
    hit = count(faces, rules().faces_of("officer_hit")) > 0
    name = captain_cards()[ship.captain].name
    notes.append(f"officer check for {ship.name}'s captain ({name}): {show(faces)}" + (" - hit" if hit else ""))
    if hit:
        ship.captain = ""
        refresh(ship, faction_of(state, ship), admiral_aboard(state, ship), extra=side_changes(state, ship.side))
        notes.append(f"{ship.name}'s captain is lost (Skill {ship.skill}, Crew {ship.crew})")
