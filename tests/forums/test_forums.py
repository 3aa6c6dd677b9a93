"""The forums themselves: one per game plus a general one, listed with their counts."""

import pytest
from django.core.management.sql import emit_post_migrate_signal

from forums import selectors, services
from forums.models import Forum
from games.engines import all_games

pytestmark = pytest.mark.django_db


def test_there_is_a_general_forum_and_one_per_game_of_the_portal():
    slugs = set(Forum.objects.values_list("game", flat=True))
    assert "" in slugs  # the general forum
    assert {"gp02a", "dice-territory", "territories", "chit-territory", "game-of-god"} <= slugs
    assert {g.slug for g in all_games()} <= slugs
    assert Forum.objects.get(slug="general").name == "General"


def test_ensuring_the_forums_twice_creates_nothing_the_second_time():
    services.forum_ensure_for_games()
    before = Forum.objects.count()
    assert services.forum_ensure_for_games() == []
    assert Forum.objects.count() == before


def test_a_game_added_later_gets_its_forum_after_migrate(monkeypatch):
    import forums.services as forum_services

    class NewGame:
        slug = "new-game"
        name = "A New Game"

    monkeypatch.setattr(forum_services, "all_games", lambda: [*all_games(), NewGame()])
    # What ``migrate`` sends when it is done (running migrate itself inside a test transaction is
    # not possible on SQLite).
    emit_post_migrate_signal(verbosity=0, interactive=False, db="default")
    forum = Forum.objects.get(game="new-game")
    assert forum.name == "A New Game" and forum.get_absolute_url() == "/forum/new-game/"


def test_a_deleted_game_forum_comes_back_and_the_general_forum_too():
    Forum.objects.filter(game="gp02a").delete()
    Forum.objects.filter(slug="general").delete()
    created = services.forum_ensure_for_games()
    assert {f.slug for f in created} == {"gp02a", "general"}


def test_forum_index_lists_every_forum_with_its_counts_and_last_post(client, alice, bob, general, topic_of):
    topic = topic_of(alice, title="Welcome, everyone")
    services.post_create(limited=False, topic_id=topic.pk, user=bob, body="Hello from bob")
    hidden = topic_of(alice, title="Spam topic")
    services.topic_hide(
        topic_id=hidden.pk, moderator=type(alice).objects.create(username="m", is_staff=True), reason="spam"
    )

    body = client.get("/forum/").content.decode()
    for forum in Forum.objects.all():
        assert forum.name in body
        assert forum.get_absolute_url() in body
    listed = {f.slug: f for f in selectors.forum_list()}
    assert listed["general"].topic_count == 1  # the deleted topic does not count
    assert listed["general"].post_count == 2
    assert listed["general"].last_post.body == "Hello from bob"
    assert "Welcome, everyone" in body and "bob" in body


def test_the_forum_reads_in_the_readers_language(client, alice, general, topic_of):
    topic = topic_of(alice, title="Welcome, everyone")
    french = {"Accept-Language": "fr"}
    index = client.get("/forum/", headers=french).content.decode()
    assert "Sujets" in index and "Dernier message" in index and "Topics" not in index
    client.force_login(alice)
    page = client.get(topic.get_absolute_url(), headers={"Accept-Language": "es"}).content.decode()
    assert "Welcome, everyone" in page and "Publicar respuesta" in page and "Tu respuesta" in page
    assert "Post reply" not in page


def test_an_unknown_forum_is_a_404(client):
    assert client.get("/forum/no-such-forum/").status_code == 404
    assert client.get("/forum/topic/999999/").status_code == 404


def test_the_game_page_links_to_the_game_forum_which_works(client, alice, game_forum, topic_of):
    topic_of(alice, title="Opening ideas for the Game of God", forum=game_forum)
    page = client.get("/games/game-of-god/").content.decode()
    assert 'href="/forum/game-of-god/"' in page
    forum_page = client.get("/forum/game-of-god/")
    assert forum_page.status_code == 200
    assert "Opening ideas for the Game of God" in forum_page.content.decode()


def test_the_general_forum_comes_first_then_the_games_in_the_site_order(client, alice, topic_of, game_forum):
    topic_of(alice, forum=game_forum)  # a forum with posts is not promoted
    page = client.get("/forum/").content.decode()
    names = ["General"] + [g.name for g in all_games()]
    positions = [page.index(f">{name}</a></h2>") for name in names]
    assert positions == sorted(positions)
