"""Check requests and responses against Discord's OpenAPI description (the vendored ``openapi.json``).

A small JSON Schema (2020-12, as OpenAPI 3.1 uses it) validator for exactly the keywords that file
uses. A keyword it does not know raises ``UnsupportedKeyword`` instead of being skipped, so a newer
spec cannot make a check pass silently. ``format`` is checked where it is a range (int32, int64) or
a pattern (snowflake); the others (uri, date-time, ...) are annotations, as in JSON Schema itself.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

SPEC_PATH = Path(__file__).with_name("openapi.json")
ANNOTATIONS = {"description", "title", "x-discord-union", "contentEncoding", "default", "deprecated", "examples"}
KEYWORDS = {  # what Validator._keyword implements
    "$ref", "type", "enum", "const", "allOf", "anyOf", "oneOf", "properties", "required",
    "additionalProperties", "maxProperties", "items", "minItems", "maxItems", "uniqueItems",
    "minLength", "maxLength", "minimum", "maximum", "pattern", "format",
}  # fmt: skip
FORMAT_RANGES = {"int32": (-(2**31), 2**31 - 1), "int64": (-(2**63), 2**63 - 1)}
SNOWFLAKE = re.compile(r"^(0|[1-9][0-9]*)$")


class UnsupportedKeyword(Exception):
    """The schema uses a keyword this validator does not implement: extend it, do not skip."""


def _type_ok(value: Any, kind: str) -> bool:
    match kind:
        case "null":
            return value is None
        case "boolean":
            return isinstance(value, bool)
        case "integer":
            return (isinstance(value, int) and not isinstance(value, bool)) or (
                isinstance(value, float) and value.is_integer()
            )
        case "number":
            return isinstance(value, int | float) and not isinstance(value, bool)
        case "string":
            return isinstance(value, str)
        case "array":
            return isinstance(value, list)
        case "object":
            return isinstance(value, dict)
    raise UnsupportedKeyword(f"type {kind!r}")


def _describe(value: Any) -> str:
    text = json.dumps(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Validator:
    """``integer_snowflakes``: accept a JSON integer where the spec wants a snowflake string. Discord
    reads requests that way (discord.py sends attachment ids as 0, 1, ... and DM recipients as
    integers, and real Discord takes them); its answers always carry snowflakes as strings, so
    responses are checked strictly."""

    def __init__(self, document: dict[str, Any], *, integer_snowflakes: bool = False) -> None:
        self.document = document
        self.integer_snowflakes = integer_snowflakes

    def resolve(self, ref: str) -> Any:
        if not ref.startswith("#/"):
            raise UnsupportedKeyword(f"$ref {ref!r} outside this document")
        node: Any = self.document
        for part in ref[2:].split("/"):
            node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def errors(self, value: Any, schema: Any, where: str = "$") -> list[str]:
        """Every way ``value`` breaks ``schema``, as "path: problem" lines (empty: it conforms)."""
        if schema is True or schema == {}:
            return []
        if schema is False:
            return [f"{where}: not allowed here"]
        if self.integer_snowflakes and schema.get("format") == "snowflake" and _type_ok(value, "integer"):
            return [] if 0 <= value < 2**64 else [f"{where}: {value} is not a snowflake"]
        found: list[str] = []
        for key, rule in schema.items():
            if key in ANNOTATIONS:
                continue
            found += self._keyword(key, rule, value, schema, where)
        return found

    def _keyword(self, key: str, rule: Any, value: Any, schema: dict[str, Any], where: str) -> list[str]:
        match key:
            case "$ref":
                return self.errors(value, self.resolve(rule), where)
            case "type":
                kinds = rule if isinstance(rule, list) else [rule]
                if any(_type_ok(value, k) for k in kinds):
                    return []
                return [f"{where}: {_describe(value)} is not of type {'/'.join(kinds)}"]
            case "enum":
                return [] if any(_same(value, v) for v in rule) else [f"{where}: {_describe(value)} not one of {rule}"]
            case "const":
                return [] if _same(value, rule) else [f"{where}: {_describe(value)} is not {rule!r}"]
            case "allOf":
                return [e for sub in rule for e in self.errors(value, sub, where)]
            case "anyOf" | "oneOf":
                if all(
                    isinstance(sub, dict) and "const" in sub and sub.keys() <= ANNOTATIONS | {"const"} for sub in rule
                ):
                    # an enumeration written as constants (Discord's integer enums): one membership test
                    passing = sum(_same(value, sub["const"]) for sub in rule)
                    if (key == "anyOf" and passing >= 1) or passing == 1:
                        return []
                    return [f"{where}: {_describe(value)} not one of {[sub['const'] for sub in rule]}"]
                results = [self._branch(value, sub, where) for sub in rule]
                passing = sum(not r for r in results)
                if (key == "anyOf" and passing >= 1) or (key == "oneOf" and passing == 1):
                    return []
                if passing > 1:
                    return [f"{where}: matches {passing} of the oneOf schemas, must match exactly one"]
                # Discord's unions are told apart by their "type": report the branch of this one's type.
                typed = [
                    r
                    for r in results
                    if not any(
                        e.startswith(f"{where}.type:") or (e.startswith(f"{where}: ") and "is not of type" in e)
                        for e in r
                    )
                ]
                closest = min(typed or results, key=len)
                return [f"{where}: matches none of the {len(rule)} {key} schemas; the closest fails: {closest[0]}"] + [
                    f"  {e}" for e in closest[1:4]
                ]
            case "properties":
                if not isinstance(value, dict):
                    return []
                return [
                    e
                    for name, sub in rule.items()
                    if name in value
                    for e in self.errors(value[name], sub, f"{where}.{name}")
                ]
            case "required":
                if not isinstance(value, dict):
                    return []
                return [f"{where}: required property {name!r} missing" for name in rule if name not in value]
            case "additionalProperties":
                if not isinstance(value, dict):
                    return []
                declared = schema.get("properties", {})
                return [
                    e
                    for name, item in value.items()
                    if name not in declared
                    for e in self.errors(item, rule, f"{where}.{name}")
                ]
            case "maxProperties":
                return (
                    [f"{where}: more than {rule} properties"] if isinstance(value, dict) and len(value) > rule else []
                )
            case "items":
                if not isinstance(value, list):
                    return []
                return [e for i, item in enumerate(value) for e in self.errors(item, rule, f"{where}[{i}]")]
            case "minItems" | "maxItems":
                if not isinstance(value, list):
                    return []
                low = key == "minItems"
                if len(value) < rule if low else len(value) > rule:
                    return [f"{where}: {len(value)} items, {'fewer' if low else 'more'} than {key} {rule}"]
                return []
            case "uniqueItems":
                if not (rule and isinstance(value, list)):
                    return []
                seen = [json.dumps(v, sort_keys=True) for v in value]
                return [f"{where}: items are not unique"] if len(set(seen)) != len(seen) else []
            case "minLength" | "maxLength":
                if not isinstance(value, str):
                    return []
                low = key == "minLength"
                if len(value) < rule if low else len(value) > rule:
                    return [f"{where}: {len(value)} characters, {'fewer' if low else 'more'} than {key} {rule}"]
                return []
            case "minimum" | "maximum":
                if not _type_ok(value, "number"):
                    return []
                if value < rule if key == "minimum" else value > rule:
                    return [f"{where}: {value} is beyond {key} {rule}"]
                return []
            case "pattern":
                if isinstance(value, str) and not re.search(rule, value):
                    return [f"{where}: {_describe(value)} does not match {rule}"]
                return []
            case "format":
                if rule in FORMAT_RANGES and _type_ok(value, "integer"):
                    low, high = FORMAT_RANGES[rule]
                    return [] if low <= value <= high else [f"{where}: {value} is not an {rule}"]
                if rule == "snowflake" and isinstance(value, str) and not SNOWFLAKE.match(value):
                    return [f"{where}: {_describe(value)} is not a snowflake"]
                if rule == "double" and isinstance(value, float) and not math.isfinite(value):
                    return [f"{where}: {value} is not a finite double"]
                return []
        raise UnsupportedKeyword(f"{key!r} at {where}")

    def _branch(self, value: Any, branch: Any, where: str) -> list[str]:
        """A union branch's errors; a branch whose ``type`` property cannot be this object's ``type``
        fails at once (what the full check would find, without walking the rest of it)."""
        if isinstance(value, dict) and "type" in value and isinstance(branch, dict):
            target = self.resolve(branch["$ref"]) if set(branch) == {"$ref"} else branch
            rule = target.get("properties", {}).get("type") if isinstance(target, dict) else None
            if isinstance(rule, dict) and ("enum" in rule or "const" in rule):
                allowed = rule["enum"] if "enum" in rule else [rule["const"]]
                if not any(_same(value["type"], a) for a in allowed):
                    return [f"{where}.type: {_describe(value['type'])} not one of {allowed}"]
        return self.errors(value, branch, where)


def _same(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but True is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return bool(a == b)


@dataclass(frozen=True)
class Operation:
    method: str
    template: str
    spec: dict[str, Any]


class DiscordSpec:
    """The vendored description: which operation a request is, and whether it and its answer conform."""

    def __init__(self, document: dict[str, Any]) -> None:
        self.document = document
        self.validator = Validator(document)
        self.request_validator = Validator(document, integer_snowflakes=True)

    def operation(self, method: str, path: str) -> Operation | None:
        """The operation for ``path`` (under /api/v10); literal segments beat parameters, as routers do."""
        parts = path.strip("/").split("/")
        best: tuple[int, Operation] | None = None
        for template, item in self.document["paths"].items():
            op = item.get(method.lower())
            segments = template.strip("/").split("/")
            if op is None or len(segments) != len(parts):
                continue
            literal = 0
            for segment, part in zip(segments, parts, strict=True):
                if segment.startswith("{") and segment.endswith("}"):
                    continue
                if segment != part:
                    break
                literal += 1
            else:
                if best is None or literal > best[0]:
                    best = (literal, Operation(method.upper(), template, op))
        return None if best is None else best[1]

    def check_request(
        self, method: str, path: str, content_type: str, body: Any, file_fields: list[str] | None = None
    ) -> list[str]:
        """Problems with a request: an operation the spec lacks, or a body its requestBody refuses.

        A multipart body is checked as the form Discord reads: the ``payload_json`` object plus one
        binary field per file part (``files[n]``)."""
        op = self.operation(method, path)
        if op is None:
            return [f"{method} {path}: no such operation in Discord's spec"]
        request = op.spec.get("requestBody")
        if request is None:
            return [] if body is None else [f"{op.method} {op.template}: takes no body, got {_describe(body)}"]
        if body is None and not file_fields:
            return [f"{op.method} {op.template}: body required"] if request.get("required") else []
        content = request["content"]
        kind = "multipart/form-data" if content_type.startswith("multipart/") else "application/json"
        if kind not in content:
            return [f"{op.method} {op.template}: {kind} not accepted (only {sorted(content)})"]
        instance = body
        if kind == "multipart/form-data":
            instance = dict(body or {})
            instance.update(dict.fromkeys(file_fields or [], "<binary>"))
        return [
            f"{op.method} {op.template} request: {e}"
            for e in self.request_validator.errors(instance, content[kind]["schema"])
        ]

    def check_response(self, method: str, path: str, status: int, body: Any, headers: dict[str, str]) -> list[str]:
        """Problems with an answer: a status the operation does not list, or a body or header that
        does not fit the schema listed for that status."""
        op = self.operation(method, path)
        if op is None:
            return []  # already reported for the request
        responses = op.spec["responses"]
        answer = responses.get(str(status)) or responses.get(f"{status // 100}XX") or responses.get("default")
        if answer is None:
            return [f"{op.method} {op.template}: status {status} is not among {sorted(responses)}"]
        if "$ref" in answer:
            answer = self.validator.resolve(answer["$ref"])
        problems: list[str] = []
        for name, header in answer.get("headers", {}).items():
            schema = self.validator.resolve(header["$ref"]) if "$ref" in header else header
            if name.lower() in headers:
                raw = headers[name.lower()]
                try:
                    parsed: Any = json.loads(raw) if schema["schema"].get("type") in ("integer", "number") else raw
                except ValueError:
                    parsed = raw
                problems += self.validator.errors(parsed, schema["schema"], f"header {name}")
        schema = answer.get("content", {}).get("application/json", {}).get("schema")
        if schema is None:
            if body is not None:
                problems.append(f"status {status} has no body in the spec, got {_describe(body)}")
        else:
            problems += self.validator.errors(body, schema)
        return [f"{op.method} {op.template} {status} response: {p}" for p in problems]


@cache
def discord_spec() -> DiscordSpec:
    return DiscordSpec(json.loads(SPEC_PATH.read_text()))
