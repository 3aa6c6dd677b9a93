"""The move path through games.services: one door for every action, and its guards."""

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services, state_cache
from games.engines import get_game
from games.models import Match, Move
from games.services import MatchError
from tests.conftest import wait_for

from .helpers import fresh, play_turn, start_two_player

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_match_waits_for_its_seats_and_starts_when_the_last_one_is_taken(alice, bob, make_user):
    match = services.match_create(user=alice, game="dice-territory", num_players=3)
    assert match.status == Match.Status.OPEN
    assert [s.user for s in match.seats.order_by("index")] == [alice, None, None]
    services.match_join(match_id=match.pk, user=bob)
    assert fresh(match.pk).status == Match.Status.OPEN
    services.match_join(match_id=match.pk, user=make_user("carol"))
    match = fresh(match.pk)
    assert match.status == Match.Status.ACTIVE
    # The set-up chance moves (first player, the face-down card) were drawn on the server.
    assert match.moves.filter(seat__isnull=True).count() >= 2
    assert match.to_move in (0, 1, 2) and match.deadline is not None


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"game": "chess", "num_players": 2}, "no game"),
        ({"game": "gp02a", "num_players": 2}, "played by 3, 4"),
        ({"game": "game-of-god", "num_players": 3}, "2, 4"),
        ({"game": "game-of-god", "num_players": 2, "options": {"cheat": True}}, "no option"),
        ({"game": "game-of-god", "num_players": 4, "options": {"pieces": 14}}, "even number from 2 to 12, not 14"),
        ({"game": "game-of-god", "num_players": 2, "speed": "live", "seconds_per_move": 1}, "seconds per move"),
        ({"game": "game-of-god", "num_players": 2, "speed": "blitz"}, "live or correspondence"),
    ],
)
def test_bad_match_settings_are_refused_with_a_reason(alice, kwargs, message):
    with pytest.raises(MatchError, match=message):
        services.match_create(user=alice, **kwargs)
    assert not Match.objects.exists()


def test_an_action_is_applied_recorded_and_bumps_the_version(alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    state = state_cache.load(match)
    seat = match.to_move
    user = alice if seat == 0 else bob
    action = state.legal_actions()[0]
    result = services.match_act(match_id=match.pk, user=user, action=action, version=match.version)
    assert result.match.version == match.version + 1
    assert Move.objects.filter(match=match, action=action, seat=seat).exists()
    assert state_cache.load(fresh(match.pk)).history[-len(result.applied)] == action


def test_a_game_of_god_match_with_four_pieces_each_is_laid_out_and_played_through_the_services(alice, bob):
    # The seed: "If less or more than a standard number of pieces per player is to be used,
    # then each player must be assigned the same number of colored pieces and the pieces
    # aligned in the goal areas must be mirrored for all the facing players."
    match = start_two_player("game-of-god", alice, bob, options={"pieces": 4})
    assert match.options == {"pieces": 4}
    users = {0: alice, 1: bob}
    chooser = match.to_move  # the server drew who chooses the six empty squares
    for column in "abcfgh":
        match = fresh(match.pk)
        services.match_act(match_id=match.pk, user=users[chooser], action=f"vacant:{column}", version=match.version)
    match = fresh(match.pk)
    state = state_cache.load(match)
    assert state.view(None)["stacks"] == {"d1": [0, 0], "e1": [0, 0], "d8": [1, 1], "e8": [1, 1]}
    mover = match.to_move  # the server drew who moves first
    action = "move:d1-d4" if mover == 0 else "move:d8-d5"
    services.match_act(match_id=match.pk, user=users[mover], action=action, version=match.version)
    assert Move.objects.filter(match=match, action=action, seat=mover).exists()
    record = list(Move.objects.filter(match=match).order_by("index").values_list("action", flat=True))
    replayed = get_game("game-of-god").replay(2, fresh(match.pk).options, record)
    assert replayed.view(None) == state_cache.load(fresh(match.pk)).view(None)
    assert replayed.view(None)["pieces_per_player"] == [4, 4]


@pytest.mark.parametrize(
    "mutate, code",
    [
        (lambda m, mover, other, action: dict(user=mover, action=action, version=m.version - 1), "stale"),
        (lambda m, mover, other, action: dict(user=other, action=action, version=m.version), "not_your_turn"),
        (lambda m, mover, other, action: dict(user=mover, action="move:a1-z9", version=m.version), "illegal"),
        (lambda m, mover, other, action: dict(user=mover, action=None, version=m.version), "bad_request"),
        (lambda m, mover, other, action: dict(user=mover, action=action, version="7"), "bad_request"),
    ],
)
def test_refused_actions_get_their_code_and_change_nothing(alice, bob, mutate, code):
    match = start_two_player("game-of-god", alice, bob)
    mover, other = (alice, bob) if match.to_move == 0 else (bob, alice)
    action = state_cache.load(match).legal_actions()[0]
    moves_before = match.moves.count()
    with pytest.raises(MatchError) as err:
        services.match_act(match_id=match.pk, **mutate(match, mover, other, action))
    assert err.value.code == code
    assert err.value.message
    after = fresh(match.pk)
    assert (after.version, after.moves.count()) == (match.version, moves_before)


def test_people_without_a_seat_cannot_act(alice, bob, make_user):
    match = start_two_player("game-of-god", alice, bob)
    action = state_cache.load(match).legal_actions()[0]
    from django.contrib.auth.models import AnonymousUser

    for user in (make_user("eve"), AnonymousUser()):
        with pytest.raises(MatchError) as err:
            services.match_act(match_id=match.pk, user=user, action=action, version=match.version)
        assert err.value.code == "not_seated"


def test_the_same_action_sent_twice_is_applied_once(alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    action = state_cache.load(match).legal_actions()[0]
    services.match_act(match_id=match.pk, user=mover, action=action, version=match.version)
    with pytest.raises(MatchError) as err:
        services.match_act(match_id=match.pk, user=mover, action=action, version=match.version)
    assert err.value.code == "stale"
    assert fresh(match.pk).moves.filter(action=action).count() == 1


def test_invite_only_matches_need_the_token(alice, bob):
    match = services.match_create(user=alice, game="game-of-god", num_players=2, visibility="invite")
    with pytest.raises(MatchError) as err:
        services.match_join(match_id=match.pk, user=bob)
    assert err.value.code == "forbidden"
    assert fresh(match.pk).status == Match.Status.OPEN
    services.match_join(match_id=match.pk, user=bob, token=match.invite_token)
    assert fresh(match.pk).status == Match.Status.ACTIVE


def test_two_people_play_a_whole_match_and_the_result_is_recorded(alice, bob):
    match = start_two_player("territories", alice, bob)  # some 40 moves at random
    rng = random.Random(4)
    while play_turn(match.pk, {0: alice, 1: bob}, rng):
        pass
    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED and match.finished_at
    seats = list(match.seats.order_by("index"))
    state = state_cache.replay(match)
    assert [s.place for s in seats] == state.ranking()
    assert [s.score for s in seats] == state.scores()
    with pytest.raises(MatchError) as err:
        services.match_act(match_id=match.pk, user=alice, action="pass", version=match.version)
    assert err.value.code == "finished"


def test_the_random_bot_plays_its_seat_to_the_end(alice):
    match = services.match_create(user=alice, game="dice-territory", num_players=3)
    services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    rng = random.Random(1)

    def finished():
        play_turn(match.pk, {0: alice}, rng)
        return fresh(match.pk).status == Match.Status.FINISHED

    wait_for(finished, timeout=120, interval=0.01, message="the match to finish")
    match = fresh(match.pk)
    bot_moves = match.moves.filter(seat__in=[1, 2]).count()
    assert bot_moves > 10
    assert sorted(s.place for s in match.seats.all())[0] == 1


def test_only_the_creator_seats_bots(alice, bob):
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    with pytest.raises(MatchError) as err:
        services.match_seat_bot(match_id=match.pk, user=bob, bot="random")
    assert err.value.code == "forbidden"
    with pytest.raises(MatchError, match="no bot"):
        services.match_seat_bot(match_id=match.pk, user=alice, bot="deep-blue")
    assert fresh(match.pk).status == Match.Status.OPEN


def _expire(match):
    Match.objects.filter(pk=match.pk).update(deadline=timezone.now() - timedelta(seconds=1))
    return fresh(match.pk)


def test_running_out_of_time_in_a_two_player_game_loses_it(alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    late = match.to_move
    match = _expire(match)
    assert services.match_timeout(match_id=match.pk, version=match.version)
    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED and match.end_reason == "time out"
    places = {s.index: s.place for s in match.seats.all()}
    assert places[late] == 2 and places[1 - late] == 1
    assert match.seats.get(index=late).timed_out
    # A second delivery of the same timeout changes nothing.
    assert not services.match_timeout(match_id=match.pk, version=match.version - 1)


def test_running_out_of_time_in_a_four_player_game_hands_the_seat_to_a_bot(alice, bob, make_user):
    carol, dave = make_user("carol"), make_user("dave")
    users = [alice, bob, carol, dave]
    match = services.match_create(user=alice, game="gp02a", num_players=4)
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    match = fresh(match.pk)
    late = match.to_move
    match = _expire(match)
    services.match_check_clock(match=match)  # a read notices the clock ran out
    seat = fresh(match.pk).seats.get(index=late)
    assert seat.timed_out and seat.bot_takeover == "random"
    rng = random.Random(2)
    people = {i: u for i, u in enumerate(users) if i != late}

    def finished():
        play_turn(match.pk, people, rng)
        return fresh(match.pk).status == Match.Status.FINISHED

    wait_for(finished, timeout=120, interval=0.01, message="the match to finish")
    match = fresh(match.pk)
    places = {s.index: s.place for s in match.seats.all()}
    assert places[late] == 4, "the player who ran out of time is ranked last"
    assert sorted(p for i, p in places.items() if i != late)[0] == 1


def test_enforce_clocks_forfeits_every_expired_seat(alice, bob):
    from games.tasks import enforce_clocks

    match = _expire(start_two_player("game-of-god", alice, bob))
    assert enforce_clocks() == 1
    assert fresh(match.pk).status == Match.Status.FINISHED


def test_resigning_a_two_player_game_gives_the_other_player_the_win(alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    services.match_resign(match_id=match.pk, user=alice)
    match = fresh(match.pk)
    assert match.status == Match.Status.FINISHED and match.end_reason == "resignation"
    assert {s.user.username: s.place for s in match.seats.all()} == {"alice": 2, "bob": 1}


def test_a_match_can_be_aborted_before_the_first_move_only(alice, bob):
    match = start_two_player("game-of-god", alice, bob)
    services.match_abort(match_id=match.pk, user=alice)
    assert fresh(match.pk).status == Match.Status.ABORTED

    match = start_two_player("game-of-god", alice, bob)
    play_turn(match.pk, {0: alice, 1: bob}, random.Random(0))
    with pytest.raises(MatchError, match="no longer be aborted"):
        services.match_abort(match_id=match.pk, user=alice)
    assert fresh(match.pk).status == Match.Status.ACTIVE


def test_chat_is_stored_length_limited_and_needs_a_login(alice, bob):
    from django.contrib.auth.models import AnonymousUser

    match = start_two_player("game-of-god", alice, bob)
    message = services.chat_post(match_id=match.pk, user=alice, text="  good luck <b>!</b> ")
    assert message.text == "good luck <b>!</b>"
    with pytest.raises(MatchError):
        services.chat_post(match_id=match.pk, user=alice, text="x" * 501)
    with pytest.raises(MatchError):
        services.chat_post(match_id=match.pk, user=alice, text="   ")
    with pytest.raises(MatchError):
        services.chat_post(match_id=match.pk, user=AnonymousUser(), text="hi")
    assert match.chat_messages.count() == 1


def test_every_finished_match_replays_from_its_moves_to_its_snapshot(alice, bob):
    # Short games here: every game's finished matches replay in tests/games/test_records_round_trip.py.
    rng = random.Random(9)
    for slug in ("territories", "territories"):
        match = start_two_player(slug, alice, bob)
        while play_turn(match.pk, {0: alice, 1: bob}, rng):
            pass
    finished = Match.objects.filter(status=Match.Status.FINISHED)
    assert finished.count() == 2
    for match in finished:
        actions = list(match.moves.order_by("index").values_list("action", flat=True))
        state = get_game(match.game).replay(match.num_players, match.options, actions)
        assert state.view(None) == match.snapshot
        assert [s.place for s in match.seats.order_by("index")] == state.ranking()


def test_a_bot_move_whose_task_was_lost_is_queued_again_by_the_clock_check(alice, monkeypatch):
    from games import tasks

    monkeypatch.setattr(tasks, "schedule_bot", lambda match_id, version: None)  # the task is lost
    match = services.match_create(user=alice, game="game-of-god", num_players=2)
    services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    match = fresh(match.pk)
    while match.to_move == 0:  # let alice move until the bot is to move
        play_turn(match.pk, {0: alice}, random.Random(1))
        match = fresh(match.pk)
    stuck_version = match.version
    assert match.to_move == 1 and match.deadline is None
    monkeypatch.undo()
    tasks.enforce_clocks()
    assert fresh(match.pk).version == stuck_version, "a bot that has only just become due is left alone"
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(minutes=2))
    tasks.enforce_clocks()
    wait_for(lambda: fresh(match.pk).version > stuck_version, message="the bot to move again")
    assert fresh(match.pk).moves.filter(seat=1).exists()
