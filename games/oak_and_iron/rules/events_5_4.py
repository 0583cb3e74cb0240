"""Book section 5.4 (Additional Rules: Events): when both initiative
cards show the same value an event card is drawn; it stays face up for the turn."""

from __future__ import annotations

from games.oak_and_iron.data import event_cards
from games.oak_and_iron.rules.ship_status_4_2 import add_fatigue
from games.oak_and_iron.state import State


def event_amount(state: State, effect: str) -> int:
    """The total ``amount`` of the face-up event cards with that effect (speed, attack dice)."""
    return sum(event_cards()[e].amount for e in state.events_active if event_cards()[e].effect == effect)


def draw_event(state: State) -> list[str]:
    """EVENTS (5.4): draw the top card and resolve what it does at once (rally or tire every ship)."""
    if not state.event_deck:
        return ["The event deck is empty: no event."]
    key = state.event_deck.pop(0)
    card = event_cards()[key]
    state.events_active.append(key)
    lines = [f"Event: {card.name}: {card.text}"]
    notes: list[str] = []
    if card.effect == "rally_all":
        for ship in state.ships:
            if ship.can_act and ship.fatigue:
                ship.fatigue = max(0, ship.fatigue - card.amount)
                notes.append(f"{ship.name} Fatigue -> {ship.fatigue}")
    elif card.effect == "fatigue_all":
        for ship in state.ships:
            if ship.can_act:
                add_fatigue(ship, card.amount, notes)
    return lines + notes
