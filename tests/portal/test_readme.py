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


def test_the_readme_keeps_its_two_commands_first_then_points_to_the_operations_guide():
    first_block = README.split("```sh\n", 1)[1].split("```", 1)[0]
    assert [line.split()[:2] for line in first_block.strip().splitlines()] == [["make", "run"], ["make", "test"]]
    after = README.split("```sh\n", 1)[1].split("```", 1)[1]
    assert after.index("docs/OPERATIONS.md") < after.index("```")
    assert (Path(settings.BASE_DIR) / "docs" / "OPERATIONS.md").exists()


def test_make_run_installs_the_runtime_packages_only_and_make_test_adds_the_rest():
    rules = dict(re.findall(r"^([\w$()-]+): ?([^\n=]*)$", MAKEFILE, re.M))
    assert rules["run"] == "demo" and rules["demo"] == "migrate" and rules["migrate"] == "install"
    assert rules["install"] == "$(BASE_STAMP)"
    for target in ("test", "lint", "bench"):
        assert rules[target] == "install-dev"
    base_rule = MAKEFILE.split("$(BASE_STAMP): ", 1)[1].split("\n\n", 1)[0]
    assert "requirements/base.txt" in base_rule and "dev.txt" not in base_rule
    assert "--require-hashes" in MAKEFILE


def test_the_readme_says_sign_up_needs_the_link_printed_in_the_terminal_and_the_first_run_takes_minutes():
    assert "The first `make run` takes minutes" in README
    assert "prints its e-mails in the terminal where `make run` runs" in README
