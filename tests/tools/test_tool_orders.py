"""The table tools' orders are typed (issue 14) and mean what they meant: 800 commands of the
shapes the table service writes (472 of them refused) were answered by the code before the change;
replayed now, each gets the same canonical text, events, random-stream position and state, or the
same refusal. Channels' tools logs replay and /tools verify re-derives them from this text."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from games.core.errors import GameError
from games.core.rng import Rng
from games.tools import TOOLS
from games.tools.orders import DeckDeal, DeckDraw, Roll, SealBare, SealOpen, SealReveal, SealText, Secret, parse

RECORDED = json.loads((Path(__file__).parent / "tool_answers.json").read_text(encoding="utf-8"))


def digest(state: Any) -> str:
    """The state as both shapes hold it: since issue 26 a revealed secret roll leaves the state (its
    reveal is in the log) and a count ``made`` numbers the next; the recorded digests are of this
    projection, computed by the code before that change over the same commands."""
    encoded = TOOLS.encode(state)
    encoded.pop("made", None)
    encoded["rolls"] = [r for r in encoded["rolls"] if not r["revealed"]]
    return hashlib.sha256(json.dumps(encoded, sort_keys=True).encode()).hexdigest()[:16]


@pytest.mark.parametrize("game", range(len(RECORDED)))
def test_every_recorded_command_gets_the_same_answer(game: int) -> None:
    recorded = RECORDED[game]
    rng = Rng(bytes([recorded["seed"]]) * 32)
    state = TOOLS.setup("tools", {}, rng)
    for step in recorded["steps"]:
        before = TOOLS.encode(state)
        try:
            order = TOOLS.parse_order(state, step["seat"], step["text"])
            events = TOOLS.apply(state, step["seat"], order, rng)
        except GameError as exc:
            assert "error" in step, (step["text"], exc.text)
            assert type(exc).__name__ == step["error"], (step["text"], exc.text, step["message"])
            assert exc.text == step["message"], step["text"]
            state = TOOLS.decode(before)
            continue
        assert "error" not in step, (step, [e.text for e in events])
        assert TOOLS.format_order(order) == step["canonical"]
        assert [[e.text, sorted(e.to) if e.to else None, e.reveals] for e in events] == step["events"], step["text"]
        assert (digest(state), rng.counter) == (step["state"], step["counter"]), step["text"]


def test_tool_orders_are_typed_and_print_back() -> None:
    assert parse("roll 4d6kh3 # ability") == Roll("4d6kh3 # ability")
    assert parse("secret 2d6 ambush at dawn") == Secret("2d6", "ambush at dawn")
    assert parse("deck draw cards hand") == DeckDraw("cards", hand=True)
    assert parse("deck deal cards 2 111 222") == DeckDeal("cards", "2", "111 222")
    assert parse("seal open 111 222") == SealOpen("111 222") and parse("seal reveal") == SealReveal()
    assert parse("seal text reveal nothing") == SealText("reveal nothing")
    assert parse("seal reveal nothing") == SealBare("reveal nothing")  # logs from before `seal text`
    for text in ("roll 2d6", "secret 2d6 ambush", "reveal 3", "reveal", "deck new cards standard52",
                 "deck draw cards", "deck deal cards 2 111", "play A♥ cards", "seal open 111 222",
                 "seal text hold the line"):
        assert parse(text).text == text and parse(parse(text).text) == parse(text)
    with pytest.raises(GameError, match="Unknown table command"):
        parse("dance")
