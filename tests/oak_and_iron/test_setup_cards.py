"""Issue 15 item 2: Starting a Game (book ch. 7) with the house scenario decks, as set-up orders
(option ``start=book``): decks drawn from the game's stream, attacker/defender, the draft, terrain
selected and placed, deployment, the advantage cards, the objective's Strike Points, and the
hands kept private throughout."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

from games.core.errors import GameError
from games.core.rng import Rng
from games.core.ruleset import legal_texts
from games.oak_and_iron.data import scenario_cards
from games.oak_and_iron.rules import end_phase_4_4 as end
from games.oak_and_iron.rules.scenario_cards_7 import zone
from games.oak_and_iron.state import State
from tests.console import run_script
from tests.oak_and_iron.helpers import fails, order, rng, ruleset

BOOK = {"start": "book", "admiral_a": "capable"}


def book_game(seed: int = 1, **options: str) -> tuple[State, Rng]:
    stream = rng(seed)
    return ruleset().setup("patrol", {**BOOK, **options}, stream), stream


def test_the_decks_are_drawn_from_the_games_stream() -> None:
    """Ch. 7: "Draw an objective card and 3 cards from each of the following decks" - from the
    seeded stream, so the same seed draws the same cards and another seed may not."""
    state, _stream = book_game(1)
    again, _ = book_game(1)
    assert state.setup is not None and again.setup is not None
    assert state.setup.offers == again.setup.offers and state.setup.objective == again.setup.objective
    decks = [scenario_cards().cards[k].deck for k in state.setup.offers]
    assert decks == ["setting"] * 3 + ["deployment"] * 3 + ["advantage"] * 3
    draws = {tuple(book_game(seed)[0].setup.offers) for seed in range(1, 8)}  # type: ignore[union-attr]
    assert len(draws) > 1
    assert state.phase == "setup" and all(s.status == "reserve" and not s.on_table for s in state.ships)


def test_the_higher_admiral_value_chooses_and_the_attacker_drafts_first() -> None:
    """Ch. 7: the higher admiral value chooses attacker or defender; "Starting with the attacker,
    players take turns selecting 1 card from each category"."""
    state, stream = book_game()
    assert ruleset().to_act(state) == ["a"]  # Capable (1) against Untested (0)
    assert fails(state, "b", "role attacker", stream).kind == "not your turn"
    order(state, "a", "role defender", stream)
    assert state.defender == "a" and state.setup is not None and state.setup.attacker == "b"
    assert ruleset().to_act(state) == ["b"]


def test_a_tie_in_admiral_value_is_a_challenge_test() -> None:
    """Ch. 7: "If both Flagships have the same admiral value, the two Flagships will roll a
    Challenge Test"; the stream decides, the same each time."""
    choosers = set()
    for seed in range(1, 10):
        state, stream = book_game(seed, admiral_a="untested")
        assert state.setup is not None and state.setup.chooser in ("a", "b")
        choosers.add(state.setup.chooser)
        assert stream.counter > book_game(seed)[1].counter  # more draws than without the tie
    assert choosers == {"a", "b"}


@pytest.mark.slow
def test_the_challenge_tests_dice_reach_the_channel_when_the_game_begins(tmp_path: Path) -> None:
    """Ch. 7's draw and a Challenge Test happen at set-up, before any order, so no order's events
    carry them: the status the table service posts with "The game begins!" shows every die of the
    test (through the real console), until the winner has chosen to attack or defend."""
    state, stream = book_game(3, admiral_a="untested")
    summary = "\n".join(ruleset().summary(state))
    assert "roll a Challenge Test" in summary and "wins and chooses to attack or defend" in summary
    assert len(re.findall(r"\(\w[\w ]*\): Skill Test \(\d dice\): ", summary)) >= 2
    assert state.setup is not None
    order(state, state.setup.chooser, "role attacker", stream)
    assert "Challenge Test" not in "\n".join(ruleset().summary(state))
    script = tmp_path / "tie.txt"
    script.write_text("as @alice\n/game new system:oak-and-iron scenario:patrol options:start=book\n/game join seat:a\n"
                      "as @bob\n/game join seat:b\n/game start\n")
    done = run_script(script, seed=3)
    assert done.returncode == 0, done.stderr + done.stdout[-3000:]
    begins = done.stdout.split("The game begins!")[1].split("\nDM to ")[0]
    assert "roll a Challenge Test" in begins and len(re.findall(r"Skill Test \(\d dice\): ", begins)) >= 2


def test_without_a_tie_the_status_says_who_chooses_and_why() -> None:
    state, _stream = book_game()
    assert "Player A has the higher admiral value and chooses to attack or defend." in ruleset().summary(state)


def _draft_all(state: State, stream: Rng) -> None:
    assert state.setup is not None
    order(state, "a", "role attacker", stream)
    while state.setup.step == "draft":
        seat = ruleset().to_act(state)[0]
        held = {scenario_cards().cards[k].deck for k in state.setup.picks[seat]}
        key = next(k for k in state.setup.offers if scenario_cards().cards[k].deck not in held)
        order(state, seat, f"draft {scenario_cards().cards[key].name}", stream)


def test_the_draft_gives_each_side_one_card_of_each_category() -> None:
    state, stream = book_game()
    order(state, "a", "role attacker", stream)
    assert state.setup is not None
    first = state.setup.offers[0]
    order(state, "a", f"draft {scenario_cards().cards[first].name}", stream)
    second_setting = state.setup.offers[0]  # another setting card
    err = fails(state, "a", f"draft {scenario_cards().cards[second_setting].name}", stream)
    assert err.kind == "not your turn"
    order(state, "b", f"draft {scenario_cards().cards[second_setting].name}", stream)
    third = state.setup.offers[0]
    assert "already has a setting card" in fails(state, "a", f"draft {scenario_cards().cards[third].name}", stream).text
    state, stream = book_game()
    _draft_all(state, stream)
    for side in ("a", "b"):
        assert sorted(scenario_cards().cards[k].deck for k in state.setup.picks[side]) == ["advantage", "deployment", "setting"]  # type: ignore[union-attr]
    assert state.setup.offers == [] and state.setup.step == "select"  # type: ignore[union-attr]


def test_terrain_is_added_as_the_setting_allows_and_placed_apart() -> None:
    """Ch. 7 steps 2-3: the Setting card decides the pieces; starting with the defender; "may not be
    placed closer than Musket Shot to another Terrain piece"."""
    state, stream = book_game()
    _draft_all(state, stream)
    setup = state.setup
    assert setup is not None and ruleset().to_act(state) == [state.defender]
    defender, attacker = state.defender, state.other(state.defender)
    allowed = {k: n for k, n in setup.allowance[defender].items() if n}
    kind = next(iter(allowed))
    order(state, defender, f"terrain add {kind}", stream)
    banned = next(k for k in ("rock", "island", "shoal", "fog") if not setup.allowance[attacker].get(k))
    assert "allows no more" in fails(state, attacker, f"terrain add {banned}", stream).text
    order(state, attacker, "terrain done", stream)
    while setup.step == "select":
        order(state, defender, "terrain done", stream)
    assert setup.step == "place" and setup.pool == [kind]
    assert "leave the table" in fails(state, defender, f"terrain place {kind} 0 0", stream).text
    order(state, defender, f"terrain place {kind} 18 18", stream)
    assert state.terrain[-1].kind == kind and setup.step == "deploy"
    probe = copy.deepcopy(state)
    from games.oak_and_iron.rules.scenario_cards_7 import placement_problem

    assert "closer than Musket Shot" in placement_problem(probe, "rock", 18 + 5.0, 18)


def test_deployment_stays_in_the_zone_and_out_of_cannon_shot_then_cards_are_sealed() -> None:
    """Ch. 7 step 5: "Starting with the defender, each player must place their entire Squadron within
    their deployment zones. No player may place any of their ships within Cannon Shot of an
    opposing ship"; step 6: each side seals a first initiative card; advantages apply."""
    state, stream = book_game()
    _draft_all(state, stream)
    setup = state.setup
    assert setup is not None
    while setup.step == "select":
        order(state, ruleset().to_act(state)[0], "terrain done", stream)
    d = state.defender
    x0, y0, _x1, y1 = zone(state, d)
    mine = [s for s in state.ships if s.side == d]
    assert "deployment zone" in fails(state, d, f"deploy {mine[0].name} 18 18", stream).text
    for i, ship in enumerate(mine):
        order(state, d, f"deploy {ship.name} {x0 + 2 + 3 * i:g} {(y0 + y1) / 2:g}", stream)
    a = state.other(d)
    _ax0, ay0, ax1, ay1 = zone(state, a)
    theirs = [s for s in state.ships if s.side == a]
    fortune_before = {s.id: s.fortune for s in state.sides}
    for i, ship in enumerate(theirs):
        events = order(state, a, f"deploy {ship.name} {ax1 - 2 - 3 * i:g} {(ay0 + ay1) / 2:g}", stream)
    assert state.phase == "select" and all(s.on_table for s in state.ships)
    for side in state.sides:
        adv = next(scenario_cards().cards[k] for k in setup.picks[side.id] if scenario_cards().cards[k].deck == "advantage")
        assert adv.changes is not None and side.fortune == fortune_before[side.id] + adv.changes.fortune
    hands = [e for e in events if "initiative hand" in e.text]
    assert len(hands) == 2 and all(e.to is not None and len(e.to) == 1 for e in hands)
    assert legal_texts(ruleset(), state, "a")[0].startswith("initiative ")


def test_within_cannon_shot_of_an_enemy_is_refused() -> None:
    state, stream = book_game()
    _draft_all(state, stream)
    setup = state.setup
    assert setup is not None
    while setup.step == "select":
        order(state, ruleset().to_act(state)[0], "terrain done", stream)
    d = state.defender
    ship = next(s for s in state.ships if s.side == d)
    enemy = next(s for s in state.ships if s.side != d)
    enemy.status, enemy.x, enemy.y, enemy.heading = "afloat", 18.0, 18.0, 0.0  # an enemy ship mid-table
    _x0, y0, _x1, y1 = zone(state, d)
    near_y = y0 + ship.length / 2 + 0.01 if y0 > 18 else y1 - ship.length / 2 - 0.01  # the zone's inner edge
    err = fails(state, d, f"deploy {ship.name} 18 {near_y:g}", stream)
    assert "within Cannon Shot" in err.text


def test_set_up_orders_round_trip_and_refuse_out_of_turn_or_phase() -> None:
    rs = ruleset()
    state, stream = book_game()
    for text in ("role attacker", "draft Open Sea", "terrain add rock", "terrain done", "terrain place rock 12.5 18",
                 "terrain discard fog", "deploy Petite Fregate 10 3", "deploy Petite Fregate 10 3 170"):
        parsed = rs.parse_order(state, "a", text)
        assert rs.parse_order(state, "a", rs.format_order(parsed)) == parsed, text
    assert "still being set up" in fails(state, "a", "Sloop move", stream).text
    assert fails(state, "a", "terrain add rock", stream).kind == "wrong phase"
    assert fails(state, "a", "deploy Sloop 1 nan", stream).kind == "invalid syntax"
    with pytest.raises(GameError, match="start=book"):
        ruleset().setup("quickstart", {"start": "book"}, rng())


@pytest.mark.slow
def test_hands_never_reach_public_messages_or_other_views_during_set_up() -> None:
    """Secrets: a hand appears only in its owner's view (and the umpire's) and in private events."""
    rs = ruleset()
    state, stream = book_game()
    public: list[str] = []
    while state.phase == "setup":
        seat = rs.to_act(state)[0]
        text = legal_texts(rs, state, seat)[0]
        for e in rs.apply(state, seat, rs.parse_order(state, seat, text), stream):
            if e.to is None:
                public.append(e.text)
            else:
                assert "initiative hand" in e.text and list(e.to) == [e.text.split("'s")[0][-1].lower()]
        spectator = rs.view(state, None)
        assert not spectator.private_text and "initiative hand" not in json.dumps(rs.encode(state)["setup"])
        assert all("Player B's initiative hand" not in t for t in rs.view(state, "a").private_text)
    assert not any("initiative hand" in t for t in public)


def test_an_objective_can_raise_the_flagship_strike_points() -> None:
    """Objective cards "may cause players to earn extra Strike Points" (house: Decapitation)."""
    state, _ = book_game()
    assert state.setup is not None
    flag = next(s for s in state.ships if s.side == "b" and s.flagship)
    flag.status = "sunk"
    state.setup.objective = "fight-to-the-strike"
    base = end.strike_points(state, "b")
    state.setup.objective = "decapitation"
    assert end.strike_points(state, "b") == base + scenario_cards().cards["decapitation"].flagship_lost_extra


def test_the_objective_island_goes_to_the_centre() -> None:
    state, stream = book_game()
    assert state.setup is not None
    state.setup.objective = "hold-the-island"
    _draft_all(state, stream)
    island = state.terrain[0]
    xs = [p[0] for p in island.points]
    ys = [p[1] for p in island.points]
    assert island.kind == "island" and (min(xs) + max(xs)) / 2 == state.table_width / 2 and (min(ys) + max(ys)) / 2 == state.table_height / 2


def test_the_status_and_the_zones_show_the_set_up() -> None:
    state, stream = book_game()
    status = "\n".join(ruleset().view(state, None).status)
    assert "Starting a Game" in status and "On offer:" in status and "Objective:" in status
    _draft_all(state, stream)
    while state.setup is not None and state.setup.step == "select":
        order(state, ruleset().to_act(state)[0], "terrain done", stream)
    zones = [o for o in ruleset().view(state, None).overlays if o.text.endswith("deployment zone")]
    assert len(zones) == 2


def test_help_documents_every_order() -> None:
    """Done when "/help system:oak-and-iron documents every order": each order's usage and what it does."""
    from games.oak_and_iron.orders import GRAMMAR, order_help

    text = ruleset().help()
    for usage in GRAMMAR.usages():
        assert f"`{usage}`" in text, usage
    assert all(doc for _, doc in order_help())
    assert "terrain place rock|island|shoal|fog <x> <y>" in text and "deploy <ship> at <x> <y>" in text


def _to_adjust(seed: int = 1) -> tuple[State, Rng, str]:
    """The set-up at step 4 with one rock placed wholly inside the defender's zone."""
    state, stream = book_game(seed)
    _draft_all(state, stream)
    setup = state.setup
    assert setup is not None
    d = state.defender
    setup.allowance[d] = {"rock": 1}
    setup.allowance[state.other(d)] = {}
    order(state, d, "terrain add rock", stream)
    x0, y0, _x1, y1 = zone(state, d)
    order(state, d, f"terrain place rock {x0 + 3:g} {(y0 + y1) / 2:g}", stream)
    assert setup.step == "adjust" and ruleset().to_act(state) == [d]
    return state, stream, d


def test_adjust_terrain_moves_a_piece_in_the_own_zone_up_to_musket_shot() -> None:
    """Ch. 7 step 4: "players may now take turns moving any Terrain piece placed completely within their
    deployment zone up to Musket Shot away from its current position ... may not be moved off of the table"."""
    state, stream, d = _to_adjust()
    rock = state.terrain[-1]
    cx = sum(p[0] for p in rock.points) / 4
    cy = sum(p[1] for p in rock.points) / 4
    assert "up to Musket Shot" in fails(state, d, f"terrain move {rock.label} {cx + 6.5:g} {cy:g}", stream).text
    edge = cy + 5 if cy > state.table_height / 2 else cy - 5  # towards the own table edge, past it
    assert "off the table" in fails(state, d, f"terrain move {rock.label} {cx:g} {edge:g}", stream).text
    order(state, d, f"terrain move {rock.label} {cx + 5:g} {cy:g}", stream)
    assert sum(p[0] for p in rock.points) / 4 == cx + 5
    assert state.setup is not None and state.setup.step == "deploy"  # nothing left to move: deployment begins


def test_terrain_keep_passes_and_the_other_side_cannot_move_a_piece_outside_its_zone() -> None:
    state, stream, d = _to_adjust()
    rock = state.terrain[-1]
    order(state, d, "terrain keep", stream)
    assert state.setup is not None and state.setup.step == "deploy" and rock.label not in state.setup.adjusted


def test_a_ship_whose_name_begins_another_deploys_by_the_longer_name_and_round_trips() -> None:
    """Two Fourth Rates (an Engagement): "deploy Fourth Rate 2 1.5 32" once read as the first at
    (2, 1.5) heading 32, so the second could never be deployed by the offered orders; the printed
    form says `at` before the point, so every order reads back as itself."""
    rs = ruleset()
    state = rs.setup("engagement", {"start": "book"}, rng(5))
    second = next(s for s in state.ships if s.name == "Fourth Rate 2")
    first = next(s for s in state.ships if s.name == "Fourth Rate")
    typed = rs.parse_order(state, second.side, "deploy Fourth Rate 2 1.5 32")
    assert (typed.ship.id, typed.x, typed.y, typed.heading) == (second.id, 1.5, 32.0, None)
    assert typed.text == "deploy Fourth Rate 2 at 1.5 32"
    meant = rs.parse_order(state, first.side, "deploy Fourth Rate at 2 1.5 32")
    assert (meant.ship.id, meant.x, meant.y, meant.heading) == (first.id, 2.0, 1.5, 32.0)
    for o in (typed, meant):
        assert rs.parse_order(state, "a", o.text) == o
