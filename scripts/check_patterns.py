"""Every regular expression of the app judged by recheck (`make lint`, issue 25): a pattern
recheck finds exponential or polynomial in the way the app uses it fails, with the attack
string recheck found and the part of the pattern to blame.

recheck reads JavaScript's dialect, so each pattern is carried over first: named groups, `\\A`
and `\\Z`, inline flags, and possessive quantifiers and atomic groups, which JavaScript lacks,
as their plain forms (a plain form that is safe is safe possessive too). Its checks take a
second or so a pattern; scripts/patterns.py says which patterns there are.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass

from scripts.patterns import ROOT, Use, app_patterns

RUNNER = ROOT / "scripts" / "recheck.cjs"
_INLINE = re.compile(r"^\(\?([aiLmsux]+)\)")


@dataclass(frozen=True, slots=True)
class Verdict:
    use: Use
    status: str  # "safe", "vulnerable" or "unknown"
    complexity: str
    attack: str
    hotspot: tuple[str, ...]
    error: str


def javascript(use: Use) -> tuple[str, str]:
    """The pattern as JavaScript source and flags, anchored as the app uses it."""
    source, flags = use.pattern, use.flags
    inline = _INLINE.match(source)
    if inline:
        source = source[inline.end() :]
        flags |= sum(getattr(re, f.upper()) for f in inline.group(1) if f in "imsx")
    source = source.replace("(?P<", "(?<").replace("(?>", "(?:")
    source = re.sub(r"\(\?P=(\w+)\)", r"\\k<\1>", source)
    source = re.sub(r"(?<!\\)((?:\\\\)*)\\Z", r"\1$", source)
    source = re.sub(r"(?<!\\)((?:\\\\)*)\\A", r"\1^", source)
    source = re.sub(r"([*+?}])\+", r"\1", source)  # possessive: its plain form
    match use.how:
        case "fullmatch":
            source = f"^(?:{source})$"
        case "match":
            source = f"^(?:{source})"
        case "search":
            pass
    js_flags = "".join(f for f, bit in (("i", re.I), ("m", re.M), ("s", re.S)) if flags & bit)
    if any(ord(c) > 0xFFFF for c in source):  # JavaScript reads those only in Unicode mode
        js_flags += "u"
    return source, js_flags


def judge(uses: list[Use]) -> list[Verdict]:
    node = shutil.which("node")
    if node is None or not (ROOT / "node_modules" / "recheck").exists():
        raise SystemExit("recheck is not installed: run `make node-deps` (needs node and npm)")
    sources = [dict(zip(("source", "flags"), javascript(use), strict=True)) for use in uses]
    run = subprocess.run(
        [node, str(RUNNER)],
        input=json.dumps(sources),
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return [
        Verdict(
            use,
            found["status"],
            found["complexity"],
            found["attack"],
            tuple(found["hotspot"]),
            found["error"],
        )
        for use, found in zip(uses, json.loads(run.stdout), strict=True)
    ]


def main() -> int:
    verdicts = judge(app_patterns())
    failed = [v for v in verdicts if v.status != "safe"]
    for verdict in failed:
        use = verdict.use
        print(f"{use.where}: {verdict.status} ({verdict.complexity or verdict.error}) as {use.how}")
        print(f"    pattern: {use.pattern!r}")
        if verdict.attack:
            print(f"    attack: {verdict.attack[:120]!r}")
        if verdict.hotspot:
            print(f"    blame: {', '.join(verdict.hotspot)}")
    print(f"patterns: {len(verdicts)} judged by recheck, {len(failed)} not safe")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
