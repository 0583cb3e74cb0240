"""Book section 3, Sequence of Play: a turn is Preparation (3.1: shuffle the deck), Activations
(3.2) and the End Phase (3.3); ships arriving on later turns are set up before the first card.
"""

from __future__ import annotations

from games.core.decks import standard_cards
from games.core.hexgrid import Hex
from games.iron_and_fire.game import (
    SIDE_NAMES,
    Game,
)
from games.iron_and_fire.rules import activations_4


# ==========================================================================================
# Turn structure (3.0, 4.0, 11.0)
# ==========================================================================================
def begin_turn(g: Game, turn: int) -> None:
    """3.1 Preparation: a new turn, a freshly shuffled deck with both Jokers; then arrivals and activations."""
    s = g.s
    s.turn = turn
    s.deck = standard_cards(jokers=2)
    g.rng.shuffle(s.deck)
    s.discards = []
    s.jokers_drawn = 0
    s.extra_draws = -1
    s.acted_sides = []
    s.turn_used = []
    s.fow_used_turn = []
    s.fired_on_huascar = []
    s.card = ""
    s.card_side = ""
    s.acts_left = 0
    s.used = []
    g.say(f"**Turn {turn}** of {s.turns}: the deck of 54 cards is shuffled.")
    if s.scenario == "s2" and turn == s.steam_turns + 1 and s.steam_turns:
        g.say("The Covadonga has raised steam: full MP from now on.")
        g.reveal("steam")
    if s.cable is not None and not s.cable_cut and g.scn.cable is not None and g.scn.cable.rule == "turns":
        atop = g.unit_at(Hex(*s.cable))
        if atop is not None and atop.side == "peru" and atop.controller == "peru":
            if atop.id != s.cable_ship:
                s.cable_progress = 0
            s.cable_ship = atop.id
            s.cable_clean = True
        else:
            s.cable_ship = ""
            s.cable_progress = 0
    begin_arrivals(g)


def begin_arrivals(g: Game) -> None:
    """The scenario's ships arriving this turn are set up, with their secret arrival rolls revealed, before the first card (15.x)."""
    s = g.s
    for side in ("chile", "peru"):
        if any(u.status == "waiting" and u.arrive_turn == s.turn and u.controller == side for u in s.units):
            s.phase = "arrive"
            s.setup_side = side
            keys = {d.arrive_roll for d in g.scn.deploy if d.arrive_roll and g.unit(d.ship).arrive_turn == s.turn}
            for key in sorted(keys):
                g.reveal(key)
            names = ", ".join(u.name for u in s.units if u.status == "waiting" and u.arrive_turn == s.turn and u.controller == side)
            g.say(f"Arriving this turn: {names}. {SIDE_NAMES[side]} places them, then says `done`.")
            return
    begin_activations(g)


def begin_activations(g: Game) -> None:
    """3.2: the Activations Phase begins with the first card draw."""
    g.s.phase = "activations"
    activations_4.advance(g)
