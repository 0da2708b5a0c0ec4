"""Reply reading measured against other projects' public reply fixtures: how often
turnpost's reading of a reply's own text (workers.reply_reading.newest_reply) agrees
with what each project's tests expect, and whether a move planted in the quoted part
could ever be read as the player's.

The fixtures are read from checkouts given on the command line; nothing is fetched:

    .venv/bin/python bench/reply_fixtures.py --github DIR --zapier DIR --crisp DIR --talon DIR \\
        --crisp-parser NODE_MODULES_DIR [--show]

- github/email_reply_parser (test/emails) and its zapier port (test/emails): the text
  each project's parser shows (zapier's Python package `email-reply-parser`, whose
  tests pass on these fixtures, `pip install email-reply-parser==0.5.12`).
- crisp-oss/email-reply-parser (test/fixtures): the visible text of its own parser
  (`npm install email-reply-parser@2.3.5` into NODE_MODULES_DIR's parent), run by node.
- mailgun/talon (tests/fixtures/standard_replies): its test's rule, "Hello" unless a
  `<name>_reply_text` file gives the reply.

A case agrees when the two texts are the same, line by line with blank lines and
surrounding spaces ignored and characters folded as turnpost reads them, or differ
only by a sign-off at the end: a signature after its "-- " line or a closing block of
at most 3 lines of at most 40 characters, that one side drops and the other keeps
(turnpost passes such lines over as text, never as moves). "Quoted kept"
counts cases where turnpost's text has a line the reference left out that comes after
the reference's text (a piece of the quote). The probe plants `tile red F7` in the
quoted part of each case (after its first `>` line, and at its end, with the quote
marks of the line above) and counts the cases where it is read.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from email import message_from_bytes, policy
from pathlib import Path

_HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != _HERE]
sys.path.insert(0, os.path.dirname(_HERE))

from workers.reply_reading import _plain_characters, body_text, newest_reply  # noqa: E402

PROBE = "tile red F7"
SIGN_OFF_LINES, SIGN_OFF_CHARS = 3, 40
_CRISP_SCRIPT = """
import EmailReplyParser from "email-reply-parser";
import fs from "fs";
const texts = JSON.parse(fs.readFileSync(0, "utf-8"));
console.log(JSON.stringify(texts.map(t => new EmailReplyParser().read(t).getVisibleText())));
"""


def lines_of(text: str) -> list[str]:
    """The text's non-blank lines, stripped, with the characters folded as turnpost reads
    them (dashes as "-", no-break spaces as spaces)."""
    return [line.strip() for line in _plain_characters(text).split("\n") if line.strip()]


def compare(ours: str, expected: str, original: str) -> str:
    """'agree', 'sign-off' (ours lacks only a short sign-off), 'quoted kept' or 'lost'."""
    mine, theirs = lines_of(ours), lines_of(expected)
    if mine == theirs:
        return "agree"
    tail = theirs[len(mine):]
    if theirs[:len(mine)] == mine and (tail[0] in ("-", "--") or (
            len(tail) <= SIGN_OFF_LINES and all(len(t) <= SIGN_OFF_CHARS for t in tail))):
        return "sign-off"  # a short sign-off, or a signature after its "-- " line
    more = mine[len(theirs):]
    if mine[:len(theirs)] == theirs and len(more) <= SIGN_OFF_LINES and all(len(m) <= SIGN_OFF_CHARS for m in more):
        return "sign-off"  # a short closing block the reference drops, which turnpost passes over as text
    extra = [line for line in mine if line not in theirs]
    source = lines_of(original)
    last = max((i for i, line in enumerate(source) if theirs and line == theirs[-1]), default=-1)
    if any(i > last for i, line in enumerate(source) for e in extra if line == e):
        return "quoted kept"
    return "lost"


# A line that shows a quoted or copied email (rather than a signature) below the reply:
# a quoted line, a header ending in ":", a "From:" field, an "Original Message" rule.
_QUOTE_SIGN = re.compile(r"^>|:$|^\*?(From|De|Von|Da|Van|Fra|Od)\s?:|^-{2,}\s*\w.*-{2,}$|^_{10,}$", re.IGNORECASE)


def planted(text: str, expected: str) -> list[str]:
    """The text with the probe move planted in its quote: after its first `>` line, and
    after its last line (with that line's quote marks) when the lines below the
    reference's text show a quoted or copied email (not only a signature)."""
    rows = text.replace("\r\n", "\n").split("\n")
    found = []
    first_quoted = next((i for i, row in enumerate(rows) if row.lstrip().startswith(">")), None)
    if first_quoted is not None:
        probe = _marks(rows[first_quoted]) + PROBE
        found.append("\n".join(rows[:first_quoted + 1] + [probe] + rows[first_quoted + 1:]))
    theirs = lines_of(expected)
    stripped = [row.strip() for row in rows]
    reply_end = max((i for i, row in enumerate(stripped) if theirs and row == theirs[-1]), default=-1)
    last = max((i for i, row in enumerate(stripped) if row), default=-1)
    if any(_QUOTE_SIGN.search(row) for row in stripped[reply_end + 1:]):
        found.append("\n".join(rows[:last + 1] + [_marks(rows[last]) + PROBE] + rows[last + 1:]))
    return found


def _marks(row: str) -> str:
    return row[:len(row) - len(row.lstrip("> "))]


def plain_fixtures(folder: Path) -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8", errors="replace") for path in sorted(folder.glob("*.txt"))}


def github_like(folder: Path) -> list[tuple[str, str, str]]:
    from email_reply_parser import EmailReplyParser

    return [(name, text, EmailReplyParser.parse_reply(text)) for name, text in plain_fixtures(folder).items()]


def crisp(folder: Path, node_modules: Path) -> list[tuple[str, str, str]]:
    fixtures = plain_fixtures(folder)
    script = node_modules.parent / "turnpost_reply_oracle.mjs"
    script.write_text(_CRISP_SCRIPT)
    done = subprocess.run(["node", str(script)], input=json.dumps(list(fixtures.values())), capture_output=True,
                          text=True, check=True, cwd=node_modules.parent)
    return list(zip(fixtures, fixtures.values(), json.loads(done.stdout)))


def talon(folder: Path) -> list[tuple[str, str, str]]:
    cases = []
    for path in sorted(folder.glob("*.eml")):
        text = body_text(message_from_bytes(path.read_bytes(), policy=policy.default))
        expected_file = folder / f"{path.stem}_reply_text"
        expected = expected_file.read_text() if expected_file.exists() else "Hello"
        cases.append((path.name, text, expected))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for name in ("github", "zapier", "crisp", "talon"):
        parser.add_argument(f"--{name}", type=Path, required=True, help=f"a checkout of {name}'s reply parser")
    parser.add_argument("--crisp-parser", type=Path, required=True, help="node_modules with email-reply-parser")
    parser.add_argument("--show", action="store_true", help="print each case that does not agree")
    args = parser.parse_args()
    sets = {
        "github/email_reply_parser": github_like(args.github / "test" / "emails"),
        "zapier/email-reply-parser": github_like(args.zapier / "test" / "emails"),
        "crisp-oss/email-reply-parser": crisp(args.crisp / "test" / "fixtures", args.crisp_parser),
        "mailgun/talon": talon(args.talon / "tests" / "fixtures" / "standard_replies"),
    }
    totals: dict[str, int] = {}
    probes = probes_read = 0
    print(f"{'fixtures':30} {'cases':>5} {'agree':>6} {'sign-off':>8} {'quoted kept':>11} {'lost':>5} "
          f"{'probe read':>10}")
    for set_name, cases in sets.items():
        counts = dict.fromkeys(("agree", "sign-off", "quoted kept", "lost"), 0)
        read = 0
        for name, text, expected in cases:
            ours = newest_reply(text)
            outcome = compare(ours, expected, text)
            counts[outcome] += 1
            for probe in planted(text, expected):
                probes += 1
                if PROBE in newest_reply(probe):
                    read += 1
                    if args.show:
                        print(f"  PROBE READ {set_name} {name}")
            if args.show and outcome not in ("agree", "sign-off"):
                mine, theirs = lines_of(ours), lines_of(expected)
                print(f"  {outcome.upper()} {set_name} {name}\n"
                      f"    only ours:     {[x for x in mine if x not in theirs][:5]}"
                      f"\n    only expected: {[x for x in theirs if x not in mine][:5]}")
        probes_read += read
        for key, value in counts.items():
            totals[key] = totals.get(key, 0) + value
        print(f"{set_name:30} {len(cases):5} {counts['agree']:6} {counts['sign-off']:8} {counts['quoted kept']:11} "
              f"{counts['lost']:5} {read:10}")
    all_cases = sum(totals.values())
    agreeing = totals["agree"] + totals["sign-off"]
    print(f"{'all':30} {all_cases:5} {totals['agree']:6} {totals['sign-off']:8} {totals['quoted kept']:11} "
          f"{totals['lost']:5} {probes_read:10}")
    print(f"agreement: {agreeing}/{all_cases} = {100 * agreeing / all_cases:.1f}% "
          f"(a sign-off one side drops counted as agreeing); planted quoted moves read: {probes_read} of {probes}")


if __name__ == "__main__":
    main()
