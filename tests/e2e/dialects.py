"""The dialects, judged by the providers' own converters.

Usage: python tests/e2e/dialects.py DIRECTORY

DIRECTORY holds what the test suite exports with `STITCH_DIALECT_EXPORT=DIRECTORY`: every
contract of every test file, in every dialect, with what stitch's guard reports of each
dialect (`{contract: {"schemas": {dialect: schema}, "findings": {dialect: [text]}}}`, one JSON
file per test file). Contracts whose schema is not an object are not tools (the guard says so)
and are skipped. For every other contract:

- `openai-strict`: the OpenAI Agents SDK's `ensure_strict_json_schema`, called the way its MCP
  utilities call it on a server's tool (`_reject_open_objects`), leaves it unchanged.
- `anthropic-strict`: the Anthropic SDK's `transform_schema` leaves it unchanged.
- `portable`: `transform_schema` does not raise, unless stitch's guard reports, for that
  dialect, a property it cannot type (an opaque value, kinds that disagree): no converter can
  type what has no type, and the guard must have said so.
- `google.genai`'s `Schema.from_json_schema(..., raise_error_on_unsupported_field=True)`, for
  the Gemini API and Vertex AI, takes `gemini`, `portable` and `anthropic-strict`. It takes `mcp` and
  `openai-strict` too, unless the schema holds a keyword Gemini's subset lacks and those
  dialects keep on purpose (`mcp` is the compile-time schema itself; OpenAI's strict mode
  enforces these keywords): then its refusal must name only such keywords.
"""

import copy
import json
import logging
import pathlib
import sys

from agents.strict_schema import ensure_strict_json_schema
from anthropic.lib._parse._transform import transform_schema
from google.genai import types

logging.disable(logging.WARNING)  # google.genai warns of every `type` array it splits


def openai_strict(schema):
    """The schema as the Agents SDK sends a strict MCP tool's (agents/mcp/util.py)."""
    copied = copy.deepcopy(schema)
    copied.setdefault("properties", {})
    return ensure_strict_json_schema(copied, _reject_open_objects=copied != {})


def gemini(schema, api):
    types.Schema.from_json_schema(
        json_schema=types.JSONSchema.model_validate(schema),
        api_option=api,
        raise_error_on_unsupported_field=True,
    )


# Keywords Gemini's schema lacks, which `mcp` and `openai-strict` keep on purpose.
KEPT_FOR_OTHERS = {"exclusiveMinimum", "exclusiveMaximum", "multipleOf", "uniqueItems", "oneOf",
                   "prefixItems"}


def keywords(schema):
    """Every key used anywhere in a schema (property names included: a superset is enough)."""
    found = set()
    stack = [schema]
    while stack:
        value = stack.pop()
        if isinstance(value, dict):
            found.update(value)
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return found


def gemini_check(schema, dialect, api):
    """None when Gemini takes the schema, or refuses only what the dialect keeps on purpose."""
    try:
        gemini(schema, api)
        return None
    except Exception as error:  # a converter refusing is what this test reports
        message = str(error)
        kept = KEPT_FOR_OTHERS & keywords(schema)
        named = {keyword for keyword in KEPT_FOR_OTHERS
                 if keyword in message or to_snake(keyword) in message}
        if dialect in ("mcp", "openai-strict") and kept and named and named <= kept:
            return None
        return f"{type(error).__name__}: {message[:300]}"


def to_snake(name):
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


def first_difference(a, b, path=""):
    """Where two JSON values first differ, for the report."""
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}/{key}: {'added' if key not in a else 'removed'}"
            found = first_difference(a[key], b[key], f"{path}/{key}")
            if found:
                return found
        return None
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}/{i}")
            if found:
                return found
        return None
    return None if a == b else f"{path}: {json.dumps(a)[:120]} became {json.dumps(b)[:120]}"


def main(directory):
    failures, checked, skipped, refused_as_reported, snapshot_only = [], 0, 0, 0, 0
    files = sorted(pathlib.Path(directory).glob("*.json"))
    if not files:
        print(f"FAIL no exported schemas in {directory}")
        return 1
    for path in files:
        for contract, entry in json.loads(path.read_text()).items():
            name = f"{path.stem}::{contract}"
            if "schemas" not in entry:
                # Texts for the schema snapshot only: a contract the harness is not for.
                snapshot_only += 1
                continue
            schemas, findings = entry["schemas"], entry["findings"]
            if schemas["mcp"].get("type") != "object":
                skipped += 1
                continue
            checks = []
            for dialect, schema in schemas.items():
                for api in ["GEMINI_API", "VERTEX_AI"]:
                    checks.append((f"google-genai {api} takes {dialect}",
                                   lambda s=schema, d=dialect, a=api: gemini_check(s, d, a)))
            strict = schemas["openai-strict"]
            checks.append(("openai-agents leaves openai-strict unchanged",
                           lambda: first_difference(strict, openai_strict(strict))))
            anthropic = schemas["anthropic-strict"]
            checks.append(("anthropic leaves anthropic-strict unchanged",
                           lambda: first_difference(anthropic, transform_schema(anthropic))))
            for label, check in checks:
                checked += 1
                try:
                    problem = check()
                except Exception as error:  # a converter refusing is what this test reports
                    problem = f"{type(error).__name__}: {str(error)[:300]}"
                if problem:
                    failures.append(f"{name}: {label}: {problem}")
            checked += 1
            try:
                transform_schema(schemas["portable"])
            except Exception as error:
                if findings["portable"]:
                    refused_as_reported += 1
                else:
                    failures.append(f"{name}: anthropic refuses portable ({error}) and the "
                                    "guard reported nothing for that dialect")
    for failure in failures:
        print("FAIL", failure)
    print(f"{checked} checks over {len(files)} test files ({skipped} contracts skipped: not "
          f"objects; {snapshot_only} exported for the schema snapshot only; "
          f"{refused_as_reported} portable schemas refused by anthropic where the guard "
          f"reports an untypable property), {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
