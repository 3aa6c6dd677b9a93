"""Run mypy and hold it to the baseline of known errors, which may only shrink.

    python scripts/mypy_ratchet.py                    # fails on any error not in the baseline
    python scripts/mypy_ratchet.py --update           # drops fixed errors from the baseline
    python scripts/mypy_ratchet.py --update --force   # rewrites it to today's errors (new ones too)

The baseline (mypy-baseline.txt) holds one line per distinct error, without its line number so
that edits elsewhere in a file do not disturb it: ``count path: error-code: message``, sorted.
mypy's settings are in pyproject.toml; its cache is .mypy_cache, so a second run takes seconds.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = ROOT / "mypy-baseline.txt"

# path:line: error: message  [code]   (mypy's default output, no colour)
ERROR_LINE = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+)(?::\d+)?: error: (?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)
# Line numbers inside messages ("already defined on line 12") move with every edit.
LINE_IN_MESSAGE = re.compile(r"\bline \d+\b")
BASELINE_LINE = re.compile(r"^\s*(?P<count>\d+) (?P<key>.+)$")


def run_mypy() -> tuple[Counter[str], dict[str, list[str]]]:
    """Today's errors as normalised keys with their counts, and where each one is."""
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV"}}
    # The Django plugin imports the settings: the embedded defaults, whatever the shell holds.
    env["DJANGO_SETTINGS_MODULE"] = "portal.settings"
    command = [sys.executable, "-m", "mypy", "--no-pretty", "--no-error-summary", "--show-error-codes"]
    command += ["--no-color-output"]
    result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if result.returncode not in (0, 1):  # 2: mypy itself failed (bad config, a crash, a syntax error)
        sys.stderr.write(result.stdout + result.stderr)
        raise SystemExit(f"mypy failed to run (exit {result.returncode})")
    errors: Counter[str] = Counter()
    where: dict[str, list[str]] = {}
    for line in result.stdout.splitlines():
        match = ERROR_LINE.match(line)
        if not match:
            continue  # notes belong to the error before them
        message = LINE_IN_MESSAGE.sub("line N", match["message"])
        key = f"{match['path']}: {match['code'] or 'error'}: {message}"
        errors[key] += 1
        where.setdefault(key, []).append(f"{match['path']}:{match['line']}")
    return errors, where


def read_baseline() -> Counter[str]:
    baseline: Counter[str] = Counter()
    if BASELINE.exists():
        for line in BASELINE.read_text().splitlines():
            match = BASELINE_LINE.match(line)
            if match:
                baseline[match["key"]] += int(match["count"])
    return baseline


def write_baseline(errors: Counter[str]) -> None:
    lines = [f"{count:4d} {key}" for key, count in sorted(errors.items()) if count > 0]
    BASELINE.write_text("".join(line + "\n" for line in lines))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--update", action="store_true", help="remove fixed errors from the baseline")
    parser.add_argument("--force", action="store_true", help="with --update: write today's errors, new ones too")
    args = parser.parse_args()

    current, where = run_mypy()
    baseline = read_baseline()
    new = current - baseline
    fixed = baseline - current

    if args.update and args.force:
        write_baseline(current)
        print(f"mypy baseline rewritten: {sum(current.values())} errors")
        return 0
    if args.update and fixed:
        write_baseline(baseline - fixed)
        print(f"mypy baseline: {sum(fixed.values())} fixed errors removed, {sum((baseline - fixed).values())} left")

    for key, count in sorted(new.items()):
        print(f"new mypy error ({count} more than the baseline allows): {key}")
        print(f"    at {', '.join(where[key])}")
    if new:
        print(f"\n{sum(new.values())} mypy errors are not in {BASELINE.name}: fix them (the baseline may only shrink).")
        return 1
    if fixed and not args.update:
        for key, count in sorted(fixed.items()):
            print(f"fixed: {count} x {key}")
        print(
            f"\n{sum(fixed.values())} errors in {BASELINE.name} no longer occur: "
            "run `python scripts/mypy_ratchet.py --update` and commit the shorter baseline."
        )
    print(f"mypy: {sum(current.values())} errors, none new (baseline {sum(read_baseline().values())}).")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
