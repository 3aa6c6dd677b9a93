"""Fail when an entry of ruff's per-file-ignores debt list is no longer needed.

Ruff's per-file-ignores in pyproject.toml name, file by file, the places that still break a rule
(a function-level import, an import of another module's private name). Ruff says nothing when
such an entry becomes unnecessary; this check does, so the list only ever shrinks: when a file
is mended (or moved), its entry must go.

Entries whose key is a glob pattern (``*/apps.py``, ``tests/**``) are policy, not debt, and are
not checked.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    ignores: dict[str, list[str]] = config["tool"]["ruff"]["lint"].get("per-file-ignores", {})
    debt = {path: rules for path, rules in ignores.items() if not any(c in path for c in "*?[")}
    if not debt:
        return 0
    stale = [f"{path} (no such file)" for path in debt if not (ROOT / path).is_file()]
    present = sorted(path for path in debt if (ROOT / path).is_file())
    rules = sorted({rule for path in present for rule in debt[path]})
    found: set[tuple[str, str]] = set()
    if present:
        command = [sys.executable, "-m", "ruff", "check", "--no-cache", "--exit-zero", "--output-format", "json"]
        command += ["--config", "lint.per-file-ignores = {}", "--select", ",".join(rules), *present]
        result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
        for hit in json.loads(result.stdout):
            found.add((Path(hit["filename"]).resolve().relative_to(ROOT).as_posix(), hit["code"]))
    stale += [f"{path}: {rule}" for path in present for rule in debt[path] if (path, rule) not in found]
    for entry in stale:
        print(f"no longer needed in [tool.ruff.lint.per-file-ignores]: {entry}")
    if stale:
        print("Remove these from pyproject.toml: the debt list may only shrink.")
        return 1
    count = sum(len(rules) for rules in debt.values())
    print(f"ruff debt: {count} per-file exceptions in {len(debt)} files, each still needed.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
