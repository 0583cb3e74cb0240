"""The fake Discord holds the bot's requests and its own answers to Discord's API spec
(``tests/e2e/discord_spec``); every e2e test fails on a breach (``serving()`` checks ``violations``).

Here: the validator itself, then one game that sends every kind of request the bot makes, each one
checked against the spec's schema for its operation.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.discord_app import TableBot
from tests.e2e.discord_spec.validate import ANNOTATIONS, KEYWORDS, UnsupportedKeyword, Validator, discord_spec
from tests.e2e.fake_discord import FakeDiscord

pytestmark = pytest.mark.e2e

SPEC = discord_spec()


def request_problems(method: str, path: str, body: Any, files: list[str] | None = None) -> list[str]:
    kind = "multipart/form-data" if files else "application/json"
    return SPEC.check_request(method, path, kind, body, files)


BUTTON = {"type": 2, "style": 1, "label": "Go", "custom_id": "wg:order:go"}


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ({"content": "x" * 2001}, "$.content: 2001 characters, more than maxLength 2000"),
        ({"embeds": [{"title": "t"}] * 11}, "$.embeds: 11 items, more than maxItems 10"),
        ({"components": [{"type": 1, "components": [BUTTON] * 6}]}, "6 items, more than maxItems 5"),
        ({"components": [{"type": 1, "components": [{**BUTTON, "custom_id": "c" * 101}]}]}, "more than maxLength 100"),
        ({"components": [{"type": 1, "components": [{**BUTTON, "label": "l" * 81}]}]}, "more than maxLength 80"),
        ({"components": [{"type": 1, "components": [{"type": 2, "label": "no style"}]}]}, "'style' missing"),
        ({"content": 5}, "$.content: 5 is not of type string/null"),
        ({"attachments": [{"id": i} for i in range(11)]}, "$.attachments: 11 items, more than maxItems 10"),
    ],
)
def test_the_spec_refuses_what_discord_refuses(body: dict[str, Any], problem: str) -> None:
    problems = request_problems("POST", "/webhooks/1/tok", body)  # an interaction follow-up
    assert any(problem in p for p in problems), problems


def test_the_spec_takes_what_discord_takes() -> None:
    row = {"type": 1, "components": [BUTTON, {**BUTTON, "custom_id": "wg:order:stop", "label": "l" * 80}]}
    assert request_problems("POST", "/channels/123/messages", {"content": "hi", "components": [row]}) == []
    files = {"content": "board", "attachments": [{"id": 0, "filename": "board.png"}]}
    assert request_problems("POST", "/webhooks/1/tok", files, ["files[0]"]) == []
    assert request_problems("POST", "/users/@me/channels", {"recipient_id": 1234}) == []  # as discord.py sends it
    callback = {"type": 4, "data": {"content": "x", "flags": 64}}
    assert request_problems("POST", "/interactions/1/tok/callback", callback) == []
    assert request_problems("POST", "/interactions/1/tok/callback", {"type": 99}) != []


def test_unknown_routes_and_keywords_are_errors_not_passes() -> None:
    assert request_problems("POST", "/guilds/1/bans/2", {}) == [
        "POST /guilds/1/bans/2: no such operation in Discord's spec"
    ]
    with pytest.raises(UnsupportedKeyword):
        Validator({}).errors("x", {"dependentRequired": {"a": ["b"]}})


def schema_keywords(schema: Any) -> set[str]:
    """Every keyword used in ``schema`` and the schemas inside it."""
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for key, value in schema.items():
        if key == "properties":
            found |= {k for sub in value.values() for k in schema_keywords(sub)}
        elif key in ("allOf", "anyOf", "oneOf"):
            found |= {k for sub in value for k in schema_keywords(sub)}
        elif key in ("items", "additionalProperties"):
            found |= schema_keywords(value)
    return found


def test_the_validator_implements_every_keyword_the_vendored_spec_uses() -> None:
    schemas = list(SPEC.document["components"]["schemas"].values())
    for item in SPEC.document["paths"].values():
        for method, op in item.items():
            if method != "parameters":
                body = op.get("requestBody", {}).get("content", {})
                schemas += [c["schema"] for c in body.values()]
                schemas += [c["schema"] for r in op["responses"].values() for c in r.get("content", {}).values()]
    used = {k for schema in schemas for k in schema_keywords(schema)}
    assert used <= KEYWORDS | ANNOTATIONS, used - KEYWORDS - ANNOTATIONS


def test_responses_are_checked_strictly() -> None:
    user = {"id": "1", "username": "u", "avatar": None, "discriminator": "0", "public_flags": 0, "flags": 0}
    user |= {"global_name": None, "mfa_enabled": False, "locale": "en-US"}
    assert SPEC.check_response("GET", "/users/@me", 200, user, {}) == []
    assert SPEC.check_response("GET", "/users/@me", 200, {**user, "id": 1}, {}) != []  # snowflakes come as strings
    limited = {"message": "You are being rate limited.", "retry_after": 0.5, "global": False, "code": 0}
    assert SPEC.check_response("POST", "/channels/1/messages", 429, limited, {"x-ratelimit-remaining": "0"}) == []
    assert SPEC.check_response("POST", "/channels/1/messages", 429, {"message": "slow down"}, {}) != []
    assert SPEC.check_response("POST", "/channels/1/messages", 429, limited, {"x-ratelimit-limit": "many"}) != []


# The operations the bot uses while playing, each of which must have been checked at least once.
BOT_OPERATIONS = {
    ("GET", "/users/@me"),
    ("GET", "/oauth2/applications/@me"),
    ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("POST", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("POST", "/webhooks/{webhook_id}/{webhook_token}"),
    ("PATCH", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("POST", "/users/@me/channels"),
    ("POST", "/channels/{channel_id}/messages"),
    ("PATCH", "/channels/{channel_id}/messages/{message_id}"),
}


@pytest.mark.slow
async def test_every_request_the_bot_sends_is_checked_against_the_spec(
    fake: FakeDiscord, bot: TableBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    peru, chile = fake.add_user("peru"), fake.add_user("chile")
    await fake.run(peru, "game new", {"system": "table", "scenario": "free", "options": "sides=Peru,Chile,board=12x12"})
    await fake.run(peru, "game join", {"seat": "peru"})
    await fake.run(chile, "game join", {"seat": "chile"})
    await fake.run(peru, "game start")
    board = (await fake.run(peru, "order", {"text": "place Huascar d4"})).public()  # reply with the board, multipart
    assert board and board[0].has_image()
    long = await fake.run(peru, "order", {"text": " ".join(["signal"] * 330)})  # two pieces: a webhook follow-up
    await fake.wait_for(lambda: len(long.public()) >= 2, 5.0, "the follow-up")
    await fake.run(chile, "roll", {"dice": "2d6", "secret": True, "purpose": "ambush"})  # a DM
    await fake.wait_for(lambda: fake.dms(chile), 5.0, "the secret roll's DM")
    real = bot.service.handle

    async def slow(*args: Any) -> Any:
        await asyncio.sleep(1.2)  # past the bot's answer budget: it defers, then edits the placeholder
        return await real(*args)

    monkeypatch.setattr(bot.service, "handle", slow)
    deferred = await fake.run(chile, "order", {"text": "place Esmeralda h8"})
    # deferred privately (an order may be a hidden one): the board follows as a public follow-up
    await fake.wait_for(lambda: deferred.public(), 5.0, "the public follow-up")
    assert deferred.response_type == 5 and deferred.public()[0].has_image()
    monkeypatch.setattr(bot.service, "handle", real)
    await fake.wait_for(
        lambda: any(r.method == "PATCH" and r.path.startswith("/channels/") for r in fake.requests),
        5.0,
        "the status message edited",
    )

    checked = {(method, template) for method, template, status in fake.validated if status < 300}
    assert checked >= BOT_OPERATIONS, BOT_OPERATIONS - checked
    assert len(fake.validated) == len(fake.requests)  # every request and its answer, not a sample
    assert not fake.violations
