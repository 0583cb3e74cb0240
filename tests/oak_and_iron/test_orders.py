"""Typed orders (issue 14): text reads into frozen order values whose fields the rules match on,
and every order the bot offers prints back to the text it reads from."""

from __future__ import annotations

import pytest

from games.core.errors import GameError
from games.core.notation import Ref
from games.oak_and_iron import orders as O
from tests.oak_and_iron.helpers import started


def test_an_order_reads_into_its_typed_value() -> None:
    state, _ = started()
    order = O.parse(state, "corv broadside STARBOARD sloop fortune rigging and port pet crew helm-starboard")
    assert order == O.Broadside(
        Ref("corvette", "Corvette"), "starboard", Ref("sloop", "Sloop"), "rigging",
        "port", Ref("petite-fregate", "Petite Fregate"), "crew", fortune=True, helm_starboard=True,
    )
    assert order.text == "Corvette broadside starboard Sloop rigging and port Petite Fregate crew fortune helm-starboard"
    assert isinstance(order, O.Broadside) and order.helm == "starboard"
    assert [(side, target.id, aim) for side, target, aim in order.shots()] == [("starboard", "sloop", "rigging"), ("port", "petite-fregate", "crew")]
    assert O.parse(state, "Fluyt move turn-start port") == O.Move(Ref("fluyt", "Fluyt"), "turn-start", "port", 45.0)
    assert O.parse(state, "Fluyt crew fortune rally") == O.Rally(Ref("fluyt", "Fluyt"))  # fortune means nothing there
    assert O.parse(state, "initiative careful-aim") == O.Initiative(Ref("careful-aim", "Careful Aim"))


def test_every_offered_order_reads_back_to_itself() -> None:
    state, _ = started()
    ships = [O.ref(s) for s in state.ships]
    offered = [o for ship in ships for o in O.movement_candidates(ship, ships) + O.attack_candidates(ship, ships)]
    assert len(offered) > 100
    for order in offered:
        assert O.parse(state, order.text) == order, order.text


def test_refusals_say_what_is_wrong() -> None:
    state, _ = started()
    for text, words in (
        ("Corvette broadside port Sloop and port Fluyt", "at most one broadside from each side"),
        ("Corvette partial", "give the target"),
        ("capture", "give the ship"),
        ("Corvette fly", "Unknown order `fly`"),
        ("Nonesuch move", "No ship called `Nonesuch`"),
    ):
        with pytest.raises(GameError) as refused:
            O.parse(state, text)
        assert words in str(refused.value), text
