"""Book section 4.1 (ch. 4, phase I: The Initiative Phase): reveal the sealed cards, find who has the initiative
(higher card, then an event and the higher admiral value, then a Challenge Test), seal a card for
next turn, and apply the "Immediately" effects. Skill and Challenge Tests are this section's new terms.

Sealing is simultaneous: each side's choice is kept secret behind a commitment (sha256 of a nonce
and the card) that the reveal lets anyone check.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core.errors import IllegalOrder, NotYourTurn, WrongPhase, quote
from games.core.rng import Rng, seal
from games.core.ruleset import UMPIRE, Event, private, public
from games.oak_and_iron.data import initiative_cards, rules
from games.oak_and_iron.rules import public_lines
from games.oak_and_iron.rules.activation_4 import acting_side
from games.oak_and_iron.rules.dice_2 import count, roll, show
from games.oak_and_iron.rules.events_5_4 import draw_event
from games.oak_and_iron.rules.fleet_battles_9 import (
    fleet_of,
    holder_of,
    holder_of_seat,
    holders,
    may_play,
    seat_of,
    ships_of,
    squadron_seats,
    to_seal,
)
from games.oak_and_iron.state import ShipState, SideState, State


def card_amount(state: State, side_id: str, effect: str, ship: ShipState | None = None) -> int:
    """The ``amount`` of this side's face-up initiative card with that effect (1 if it gives none),
    0 when its card does something else (4.1 step 3: effects last the turn). In a Fleet Battle the
    card of the ship's own squadron (ch. 9), none for a ship its enemy captured."""
    side = state.side(side_id)
    if ship is not None and ship.squadron:
        side = holder_of(state, ship) if not ship.captured_by else SideState("", "", "", "", "", 0)
    total = 0
    if side.face_up:
        card = initiative_cards()[side.face_up]
        if card.effect == effect:
            total += card.amount or 1
    return total


@dataclass
class TestResult:
    passed: bool
    text: str
    successes: int = 0


def skill_test(state: State, ship: ShipState, rng: Rng, *, fortune: bool = False, auto: bool = False) -> TestResult:
    """SKILL TEST (4.1): five dice less Fatigue (at least 1), extra dice after; any success face passes.
    Skill re-rolls failures automatically; ``fortune`` spends a Fortune Point (5.3) to re-roll all."""
    if auto:
        return TestResult(True, "Skill Test passed without a roll (Adjust Position)", 1)
    r = rules()
    wanted = r.faces_of("skill_success")
    n = max(1, r.skill_test_dice - ship.fatigue) + card_amount(state, ship.controller, "skill_dice", ship)
    faces = roll(rng, n)
    parts = [f"Skill Test ({n} dice): {show(faces)}"]
    if not count(faces, wanted) and ship.skill:
        again = roll(rng, min(ship.skill, n))
        faces = again + faces[len(again) :]
        parts.append(f"skill re-roll {len(again)}: {show(again)}")
    side = state.side(ship.controller)
    if not count(faces, wanted) and fortune and side.fortune > 0:
        side.fortune -= 1
        faces = roll(rng, n)
        parts.append(f"Fortune Point re-roll ({side.fortune} left): {show(faces)}")
    ok = count(faces, wanted) > 0
    parts.append("passed" if ok else "failed")
    return TestResult(ok, "; ".join(parts), count(faces, wanted))


def hands_text(own: list[SideState]) -> str:
    """These records' initiative hands, one line each."""
    cards = initiative_cards()
    out = []
    for side in own:
        lines = [f"{cards[k].name} ({cards[k].value}{', discarded after play' if cards[k].discard else ''}): {cards[k].text}" for k in side.hand]
        out.append(f"{side.name}'s initiative hand: " + (" | ".join(lines) if lines else "empty"))
    return "\n".join(out)


def seal_card(state: State, seat: str, card: str, rng: Rng) -> list[Event]:
    """SELECT NEW INITIATIVE CARD (4.1 step 2): the card goes face down, sealed with a nonce."""
    if state.phase != "select":
        raise WrongPhase(f"Initiative cards are chosen in the Initiative Phase; it is now the {state.phase} phase.")
    if seat == UMPIRE:
        raise NotYourTurn("The umpire does not choose initiative cards; each player seals their own.")
    if squadron_seats(state):  # each Squadron's player seals from its own hand (ch. 9, command=squadron)
        own = holder_of_seat(state, seat)
        if own is None:
            raise NotYourTurn(f"The seat {quote(seat)} does not command a squadron.")
        found = own if not own.sealed and own.hand and may_play(state, own) else None
        if found is None and not own.sealed:
            raise IllegalOrder(f"{own.name} plays no initiative card this round (wholly Captured or Out of Action, or no cards left).")
    else:
        found = to_seal(state, acting_side(state, seat))
    if found is None:
        who = holder_of_seat(state, seat) or state.side(acting_side(state, seat))
        raise IllegalOrder(f"{who.name} has already sealed an initiative card this phase.")
    side = found  # in a Fleet Battle, the fleet's next squadron to seal (ch. 9)
    if card not in side.hand:
        names = ", ".join(initiative_cards()[k].name for k in side.hand) or "none"
        raise IllegalOrder(f"{initiative_cards()[card].name} is not in {side.name}'s hand.", hint=f"In hand: {names}.")
    nonce = rng.nonce(card)
    side.sealed = card
    side.sealed_nonce = nonce
    side.sealed_digest = seal(card, nonce)
    side.hand.remove(card)
    note = f"You sealed {initiative_cards()[card].name}{f' for {side.name}' if side.fleet else ''}. Nonce {nonce}."
    following = to_seal(state, side.fleet) if side.fleet and not squadron_seats(state) else None
    if following is not None:  # one seat seals for each Squadron of its fleet in turn (ch. 9)
        note += f" Your next `initiative <card>` seals for {following.name}."
    return [
        public(f"{side.name} seals an initiative card face down (commitment {side.sealed_digest})."),
        private(note, seat_of(state, side)),
    ]


def hand_events(state: State) -> list[Event]:
    """Each seat's initiative hand (its side's, or in a Fleet Battle its squadrons'), to that seat only."""
    seats: dict[str, list[SideState]] = {}
    for holder in holders(state):
        seats.setdefault(seat_of(state, holder), []).append(holder)
    return [private(hands_text(own), seat) for seat, own in seats.items()]


def reveal(state: State, turn: int, rng: Rng) -> tuple[list[Event], bool]:
    """REVEAL INITIATIVE CARD (4.1 step 1) for a new turn; then, while turns and cards remain, ask
    for next turn's sealed card (step 2). Step 3 (``resolve_effects``) follows once that is done.
    Returns the events and whether the players now seal cards."""
    state.turn = turn
    lines = [f"Turn {turn}: Initiative Phase.", *_reveal_cards(state)]
    lines += _initiative_holder(state, rng)
    events = public_lines(lines)
    if turn < rules().turn_limit and any(h.hand for h in holders(state)):
        state.phase = "select"
        events.append(public("Each player now seals an initiative card for the next turn: `initiative <card>`."))
        events += hand_events(state)
        return events, True
    return events, False


def resolve_effects(state: State) -> list[Event]:
    """RESOLVE INITIATIVE CARD EFFECTS (4.1 step 3), after the new cards are sealed (step 2): the
    "Immediately" effects now, the rest noted for the turn."""
    lines: list[str] = []
    for holder in holders(state):
        lines += immediate_card_effect(state, holder)
    for ship in state.ships:
        ship.fatigue_shield = bool(card_amount(state, ship.controller, "ignore_first_fatigue", ship))
    return public_lines(lines)


def _reveal_cards(state: State) -> list[str]:
    cards = initiative_cards()
    lines = []
    for side in holders(state):
        side.face_up = side.sealed
        if side.sealed:
            lines.append(
                f"{side.name} reveals {cards[side.sealed].name} (initiative {cards[side.sealed].value}); "
                f"check: sha256(nonce:card) with nonce {side.sealed_nonce} and card {side.sealed!r} = {side.sealed_digest}."
            )
        else:
            lines.append(f"{side.name} has no initiative card to reveal (initiative 0).")
        side.sealed = side.sealed_nonce = side.sealed_digest = ""
    return lines


def _initiative_holder(state: State, rng: Rng) -> list[str]:
    """The higher card; on a tie an event (5.4), then the higher admiral value, then a Challenge Test."""
    cards = initiative_cards()
    a, b = state.sides
    va, vb = (sum(cards[h.face_up].value for h in holders(state, s.id) if h.face_up) for s in (a, b))  # a fleet adds them up (ch. 9)
    if va != vb:
        state.initiative = a.id if va > vb else b.id
        return [f"{state.side(state.initiative).name} has the initiative ({max(va, vb)} against {min(va, vb)})."]
    lines = [f"{_tie_text(state, va)}: an event card is drawn.", *draw_event(state)]
    aa, ab = (sum(h.admiral_value for h in holders(state, s.id)) for s in (a, b))
    if aa != ab:
        state.initiative = a.id if aa > ab else b.id
        lines.append(f"{state.side(state.initiative).name} has the initiative (admiral value {max(aa, ab)}).")
        return lines
    return lines + challenge_test(state, rng)


def _tie_text(state: State, value: int) -> str:
    """The tie, worded for the cards actually played: two, or a fleet's several (ch. 9), or none."""
    played = sum(1 for h in holders(state) if h.face_up)
    if played == 2 and not state.squadrons:
        return f"Both cards have initiative {value}"
    if played == 0:
        return "No initiative card was played (initiative 0 each)"
    return f"The {played} cards played give each fleet initiative {value}"


def challenge_test(state: State, rng: Rng) -> list[str]:
    """CHALLENGE TEST (4.1): both Flagships make a Skill Test; most successes wins, then higher
    skill, else roll again."""
    lines = ["Admiral values tie: Challenge Test between the Flagships."]
    for _ in range(100):
        results = {}
        for side in state.sides:
            flag = flagship(state, side.id)
            if flag is None:
                results[side.id] = (0, 0)
                lines.append(f"{side.name} has no Flagship: 0 successes.")
                continue
            res = skill_test(state, flag, rng)
            results[side.id] = (res.successes, flag.skill)
            lines.append(f"{side.name} ({flag.name}): {res.text} ({res.successes} successes).")
        a, b = (s.id for s in state.sides)
        if results[a] != results[b]:
            state.initiative = a if results[a] > results[b] else b
            lines.append(f"{state.side(state.initiative).name} wins the Challenge Test and has the initiative.")
            return lines
        lines.append("Still tied: roll again.")
    state.initiative = state.sides[0].id
    return lines


def immediate_card_effect(state: State, side: SideState) -> list[str]:
    """RESOLVE INITIATIVE CARD EFFECTS (4.1 step 3): "Immediately" effects now, the rest noted
    (on the holder's own ships: its side's, or its squadron's in a Fleet Battle)."""
    side_id = fleet_of(side)
    own = {s.id for s in ships_of(state, side)}
    if not side.face_up:
        return []
    card = initiative_cards()[side.face_up]
    lines: list[str] = []
    if card.effect == "rally_all":
        for ship in state.ships:
            if ship.controller == side_id and ship.id in own and ship.can_act and ship.fatigue:
                ship.fatigue = max(0, ship.fatigue - (card.amount or 1))
                lines.append(f"{card.name}: {ship.name} Fatigue -> {ship.fatigue}")
    elif card.effect == "reload_all":
        for ship in state.ships:
            if ship.controller == side_id and ship.id in own and ship.can_act and (ship.reload_port or ship.reload_starboard):
                ship.reload_port = ship.reload_starboard = False
                lines.append(f"{card.name}: {ship.name} removes its reload markers")
    elif card.effect != "none":
        lines.append(f"{side.name}'s {card.name} is in force this turn: {card.text}")
    return lines


def flagship(state: State, side_id: str) -> ShipState | None:
    """FLAGSHIP (4.1): the side's ship with the Admiral, if it is still on the table and its own."""
    return next((s for s in state.ships if s.side == side_id and s.flagship and s.on_table and not s.captured_by), None)
