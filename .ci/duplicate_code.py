"""CI step: pylint's duplicate-code check (R0801) over the package, against a baseline that can only shrink.

    python .ci/duplicate_code.py [PACKAGE_DIR] [--baseline FILE] [--write-baseline]

Runs ``pylint --disable=all --enable=duplicate-code --min-similarity-lines=6 PACKAGE_DIR`` and groups the
blocks it reports by the modules they join (``exactlin.algorithms._fast exactlin.algorithms._fast_multi``).  The
baseline (default ``.ci/duplicate-code-baseline.txt``) lists, one line each, ``COUNT MODULE MODULE ...``: the
blocks allowed today.  The step fails (exit 1)

* on any block beyond the baseline (a new duplicate, or one more between modules already listed): its text is
  printed so that it can be written once;
* on any baseline line with more blocks than pylint now finds: the duplicate is gone, so lower or delete the
  line (the baseline only shrinks; ``--write-baseline`` rewrites it from the current report);
* if pylint itself fails (a fatal error, an error message or a usage error).

An empty baseline means: no duplicate at all.  Line numbers are not part of the baseline (they move with every
edit); module pairs and counts are.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = ROOT / ".ci" / "duplicate-code-baseline.txt"
PYLINT_ARGS = ["--disable=all", "--enable=duplicate-code", "--min-similarity-lines=6", "--score=n",
               "--persistent=n"]
_HEAD = re.compile(r"R0801: Similar lines in \d+ files")
_MODULE = re.compile(r"^==([\w.]+):\[(\d+):(\d+)\]")


def run_pylint(target: Path, cwd: Path = ROOT) -> tuple[int, str]:
    proc = subprocess.run([sys.executable, "-m", "pylint", *PYLINT_ARGS, str(target)], cwd=cwd,
                          capture_output=True, text=True)
    return proc.returncode, proc.stdout + proc.stderr


def blocks(report: str) -> list[tuple[str, str]]:
    """Each R0801 block of a pylint report as (key, text): key = the sorted module names, space-separated."""
    out: list[tuple[str, list[str], list[str]]] = []
    for line in report.splitlines():
        if _HEAD.search(line):
            out.append(("", [], [line]))
            continue
        if not out:
            continue
        out[-1][2].append(line)
        m = _MODULE.match(line)
        if m:
            out[-1][1].append(m.group(1))
    return [(" ".join(sorted(mods)), "\n".join(text)) for _, mods, text in out]


def read_baseline(path: Path) -> Counter:
    allowed: Counter = Counter()
    if not path.exists():
        return allowed
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        count, *mods = line.split()
        allowed[" ".join(sorted(mods))] += int(count)
    return allowed


def format_baseline(found: Counter) -> str:
    head = ("# pylint duplicate-code (R0801) blocks allowed today, by the modules they join: COUNT MODULE MODULE.\n"
            "# Checked by .ci/duplicate_code.py (scripts/check.sh): a block beyond these fails CI, and so does a\n"
            "# line with more blocks than pylint still finds (the baseline only shrinks).  Empty = no duplicate.\n")
    return head + "".join(f"{n} {key}\n" for key, n in sorted(found.items()))


def compare(found: Counter, allowed: Counter) -> tuple[dict[str, int], dict[str, int]]:
    """(new, stale): blocks beyond the baseline per key, and baseline blocks no longer found per key."""
    new = {k: n - allowed[k] for k, n in found.items() if n > allowed[k]}
    stale = {k: n - found[k] for k, n in allowed.items() if n > found[k]}
    return new, stale


def check(target: Path, baseline: Path, cwd: Path = ROOT, out=sys.stdout) -> int:
    rc, report = run_pylint(target, cwd)
    if rc & (1 | 2 | 32):  # pylint's exit bits: fatal, error, usage error (8, "refactor", is R0801 itself)
        print(f"pylint failed (exit {rc}):\n{report}", file=out)
        return 1
    found_blocks = blocks(report)
    found = Counter(key for key, _ in found_blocks)
    new, stale = compare(found, read_baseline(baseline))
    for key, extra in sorted(new.items()):
        print(f"NEW duplicate code ({extra} block(s) beyond the baseline) between {key}:", file=out)
        for k, text in found_blocks:
            if k == key:
                print(text, file=out)
    for key, gone in sorted(stale.items()):
        print(f"the baseline allows {gone} more block(s) between {key} than pylint finds now: the duplicate is "
              f"gone, lower that line of {baseline.name} (or run {Path(__file__).name} --write-baseline)", file=out)
    if new or stale:
        return 1
    print(f"duplicate-code: {sum(found.values())} block(s), all in the baseline ({baseline.name})", file=out)
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("target", nargs="?", default="exactlin", help="the package directory (default: exactlin)")
    ap.add_argument("--baseline", type=Path, default=BASELINE)
    ap.add_argument("--write-baseline", action="store_true", help="rewrite the baseline from the current report")
    args = ap.parse_args(argv)
    target = Path(args.target)
    if args.write_baseline:
        rc, report = run_pylint(target)
        if rc & (1 | 2 | 32):
            print(f"pylint failed (exit {rc}):\n{report}")
            return 1
        args.baseline.write_text(format_baseline(Counter(k for k, _ in blocks(report))), encoding="utf-8")
        return 0
    return check(target, args.baseline)


if __name__ == "__main__":
    sys.exit(main())
