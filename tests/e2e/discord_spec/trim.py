"""Cut Discord's OpenAPI description down to the operations the fake Discord answers.

Usage (from the repository root, with a clone of github.com/discord/discord-api-spec)::

    git -C discord-api-spec show HEAD:specs/openapi.json > /tmp/openapi.json
    python3 tests/e2e/discord_spec/trim.py /tmp/openapi.json "$(git -C discord-api-spec rev-parse HEAD)"

Keeps each listed operation (parameters, request body, responses) and every component it refers
to, directly or through other components, unchanged; drops the rest (the full file is 1.2 MB).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent

# (method, path) of everything discord.py sends to the fake while the bot runs.
OPERATIONS = [
    ("get", "/users/@me"),
    ("get", "/oauth2/applications/@me"),
    ("get", "/gateway"),
    ("get", "/gateway/bot"),
    ("get", "/applications/{application_id}/commands"),
    ("put", "/applications/{application_id}/commands"),
    ("get", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("put", "/applications/{application_id}/guilds/{guild_id}/commands"),
    ("post", "/interactions/{interaction_id}/{interaction_token}/callback"),
    ("post", "/webhooks/{webhook_id}/{webhook_token}"),
    ("get", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("delete", "/webhooks/{webhook_id}/{webhook_token}/messages/@original"),
    ("get", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("delete", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
    ("post", "/users/@me/channels"),
    ("get", "/channels/{channel_id}"),
    ("get", "/channels/{channel_id}/messages"),  # did an unconfirmed follow-up land?
    ("post", "/channels/{channel_id}/messages"),
    ("patch", "/channels/{channel_id}/messages/{message_id}"),
    ("put", "/channels/{channel_id}/messages/pins/{message_id}"),
    ("put", "/channels/{channel_id}/pins/{message_id}"),
    ("post", "/channels/{channel_id}/threads"),  # /game new thread:true
]


def refs(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str):
            found.add(ref)
        for value in node.values():
            found |= refs(value)
    elif isinstance(node, list):
        for value in node:
            found |= refs(value)
    return found


def resolve(spec: dict[str, Any], ref: str) -> Any:
    node: Any = spec
    for part in ref.removeprefix("#/").split("/"):
        node = node[part]
    return node


def trim(spec: dict[str, Any], commit: str) -> dict[str, Any]:
    paths: dict[str, Any] = {}
    for method, path in OPERATIONS:
        item = spec["paths"][path]
        kept = paths.setdefault(path, {k: v for k, v in item.items() if k == "parameters"})
        kept[method] = item[method]
    components: dict[str, dict[str, Any]] = {}
    todo = refs(paths)
    seen: set[str] = set()
    while todo:
        ref = todo.pop()
        if ref in seen:
            continue
        seen.add(ref)
        _, section, name = ref.removeprefix("#/").split("/")
        node = resolve(spec, ref)
        components.setdefault(section, {})[name] = node
        todo |= refs(node) - seen
    info = dict(spec["info"])
    info["x-trimmed-from"] = f"https://github.com/discord/discord-api-spec/blob/{commit}/specs/openapi.json"
    return {
        "openapi": spec["openapi"],
        "info": info,
        "paths": paths,
        "components": {section: dict(sorted(items.items())) for section, items in sorted(components.items())},
    }


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    spec = json.loads(Path(argv[0]).read_text())
    trimmed = trim(spec, argv[1])
    (HERE / "openapi.json").write_text(json.dumps(trimmed, indent=1, sort_keys=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
