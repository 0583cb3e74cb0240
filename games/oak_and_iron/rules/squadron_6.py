"""Book section 6 (Creating a Squadron): game sizes, ships bought by points with their upgrades, the
Flagship and its Admiral, and the initiative hand (5 + admiral value cards, at most 2 of one
value, at least 3 kept after play).

Squadrons are written without commas so they survive ``options:k=v,k2=v2``:
``fleet_a=petite-fregate+skill1/sloop/sloop`` ship cards separated by ``/``, upgrades after ``+``,
the first ship the Flagship. Faction cards and upgrade cards (the card game) will sit beside this
module as ``factions_6.py`` and ``upgrades_6.py``.
"""

from __future__ import annotations

from games.core.errors import GameError, InvalidSyntax, quote, resolve_name
from games.oak_and_iron.data import initiative_cards, rules, ship_cards
from games.oak_and_iron.state import ShipState


class SetupError(GameError):
    """A squadron or scenario the rules do not allow."""

    kind = "bad game setup"


def make_ship(ship_id: str, name: str, card_key: str, side: str, x: float, y: float, heading: float, upgrades: list[str]) -> ShipState:
    """A ship from its card (ch. 2, Ship Card Breakdown) with its upgrades applied (ch. 6): skill, Fortitude, Crew."""
    card = ship_cards()[card_key]
    length, beam = rules().base_size(card.size_class)
    ship = ShipState(
        id=ship_id,
        name=name,
        card=card_key,
        side=side,
        x=x,
        y=y,
        heading=heading % 360.0,
        length=length,
        beam=beam,
        fortitude=card.fortitude,
        broadside=card.broadside,
        crew=card.crew,
        windward=card.windward,
        large=card.large,
        special=list(card.special),
        upgrades=list(upgrades),
    )
    for key in upgrades:
        up = rules().upgrade(key)
        if up is None:
            raise SetupError(f"No upgrade called {quote(key)}.", hint=f"Upgrades: {', '.join(u.key for u in rules().upgrades)}.")
        ship.skill = max(ship.skill, up.skill)
        ship.fortitude += up.fortitude
        ship.crew += up.crew
    return ship


def validate_hand(hand: list[str], admiral_value: int, who: str) -> None:
    """INITIATIVE HAND (6): 5 + admiral value cards, different titles, at most 2 of one value, at least 3 not discarded."""
    cards = initiative_cards()
    size = 5 + admiral_value
    if len(hand) != size:
        raise SetupError(f"{who}'s initiative hand has {len(hand)} cards; it must have {size} (5 + admiral value).")
    if len(set(hand)) != len(hand):
        raise SetupError(f"{who}'s initiative hand repeats a card title.")
    values: dict[int, int] = {}
    for key in hand:
        values[cards[key].value] = values.get(cards[key].value, 0) + 1
    if any(n > 2 for n in values.values()):
        raise SetupError(f"{who}'s initiative hand has more than 2 cards of one initiative value.")
    if sum(1 for key in hand if not cards[key].discard) < 3:
        raise SetupError(f"{who}'s initiative hand needs at least 3 cards that are not discarded after play.")


def default_hand(admiral_value: int, preferred: list[str]) -> list[str]:
    """A legal hand when the players give none: the preferred cards first, then the rest in data order."""
    cards = initiative_cards()
    order = preferred + [k for k in cards if k not in preferred]
    hand: list[str] = []
    for key in order:
        if len(hand) == 5 + admiral_value:
            break
        trial = [*hand, key]
        if sum(1 for k in trial if cards[k].value == cards[key].value) > 2:
            continue
        hand.append(key)
    return hand


def resolve_card(text: str) -> str:
    """An initiative card named by key or (part of) its name."""
    if text in initiative_cards():
        return text
    return resolve_name(text.replace("-", " "), {k: c.name for k, c in initiative_cards().items()}, "initiative card")


def _resolve_ship_card(text: str) -> str:
    if text in ship_cards():
        return text
    return resolve_name(text.replace("-", " "), {k: c.name for k, c in ship_cards().items()}, "ship card")


def parse_fleet(text: str, side: str, size_key: str, admiral_points: int) -> list[tuple[str, list[str]]]:
    """``card+upgrade/card`` -> [(card key, upgrades)], checked against the game size."""
    size = rules().size(size_key)
    items: list[tuple[str, list[str]]] = []
    if not text.strip():
        raise InvalidSyntax(f"Squadron {side.upper()} is empty.", hint="Write it like fleet_a=petite-fregate+skill1/sloop.")
    total = admiral_points
    for part in text.split("/"):
        bits = [b.strip() for b in part.split("+") if b.strip()]
        if not bits:
            raise InvalidSyntax(f"Squadron {side.upper()}: empty entry in {quote(text)}.")
        key = _resolve_ship_card(bits[0])
        card = ship_cards()[key]
        if card.size_class == "line" and not size.line_allowed:
            raise SetupError(f"{card.name}: Ships of the Line are not allowed in a {size_key.title()} game.")
        total += card.points
        for up in bits[1:]:
            if rules().upgrade(up) is None:
                raise SetupError(f"No upgrade called {quote(up)}.", hint=f"Upgrades: {', '.join(u.key for u in rules().upgrades)}.")
            cost = card.upgrade_cost(up)
            if cost <= 0:
                raise SetupError(f"{card.name} does not offer the upgrade {quote(up)}.")
            total += cost
        items.append((key, bits[1:]))
    if not size.min_ships <= len(items) <= size.max_ships:
        raise SetupError(
            f"Squadron {side.upper()} has {len(items)} ships; a {size_key.title()} game needs {size.min_ships} to {size.max_ships}."
        )
    if total > size.points:
        raise SetupError(f"Squadron {side.upper()} costs {total} points; a {size_key.title()} game allows {size.points}.")
    return items


def squadron_points(items: list[tuple[str, list[str]]], admiral_points: int) -> int:
    """What a squadron costs (6): the admiral, each ship and its upgrades."""
    total = admiral_points
    for key, ups in items:
        card = ship_cards()[key]
        total += card.points + sum(card.upgrade_cost(u) for u in ups)
    return total
