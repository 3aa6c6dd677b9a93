"""Pure game logic imports nothing from Django or the rest of the project."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PURE = [
    *sorted((ROOT / "games" / "engines").glob("*.py")),
    *sorted((ROOT / "games" / "bots").glob("*.py")),
    *sorted((ROOT / "games" / "tutorials").glob("*.py")),
    ROOT / "rankings" / "rating.py",
]
PROJECT_PACKAGES = {"django", "rest_framework", "channels", "celery", "accounts", "portal", "forums", "rankings"}


def imported_modules(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


@pytest.mark.parametrize("path", [p for p in PURE if p.exists()], ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_modules_import_no_django_and_nothing_of_the_site(path):
    bad = [m for m in imported_modules(path) if m.split(".")[0] in PROJECT_PACKAGES or m.startswith("games.")]
    assert bad == [], f"{path.name} imports {bad}"
