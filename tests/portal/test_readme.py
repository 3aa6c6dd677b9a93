"""The README tells a newcomer what `make run` needs before they run it."""

import re
from pathlib import Path

from django.conf import settings

README = (Path(settings.BASE_DIR) / "README.md").read_text()
MAKEFILE = (Path(settings.BASE_DIR) / "Makefile").read_text()


def test_the_readme_names_the_python_the_makefile_calls_and_how_to_choose_another():
    python = re.search(r"^PYTHON \?= (\S+)$", MAKEFILE, re.M).group(1)
    assert f"`{python}`" in README
    assert "PYTHON=" in README


def test_the_readme_says_where_make_run_listens():
    for name in ("HOST", "PORT"):
        default = re.search(rf"^{name} \?= (\S+)$", MAKEFILE, re.M).group(1)
        assert f"`{name}` (default `{default}`)" in README


def test_the_postgresql_recipe_makes_the_first_administrator_with_createsuperuser_not_the_demo():
    recipe = README.split("## Running on PostgreSQL and Redis", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    assert "make migrate\n" in recipe
    assert "manage.py createsuperuser" in recipe
    assert "demo" not in recipe


def test_the_readme_states_the_shortest_secret_key_production_accepts():
    row = next(line for line in README.splitlines() if line.startswith("| `SECRET_KEY` |"))
    assert f"at least {settings.SECRET_KEY_MIN_LENGTH} characters" in row
