"""What each page costs the database, on a site with real data in it: finished matches in
every game, ratings, open matches with seats taken, a match being played.

Each page has a budget for its first request (nothing cached: what rendering it really
reads) and, for the pages whose shared parts are cached, for every request after that. A
signed-in visitor costs two queries more on any page (the session and the account). The
budgets hold whatever the number of players and matches: an N+1 would break them.
"""

import random

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from games import services, state_cache
from games.engines import all_games
from games.models import Match
from rankings.services import ratings_recompute
from tests.games.helpers import fresh, start_two_player
from tests.rankings.helpers import finished_match, quick_users

pytestmark = pytest.mark.django_db

SIGNED_IN = 2  # the session and the account
CHALLENGES = 1  # the lobby: the challenges waiting for the signed-in visitor's answer
# A finished match's page, for a signed-in visitor: whether it may have a rematch (not a
# tournament's table), and its latest rematch offer.
REMATCH = 2
TABLE = 1  # a match's page: the tournament it is a table of, if any (the page links back)


@pytest.fixture(params=[8, 40], ids=["small site", "bigger site"])
def site(request, make_user):
    """Players rated in every game through finished matches (a bot among them), open matches
    with a seat taken in every game, an invite-only one, and a match being played."""
    size = request.param
    rng = random.Random(size)
    people = quick_users(size)
    bot = get_user_model().objects.create(username="Random bot", is_bot=True, bot_name="random", password="!")
    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    for game in all_games():
        n = game.allowed_player_counts()[0]
        for i in range(6 + size // 2):
            # alice wins the first six of every game: she is at the top of each and overall
            players = [alice, *rng.sample([*people, bot], n - 1)] if i < 6 else rng.sample([*people, bot], n)
            finished_match(players, list(range(1, n + 1)), game=game.slug)
    ratings_recompute()
    for game in all_games():
        for _ in range(size // 8):
            match = services.match_create(user=rng.choice(people), game=game.slug, num_players=game.max_players)
            services.match_join(match_id=match.pk, user=rng.choice([p for p in people if p != match.creator]))
    open_match = services.match_create(user=carol, game="gp02a", num_players=3)
    services.match_create(user=carol, game="gp02a", num_players=3, visibility="invite")
    playing = start_two_player("game-of-god", alice, bob)
    over = start_two_player("territories", alice, bob)
    services.match_resign(match_id=over.pk, user=bob)
    return {
        "alice": alice,  # at the top of every game, seated in the match being played
        "carol": carol,  # unrated, creator of an open match, a spectator elsewhere
        "player": people[0],
        "playing": fresh(playing.pk),
        "open": fresh(open_match.pk),
        "finished": fresh(over.pk),
    }


@pytest.fixture
def costs(client, django_assert_max_num_queries):
    """``costs(url, cold, warm)``: the first request after the cache is emptied makes at
    most ``cold`` queries, and the next one at most ``warm``."""

    def check(url, cold, warm=None):
        cache.clear()
        with django_assert_max_num_queries(cold, info=f"{url}, nothing cached"):
            assert client.get(url).status_code == 200
        with django_assert_max_num_queries(cold if warm is None else warm, info=f"{url}, cached"):
            response = client.get(url)
            assert response.status_code == 200
        return response.content.decode()

    return check


# --------------------------------------------------------------------------------------
# Home, game pages, Hall of Fame


def test_the_home_page_costs_two_queries_then_none_whatever_the_number_of_matches(client, site, costs):
    # The latest finished matches and their seats with the players.
    body = costs("/", cold=2, warm=0)
    assert "The latest action" in body
    client.force_login(site["carol"])
    costs("/", cold=2 + SIGNED_IN, warm=SIGNED_IN)


def test_a_game_page_costs_eight_queries_then_none_whatever_the_number_of_players(client, site, costs):
    # Latest matches and their seats, the matches being played and their seats, the top
    # ten, the forum's address, the tournaments being played or taking entries, the finished ones.
    for game in all_games():
        body = costs(f"/games/{game.slug}/", cold=8, warm=0)
        assert "See the complete ranking" in body
    client.force_login(site["alice"])  # rated: one more query for "Your rating"
    body = costs("/games/chit-territory/", cold=8 + SIGNED_IN + 1, warm=SIGNED_IN + 1)
    assert "Your rating" in body


def test_the_hall_of_fame_costs_at_most_seven_queries_then_none_whatever_the_number_of_players(client, site, costs):
    # The overall top (ratings averaged, then their accounts), then the top five of each game.
    body = costs("/hall-of-fame/", cold=2 + len(all_games()), warm=0)
    assert "Best players over all games" in body
    client.force_login(site["alice"])
    body = costs("/hall-of-fame/", cold=2 + len(all_games()) + SIGNED_IN, warm=SIGNED_IN)
    assert 'class="me"' in body


# --------------------------------------------------------------------------------------
# Rankings


def test_a_ranking_page_costs_two_queries_then_none_whatever_the_number_of_players(client, site, costs):
    # How many players are rated, then the page's rows with their accounts.
    body = costs("/games/chit-territory/ranking/", cold=2, warm=0)
    assert "rated players, by Elo rating" in body


def test_a_ranking_page_showing_your_own_place_costs_one_query_more(client, site, costs):
    # The signed-in player's rating and place are read together, and never cached.
    client.force_login(site["alice"])
    body = costs("/games/chit-territory/ranking/", cold=2 + SIGNED_IN + 1, warm=SIGNED_IN + 1)
    assert "You are number" in body and 'aria-current="true"' in body


def test_finding_a_player_in_a_ranking_costs_two_queries_more(client, site, costs):
    # The account by name, then their rating with their place.
    body = costs(f"/games/chit-territory/ranking/?player={site['alice'].username}", cold=2 + 2, warm=2)
    assert "is number" in body


# --------------------------------------------------------------------------------------
# Playing


def test_the_lobby_costs_five_queries_then_none_whatever_the_number_of_open_matches(client, site, costs):
    # How many open public matches there are (the pages), one page of them, then their
    # seats with the players; the matches being played (the watch list) and their seats.
    body = costs("/play/", cold=5, warm=0)
    assert f"#{site['open'].pk}" in body
    client.force_login(site["carol"])
    body = costs("/play/", cold=5 + SIGNED_IN + CHALLENGES, warm=SIGNED_IN + CHALLENGES)
    assert f"Join #{site['open'].pk}" in body
    body = costs("/play/?game=gp02a&players=3&page=1", cold=5 + SIGNED_IN + CHALLENGES, warm=SIGNED_IN + CHALLENGES)
    assert f"Join #{site['open'].pk}" in body


@pytest.mark.parametrize("which", ["open", "playing", "finished"])
@pytest.mark.parametrize("viewer", [None, "alice", "carol"], ids=["anonymous", "player", "spectator"])
def test_a_match_page_costs_three_queries(client, site, django_assert_max_num_queries, which, viewer):
    """The match with its seats and players in one query, then the chat, and whether it is a
    tournament's table; a process that has not seen the match yet also reads its moves once."""
    match = site[which]
    if viewer:
        client.force_login(site[viewer])
    extra = TABLE + (SIGNED_IN + (REMATCH if which == "finished" else 0) if viewer else 0)
    state_cache.forget_all()
    with django_assert_max_num_queries(2 + 1 + extra, info="the moves read once"):
        assert client.get(match.get_absolute_url()).status_code == 200
    with django_assert_max_num_queries(2 + extra):
        body = client.get(match.get_absolute_url()).content.decode()
    assert f"#{match.pk}" in body


def test_an_invite_only_match_page_costs_its_players_no_query_more(client, site, django_assert_max_num_queries):
    invited = Match.objects.get(visibility="invite")
    client.force_login(site["carol"])  # its creator, seated
    client.get(invited.get_absolute_url())
    with django_assert_max_num_queries(2 + TABLE + SIGNED_IN):
        assert client.get(invited.get_absolute_url()).status_code == 200


def test_showing_times_in_the_viewers_zone_costs_no_query(client, site, costs, django_assert_max_num_queries):
    """The zone rides on the account the page loads anyway, or on the visitor's cookie."""
    client.cookies["tz"] = "America/New_York"
    costs("/", cold=2, warm=0)
    alice = site["alice"]
    alice.time_zone = "Asia/Tokyo"
    alice.save(update_fields=["time_zone"])
    client.force_login(alice)
    body = costs("/", cold=2 + SIGNED_IN, warm=SIGNED_IN)
    assert 'data-time-zone="Asia/Tokyo"' in body
    match = site["playing"]
    client.get(match.get_absolute_url())
    with django_assert_max_num_queries(2 + TABLE + SIGNED_IN):
        assert client.get(match.get_absolute_url()).status_code == 200


# --------------------------------------------------------------------------------------
# Players


def test_a_player_page_costs_seven_queries_whatever_the_number_of_games_and_matches(client, site, costs):
    # The account; its ratings with places and player counts; the rating histories of every
    # game; the recent matches, their seats and the rating changes they made; the places in
    # tournaments.
    body = costs(f"/players/{site['alice'].username}/", cold=7)
    assert body.count("<svg") == len(all_games())
    costs(f"/players/{site['player'].username}/", cold=7)
    client.force_login(site["carol"])
    costs(f"/players/{site['alice'].username}/", cold=7 + SIGNED_IN)
