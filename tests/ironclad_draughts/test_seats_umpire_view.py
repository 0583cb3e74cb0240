"""Who may order what, umpire adjustments, the view and what it hides."""

from __future__ import annotations

import json

import pytest

from games.core.errors import AmbiguousName, GameError, IllegalOrder, NotAllowed, NotYourTurn, UnknownName
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import Order, legal_texts
from games.ironclad_draughts.state import State, check_rules
from tests.ironclad_draughts.helpers import RS, activate, damage, new_game, order, place, ship


def lissa() -> State:
    state = new_game("standard")
    place(state, "Habsburg", "c3", "N")
    activate(state, "Habsburg", "4H")
    ship(state, "Kaiser Max").card = "9S"
    ship(state, "Kaiser Max").activated = False
    return state


def test_only_the_owner_of_the_active_ship_may_order_it() -> None:
    state = lissa()
    with pytest.raises(NotYourTurn, match="Habsburg's activation") as err:
        RS.parse_order(state, "italy", "move 2")
    assert "`move 2`" in err.value.text
    assert legal_texts(RS, state, "italy") == []
    assert legal_texts(RS, state, "austria")


def test_naming_another_seats_ship_is_refused() -> None:
    state = lissa()
    with pytest.raises(NotYourTurn, match="Affondatore is not your ship"):
        RS.parse_order(state, "austria", "Affondatore move 2")


def test_acting_out_of_activation_order_is_refused() -> None:
    state = lissa()
    with pytest.raises(NotYourTurn, match="acts later this turn") as err:
        RS.parse_order(state, "austria", "Kaiser Max move 2")
    assert "`Kaiser Max move 2`" in err.value.text
    with pytest.raises(NotYourTurn, match="already acted"):
        RS.parse_order(state, "austria", "Ferdinand move 2")


def test_unknown_and_ambiguous_ship_names() -> None:
    state = lissa()
    with pytest.raises(UnknownName, match="`Monitor`"):
        RS.parse_order(state, "austria", "Monitor move 2")
    with pytest.raises(AmbiguousName, match="`Re`"):
        RS.parse_order(state, "austria", "move 2 fire Re")


def test_ship_seats_order_only_their_own_ship() -> None:
    state = new_game("standard", seats="ship")
    place(state, "Habsburg", "c3", "N")
    activate(state, "Habsburg", "4H")
    with pytest.raises(NotYourTurn):
        RS.parse_order(state, "kaiser-max", "move 2")
    assert RS.to_act(state) == ["habsburg"]
    order(state, "habsburg", "move 2")


def test_bad_input_changes_nothing() -> None:
    state = lissa()
    before = json.dumps(RS.encode(state))
    for seat, text in [
        ("italy", "move 2"),
        ("austria", "move 3"),
        ("austria", "move 1 fire Nobody"),
        ("austria", "pass"),
    ]:
        with pytest.raises(GameError):
            RS.apply(state, seat, Order(text), Rng(seed_from_number(1)))
        assert json.dumps(RS.encode(state)) == before


def test_canonical_orders_round_trip() -> None:
    state = lissa()
    for text in legal_texts(RS, state, "austria"):
        assert RS.parse_order(state, "austria", text).text == text
    parsed = RS.parse_order(state, "austria", "MOVE DIAG PORT turn Starboard")
    assert parsed.text == "move 1 port turn starboard"
    assert RS.format_order(parsed) == parsed.text


def test_umpire_may_order_the_active_ship() -> None:
    state = lissa()
    text = order(state, "umpire", "move 2")
    assert "moves c3-c5" in text


def test_players_may_not_adjust() -> None:
    state = lissa()
    with pytest.raises(NotAllowed):
        RS.parse_order(state, "austria", "adjust Habsburg flotation 3")


def test_umpire_adjustments_are_public_events() -> None:
    state = lissa()
    hab = ship(state, "Habsburg")
    text = order(state, "umpire", "adjust Habsburg flotation 5")
    assert "Umpire adjusts Habsburg" in text and hab.flotation == 5
    order(state, "umpire", "adjust habsburg damage add Q♥")
    assert [(d.card, d.kind) for d in hab.damage] == [("QH", "steering")]
    assert "QH" not in state.damage_deck.draw_pile + state.damage_deck.discards
    with pytest.raises(IllegalOrder, match="already in force on Habsburg"):
        RS.parse_order(state, "umpire", "adjust Kaiser Max damage add QH")
    order(state, "umpire", "adjust Habsburg damage remove qh")
    assert not hab.damage and "QH" in state.damage_deck.discards
    order(state, "umpire", "adjust Habsburg at f6")
    order(state, "umpire", "adjust Habsburg heading SW")
    assert (hab.x, hab.y, hab.heading) == (5, 5, 5)
    check_rules(state)


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("adjust Habsburg flotation 99", "0 to 14"),
        ("adjust Habsburg damage add 5H", "only A, K, Q and J"),
        ("adjust Habsburg damage remove AS", "no A♠ in force"),
        ("adjust Habsburg at z9", "not a square"),
        ("adjust Habsburg at b1", "already at b1"),
        ("adjust Habsburg heading up", "not a heading"),
        ("adjust Habsburg", "not an adjustment"),
        ("adjust Bismarck flotation 3", "No ship called"),
    ],
)
def test_bad_adjustments(text: str, error: str) -> None:
    with pytest.raises(GameError, match=error):
        RS.parse_order(lissa(), "umpire", text)


def test_adjusting_flotation_to_zero_sinks_and_can_end_the_game() -> None:
    state = new_game("duel")
    text = order(state, "umpire", "adjust Huascar flotation 0")
    assert "Huascar sinks" in text and "Game over" in text
    assert RS.outcome(state) is not None


def test_sinking_the_active_ship_passes_the_activation_on() -> None:
    state = lissa()
    order(state, "umpire", "adjust Habsburg flotation 0")
    assert state.active == ship(state, "Kaiser Max").id


def test_view_shows_the_board_counters_and_status() -> None:
    state = lissa()
    hab = damage(state, "Habsburg", "JH", "KS")
    hab.damage[1].spent = True
    hab.flotation = 9
    view = RS.view(state, None)
    assert (view.board.kind, view.board.width, view.board.height) == ("square", 8, 8)
    counter = next(c for c in view.counters if c.id == "habsburg")
    assert counter.pos == (2.0, 2.0) and counter.facing == 0.0 and counter.highlight
    assert (counter.damage, counter.damage_max) == (5, 14)
    assert "fire" in counter.markers and "stopped" in counter.markers
    italian = next(c for c in view.counters if c.id == "affondatore")
    assert italian.facing == 180.0 and not italian.highlight
    assert "Habsburg (4♥) acts" in view.status[0] and "Austrian squadron to order" in view.status[0]
    assert any(line.startswith("Cards:") and "4♥ Habsburg" in line for line in view.status)
    assert "Then: Kaiser Max (9♠)." in view.status


def test_view_overlays_the_last_activation() -> None:
    state = new_game("duel")
    place(state, "Huascar", "c3", "N")
    place(state, "Cochrane", "c6", "S")
    activate(state, "Huascar")
    order(state, "peru", "move 1 fire Cochrane")
    kinds = [o.kind for o in RS.view(state, None).overlays]
    assert kinds == ["path", "fire"]
    fire = RS.view(state, None).overlays[1]
    assert fire.points == ((2.0, 3.0), (2.0, 5.0)) and "hit" in fire.text


def test_nobody_sees_the_damage_pack_order() -> None:
    state = lissa()
    other = RS.decode(RS.encode(state))
    other.damage_deck.draw_pile.reverse()
    for seat in (None, "austria", "italy", "umpire"):
        assert RS.view(state, seat).counters == RS.view(other, seat).counters
        assert RS.view(state, seat).status == RS.view(other, seat).status
        assert RS.view(state, seat).private_text == ()


def test_help_documents_the_notation() -> None:
    text = RS.help()
    for word in ("move N", "turn port", "leave", "fire TARGET", "pass", "adjust", "deal", "seats="):
        assert word in text


def test_a_plain_move_reveals_nothing_but_firing_does() -> None:
    state = lissa()  # Kaiser Max, undamaged, acts next: no draw, no deal
    events = RS.apply(state, "austria", RS.parse_order(state, "austria", "move 2"), Rng(seed_from_number(1)))
    assert not events[0].reveals
    state = lissa()
    place(state, "Affondatore", "f4", "S")  # abeam to starboard after the move
    events = RS.apply(
        state, "austria", RS.parse_order(state, "austria", "move 1 fire Affondatore"), Rng(seed_from_number(1))
    )
    assert events[0].reveals


def test_counters_use_short_labels_from_the_scenario() -> None:
    view = RS.view(new_game("fleet"), None)
    labels = {c.id: c.label for c in view.counters}
    assert labels["erzherzog-albrecht"] == "Albrecht" and labels["duilio"] == "Duilio"


def test_ship_seat_naming_a_squadron_mate_hears_about_activation_order() -> None:
    state = new_game("standard", seats="ship")
    place(state, "Habsburg", "c3", "N")
    activate(state, "Habsburg", "4H")
    ship(state, "Kaiser Max").card, ship(state, "Kaiser Max").activated = "9S", False
    with pytest.raises(NotYourTurn, match="acts later this turn"):
        RS.parse_order(state, "habsburg", "Kaiser Max move 2")
    with pytest.raises(NotYourTurn, match="not your ship"):
        RS.parse_order(state, "habsburg", "Affondatore move 2")
