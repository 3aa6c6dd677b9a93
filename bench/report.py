"""What every benchmark writes: the machine it ran on, and its own section of a results page."""

from __future__ import annotations

import datetime
import os
import platform
from pathlib import Path

BENCHMARKS_INTRO = (
    "# Benchmarks\n\nEach section is written by its script under `bench/` (`make bench` runs them all).\n"
)


def machine() -> dict[str, str]:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    cores = str(os.cpu_count() or "?")
    python = f"{platform.python_implementation()} {platform.python_version()}"
    return {
        "cpu": cpu,
        "cores": cores,
        "python": python,
        "summary": f"{cpu}, {cores} cores, {python}",  # how a benchmark names the machine it ran on
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d"),
    }


def write_section(path: Path, key: str, heading: str, body: str, intro: str = BENCHMARKS_INTRO) -> None:
    """Replace the block between ``<!-- key:start -->`` and ``<!-- key:end -->`` in ``path``
    (adding it under ``## heading`` when absent), keeping every other section as it is."""
    start_marker, end_marker = f"<!-- {key}:start -->", f"<!-- {key}:end -->"
    block = f"{start_marker}\n{body}\n{end_marker}"
    text = path.read_text() if path.exists() else intro
    start, end = text.find(start_marker), text.find(end_marker)
    if start >= 0 and end > start:
        text = text[:start] + block + text[end + len(end_marker) :]
    else:
        text = text.rstrip("\n") + f"\n\n## {heading}\n\n" + block + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
