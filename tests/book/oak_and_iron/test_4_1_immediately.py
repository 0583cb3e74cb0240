"""Book ch. 4, The Initiative Phase (4.1): when the "Immediately" effects of step 3 happen, through
order text. The steps run in the book's order: reveal (1), seal next turn's card (2), then resolve (3)."""

from __future__ import annotations

from tests.book.oak_and_iron.book import order, rng, ruleset, texts


def test_immediately_effects_wait_for_the_new_cards_to_be_sealed() -> None:
    """4.1 step 3 RESOLVE INITIATIVE CARD EFFECTS: "Apply the effects that state "Immediately" now, and
    make note of effects which may be used later in the turn." ("now" is step 3, after 4.1 step 2
    SELECT NEW INITIATIVE CARD: "Each player now chooses a new initiative card"; Take Courage:
    "Immediately: each of your ships removes 1 Fatigue".)"""
    stream = rng(1)
    state = ruleset().setup("quickstart", {}, stream)
    corvette = state.ship("corvette")
    corvette.fatigue = 3
    order(state, "a", "initiative Adjust Position", stream)
    revealed = texts(order(state, "b", "initiative Take Courage", stream))  # step 1: both revealed
    assert "Player B reveals Take Courage" in revealed
    assert state.phase == "select" and corvette.fatigue == 3  # step 2 comes first
    assert "Take Courage: Corvette" not in revealed
    order(state, "a", "initiative Down!", stream)
    assert corvette.fatigue == 3
    sealed = texts(order(state, "b", "initiative Fire as She Bears", stream))
    assert corvette.fatigue == 2 and state.phase == "movement"
    lines = sealed.splitlines()
    step3 = next(i for i, x in enumerate(lines) if "Take Courage: Corvette Fatigue -> 2" in x)
    assert step3 < next(i for i, x in enumerate(lines) if "Movement Phase" in x)
