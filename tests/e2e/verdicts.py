"""The verdicts of an end-to-end script: each check said as it is made (`ok` or `FAIL`, with
what was seen), and a closing line 'N passed, N failed' with the exit status it calls for."""

checks = []


def check(name, condition, detail=""):
    checks.append(bool(condition))
    print(("ok   " if condition else "FAIL ") + name + ("" if condition else f": {detail}"))


def summary():
    """The closing line, and the exit status: 0 when every check held."""
    failed = checks.count(False)
    print(f"{len(checks) - failed} passed, {failed} failed")
    return 1 if failed else 0
