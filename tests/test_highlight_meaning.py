"""One meaning for the highlight ring in every system: "this counter acts now" (issue 13, item 7).
Iron and Fire rings the units the card in play may still activate (it rang the ones already used);
the free table has no turns, so no ring, and shows its last move as a path instead."""

from __future__ import annotations

from games.core.rng import Rng, seed_from_number
from games.core.ruleset import get_ruleset, legal_texts
from games.iron_and_fire.rules import activations_4


def test_iron_and_fire_rings_exactly_the_units_that_may_act_on_the_card() -> None:
    rules = get_ruleset("iron-and-fire")
    rng = Rng(seed_from_number(1))
    state = rules.setup("s1", {}, rng)
    assert not any(c.highlight for c in rules.view(state, None).counters)  # set-up: nobody acts yet
    for seat, text in (("chile", "Esmeralda at 1406 3"), ("chile", "done"), ("peru", "Huáscar at 2310 6"),
                       ("peru", "done")):
        rules.apply(state, seat, rules.parse_order(state, seat, text), rng)
    seen_card = False
    for _ in range(40):  # through several cards: the ring follows who may act on each
        if state.phase != "activations" or not state.card:
            break
        seen_card = True
        rung = {c.id for c in rules.view(state, None).counters if c.highlight}
        assert rung == {u.id for u in state.units if u.afloat and activations_4.can_activate(state, u)}
        assert all(u.controller == state.card_side for u in state.units if u.id in rung)
        seat = state.card_side
        orders = [o for o in legal_texts(rules, state, seat) if o.startswith(("Huáscar move", "Esmeralda move", "pass"))]
        if not orders:
            break
        rules.apply(state, seat, rules.parse_order(state, seat, orders[-1]), rng)
    assert seen_card


def test_the_free_table_shows_the_last_move_as_a_path_not_a_ring() -> None:
    rules = get_ruleset("table")
    rng = Rng(seed_from_number(1))
    state = rules.setup("free", {"sides": "Peru,Chile", "board": "8x8"}, rng)
    for text in ("place A b2", "move A e5"):
        rules.apply(state, "peru", rules.parse_order(state, "peru", text), rng)
    view = rules.view(state, None)
    assert not any(c.highlight for c in view.counters)
    [path] = view.overlays
    assert path.kind == "path" and path.points == ((1, 1), (4, 4)) and path.side == "peru"
    rules.apply(state, "peru", rules.parse_order(state, "peru", "remove A"), rng)
    assert rules.view(state, None).overlays == ()
