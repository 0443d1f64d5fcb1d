"""What `stitch-gateway` lists, judged by the providers' own converters, against what its
`check` says of the same upstream.

Usage: python tests/e2e/gateway_converters.py OUT [EXPECT_REFUSED...]

OUT holds what `gateway_listings.py` writes, one directory per upstream. A converter refuses
a tool when it raises on its schema or changes it: the OpenAI Agents SDK's strict pass on
`openai-strict`, the Anthropic SDK's `transform_schema` on `anthropic-strict`, `google.genai`
(Gemini API and Vertex AI) on `portable`. For every upstream and dialect:

- every tool a converter refuses is one `check` has a finding for, in that dialect;
- `check` says the provider refuses the listing exactly where a converter refuses a tool of it,
  or where the listing crosses a budget the providers document (a listing's size, which no
  converter judges, so those are named on the command line: `NAME:DIALECT`, each one expected);
- `check` exits 1 exactly where it says a provider refuses a listing, else 0.
Prints each upstream's verdicts and 'N passed, N failed'.
"""

import json
import pathlib
import sys

from corpus_converters import refusal
from dialects import first_difference, gemini, openai_strict, transform_schema

CONVERTERS = {
    "openai-strict": lambda s: first_difference(s, openai_strict(s)),
    "anthropic-strict": lambda s: first_difference(s, transform_schema(s)),
    "portable": lambda s: gemini(s, "GEMINI_API") or gemini(s, "VERTEX_AI"),
    "gemini": lambda s: gemini(s, "GEMINI_API") or gemini(s, "VERTEX_AI"),
}


def main(out, expected_budget):
    failures, checked = [], 0
    upstreams = sorted(path for path in pathlib.Path(out).iterdir() if path.is_dir())
    if not upstreams:
        print(f"FAIL nothing listed in {out}")
        return 1
    for upstream in upstreams:
        report = json.loads((upstream / "check.json").read_text())
        status = int((upstream / "check.status").read_text())
        said_refused = set()
        for dialect, converter in CONVERTERS.items():
            tools = json.loads((upstream / f"{dialect}.json").read_text())
            verdict = report["dialects"][dialect]
            found = {finding["tool"] for finding in verdict["findings"]}
            refused = [(tool["name"], problem) for tool in tools
                       if (problem := refusal(lambda: converter(tool["inputSchema"])))]
            checked += 1
            for name, problem in refused:
                if name not in found:
                    failures.append(f"{upstream.name} {dialect}: a converter refuses `{name}` "
                                    f"with no finding: {problem}")
            expected = bool(refused) or f"{upstream.name}:{dialect}" in expected_budget
            if verdict["refused"] != expected:
                failures.append(f"{upstream.name} {dialect}: check says refused="
                                f"{verdict['refused']}, the converters and budgets {expected}")
            if verdict["refused"]:
                said_refused.add(dialect)
            print(f"{upstream.name} {dialect}: {len(tools)} tools, {len(refused)} refused by its "
                  f"converter, check says {'refused' if verdict['refused'] else 'taken'}")
        for dialect in ["mcp"]:
            if report["dialects"][dialect]["refused"]:
                said_refused.add(dialect)
        if status != (1 if said_refused else 0):
            failures.append(f"{upstream.name}: check exited {status} where it says refused in "
                            f"{sorted(said_refused) or 'no dialect'}")
    for failure in failures:
        print("FAIL", failure)
    print(f"{checked - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], set(sys.argv[2:])))
