"""The portal says which version it is, in one place: every page's footer and the API read it
from ``portal.__version__``, and so does pyproject.toml."""

import re
import tomllib
from pathlib import Path

import pytest
from django.conf import settings

import portal

CHANGELOG = (Path(settings.BASE_DIR) / "CHANGELOG.md").read_text()


@pytest.mark.django_db
def test_every_page_footer_shows_the_version(client):
    page = client.get("/").content.decode()
    footer = page.split('<footer class="site-footer">', 1)[1].split("</footer>", 1)[0]
    assert f"version {portal.__version__}" in footer


def test_the_api_answers_the_version_to_anyone(client):
    response = client.get("/api/version/")
    assert response.status_code == 200
    assert response.json() == {"version": portal.__version__}


def test_the_version_is_a_release_number_the_changelog_lists():
    assert re.fullmatch(r"\d+\.\d+\.\d+", portal.__version__)
    assert f"## [{portal.__version__}]" in CHANGELOG


def test_pyproject_reads_the_version_from_the_portal_package_and_writes_none_of_its_own():
    project = tomllib.loads((Path(settings.BASE_DIR) / "pyproject.toml").read_text())
    assert "version" not in project["project"]
    assert project["project"]["dynamic"] == ["version"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "portal.__version__"}
