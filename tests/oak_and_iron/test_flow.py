"""Initiative (sealed, revealed together, ties), the End Phase (capture, strike points, sinking,
lost admirals, returning cards), the turn limit, views and secrecy, notation and serialisation."""

from __future__ import annotations

import copy
import json

from games.core.rng import check_seal
from games.core.ruleset import legal_texts
from games.oak_and_iron.data import initiative_cards
from games.oak_and_iron.rules import dice_2 as dice
from games.oak_and_iron.rules import end_phase_4_4 as end
from games.oak_and_iron.rules import turn_4 as turn
from tests.oak_and_iron.helpers import fails, order, park_others, place, rng, ruleset, started, texts

ALL_CARD_NAMES = [c.name for c in initiative_cards().values()]


def test_sealed_initiative_is_secret_until_both_have_chosen() -> None:
    rs = ruleset()
    stream = rng(5)
    state = rs.setup("quickstart", {}, stream)
    assert rs.to_act(state) == ["a", "b"]
    events = order(state, "a", "initiative Careful Aim", stream)
    public = [e for e in events if e.public]
    assert public and all("Careful Aim" not in e.text for e in public)
    assert "commitment" in public[0].text
    secret = [e for e in events if not e.public]
    assert secret and all(e.to == frozenset({"a"}) for e in secret)
    nonce = state.side("a").sealed_nonce
    for viewer in (None, "b"):
        seen = repr(rs.view(state, viewer))
        assert "Careful Aim" not in seen and nonce not in seen
        assert "Rolling Broadside" not in seen  # A's hand is not shown to B or spectators
    assert "Careful Aim" in repr(rs.view(state, "a")) and "Careful Aim" in repr(rs.view(state, "umpire"))
    assert rs.to_act(state) == ["b"]
    assert "already sealed" in fails(state, "a", "initiative Down!", stream).text
    assert "not in Player B's hand" in fails(state, "b", "initiative Careful Aim", stream).text
    events = order(state, "b", "initiative Reload", stream)
    reveal = texts([e for e in events if e.public])
    assert "Player A reveals Careful Aim" in reveal and "Player B reveals Reload" in reveal
    assert nonce in reveal
    digest = public[0].text.split("commitment ")[1].rstrip(").")
    assert check_seal("careful-aim", nonce, digest)
    assert state.initiative == "b"  # Reload 4 against Careful Aim 2


def test_higher_card_wins_the_initiative() -> None:
    state, _ = started(cards=("Careful Aim", "Fleet Manuever"))
    assert state.initiative == "b" and state.active_side == "b"
    assert state.side("a").face_up == "careful-aim"


def test_equal_cards_draw_an_event_then_compare_admirals_then_challenge() -> None:
    rs = ruleset()
    stream = rng(9)
    state = rs.setup("quickstart", {}, stream)
    deck_top = state.event_deck[0]
    order(state, "a", "initiative Down!", stream)
    events = texts(order(state, "b", "initiative Fire as She Bears", stream))
    assert "Both cards have initiative 1: an event card is drawn." in events
    assert state.events_active == [deck_top]
    assert "Challenge Test" in events and state.initiative in ("a", "b")
    state2 = rs.setup("quickstart", {}, rng(9))
    state2.side("b").admiral_value = 2
    stream2 = rng(9)
    stream2.counter = 0
    order(state2, "a", "initiative Down!", stream2)
    events2 = texts(order(state2, "b", "initiative Fire as She Bears", stream2))
    assert "admiral value 2" in events2 and state2.initiative == "b"


def test_cards_in_force_and_returned_or_discarded_at_the_end_phase() -> None:
    state, stream = started(cards=("Rolling Broadside", "Take Courage"))
    assert state.side("a").face_up == "rolling-broadside"
    assert "rolling-broadside" not in state.side("a").hand
    for ship in state.ships:
        ship.moved = ship.attacked = True
    turn.end_phase(state, stream)
    assert state.turn == 2
    assert "rolling-broadside" in state.side("a").discarded  # discarded after play
    assert state.side("a").face_up == "down"  # the card sealed for turn 2


def test_strike_points_and_withdrawal() -> None:
    state, stream = started()
    sloop, frigate = state.ship("sloop"), state.ship("petite-fregate")
    sloop.crippled = True
    assert end.strike_points(state, "a") == 1
    frigate.crippled, frigate.fatigue = True, 7  # the Flagship Out of Action
    assert end.strike_points(state, "a") == 4
    assert end.ship_total(state, "a") == 1
    for ship in state.ships:
        ship.moved = ship.attacked = True
    events = texts(turn.end_phase(state, stream))
    assert "Player A strikes and withdraws" in events
    outcome = ruleset().outcome(state)
    assert outcome is not None and outcome.winner == "b"


def test_turn_limit_fewer_strike_points_wins_and_a_tie_goes_to_the_defender() -> None:
    state, stream = started()
    state.turn = 10
    for ship in state.ships:
        ship.moved = ship.attacked = True
    events = texts(turn.end_phase(state, stream))
    assert "turn 10 ends level; the defender wins" in events and state.winner == state.defender == "b"
    state, stream = started()
    state.turn = 10
    state.ship("fluyt").crippled = True
    for ship in state.ships:
        ship.moved = ship.attacked = True
    turn.end_phase(state, stream)
    assert state.winner == "a"


def test_shaken_entangled_ship_may_be_captured_and_counts_for_the_captor() -> None:
    state, stream = started()
    sloop, corvette = state.ship("sloop"), state.ship("corvette")
    sloop.x, sloop.y, corvette.x, corvette.y = 20.0, 20.0, 21.0, 20.0
    sloop.heading = corvette.heading = 180.0
    sloop.entangled, corvette.entangled = ["corvette"], ["sloop"]
    sloop.fatigue = 7
    for ship in state.ships:
        ship.moved = ship.attacked = True
    turn.end_phase(state, stream)
    assert state.phase == "end" and ruleset().to_act(state) == ["b"]
    assert legal_texts(ruleset(), state, "b") == ["capture Sloop", "destroy Sloop", "spare Sloop"]
    order(state, "b", "capture Sloop", stream)
    assert sloop.captured_by == "b" and end.ship_total(state, "b") == 3
    assert end.strike_points(state, "a") == 2


def test_out_of_action_ships_roll_for_sinking() -> None:
    for seed in range(1, 8):
        state, stream = started(seed)
        fluyt = state.ship("corvette")
        fluyt.crippled, fluyt.fatigue = True, 7
        state.ship("fluyt").x = 30.0  # keep B's flag safe
        predicted = dice.roll(copy.copy(stream), 1)
        events = texts(end.end_rolls(state, stream))
        assert f"Corvette is Out of Action: sinking roll {predicted[0]}" in events
        sank = "Corvette sinks" in events
        assert (fluyt.status == "sunk") == sank


def test_lost_admiral_transfers_with_a_fortune_point() -> None:
    state, stream = started()
    flag = state.ship("fluyt")
    flag.crippled, flag.fatigue = True, 7
    state.ship("corvette").x = 24.85  # Pistol Shot ahead of the Fluyt, as set up
    end.end_rolls(state, stream)
    assert state.ship("corvette").flagship and not flag.flagship
    if flag.status != "sunk":  # still on the table: the Admiral crosses over for a Fortune Point
        assert state.side("b").fortune == 2
        assert state.side("b").admiral_name == "Untested"
    else:  # gone: a new Flagship with admiral value 0
        assert state.side("b").fortune == 3 and state.side("b").admiral_name == "none"


def test_views_show_the_table_and_hide_nothing_public() -> None:
    rs = ruleset()
    state, stream = started()
    view = rs.view(state, None)
    assert view.board.kind == "table" and view.board.width == 36
    ships = [c for c in view.counters if c.kind == "ship"]
    assert len(ships) == 4 and all(c.size != (0.0, 0.0) and c.facing is not None for c in ships)
    assert view.arrows[0].kind == "wind" and view.arrows[0].bearing == 180.0
    order(state, "b", "Corvette move turn-end port 45", stream)
    view = rs.view(state, None)
    kinds = {o.kind for o in view.overlays}
    assert {"path", "ring", "arc"} <= kinds
    assert not view.private_text
    assert "Down!" not in repr(view)  # A's sealed card for turn 2


def test_notation_round_trips_and_state_round_trips_through_json() -> None:
    rs = ruleset()
    state, _stream = started()
    for text in (
        "corvette move turn-end PORT 30",
        "Corvette seamanship adjust -1 fortune",
        "Corv crew reload starboard",
        "Corvette broadside starboard Sloop rigging and port Petite Fregate fortune",
        "Corvette partial Sloop crew helm-starboard",
        "measure Fluyt Sloop",
        "initiative careful aim",
        "Petite Fregate crew board Fluyt",
    ):
        parsed = rs.parse_order(state, "b", text)
        again = rs.parse_order(state, "b", rs.format_order(parsed))
        assert again == parsed, text
    data = json.loads(json.dumps(rs.encode(state)))
    assert rs.decode(data) == state


def test_bad_syntax_quotes_the_input() -> None:
    state, stream = started()
    for text, fragment in (
        ("Corvette fly", "`fly`"),
        ("Corvette move turn-end port lots", "`lots`"),
        ("Nonesuch move", "`Nonesuch`"),
        ("Corvette broadside aft Sloop", "`aft`"),
    ):
        assert fragment in fails(state, "b", text, stream).text


def test_the_umpire_may_give_the_acting_side_s_order() -> None:
    state, stream = started()
    assert legal_texts(ruleset(), state, "umpire")
    order(state, "umpire", "Corvette move turn-start starboard 45", stream)
    assert state.ship("corvette").heading == 225.0
    assert fails(state, "umpire", "initiative Down!", stream).kind == "wrong phase"


def test_orders_without_dice_can_be_undone_and_orders_with_dice_cannot() -> None:
    state, stream = started()
    park_others(state, "corvette")
    place(state, "corvette", 20.0, 8.0, 180.0)
    assert not any(e.reveals for e in order(state, "b", "Corvette move", stream))
    state.ship("corvette").fatigue = 1
    assert not any(e.reveals for e in order(state, "b", "Corvette crew rally", stream))
    state, stream = started()
    assert any(e.reveals for e in order(state, "b", "Corvette seamanship adjust +1", stream))


def test_who_acts_is_in_the_headline_drawn_at_chat_size() -> None:
    """Once a side has the initiative, "To act" comes after the turn and initiative lines: it must
    still be one of the headline lines the strip draws readable at chat size (it was not)."""
    state, _ = started()
    view = ruleset().view(state, None)
    assert any(line.startswith("Initiative:") for line in view.status)
    acting = [i for i, line in enumerate(view.status) if line.startswith(("To act:", "Activating "))]
    assert acting and all(i < view.headline for i in acting), (view.status[:5], view.headline)
