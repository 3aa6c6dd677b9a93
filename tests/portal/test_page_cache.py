"""The shared parts of pages are cached, and change as soon as what they show changes: a
match ends, a rating moves, an open match opens, fills or closes, a player is renamed. What
belongs to one visitor (their own row, their forms) never reaches another."""

import random
import re

import pytest
from django.contrib.auth.models import AnonymousUser
from django.template import Context, Template, TemplateSyntaxError
from django.template.loader import render_to_string
from django.test import Client

from forums.models import Forum
from games import services
from games.engines import get_game
from games.models import Match
from portal import page_cache
from tests.conftest import wait_for
from tests.games.helpers import fresh, play_turn, start_two_player
from tests.rankings.html import tables

pytestmark = pytest.mark.django_db(transaction=True)

GAME = "territories"


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def ranking_rows(body):
    """The rows of the first ranking table of a page: place, player, rating, ..."""
    ranking = [t for t in tables(body) if "ranking" in t.attrs.get("class", "")]
    return ranking[0].texts() if ranking else []


def bob_beats_alice(alice, bob, game=GAME) -> Match:
    match = start_two_player(game, alice, bob)
    services.match_resign(match_id=match.pk, user=alice)
    return fresh(match.pk)


def rated(client, url):
    """The page once it shows the winner's new rating: rating a match is a task, which may
    run in a worker. Without the cache moving on, the old page would stay for minutes."""

    def shown():
        body = page(client, url)
        cells = {cell for table in tables(body) for row in table.texts() for cell in row}
        return body if "1520?" in cells else None  # a rating cell, not any "1520" in the page

    return wait_for(shown, message=f"the new rating on {url}")


# --------------------------------------------------------------------------------------
# A match ends, a rating moves


def test_a_finished_match_shows_on_the_home_page_and_its_game_page_at_once(client, alice, bob):
    assert "The latest action" not in page(client, "/")
    assert "No finished match yet." in page(client, f"/games/{GAME}/")
    match = bob_beats_alice(alice, bob)
    assert match.status == Match.Status.FINISHED
    for url in ("/", f"/games/{GAME}/"):
        body = page(client, url)
        assert f'<a href="/matches/{match.pk}/">Territories #{match.pk}</a>' in body
        assert re.search(r"<td>1\.</td><td><a [^>]*>bob</a></td>", body)
        assert re.search(r"<td>2\.</td><td><a [^>]*>alice</a> \(resigned\)</td>", body)
    assert f"/matches/{match.pk}/" not in page(client, "/games/game-of-god/")


def test_a_rated_result_shows_in_the_hall_of_fame_the_game_page_and_the_ranking(client, alice, bob):
    assert "Nobody has a rating in Territories yet" in page(client, f"/games/{GAME}/")
    assert "Nobody has a rating in Territories yet" in page(client, f"/games/{GAME}/ranking/")
    assert "bob" not in page(client, "/hall-of-fame/")
    bob_beats_alice(alice, bob)
    assert ranking_rows(rated(client, f"/games/{GAME}/")) == [["1", "bob", "1520?", "1"], ["2", "alice", "1480?", "1"]]
    assert ranking_rows(rated(client, f"/games/{GAME}/ranking/")) == [
        ["1", "bob", "1520?", "1", "1"],
        ["2", "alice", "1480?", "1", "0"],
    ]
    per_game = {t.caption: t.texts() for t in tables(rated(client, "/hall-of-fame/"))}
    assert per_game["The best 2 of Territories"][0] == ["1", "bob", "1520?", "1"]


def test_a_player_page_shows_the_new_rating(client, alice, bob):
    assert "has not finished a rated match yet" in page(client, "/players/bob/")
    bob_beats_alice(alice, bob)
    [ratings, recent] = tables(rated(client, "/players/bob/"))
    assert ratings.texts() == [["Territories", "1520?", "1 of 2", "1", "1"]]
    assert recent.texts()[0][3:] == ["1 of 2", "1500 → 1520 (+20.0)"]


# --------------------------------------------------------------------------------------
# The lobby


def lobby_seats(*players):
    """The seats of an open GP02A match as the lobby lists them (None: an open seat)."""
    html = []
    for player, colour in zip(players, ["blue", "red", "green"], strict=False):
        name = f"{player} ({colour})"
        seat = f'<span class="name" title="{name}">{name}</span>' if player else "<em>Open seat</em>"
        html.append(f"<li>{seat}</li>")
    return "".join(html)


def test_a_new_open_match_shows_in_the_lobby_at_once(client, alice):
    assert "No open match. Create one!" in page(client, "/play/")
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    body = page(client, "/play/")
    assert f'<a href="/matches/{match.pk}/">#{match.pk}</a>' in body
    assert lobby_seats("alice", None, None) in body


def test_a_seat_taken_shows_at_once_and_a_full_match_leaves_the_lobby(client, alice, bob, make_user):
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    assert lobby_seats("alice", None, None) in page(client, "/play/")
    services.match_join(match_id=match.pk, user=bob)
    assert lobby_seats("alice", "bob", None) in page(client, "/play/")
    services.match_leave(match_id=match.pk, user=bob)
    assert lobby_seats("alice", None, None) in page(client, "/play/")
    services.match_join(match_id=match.pk, user=bob)
    services.match_join(match_id=match.pk, user=make_user("carol"))
    assert fresh(match.pk).status == Match.Status.ACTIVE
    body = page(client, "/play/")
    assert f'<a href="/matches/{match.pk}/">#{match.pk}</a>' not in body  # no longer waiting
    assert f'aria-label="Watch GP02A Territory #{match.pk}"' in body  # being played: to watch


def test_a_match_called_off_leaves_the_lobby_at_once(client, alice):
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    assert f"#{match.pk}" in page(client, "/play/")
    services.match_leave(match_id=match.pk, user=alice)
    assert f"#{match.pk}" not in page(client, "/play/")


def test_invite_only_matches_never_show_in_the_lobby_not_even_to_their_players(client, alice, bob):
    public = services.match_create(user=bob, game="gp02a", num_players=3)
    hidden = services.match_create(user=alice, game="gp02a", num_players=3, visibility="invite")
    for viewer in (None, bob, alice):
        if viewer:
            client.force_login(viewer)
        body = page(client, "/play/")
        assert f"#{public.pk}" in body
        assert f"/matches/{hidden.pk}/" not in body and hidden.invite_token not in body


# --------------------------------------------------------------------------------------
# Names, forums


def test_a_renamed_player_shows_under_the_new_name_at_once(client, alice, bob):
    bob_beats_alice(alice, bob)
    services.match_create(user=bob, game="gp02a", num_players=3)
    assert ">bob<" in page(client, "/")
    for url in (f"/games/{GAME}/", "/hall-of-fame/", f"/games/{GAME}/ranking/"):
        assert ">bob<" in rated(client, url)
    assert lobby_seats("bob", None, None) in page(client, "/play/")
    bob.username = "robert"
    bob.save()
    for url in ("/", f"/games/{GAME}/", "/hall-of-fame/", f"/games/{GAME}/ranking/"):
        body = page(client, url)
        assert ">robert<" in body and ">bob<" not in body, url
    body = page(client, "/play/")
    assert lobby_seats("robert", None, None) in body and ">bob (blue)<" not in body


def test_the_game_page_links_to_its_forum_where_it_is_now(client):
    forum = Forum.objects.get(game=GAME)
    assert f'href="/forum/{forum.slug}/"' in page(client, f"/games/{GAME}/")
    forum.slug = "territories-talk"
    forum.save()
    assert 'href="/forum/territories-talk/"' in page(client, f"/games/{GAME}/")


# --------------------------------------------------------------------------------------
# What is personal stays personal


def test_each_visitor_sees_only_their_own_row_marked_in_shared_tables(client, alice, bob, make_user):
    bob_beats_alice(alice, bob)
    rated(client, f"/games/{GAME}/")
    rated(client, f"/games/{GAME}/ranking/")
    for viewer, expected in ((alice, ["alice"]), (bob, ["bob"]), (make_user("carol"), []), (None, [])):
        if viewer:
            client.force_login(viewer)
        else:
            client.logout()
        for url in (f"/games/{GAME}/", f"/games/{GAME}/ranking/"):
            rows = [t for t in tables(page(client, url)) if "ranking" in t.attrs.get("class", "")][0].rows
            marked = [row.cells[1].split()[0] for row in rows if "me" in row.attrs.get("class", "").split()]
            assert marked == expected, (viewer, url)
        assert ("You are number" in page(client, f"/games/{GAME}/ranking/")) == bool(expected)


def test_the_lobby_gives_join_buttons_only_to_signed_in_visitors_each_with_their_own_token(alice, bob):
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    anonymous = Client()
    assert f"Join #{match.pk}" not in page(anonymous, "/play/")
    careful = Client(enforce_csrf_checks=True)
    careful.force_login(bob)
    body = page(careful, "/play/")
    form = re.search(rf'<form method="post" action="/matches/{match.pk}/join/">(.*?)</form>', body).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    assert token != page_cache.CSRF_SLOT
    # The token works: the cached list's button takes the seat.
    response = careful.post(f"/matches/{match.pk}/join/", {"csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert fresh(match.pk).seats.filter(user=bob).exists()
    body = page(anonymous, "/play/")
    assert lobby_seats("alice", "bob") in body
    assert f"Join #{match.pk}" not in body and f"/matches/{match.pk}/join/" not in body


def test_a_fragment_filled_for_a_visitor_is_the_template_rendered_for_them(alice, bob, make_user):
    from rankings.selectors import hall_of_fame

    bob_beats_alice(alice, bob)
    wait_for(lambda: len(hall_of_fame(GAME)) == 2, message="the rating task")
    context = {"game": get_game(GAME), "hall_of_fame": hall_of_fame(GAME)}
    shared = page_cache.render("rankings/_game_hall_of_fame_table.html", context)
    assert 'class="me"' not in "".join(part for part in shared.parts if isinstance(part, str))
    for viewer in (alice, bob, make_user("carol"), AnonymousUser()):
        assert shared.fill(Context({"user": viewer})) == render_to_string(
            "rankings/_game_hall_of_fame_table.html", {**context, "user": viewer}
        )


def test_personal_parts_do_not_nest():
    inner = '{% personal "me" 1 %}{% endpersonal %}'
    with pytest.raises(TemplateSyntaxError, match="do not nest"):
        Template('{% load page_cache %}{% personal "signed-in" %}' + inner + "{% endpersonal %}")


# --------------------------------------------------------------------------------------
# The move path


def test_a_move_leaves_the_cached_pages_alone(alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    areas = ["finished", f"finished:{match.game}", "ratings", f"ratings:{match.game}", "open", "people", "forums"]
    before = page_cache.generations(areas)
    assert play_turn(match.pk, {0: alice, 1: bob}, random.Random(1))
    assert fresh(match.pk).status == Match.Status.ACTIVE
    assert page_cache.generations(areas) == before


def test_a_cache_out_of_reach_never_fails_the_change_that_moves_it_on(alice, monkeypatch, caplog):
    def unreachable(*args, **kwargs):
        raise ConnectionError("the cache is down")

    monkeypatch.setattr(page_cache.shared_cache(), "set_many", unreachable)
    match = services.match_create(user=alice, game="gp02a", num_players=3)
    assert fresh(match.pk).status == Match.Status.OPEN
    assert "Could not mark open as changed in the page cache" in caplog.text
