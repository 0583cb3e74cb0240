"""Book ch. 4 (4), The Initiative Phase (4.1): Skill Tests, Challenge Tests, the three steps."""

from __future__ import annotations

from tests.book.oak_and_iron.book import begin, fails, order, rng, ruleset, texts


def test_a_turn_has_four_phases_in_order() -> None:
    """4 PLAYING THE GAME: "Each turn will be broken down into four phases: I. THE INITIATIVE PHASE II.
    THE MOVEMENT PHASE III. THE ATTACK PHASE IV. THE END PHASE"."""
    from tests.book.oak_and_iron.book import anchor_others, play_out

    state, stream = begin("quickstart", 1)
    anchor_others(state)
    seen = [state.phase]
    for until in ("attack", "select"):
        log = play_out(state, stream, until=until)
        seen.append(state.phase)
        if until == "select":
            assert any("End Phase" in line for line in log)
    assert seen == ["movement", "attack", "select"] and state.turn == 2


def test_higher_initiative_card_goes_first() -> None:
    """4.1 step 1 REVEAL INITIATIVE CARD: "The player who reveals the card with the highest initiative
    value has the initiative and will go first in each following phase for this turn." (Adjust
    Position 5 against Reload, lower in the house values.)"""
    stream = rng(1)
    rs = ruleset()
    state = rs.setup("quickstart", {}, stream)
    order(state, "a", "initiative Adjust Position", stream)
    events = texts(order(state, "b", "initiative Fire as She Bears", stream))
    assert "Player A reveals Adjust Position" in events
    assert state.initiative == "a"


def test_equal_cards_draw_an_event_then_admiral_value_then_a_challenge_test() -> None:
    """4.1 step 1: "If both players reveal a card of equal value, an event card is drawn from the event
    deck" ... "the player whose Squadron has the highest admiral value has the initiative. If there is
    a still a tie, both players perform a Challenge Test."; 4.1 CHALLENGE TEST: "The player who rolls
    the most [successes] wins the Challenge Test"."""
    rs = ruleset()
    state2, _ = begin("skirmish", 3, {"admiral_a": "veteran"})  # both seal the same first card
    assert state2.initiative == "a"  # equal cards, A's admiral value is higher
    stream = rng(3)
    state = rs.setup("skirmish", {}, stream)
    order(state, "a", "initiative Careful Aim", stream)
    events = texts(order(state, "b", "initiative Careful Aim", stream))
    assert "an event card is drawn" in events and "Challenge Test" in events


def test_skill_test_passes_on_crossed_swords_or_helm_and_fatigue_removes_dice() -> None:
    """4.1 SKILL TEST: "roll 5 dice (modified by special rules and Fatigue). If any [Crossed Swords] or
    [Helm] results are rolled, the test is successful." 4.2 FATIGUE: "For every point of Fatigue a ship
    has, it reduces the number of dice rolled for any Skill Test or Attack by 1 (to a minimum of 1)"."""
    for fatigue, dice in ((0, 5), (2, 3), (6, 1)):
        state, stream = begin("quickstart", 1)
        state.ship("corvette").fatigue = fatigue
        events = texts(order(state, "b", "Corvette seamanship adjust +1", stream))
        assert f"Skill Test ({dice} dice)" in events, events
        line = next(x for x in events.splitlines() if "Skill Test" in x)
        faces = line.split("):", 1)[1].split(";")[0]
        passed = "Crossed Swords" in faces or "Helm" in faces
        assert ("passed" in line) == passed


def test_new_card_is_sealed_face_down() -> None:
    """4.1 step 2 SELECT NEW INITIATIVE CARD: "Each player now chooses a new initiative card from their
    initiative hand and places it facedown." (The opponent's view does not show it.)"""
    stream = rng(1)
    rs = ruleset()
    state = rs.setup("quickstart", {}, stream)
    order(state, "a", "initiative Careful Aim", stream)
    order(state, "b", "initiative Fleet Manuever", stream)
    order(state, "a", "initiative Effective Fire", stream)
    seen_by_b = repr(rs.view(state, "b"))
    assert "Effective Fire" not in seen_by_b.split("private_text")[0].replace("Effective Fire (4)", "")
    assert "effective-fire" not in seen_by_b
    assert fails(state, "a", "initiative Fleet Manuever", stream).text  # not in A's hand


def test_immediately_effects_apply_at_once() -> None:
    """4.1 step 3 RESOLVE INITIATIVE CARD EFFECTS: "Apply the effects that state "Immediately" now"
    (Take Courage: "Immediately: each of your ships removes 1 Fatigue")."""
    stream = rng(1)
    rs = ruleset()
    state = rs.setup("quickstart", {}, stream)
    state.ship("corvette").fatigue = 3
    order(state, "a", "initiative Adjust Position", stream)
    order(state, "b", "initiative Take Courage", stream)
    order(state, "a", "initiative Down!", stream)
    order(state, "b", "initiative Fire as She Bears", stream)
    assert state.ship("corvette").fatigue == 2 and state.phase == "movement"
