"""Pure game logic imports nothing from Django or the rest of the project.

The engines may import the engines; the bots and the tutorials may import the engines and
themselves; ``rankings/rating.py`` imports nothing of the project. Everything else they
import comes from the standard library: no Django, no Django add-on, no app of the site.

Two readings check it. The source reading parses every file, resolves relative imports
(``from ..models import X`` in ``games/bots/mcts.py`` is ``games.models``) and looks at every
import statement, those inside functions and ``if TYPE_CHECKING`` blocks included. The
running reading imports each pure package in a fresh interpreter, loads every game and lesson
through the registries (whose imports are dynamic) and lists what came into ``sys.modules``.
"""

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# Every top-level package and module of the project: the apps, the project package, and the
# rest (tests, benchmarks). Found on disk, so an app added later is covered without a change.
PROJECT = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()} | {
    p.stem for p in ROOT.glob("*.py")
}

# Each pure area: its files, and the parts of the project it may import (itself included).
AREAS = {
    "engines": (sorted((ROOT / "games" / "engines").glob("*.py")), ("games.engines",)),
    "bots": (sorted((ROOT / "games" / "bots").glob("*.py")), ("games.bots", "games.engines")),
    "tutorials": (sorted((ROOT / "games" / "tutorials").glob("*.py")), ("games.tutorials", "games.engines")),
    "rating": ([ROOT / "rankings" / "rating.py"], ("rankings.rating",)),
}

STDLIB = set(sys.stdlib_module_names)


def module_name(path, root=ROOT):
    """The dotted name Python gives the file: ``games/bots/mcts.py`` -> ``games.bots.mcts``."""
    parts = path.relative_to(root).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def imported_modules(source, module, is_package=False):
    """Every absolute name the source imports, relative imports resolved against ``module``.

    ``from X import a`` yields ``X.a`` for each name: ``a`` may be a submodule
    (``from . import services``), and when it is a plain name ``X.a`` still lies inside ``X``."""
    package = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".") if package else []
                up = node.level - 1
                if up > len(base) or (up == len(base) and not node.module):
                    raise ValueError(f"{module}: relative import beyond the top-level package")
                base = base[: len(base) - up]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            for alias in node.names:
                yield target if alias.name == "*" else f"{target}.{alias.name}"


def within(name, prefixes):
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def impure(names, allowed):
    """The names that are neither the standard library nor an allowed part of the project."""
    bad = []
    for name in names:
        top = name.split(".")[0]
        if within(name, allowed):
            continue
        if top in STDLIB and top not in PROJECT:
            continue
        bad.append(name)
    return bad


def file_cases():
    for area, (paths, allowed) in AREAS.items():
        for path in paths:
            yield pytest.param(path, allowed, id=f"{area}:{path.relative_to(ROOT)}")


def test_every_area_has_its_files():
    """A moved or renamed folder must not leave the test checking nothing."""
    for area, (paths, _allowed) in AREAS.items():
        assert paths and all(p.exists() for p in paths), area
    assert {"accounts", "games", "rankings", "forums", "challenges", "tournaments"} <= PROJECT
    assert {"notifications", "portal"} <= PROJECT


@pytest.mark.parametrize(("path", "allowed"), list(file_cases()))
def test_pure_modules_import_no_django_and_nothing_of_the_site(path, allowed):
    names = imported_modules(path.read_text(), module_name(path), path.name == "__init__.py")
    bad = impure(names, allowed)
    assert bad == [], f"{path.relative_to(ROOT)} imports {bad}"


BOTS = AREAS["bots"][1]


@pytest.mark.parametrize(
    ("source", "module", "is_package", "allowed", "expected_bad"),
    [
        # Relative imports resolve against the file's package.
        ("from ..models import Match", "games.bots.mcts", False, BOTS, ["games.models.Match"]),
        ("from .. import services", "games.bots.mcts", False, BOTS, ["games.services"]),
        ("from .base import Bot", "games.bots", True, ("games.bots",), []),
        ("from ..engines.base import State", "games.bots.greedy", False, BOTS, []),
        ("from ..engines import base", "games.bots.greedy", False, ("games.bots",), ["games.engines.base"]),
        ("from . import Step", "games.tutorials.gp02a", False, ("games.tutorials",), []),
        # The engines may not reach the bots; rating.py may not reach its own app.
        ("from ..bots import levels", "games.engines.gp02a", False, ("games.engines",), ["games.bots.levels"]),
        ("from .models import Rating", "rankings.rating", False, ("rankings.rating",), ["rankings.models.Rating"]),
        # Absolute imports: Django and its add-ons, every app, imports hidden in functions.
        ("import django", "games.engines.base", False, ("games.engines",), ["django"]),
        ("from rest_framework import serializers", "x.y", False, (), ["rest_framework.serializers"]),
        ("def f():\n    from tournaments.models import Cup", "x.y", False, (), ["tournaments.models.Cup"]),
        ("import notifications.services as n", "x.y", False, (), ["notifications.services"]),
        ("from games import services", "games.bots.x", False, BOTS, ["games.services"]),
        ("import math, random\nfrom itertools import pairwise", "x.y", False, (), []),
    ],
)
def test_the_reading_resolves_relative_imports_and_knows_every_app(source, module, is_package, allowed, expected_bad):
    assert impure(imported_modules(source, module, is_package), allowed) == expected_bad


RUNNER = """
import importlib, json, pkgutil, sys
before = set(sys.modules)
for name in {modules!r}:
    module = importlib.import_module(name)
    for info in pkgutil.iter_modules(getattr(module, "__path__", [])):
        importlib.import_module(f"{{name}}.{{info.name}}")
if "games.engines" in sys.modules:
    sys.modules["games.engines"].all_games()
if "games.tutorials" in sys.modules:
    tutorials = sys.modules["games.tutorials"]
    for slug in tutorials._MODULES:
        importlib.import_module(f"games.tutorials.{{slug}}")
print(json.dumps(sorted(set(sys.modules) - before)))
"""


@pytest.mark.parametrize(
    ("modules", "allowed"),
    [
        (["games.engines"], ("games", "games.engines")),
        (["games.bots"], ("games", "games.bots", "games.engines")),
        (["games.tutorials"], ("games", "games.tutorials", "games.engines")),
        (["rankings.rating"], ("rankings", "rankings.rating")),
    ],
    ids=["engines", "bots", "tutorials", "rating"],
)
def test_importing_pure_code_loads_no_django_and_nothing_of_the_site(modules, allowed):
    """``games`` and ``rankings`` themselves are allowed here only as the empty packages the
    pure code lives in; the source reading above holds their ``__init__`` to nothing."""
    for package in {m.split(".")[0] for m in modules}:
        assert (ROOT / package / "__init__.py").read_text().strip() == ""
    program = f"import sys; sys.path.insert(0, {str(ROOT)!r})\n" + RUNNER.format(modules=modules)
    result = subprocess.run(
        [sys.executable, "-I", "-c", program],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    loaded = json.loads(result.stdout)
    assert modules[0] in loaded
    bad = impure(loaded, allowed)
    assert bad == [], f"importing {modules} loads {bad}"
