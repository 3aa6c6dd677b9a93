"""Running the site's own JavaScript modules under Node, for the tests of pure page logic."""

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_module(script: str):
    """Run ``script`` (an ES module that prints one JSON value) from the project folder; its
    value. Without Node: a failure in CI (``.ci/run`` installs it), a skip elsewhere."""
    if shutil.which("node") is None:
        if os.environ.get("CI"):
            pytest.fail("Node is missing: .ci/run installs Debian's nodejs")
        pytest.skip("needs Node to run the board's module (apt-get install nodejs)")
    out = subprocess.run(["node", "--input-type=module", "-e", script], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)
