"""Rating finished matches: once, in order, and the same by replay as incrementally."""

import random
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games import services as game_services
from games.engines.base import places_from_keys
from games.models import Match
from rankings.models import Rating, RatingChange
from rankings.services import match_rate, ratings_recompute
from tests.conftest import wait_for
from tests.games.helpers import fresh, play_turn, start_two_player

from .helpers import BASE_TIME, changes_snapshot, finished_match, quick_users, ratings_snapshot

pytestmark = pytest.mark.django_db


def rating(user, game="chit-territory") -> Rating:
    return Rating.objects.get(user=user, game=game)


def test_a_won_match_moves_both_players_from_1500(alice, bob):
    match = finished_match([alice, bob], [1, 2])
    changes = match_rate(match_id=match.pk)
    assert len(changes) == 2
    # Equal ratings, both provisional: 40 * (1 - 0.5) = 20.
    assert (rating(alice).rating, rating(bob).rating) == (1520.0, 1480.0)
    assert (rating(alice).rated_games, rating(bob).rated_games) == (1, 1)
    assert (rating(alice).wins, rating(bob).wins) == (1, 0)
    change = RatingChange.objects.get(match=match, user=alice)
    assert (change.before, change.after, change.place, change.created) == (1500.0, 1520.0, 1, match.finished_at)


def test_rating_a_match_twice_changes_nothing(alice, bob):
    match = finished_match([alice, bob], [2, 1])
    match_rate(match_id=match.pk)
    before = (ratings_snapshot(), changes_snapshot())
    assert match_rate(match_id=match.pk) == []
    assert (ratings_snapshot(), changes_snapshot()) == before
    assert RatingChange.objects.filter(match=match).count() == 2


def test_an_unrated_match_changes_nothing(alice, bob):
    match = finished_match([alice, bob], [1, 2], rated=False)
    assert match_rate(match_id=match.pk) == []
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.parametrize("status", [Match.Status.ACTIVE, Match.Status.ABORTED, Match.Status.OPEN])
def test_a_match_that_did_not_finish_changes_nothing(alice, bob, status):
    match = finished_match([alice, bob], [1, 2], status=status)
    assert match_rate(match_id=match.pk) == []
    assert not Rating.objects.exists()


def test_a_match_with_a_seat_without_place_changes_nothing(alice, bob):
    match = finished_match([alice, bob], [1, 2])
    match.seats.filter(index=1).update(place=None)
    assert match_rate(match_id=match.pk) == []
    assert not Rating.objects.exists()


def test_an_unknown_match_changes_nothing(db):
    assert match_rate(match_id=987654) == []


def test_ratings_are_per_game(alice, bob):
    match_rate(match_id=finished_match([alice, bob], [1, 2], game="chit-territory").pk)
    match_rate(match_id=finished_match([alice, bob], [1, 2], game="game-of-god").pk)
    assert rating(alice, "chit-territory").rated_games == 1
    assert rating(alice, "game-of-god").rated_games == 1
    assert rating(alice, "game-of-god").rating == 1520.0


def test_the_twenty_first_match_uses_the_established_k(alice, bob):
    Rating.objects.create(user=alice, game="chit-territory", rating=1500.0, rated_games=20)
    Rating.objects.create(user=bob, game="chit-territory", rating=1500.0, rated_games=19)
    match_rate(match_id=finished_match([alice, bob], [1, 2]).pk)
    # Alice is established (K = 20): +10. Bob is still provisional (K = 40): -20.
    assert (rating(alice).rating, rating(bob).rating) == (1510.0, 1480.0)
    assert not rating(alice).provisional and not rating(bob).provisional  # 21 and 20 games now


def test_a_bot_in_several_seats_is_rated_once_per_match(alice):
    bot = game_services.bot_account("random")
    match = finished_match([alice, bot, bot], [3, 1, 2])
    match_rate(match_id=match.pk)
    # See test_rating: the person loses 20, the bot gains 20 and counts one game, one win.
    assert rating(alice).rating == 1480.0
    assert (rating(bot).rating, rating(bot).rated_games, rating(bot).wins) == (1520.0, 1, 1)
    assert RatingChange.objects.get(match=match, user=bot).place == 1


# --------------------------------------------------------------------------------------
# Quitters through the games services


def test_a_player_who_resigns_against_a_bot_is_ranked_last_and_loses_rating(alice):
    match = game_services.match_create(user=alice, game="territories", num_players=2, rated=True)
    game_services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    game_services.match_resign(match_id=match.pk, user=alice)
    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED
    match_rate(match_id=match.pk)
    bot = game_services.bot_account("random")
    assert rating(alice, "territories").rating == 1480.0
    assert rating(bot, "territories").rating == 1520.0
    assert RatingChange.objects.get(match=match, user=alice).place == 2


def test_a_player_who_runs_out_of_time_is_ranked_last(alice, bob):
    match = start_two_player("territories", alice, bob, rated=True)
    late = alice if match.to_move == 0 else bob
    other = bob if late is alice else alice
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    assert game_services.match_timeout(match_id=match.pk, version=match.version)
    match_rate(match_id=match.pk)
    assert rating(late, "territories").rating == 1480.0
    assert rating(other, "territories").rating == 1520.0


# --------------------------------------------------------------------------------------
# Recompute


def generated_matches(users, bot, count, rng):
    """``count`` finished matches of 2 to 4 players over two games, with ties, a few unrated,
    a few aborted, and the odd one where a bot holds two seats; finish times out of id order."""
    matches = []
    for i in range(count):
        n = rng.randint(2, 4)
        seated = rng.sample(users, n)
        if n >= 3 and rng.random() < 0.1:
            seated[-1] = seated[-2] = bot
        places = places_from_keys([(rng.randint(0, 3),) for _ in range(n)])
        status = Match.Status.ABORTED if rng.random() < 0.03 else Match.Status.FINISHED
        finished_at = BASE_TIME + timedelta(minutes=rng.randint(0, count * 2))
        if i % 7 == 0 and matches:
            finished_at = matches[-1].finished_at  # same instant: the id decides
        matches.append(
            finished_match(
                seated,
                places,
                game=rng.choice(["chit-territory", "game-of-god"]),
                rated=rng.random() > 0.1,
                finished_at=finished_at,
                status=status,
            )
        )
    return sorted(matches, key=lambda m: (m.finished_at, m.pk))


def test_recompute_gives_exactly_what_incremental_rating_gave(db):
    rng = random.Random(20261122)
    users = quick_users(12)
    bot = game_services.bot_account("greedy")
    matches = generated_matches(users, bot, 300, rng)
    for match in matches:
        match_rate(match_id=match.pk)
    incremental = (ratings_snapshot(), changes_snapshot())
    assert max(r[3] for r in incremental[0]) > 20  # some players are past their provisional games

    rated = ratings_recompute()

    assert (ratings_snapshot(), changes_snapshot()) == incremental
    assert rated == len({c[0] for c in incremental[1]})


def test_recompute_of_one_game_leaves_the_others_alone(db):
    rng = random.Random(7)
    users = quick_users(6)
    for match in generated_matches(users, game_services.bot_account("random"), 60, rng):
        match_rate(match_id=match.pk)
    incremental = (ratings_snapshot(), changes_snapshot())
    # Spoil one game's ratings; recomputing the other must not repair (or touch) them.
    Rating.objects.filter(game="game-of-god").update(rating=1000.0)
    spoiled = ratings_snapshot("game-of-god")
    ratings_recompute(game="chit-territory")
    assert ratings_snapshot("game-of-god") == spoiled
    assert ratings_snapshot("chit-territory") == [r for r in incremental[0] if r[1] == "chit-territory"]
    ratings_recompute(game="game-of-god")
    assert (ratings_snapshot(), changes_snapshot()) == incremental


def test_recompute_rates_a_match_the_incremental_path_missed(alice, bob):
    match_rate(match_id=finished_match([alice, bob], [1, 2], finished_at=BASE_TIME).pk)
    finished_match([alice, bob], [1, 2], finished_at=BASE_TIME + timedelta(hours=1))  # its task never ran
    ratings_recompute()
    assert rating(alice).rated_games == 2
    # 1520 beats 1480: 40 * (1 - E(+40)), E(+40) = 1 / (1 + 10^-0.1) = 0.557312
    assert rating(alice).rating == pytest.approx(1520 + 40 * (1 - 0.5573116), abs=1e-4)


def test_the_recompute_command_reports_and_refuses_unknown_games(alice, bob, capsys):
    finished_match([alice, bob], [1, 2])
    call_command("recompute_ratings")
    assert "Rated 1 matches" in capsys.readouterr().out
    assert rating(alice).rating == 1520.0
    with pytest.raises(CommandError, match="no game called 'chess'"):
        call_command("recompute_ratings", "--game", "chess")
    assert rating(alice).rating == 1520.0


def test_the_recompute_task_replays_one_game(alice, bob):
    from rankings.tasks import recompute_ratings

    finished_match([alice, bob], [2, 1], game="game-of-god")
    finished_match([alice, bob], [2, 1], game="chit-territory")
    assert recompute_ratings(game="game-of-god") == 1
    assert rating(bob, "game-of-god").rating == 1520.0
    assert not Rating.objects.filter(game="chit-territory").exists()


# --------------------------------------------------------------------------------------
# End to end: the match_finished signal, after commit, queues the rating task


@pytest.mark.django_db(transaction=True)
def test_finishing_a_rated_match_through_the_services_updates_the_ratings(alice, bob):
    match = start_two_player("territories", alice, bob, rated=True)
    rng = random.Random(3)
    while play_turn(match.pk, {0: alice, 1: bob}, rng):
        pass
    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED
    wait_for(lambda: RatingChange.objects.filter(match=match).count() == 2, message="the rating task")
    places = dict(match.seats.values_list("user_id", "place"))
    a, b = rating(alice, "territories"), rating(bob, "territories")
    assert a.rated_games == b.rated_games == 1
    expected = {(1, 2): (1520.0, 1480.0), (2, 1): (1480.0, 1520.0), (1, 1): (1500.0, 1500.0)}
    assert (a.rating, b.rating) == expected[(places[alice.pk], places[bob.pk])]


@pytest.mark.django_db(transaction=True)
def test_resigning_a_casual_match_changes_no_rating(alice, bob):
    match = start_two_player("territories", alice, bob, rated=False)
    game_services.match_resign(match_id=match.pk, user=alice)
    rated = start_two_player("territories", alice, bob, rated=True)
    game_services.match_resign(match_id=rated.pk, user=bob)
    wait_for(lambda: RatingChange.objects.filter(match=rated).exists(), message="the rating task")
    assert not RatingChange.objects.filter(match=match).exists()
    assert rating(alice, "territories").rated_games == 1
