"""What a new player met playing through the console with only ``/help`` read (play-test of
issue d24): each answer here once said something twice, nothing, or the wrong thing."""

from __future__ import annotations

import dataclasses

import pytest

from bot.rooms.common import parse_zoom, place
from bot.service import Output, TableService
from games.core.errors import UnknownName
from tests.bot.helpers import ALICE, BOB, UMP, errors, hex_duel, ok, public_text, run


async def test_sealing_fire_orders_sends_the_sealer_one_dm(svc: TableService) -> None:
    """The seal's private note ("Your sealed fire orders: ... nonce") and the sealer's own view DM
    said the same thing in two DMs; now it is one DM, with the view, holding the nonce once."""
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="Monitor hold")
    out = await ok(svc, ALICE, "order", text="seal")
    to_alice = [o for o in out if o.kind == "dm" and o.to == ALICE.id]
    assert len(to_alice) == 1, [o.text for o in to_alice]
    assert to_alice[0].view is not None  # the one DM carries the board as the seat sees it
    assert to_alice[0].text.count("nonce") == 1 and "Turn 1, Union: Monitor hold" in to_alice[0].text
    # the umpire still gets the labelled copy, once; Bob (still writing) gets nothing private
    assert [o.text[:30] for o in out if o.kind == "dm" and o.to == UMP.id] == ["[umpire copy, for Union] Your "]
    assert not [o for o in out if o.kind == "dm" and o.to == BOB.id]


async def test_game_new_without_a_scenario_lists_them_when_there_are_several(svc: TableService) -> None:
    """It set up the first scenario without a word; now a system with several asks for one, listing
    them and how to type them, and nothing is set up."""
    out = await run(svc, ALICE, "game new", system="hex-ironclads")
    assert errors(out) and not public_text(out)
    refusal = errors(out)[0]
    for scenario in ("trents-reach", "angamos", "hampton-roads", "duel"):
        assert scenario in refusal
    assert "/game new system:hex-ironclads scenario:trents-reach" in refusal
    await ok(svc, ALICE, "game new", system="hex-ironclads", scenario="duel")  # the channel is still free


async def test_game_new_without_a_scenario_names_the_only_one_it_chose(svc: TableService) -> None:
    out = await ok(svc, ALICE, "game new", system="table")
    assert "Free play (its only scenario, `free`, since none was named)" in public_text(out)
    await ok(svc, ALICE, "game end")
    named = await ok(svc, ALICE, "game new", system="table", scenario="free")
    assert "only scenario" not in public_text(named)  # named: nothing to explain


async def test_board_zoom_takes_a_unit_name_as_help_says(svc: TableService) -> None:
    """/help: "Where to zoom in: a hex, square, point or unit"; a name was refused as "not a hex number"."""
    await hex_duel(svc)
    for text, radius in (("Monitor", 3.0), ("monitor", 3.0), ("Virginia 2", 2.0), ("virg", 3.0)):
        out = await ok(svc, ALICE, "game board", zoom=text)
        where = next(o.zoom for o in out if o.zoom is not None)
        ship = "Monitor" if text.lower().startswith("mon") else "Virginia"
        assert where == (dict((label, at) for at, label in _places(out)).get(ship), radius), (text, where)
    assert (await ok(svc, ALICE, "game board", zoom="0905"))[0].zoom == ("0905", 3.0)
    refusal = errors(await run(svc, ALICE, "game board", zoom="Nelson"))[0]
    assert "Cannot zoom to `Nelson`" in refusal and "Units: Monitor, Virginia." in refusal and "(Monitor 2)" in refusal
    assert "not on this map" in errors(await run(svc, ALICE, "game board", zoom="9999"))[0]  # a hex, off the map
    assert "radius" in errors(await run(svc, ALICE, "game board", zoom="0905 big"))[0]


def _places(out: list[Output]) -> list[tuple[str, str]]:
    """(hex, ship name) of every ship in the view a /game board answer carries."""
    view = next(o.view for o in out if o.view is not None)
    return [(place(view, c.pos), c.label) for c in view.counters if c.kind == "ship"]


async def test_zoom_never_finds_a_face_down_counter_by_name(svc: TableService) -> None:
    """A View may still carry a face-down counter's label (the renderer never reads it); a zoom by
    that name must not centre on it, or asking would tell where a hidden unit stands."""
    await hex_duel(svc)
    view = next(o.view for o in await ok(svc, BOB, "game board") if o.view is not None)
    hidden = dataclasses.replace(view, counters=tuple(dataclasses.replace(c, face_down=c.label == "Monitor") for c in view.counters))
    with pytest.raises(UnknownName) as refused:
        parse_zoom(hidden, "Monitor")
    assert "Monitor" not in refused.value.hint  # not even listed


async def test_a_card_refusal_quotes_what_was_typed_lists_the_hand_and_shows_how_to_type_one(svc: TableService) -> None:
    """Cards were found by `JS`, `10c` and `jack of spades` already; a refusal now says how to type
    one (from a card the player holds), quotes the card as typed (not "jackofspades"), and a player
    holding nothing is not sent to /hand to look at nothing."""
    empty = errors(await run(svc, ALICE, "play", card="JS"))[0]
    assert empty.startswith("You hold no cards, so you cannot play `JS`.") and "/deck new" in empty and "`jack of spades`" in empty
    await ok(svc, ALICE, "deck new", name="main", **{"from": "standard52"})
    none_from_main = errors(await run(svc, ALICE, "play", card="JS", deck="main"))[0]
    assert "/deck draw name:main to:hand" in none_from_main and "/hand" not in none_from_main.replace("to:hand", "")
    await ok(svc, ALICE, "deck draw", name="main", to="hand")
    hand = (await ok(svc, ALICE, "hand"))[0].text  # "**main**: 7♣"
    shown = hand.split(": ")[1]
    rank, suit = shown[:-1], {"♥": "hearts", "♣": "clubs", "♦": "diamonds", "♠": "spades"}[shown[-1]]
    other = "K" if rank != "K" else "Q"
    refusal = errors(await run(svc, ALICE, "play", card=f"{other} of {suit}"))[0]
    letter = suit[0].upper()
    assert refusal == (f"You hold no card `{other} of {suit}`. You hold main: {shown}. Type a card like "
                       f"`{rank}{letter}`, `{shown}` or `{ {'A': 'ace', 'J': 'jack', 'Q': 'queen', 'K': 'king'}.get(rank, rank)} of {suit}`.")
    played = await ok(svc, ALICE, "play", card=f"{rank.lower()} of {suit.upper()}")  # the words, any case
    assert f"plays **{shown}**" in public_text(played)


async def test_a_sealed_sides_status_line_ends_in_one_full_stop(svc: TableService) -> None:
    """/game status read "fire orders sealed, commitment 3d89329327725203...." (four dots)."""
    await hex_duel(svc)
    await ok(svc, ALICE, "order", text="seal")
    status = (await ok(svc, BOB, "game status"))[0].text
    line = next(line for line in status.splitlines() if line.startswith("Union (home edge"))
    assert line.endswith("…).") and "...." not in status and "fire orders sealed (commitment " in line, line


async def test_board_zoom_finds_a_unit_by_its_full_name_where_its_label_is_cut_short(svc: TableService) -> None:
    """Play finding F7: Days of Iron labels "5e Chasseurs à cheval" as "5e Chass." to fit the board;
    `zoom:5e chasseurs 4` was refused ("Closest: 5e Chass., ...") though /help says a unit's name
    works. The View now carries the full name beside the label, and a zoom finds either."""
    await ok(svc, ALICE, "game new", system="days-of-iron", scenario="meeting")
    await ok(svc, ALICE, "game join", seat="french")
    await ok(svc, BOB, "game join", seat="prussian")
    await ok(svc, ALICE, "game start")
    for user in (ALICE, BOB):
        await ok(svc, user, "order", text="staff")
        await ok(svc, user, "order", text="ready")
    out = await ok(svc, ALICE, "game board")
    view = next(o.view for o in out if o.view is not None)
    cut = {c.name: c for c in view.counters if c.name}
    chasseurs = cut["5e Chasseurs à cheval"]
    assert chasseurs.label.startswith("5e Chass.")
    for typed in ("5e chasseurs 4", "5e Chasseurs à cheval 4", "5e chass. 4"):
        zoomed = await ok(svc, ALICE, "game board", zoom=typed)
        assert next(o.zoom for o in zoomed if o.zoom is not None) == (chasseurs.pos, 4.0), typed
    refusal = errors(await run(svc, ALICE, "game board", zoom="5e cuirassiers"))[0]
    assert "Cannot zoom to `5e cuirassiers`" in refusal
