"""Every field that points a screen reader at its help text (``aria-describedby``) points at
an element of the same page: the lobby's forms, the challenge, tournament, profile, forum and
account forms."""

from html.parser import HTMLParser

import pytest

pytestmark = pytest.mark.django_db


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: set[str] = set()
        self.described: list[tuple[str, str]] = []  # (the field's name, the id it points at)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if attrs.get("id"):
            self.ids.add(attrs["id"])
        for target in (attrs.get("aria-describedby") or "").split():
            self.described.append((attrs.get("name") or attrs.get("id") or tag, target))


def _dangling(html: str) -> tuple[list[tuple[str, str]], int]:
    parser = _Ids()
    parser.feed(html)
    return [(name, target) for name, target in parser.described if target not in parser.ids], len(parser.described)


SIGNED_IN = [
    "/play/",
    "/play/new/",
    "/play/computer/",
    "/players/bob/challenge/",
    "/tournaments/new/",
    "/settings/profile/",
    "/forum/general/new/",
    "/accounts/password/change/",
]
SIGNED_OUT = ["/accounts/signup/", "/accounts/login/", "/accounts/password/reset/"]


@pytest.mark.parametrize("path", SIGNED_IN + SIGNED_OUT)
def test_every_help_text_a_field_points_at_is_on_the_page(client, alice, bob, path):
    if path in SIGNED_IN:
        client.force_login(alice)
    response = client.get(path)
    assert response.status_code == 200
    dangling, _ = _dangling(response.content.decode())
    assert dangling == [], f"{path}: aria-describedby names no element of the page"


def test_the_lobby_reads_its_fields_help_texts_with_them(client, alice):
    client.force_login(alice)
    dangling, described = _dangling(client.get("/play/").content.decode())
    assert described >= 7 and dangling == []
