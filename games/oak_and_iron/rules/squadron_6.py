"""Book section 6 (Creating a Squadron): game sizes, ships bought by points with their upgrades, the
Flagship and its Admiral, and the initiative hand (5 + admiral value cards, at most 2 of one
value, at least 3 kept after play).

Squadrons are written without commas so they survive ``options:k=v,k2=v2``:
``fleet_a=petite-fregate+skill1/sloop+carronades+steady-captain/sloop`` ship cards separated by
``/``; after ``+`` a ship card's own upgrade option (``skill1``), an upgrade card (at most 2) or a
captain card (at most 1, never on the Flagship, whose commander is the admiral card); the first
ship is the Flagship. The faction card (``faction_a``) and the cards' symbols are
``factions_6.py``; the upgrade and captain cards ``upgrades_6.py`` and ``captains_6.py``.
"""

from __future__ import annotations

from games.core.errors import GameError, InvalidSyntax, quote, resolve_name
from games.oak_and_iron.data import (
    CardChanges,
    captain_cards,
    factions,
    initiative_cards,
    rules,
    ship_cards,
    upgrade_cards,
    upgrade_cost,
)
from games.oak_and_iron.state import ShipState


class SetupError(GameError):
    """A squadron or scenario the rules do not allow."""

    kind = "bad game setup"


def make_ship(
    ship_id: str, name: str, card_key: str, side: str, x: float, y: float, heading: float, upgrades: list[str],
    *, faction: str = "", captain: str = "",
) -> ShipState:
    """A ship from its card (ch. 2, Ship Card Breakdown) with its upgrades applied (ch. 6): skill,
    Fortitude, Crew; then its upgrade cards, its faction's rule and its captain (house cards)."""
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
    ship.captain = captain
    refresh(ship, faction)
    return ship


def refresh(ship: ShipState, faction: str, admiral_aboard: bool | None = None, extra: tuple[CardChanges, ...] = ()) -> None:
    """Set the ship's values from its card and every card on it: its own upgrade options, upgrade
    cards, the faction card and its captain unless the captain is face down (the Admiral aboard,
    4.2 TRANSFER FLAG) or lost."""
    card = ship_cards()[ship.card]
    ship.fortitude, ship.broadside, ship.crew = card.fortitude, card.broadside, card.crew
    ship.windward, ship.large, ship.skill = card.windward, card.large, 0
    ship.special = list(card.special)
    changes: list[CardChanges] = []
    for key in ship.upgrades:
        up = rules().upgrade(key)
        if up is not None:
            ship.skill = max(ship.skill, up.skill)
            ship.fortitude += up.fortitude
            ship.crew += up.crew
        elif key in upgrade_cards():
            changes.append(upgrade_cards()[key])
        else:
            raise SetupError(f"No upgrade called {quote(key)}.", hint=f"Upgrades: {', '.join(upgrade_names())}.")
    if faction:
        changes.append(factions()[faction])
    changes += extra  # the Squadron's advantage card (ch. 7)
    if ship.captain and not (ship.flagship if admiral_aboard is None else admiral_aboard):
        changes.append(captain_cards()[ship.captain])
    for c in changes:
        ship.broadside += c.broadside
        ship.crew += c.crew
        ship.fortitude += c.fortitude
        ship.windward += c.windward
        ship.large += c.large
        ship.skill = max(ship.skill, c.skill)
        ship.special += [sp for sp in c.special if sp not in ship.special]


def upgrade_names() -> list[str]:
    """Every upgrade a fleet may name: the ship cards' options and the upgrade cards."""
    return [u.key for u in rules().upgrades] + list(upgrade_cards())


def check_symbol(what: str, name: str, symbol: str, faction: str, who: str) -> None:
    """FACTIONS & SHIPS (6): "All other cards chosen for this force must include the symbol of the
    chosen nationality card or have no symbol"."""
    if symbol and symbol != faction:
        need = factions()[symbol].name
        have = factions()[faction].name if faction else "no faction card"
        raise SetupError(f"{who}: the {what} {name} carries the symbol of the {need}; the Squadron has {have}.")


def validate_hand(hand: list[str], admiral_value: int, who: str, faction: str = "") -> None:
    """INITIATIVE HAND (6): 5 + admiral value cards, different titles, at most 2 of one value, at
    least 3 not discarded, and only cards with the faction's symbol or none."""
    cards = initiative_cards()
    for key in hand:
        check_symbol("initiative card", cards[key].name, cards[key].faction, faction, who)
    size = 5 + admiral_value
    if len(hand) != size:
        raise SetupError(f"{who}'s initiative hand has {len(hand)} cards; it must have {size} (5 + admiral value).")
    if len(set(hand)) != len(hand):
        raise SetupError(f"{who}'s initiative hand repeats a card title.")
    values: dict[int, int] = {}
    for key in hand:
        values[cards[key].value] = values.get(cards[key].value, 0) + 1
    if any(n > 2 for n in values.values()):
        value = next(v for v, n in values.items() if n > 2)
        raise SetupError(f"{who}'s initiative hand has {values[value]} cards of initiative value {value}; at most 2 may share a value.")
    if sum(1 for key in hand if not cards[key].discard) < 3:
        raise SetupError(f"{who}'s initiative hand needs at least 3 cards that are not discarded after play.")


def default_hand(admiral_value: int, preferred: list[str], faction: str = "") -> list[str]:
    """A legal hand when the players give none: the preferred cards first, then the rest in data
    order (only cards the faction may take), skipping a card that would break a limit."""
    cards = initiative_cards()
    order = preferred + [k for k in cards if k not in preferred]
    size = 5 + admiral_value
    hand: list[str] = []
    for key in order:
        if len(hand) == size:
            break
        if cards[key].faction not in ("", faction):
            continue
        trial = [*hand, key]
        if sum(1 for k in trial if cards[k].value == cards[key].value) > 2:
            continue
        kept = sum(1 for k in trial if not cards[k].discard)
        if size - len(trial) < 3 - kept:  # room is still left for 3 cards kept after play
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


def parse_fleet(
    text: str, side: str, size_key: str, admiral_points: int, faction: str = "", *, whole: bool = True
) -> list[tuple[str, list[str]]]:
    """``card+upgrade/card`` -> [(card key, upgrades and captain)], checked against the game size
    (``whole=False``: one squadron of a fleet, whose totals are checked for the fleet), the card
    limits (2 upgrade cards and 1 commander a ship, 6) and the faction's symbol."""
    size = rules().size(size_key)
    items: list[tuple[str, list[str]]] = []
    if not text.strip():
        raise InvalidSyntax(f"Squadron {side.upper()} is empty.", hint="Write it like fleet_a=petite-fregate+skill1/sloop.")
    who = f"Squadron {side.upper()}"
    for n, part in enumerate(text.split("/")):
        bits = [b.strip() for b in part.split("+") if b.strip()]
        if not bits:
            raise InvalidSyntax(f"Squadron {side.upper()}: empty entry in {quote(text)}.")
        key = _resolve_ship_card(bits[0])
        card = ship_cards()[key]
        if card.size_class == "line" and not size.line_allowed:
            raise SetupError(f"{card.name}: Ships of the Line are not allowed in a {size_key.title()} game.")
        ups = bits[1:]
        _check_cards(card.name, key, ups, flagship=n == 0, faction=faction, who=who)
        items.append((key, ups))
    if not whole:
        return items
    if not size.min_ships <= len(items) <= size.max_ships:
        raise SetupError(
            f"Squadron {side.upper()} has {len(items)} ships; a {size_key.title()} game needs {size.min_ships} to {size.max_ships}."
        )
    total = squadron_points(items, admiral_points)
    if total > size.points:
        raise SetupError(f"Squadron {side.upper()} costs {total} points; a {size_key.title()} game allows {size.points}.")
    return items


def _check_cards(name: str, key: str, ups: list[str], *, flagship: bool, faction: str, who: str) -> None:
    """One ship's ``+`` entries: each an upgrade option its card offers, an upgrade card or a captain
    card with the faction's symbol; no entry twice, at most 2 upgrade cards and 1 captain (6)."""
    card = ship_cards()[key]
    for up in ups:
        if up in captain_cards():
            check_symbol("captain card", captain_cards()[up].name, captain_cards()[up].faction, faction, who)
            if flagship:
                raise SetupError(f"{name} is the Flagship: its commander card is the admiral card, so it takes no captain.")
        elif up in upgrade_cards():
            check_symbol("upgrade card", upgrade_cards()[up].name, upgrade_cards()[up].faction, faction, who)
        elif rules().upgrade(up) is None:
            raise SetupError(f"No upgrade or captain called {quote(up)}.",
                             hint=f"Upgrades: {', '.join(upgrade_names())}. Captains: {', '.join(captain_cards())}.")
        elif upgrade_cost(card, up) <= 0:
            raise SetupError(f"{name} does not offer the upgrade {quote(up)}.")
    if len(set(ups)) != len(ups):
        raise SetupError(f"{name} names an upgrade twice in {quote('+'.join([key, *ups]))}.")
    if sum(1 for u in ups if u in upgrade_cards()) > 2:
        raise SetupError(f"{name} has more than 2 upgrade cards; a ship may carry at most 2.")
    if sum(1 for u in ups if u in captain_cards()) > 1:
        raise SetupError(f"{name} has more than 1 captain card; a ship may carry 1 commander card.")


def captain_of(ups: list[str]) -> str:
    """The captain card among a ship's ``+`` entries ("" none)."""
    return next((u for u in ups if u in captain_cards()), "")


def squadron_points(items: list[tuple[str, list[str]]], admiral_points: int) -> int:
    """What a squadron costs (6): the admiral, each ship and its upgrades."""
    total = admiral_points
    for key, ups in items:
        card = ship_cards()[key]
        total += card.points
        for u in ups:
            found = upgrade_cards().get(u) or captain_cards().get(u)
            total += found.points if found is not None else upgrade_cost(card, u)
    return total
