"""The Ruleset contract's shared parts: events, orders, the registry, encode/decode; View as data."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.core import ruleset as ruleset_module
from games.core.codec import from_json, to_json
from games.core.errors import IllegalOrder, UnknownName, quote
from games.core.hexgrid import HexLayout
from games.core.rng import Rng, seed_from_number
from games.core.ruleset import (
    UMPIRE,
    Event,
    Order,
    Outcome,
    Ruleset,
    ScenarioInfo,
    Seat,
    get_ruleset,
    private,
    public,
    register,
    system_ids,
)
from games.core.seats import side_seats
from games.core.view import Arrow, Board, Counter, Overlay, SideInfo, View, Zone


@dataclass
class CoinState:
    flips: list[int] = field(default_factory=list)
    secret: int = 0
    turn: str = "heads"


class CoinGame(Ruleset[CoinState, Order]):
    """A toy system: each side flips in turn; the first to flip a 1 wins. The secret is a hidden die."""

    id = "coin-test"
    name = "Coin test"
    state_type = CoinState

    def scenarios(self) -> list[ScenarioInfo]:
        return [ScenarioInfo("only", "Only")]

    def setup(self, scenario: str, options: dict[str, str], rng: Rng) -> CoinState:
        return CoinState(secret=rng.die(6))

    def seats(self, state: CoinState) -> list[Seat]:
        return [Seat("heads", "Heads"), Seat("tails", "Tails"), Seat(UMPIRE, "Umpire", kind="umpire", optional=True)]

    def to_act(self, state: CoinState) -> list[str]:
        return [] if self.outcome(state) else [state.turn]

    def legal_orders(self, state: CoinState, seat: str) -> list[Order]:
        return [Order(text) for text in self.order_texts(state, seat)]

    def order_texts(self, state: CoinState, seat: str) -> list[str]:
        return ["flip"] if seat == state.turn else []

    def parse_order(self, state: CoinState, seat: str, text: str) -> Order:
        if text.strip() != "flip":
            raise IllegalOrder(f"Cannot {quote(text)}.", hint="The only order is flip.")
        return Order("flip")

    def apply(self, state: CoinState, seat: str, order: Order, rng: Rng) -> list[Event]:
        flip = rng.below(2)
        state.flips.append(flip)
        state.turn = "tails" if seat == "heads" else "heads"
        return [public(f"{seat} flips {flip}", reveals=True), private(f"secret is {state.secret}", seat)]

    def view(self, state: CoinState, seat: str | None) -> View:
        lines = (f"secret {state.secret}",) if seat == UMPIRE else ()
        return View(
            board=Board(kind="square", key="coin"),
            viewer=seat,
            sides=(SideInfo("heads", "Heads", "#ff0000"), SideInfo("tails", "Tails", "#0000ff")),
            status=(f"{len(state.flips)} flips",),
            private_text=lines,
        )

    def outcome(self, state: CoinState) -> Outcome | None:
        if 1 in state.flips:
            winner = "heads" if state.flips.index(1) % 2 == 0 else "tails"
            return Outcome(winner, "flipped a 1")
        return None


def test_events_carry_their_visibility() -> None:
    shown = public("Huascar fires", reveals=True)
    assert shown.public and shown.to is None and shown.reveals
    hidden = private("your hand: A♥", "peru", "umpire")
    assert not hidden.public and hidden.to == frozenset({"peru", "umpire"}) and not hidden.reveals
    assert Event("x").public


def test_order_and_seat_defaults() -> None:
    order = Order("Huascar fire Esmeralda", ("Huascar", "Esmeralda"))
    assert str(order) == "Huascar fire Esmeralda"
    assert Order("pass").args == ()
    seat = Seat("peru", "Peru")
    assert (seat.side, seat.kind, seat.optional) == ("", "side", False)
    assert UMPIRE == "umpire"


def test_toy_system_plays_and_round_trips_through_json() -> None:
    game = CoinGame()
    rng = Rng(seed_from_number(1))
    state = game.setup("only", {}, rng)
    assert game.options() == [] and game.help() == "Coin test"
    while game.outcome(state) is None:
        seat = game.to_act(state)[0]
        order = game.parse_order(state, seat, "flip")
        assert game.format_order(order) == "flip"
        events = game.apply(state, seat, order, rng)
        assert events[0].public and not events[1].public
        assert game.decode(json.loads(json.dumps(game.encode(state)))) == state
    assert game.to_act(state) == []
    assert game.summary(state) == [f"{len(state.flips)} flips"]
    assert game.view(state, None).private_text == ()  # a spectator never sees the secret
    assert game.view(state, UMPIRE).private_text == (f"secret {state.secret}",)


def test_registry_finds_a_registered_system(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ruleset_module, "_load_builtin", lambda: None)
    monkeypatch.setattr(ruleset_module, "_REGISTRY", {})
    factory = register("coin-test")(CoinGame)
    assert factory is CoinGame
    assert isinstance(get_ruleset("coin-test"), CoinGame)
    assert system_ids() == ["coin-test"]
    with pytest.raises(UnknownName) as info:
        get_ruleset("chess")
    assert "`chess`" in str(info.value) and "Systems: coin-test." in str(info.value)


def test_view_is_plain_data_that_round_trips() -> None:
    view = View(
        board=Board(
            kind="hex",
            key="hex:open-sea",
            hex_layout=HexLayout("pointy", 11, 1, 19, 13, "odd"),
            terrain={"1101": "land", "*": "deep"},
            hexside_compass=("6", "5", "4", "3", "2", "1"),
            arrows=(Arrow("north", 0.0, "N"),),
        ),
        viewer=None,
        sides=(SideInfo("peru", "Peru", "#aa0000"),),
        counters=(Counter("huascar", "Huascar", "peru", (3.0, -1.0), facing=60.0, markers=("fire",)),),
        overlays=(Overlay("fire", ((3.0, -1.0), (5.0, -2.0)), side="peru", text="hit"),),
        zones=(Zone("Peru set-up", "peru", cells=((0.0, 0.0),)),),
        status=("Turn 1",),
    )
    data: Any = json.loads(json.dumps(to_json(view)))
    assert from_json(View, data) == view


def test_side_seats_are_the_sides_then_the_optional_umpire() -> None:
    @dataclass
    class Side:
        id: str
        name: str

    seats = side_seats([Side("north", "Union"), Side("south", "Confederacy")])
    assert [(s.id, s.label, s.side, s.kind, s.optional) for s in seats] == [
        ("north", "Union", "north", "side", False),
        ("south", "Confederacy", "south", "side", False),
        (UMPIRE, "Umpire", "", "umpire", True),
    ]
