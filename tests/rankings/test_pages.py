"""What people see: the Hall of Fame on a game page, the complete ranking, the Hall of Fame
page, a player's ratings and history, and the stats page."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.models import Match, Move
from rankings.models import Rating
from rankings.services import match_rate

from .helpers import finished_match, quick_users
from .html import tables

pytestmark = pytest.mark.django_db

GAME = "chit-territory"


def rated_players(count, game=GAME, prefix="player", top=2000.0):
    """``count`` players rated ``top``, ``top`` - 10, ...; every third one provisional."""
    users = quick_users(count, prefix=prefix)
    Rating.objects.bulk_create(
        Rating(user=u, game=game, rating=top - 10 * i, rated_games=5 if i % 3 == 2 else 30, wins=i)
        for i, u in enumerate(users)
    )
    return users


def page(client, url):
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


# --------------------------------------------------------------------------------------
# The game page


def test_the_game_page_shows_the_top_ten_with_provisional_marks(client):
    rated_players(12)
    body = page(client, f"/games/{GAME}/")
    [table] = [t for t in tables(body) if "ranking" in t.attrs.get("class", "")]
    assert table.texts() == [
        ["1", "player1", "2000", "30"],
        ["2", "player2", "1990", "30"],
        ["3", "player3", "1980?", "5"],
        ["4", "player4", "1970", "30"],
        ["5", "player5", "1960", "30"],
        ["6", "player6", "1950?", "5"],
        ["7", "player7", "1940", "30"],
        ["8", "player8", "1930", "30"],
        ["9", "player9", "1920?", "5"],
        ["10", "player10", "1910", "30"],
    ]
    assert "player11" not in body
    assert "marks a provisional rating: fewer than 20 rated games" in body
    assert re.search(rf'<a href="/games/{GAME}/ranking/">See the complete ranking</a>', body)


def test_the_game_page_invites_the_first_rated_match_when_nobody_is_rated(client):
    body = page(client, f"/games/{GAME}/")
    assert "Nobody has a rating in Territory (chits) yet" in body
    assert "See the complete ranking" in body


def test_ratings_are_rounded_only_for_display(client):
    [user] = quick_users(1)
    Rating.objects.create(user=user, game=GAME, rating=1612.4999, rated_games=25)
    assert "1612" in page(client, f"/games/{GAME}/")
    assert Rating.objects.get(user=user).rating == 1612.4999


# --------------------------------------------------------------------------------------
# The complete ranking


def test_the_ranking_pages_fifty_players_a_page(client):
    rated_players(120)
    first = tables(page(client, f"/games/{GAME}/ranking/"))[0]
    assert len(first.rows) == 50
    assert first.rows[0].cells[:2] == ["1", "player1"]
    assert "page 1 of 3" in first.caption
    last = tables(page(client, f"/games/{GAME}/ranking/?page=3"))[0]
    assert [r.cells[:2] for r in last.rows[:1]] == [["101", "player101"]]
    assert len(last.rows) == 20
    # A page past the end shows the last page rather than an error.
    assert len(tables(page(client, f"/games/{GAME}/ranking/?page=99"))[0].rows) == 20


def test_find_a_player_opens_the_page_holding_them(client):
    rated_players(120)
    body = page(client, f"/games/{GAME}/ranking/?player=PLAYER77")  # any case
    [table] = tables(body)
    assert table.rows[0].cells[0] == "51"  # page 2: places 51 to 100
    [found] = [r for r in table.rows if "found" in r.attrs.get("class", "")]
    assert found.cells[:2] == ["77", "player77"]
    assert "player77</a> is number 77" in body


def test_find_a_player_who_is_not_rated_suggests_similar_names(client):
    rated_players(30)
    quick_users(1, prefix="unrated")
    body = page(client, f"/games/{GAME}/ranking/?player=player2")
    # "player2" exists: found. "layer2" does not: suggestions, best first.
    assert "player2</a> is number 2" in body
    body = page(client, f"/games/{GAME}/ranking/?player=layer2")
    assert "No rated player of Territory (chits) is called “layer2”" in body
    assert re.findall(r'<li><a href="\?player=(\w+)">', body)[:3] == ["player2", "player20", "player21"]
    body = page(client, f"/games/{GAME}/ranking/?player=unrated1")
    assert "is called “unrated1”" in body


def test_the_signed_in_players_own_row_is_highlighted_with_a_link_to_their_place(client):
    users = rated_players(120)
    client.force_login(users[90])
    body = page(client, f"/games/{GAME}/ranking/")
    assert "You are number 91 with 1100." in body
    assert f'href="?page=2#player-{users[90].username}">Go to your place' in body
    [table] = tables(page(client, f"/games/{GAME}/ranking/?page=2"))
    mine = [r for r in table.rows if "me" in r.attrs.get("class", "").split()]
    assert [r.cells[:2] for r in mine] == [["91", "player91 you"]]
    assert mine[0].attrs.get("aria-current") == "true"


def test_the_ranking_of_an_unknown_game_is_a_404(client):
    assert client.get("/games/chess/ranking/").status_code == 404


def test_search_text_is_escaped(client):
    body = page(client, f"/games/{GAME}/ranking/?player=<script>alert(1)</script>")
    assert "<script>alert(1)" not in body
    assert "&lt;script&gt;alert(1)" in body


# --------------------------------------------------------------------------------------
# The Hall of Fame page


def test_the_hall_of_fame_averages_games_with_five_rated_matches_and_says_so(client):
    strong, steady, newcomer = quick_users(3)
    Rating.objects.bulk_create(
        [
            Rating(user=strong, game="chit-territory", rating=1800.0, rated_games=30),
            Rating(user=strong, game="game-of-god", rating=1600.0, rated_games=5),
            Rating(user=strong, game="territories", rating=1000.0, rated_games=4),  # too few: left out
            Rating(user=steady, game="chit-territory", rating=1650.0, rated_games=25),
            Rating(user=newcomer, game="chit-territory", rating=2100.0, rated_games=4),
        ]
    )
    body = page(client, "/hall-of-fame/")
    assert "at least 5 rated matches" in body
    overall = tables(body)[0]
    # strong: (1800 + 1600) / 2 = 1700 over 2 games; steady: 1650 over 1; newcomer: not yet.
    assert overall.texts() == [["1", "player1", "1700", "2"], ["2", "player2", "1650", "1"]]


def test_the_hall_of_fame_shows_the_top_five_of_each_game(client):
    rated_players(8, game="game-of-god", prefix="god")
    body = page(client, "/hall-of-fame/")
    per_game = {t.caption: t for t in tables(body)[1:]}
    top = per_game["The best 5 of Game of God"]
    assert [r.cells[1] for r in top.rows] == ["god1", "god2", "god3", "god4", "god5"]
    assert top.rows[2].cells[2] == "1980?"
    assert body.count("No rated match yet.") == 4  # the other four games
    assert '<a href="/games/game-of-god/ranking/">See the complete ranking</a>' in body


# --------------------------------------------------------------------------------------
# The player page


def test_the_player_page_shows_ratings_places_and_a_history_chart(client):
    me, rival, third = quick_users(3)
    start = timezone.now() - timedelta(days=2)
    for i, places in enumerate([[1, 2], [1, 2], [2, 1]]):
        match_rate(match_id=finished_match([me, rival], places, finished_at=start + timedelta(hours=i)).pk)
    match_rate(match_id=finished_match([third, rival], [1, 2], game="game-of-god").pk)
    body = page(client, f"/players/{me.username}/")
    ratings = tables(body)[0]
    mine = Rating.objects.get(user=me, game=GAME)
    assert ratings.texts() == [["Territory (chits)", f"{round(mine.rating)}?", "1 of 2", "3", "2"]]
    assert "marks a provisional rating" in body
    # One chart, drawn as SVG with an accessible title and description.
    assert body.count("<svg") == 1
    assert '<svg class="rating-chart"' in body and 'role="img"' in body
    assert f'<title id="chart-{GAME}-title">Rating history of {me.username} in Territory (chits)</title>' in body
    assert "Rating after each rated match, matches 1 to 3" in body
    assert f"from 1500 to {round(mine.rating)}" in body
    assert re.search(r'<polyline points="([\d.]+,[\d.]+ ){3}[\d.]+,[\d.]+"', body)  # four points
    assert "Rated matches played" in body and ">Rating</text>" in body


def test_the_player_page_lists_recent_matches_with_results_and_rating_changes(client):
    me, rival = quick_users(2)
    won = finished_match([me, rival], [1, 2])
    match_rate(match_id=won.pk)
    casual = finished_match([me, rival], [2, 1], rated=False, finished_at=timezone.now() + timedelta(minutes=1))
    recent = tables(page(client, f"/players/{me.username}/"))[1]
    rows = recent.texts()
    assert rows[0][0] == f"Territory (chits) #{casual.pk}"
    assert rows[0][3:] == ["2 of 2", "casual"]
    assert rows[1][0] == f"Territory (chits) #{won.pk}"
    assert rows[1][2] == f"1. {me.username} 2. {rival.username}"
    assert rows[1][3:] == ["1 of 2", "1500 → 1520 (+20.0)"]


def test_the_player_page_escapes_names_in_the_chart(client):
    User = get_user_model()
    odd = User.objects.create(username='<b>odd"&', password="!")
    [rival] = quick_users(1)
    match_rate(match_id=finished_match([odd, rival], [1, 2]).pk)
    body = page(client, "/players/%3Cb%3Eodd%22%26/")
    assert "Rating history of &lt;b&gt;odd&quot;&amp; in" in body
    assert "<b>odd" not in body


def test_a_player_without_rated_matches_is_told_so(client):
    [me] = quick_users(1)
    body = page(client, f"/players/{me.username}/")
    assert "has not finished a rated match yet" in body
    assert "No finished match yet." in body


# --------------------------------------------------------------------------------------
# Stats


def test_the_stats_page_counts_players_matches_moves_and_the_most_active(client):
    people = quick_users(4)
    get_user_model().objects.create(username="Bot", is_bot=True, bot_name="random", password="!")
    for _ in range(3):
        finished_match([people[0], people[1]], [1, 2])
    finished_match([people[0], people[2]], [1, 2], game="game-of-god")
    old = finished_match([people[3], people[2]], [1, 2], game="game-of-god")
    Match.objects.filter(pk=old.pk).update(finished_at=timezone.now() - timedelta(days=40))
    playing = finished_match([people[1], people[2]], [1, 2], status=Match.Status.ACTIVE)
    Move.objects.bulk_create(Move(match=playing, index=i, seat=i % 2, action="x") for i in range(5))
    Move.objects.create(match=playing, index=5, seat=None, action="roll:3")  # chance: nobody's move

    body = page(client, "/stats/")
    assert re.search(r"<dt>Registered players</dt><dd>4</dd>", body)
    assert re.search(r"<dt>Matches played</dt><dd>5</dd>", body)
    assert re.search(r"<dt>Matches being played now</dt><dd>1</dd>", body)
    assert re.search(r"<dt>Moves made today</dt><dd>5</dd>", body)
    per_game = dict((row[0], row[1]) for row in tables(body)[0].texts())
    assert per_game == {
        "GP02A Territory": "0",
        "Territory (dice)": "0",
        "Territories": "0",
        "Territory (chits)": "3",
        "Game of God": "2",
    }
    assert re.findall(r'<li><a href="/players/(\w+)/">\w+</a>: (\d+) match', body) == [
        ("player1", "4"),
        ("player2", "3"),
        ("player3", "1"),
    ]


def test_players_tied_on_rating_are_neither_lost_nor_repeated_across_pages(client):
    users = quick_users(130)
    # Runs of equal ratings that straddle the page boundaries at places 50 and 100.
    rating_of = {u.pk: 1500.0 + (i // 17) * 3.5 for i, u in enumerate(users)}
    Rating.objects.bulk_create(Rating(user=u, game=GAME, rating=rating_of[u.pk], rated_games=25) for u in users)
    seen = []
    for number in (1, 2, 3):
        seen += [row.cells[1] for row in tables(page(client, f"/games/{GAME}/ranking/?page={number}"))[0].rows]
    expected = [u.username for u in sorted(users, key=lambda u: (-rating_of[u.pk], u.pk))]
    assert seen == expected
