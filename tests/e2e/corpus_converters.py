"""Real servers' tool schemas in each dialect, judged by the providers' own converters.

Usage: python tests/e2e/corpus_converters.py DIRECTORY

DIRECTORY holds what `tests/corpus.rs` writes with `STITCH_CORPUS_OUT=DIRECTORY`: per server,
`{tool: {"source", "schemas": {dialect: schema}, "findings": {dialect: [text]}}}`. A converter
refuses a schema when it raises or changes it: the OpenAI Agents SDK's strict-schema pass on
`openai-strict`, the Anthropic SDK's `transform_schema` on `anthropic-strict`, and
`google.genai` (Gemini API and Vertex AI) on `portable`. Every refusal must come with a guard
finding for that dialect; Gemini refuses none; OpenAI and Anthropic at most MAX_REFUSALS each,
and none of NEVER_REFUSED.
Prints the refusals and a closing line 'N passed, N failed'.
"""

import json
import pathlib
import sys

from dialects import first_difference, gemini, openai_strict, transform_schema

MAX_REFUSALS = 2
# Tools no converter may refuse in any dialect: a pydantic union whose tag has a default,
# flattened like any other.
NEVER_REFUSED = {"pydantic.kv"}


def refusal(check):
    try:
        return check()
    except Exception as error:  # a converter refusing is what this reports
        return f"{type(error).__name__}: {str(error)[:200]}"


def main(directory):
    files = sorted(pathlib.Path(directory).glob("*.json"))
    if not files:
        print(f"FAIL no corpus outputs in {directory}")
        return 1
    refused = {"openai-strict": [], "anthropic-strict": [], "portable": [], "gemini": []}
    unreported, checked = [], 0
    for path in files:
        for tool, entry in json.loads(path.read_text()).items():
            if not entry:
                continue
            schemas, findings = entry["schemas"], entry["findings"]
            name = f"{path.stem}.{tool}"
            checks = [
                ("openai-strict", lambda s=schemas["openai-strict"]: first_difference(s, openai_strict(s))),
                ("anthropic-strict", lambda s=schemas["anthropic-strict"]: first_difference(s, transform_schema(s))),
                ("portable", lambda s=schemas["portable"]: gemini(s, "GEMINI_API") or gemini(s, "VERTEX_AI")),
                ("gemini", lambda s=schemas["gemini"]: gemini(s, "GEMINI_API") or gemini(s, "VERTEX_AI")),
            ]
            for dialect, check in checks:
                checked += 1
                problem = refusal(check)
                if problem:
                    refused[dialect].append(f"{name}: {problem}")
                    if not findings.get(dialect):
                        unreported.append(f"{name} in {dialect}: {problem}")
    failures = []
    for dialect, found in refused.items():
        for line in found:
            print(f"refused in {dialect}: {line}")
    print(f"refusals: openai-strict {len(refused['openai-strict'])}, anthropic-strict "
          f"{len(refused['anthropic-strict'])}, google-genai: portable {len(refused['portable'])}, "
          f"gemini {len(refused['gemini'])}")
    for line in unreported:
        failures.append(f"a converter refuses with no guard finding: {line}")
    for dialect, found in refused.items():
        for line in found:
            if line.split(":", 1)[0] in NEVER_REFUSED:
                failures.append(f"{dialect} refuses a tool it must take: {line}")
    for dialect in ("portable", "gemini"):
        if refused[dialect]:
            failures.append(f"Gemini refuses {dialect} schemas")
    for dialect in ("openai-strict", "anthropic-strict"):
        if len(refused[dialect]) > MAX_REFUSALS:
            failures.append(f"{dialect}: {len(refused[dialect])} refusals, more than {MAX_REFUSALS}")
    for failure in failures:
        print("FAIL", failure)
    print(f"{checked - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
