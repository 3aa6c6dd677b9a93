"""``make run``'s demo data: a site that looks alive on the first visit."""

import pytest
from django.core.management import call_command

from forums.models import Post, Topic
from games.engines import all_games
from games.models import Match
from rankings.models import Rating, RatingChange

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_demo_site_has_rated_results_in_every_game_a_match_to_watch_and_forum_talk(client):
    call_command("seed_demo")
    finished = Match.objects.filter(status=Match.Status.FINISHED, rated=True, visibility="public")
    for game in all_games():
        assert finished.filter(game=game.slug).exists(), game.slug
        # Rated through the real path: the players of each game have ratings, bots included.
        assert Rating.objects.filter(game=game.slug, user__is_bot=True).exists(), game.slug
        assert Rating.objects.filter(game=game.slug, user__is_bot=False).exists(), game.slug
    assert RatingChange.objects.count() == sum(m.num_players for m in finished)
    live = Match.objects.get(status=Match.Status.ACTIVE, visibility="public")
    assert live.moves.filter(seat__isnull=False).exists()
    assert Topic.objects.count() >= 3 and Post.objects.count() > Topic.objects.count()

    # What a first visitor sees.
    home = client.get("/").content.decode()
    assert "No finished match yet" not in home
    play = client.get("/play/").content.decode()
    assert f'aria-label="Watch {live.game_name} #{live.pk}"' in play
    fame = client.get("/hall-of-fame/").content.decode()
    assert ">alice<" in fame or ">bob<" in fame

    # A second run adds nothing.
    counts = (Match.objects.count(), Topic.objects.count(), Post.objects.count(), RatingChange.objects.count())
    call_command("seed_demo")
    assert (Match.objects.count(), Topic.objects.count(), Post.objects.count(), RatingChange.objects.count()) == counts
