"""Takebacks in casual matches (games.services.takebacks): a player asks to take back their last move,
the others accept or decline; never in a rated match, never across chance, never once
another player has moved. An accepted takeback rebuilds the position from the remaining
moves under a NEW version, so every stale move or bot task is refused or does nothing."""

import json
import random
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import services, state_cache, tasks
from games.engines import CHANCE, get_game
from games.models import ChatMessage, Match
from games.services import MatchError
from games.services.takebacks import takeback_answer, takeback_request

from .helpers import fresh, replay_frames, start_two_player

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def carol(make_user):
    return make_user("carol")


def stored(match) -> list[tuple[int | None, str]]:
    return list(match.moves.order_by("index").values_list("seat", "action"))


def move(match_id: int, users: dict, rng: random.Random) -> Match:
    """The person to move plays a random legal action; the match as it then is."""
    match = fresh(match_id)
    state = state_cache.load(match)
    services.match_act(
        match_id=match_id, user=users[match.to_move], action=rng.choice(state.legal_actions()), version=match.version
    )
    return fresh(match_id)


def play_until(match_id: int, users: dict, rng: random.Random, done) -> Match:
    """Random moves until ``done(match, moves)`` holds (checked before each move too)."""
    for _ in range(400):
        match = fresh(match_id)
        if done(match, stored(match)):
            return match
        assert match.status == Match.Status.ACTIVE, "the match ended before the position was reached"
        move(match_id, users, rng)
    raise AssertionError("position never reached")


def last_is_a_persons(match, moves) -> bool:
    return moves[-1][0] is not None


def casual_for_three(game: str, alice, bob, carol) -> tuple[Match, dict]:
    match = services.match_create(user=alice, game=game, num_players=3, rated=False)
    services.match_join(match_id=match.pk, user=bob)
    services.match_join(match_id=match.pk, user=carol)
    return fresh(match.pk), {0: alice, 1: bob, 2: carol}


def casual_territories(alice, bob, **kwargs) -> tuple[Match, dict]:
    match = start_two_player("territories", alice, bob, rated=False, **kwargs)
    return match, {0: alice, 1: bob}


def handed_over(match, moves) -> bool:
    """A person has just moved and the turn has passed to the other player."""
    return moves[-1][0] not in (None, match.to_move)


def just_moved(alice, bob, seed: int) -> tuple[Match, dict, int]:
    """A casual Territories match whose last move is a person's, the other now to move; and
    that mover's seat."""
    match, users = casual_territories(alice, bob)
    match = play_until(match.pk, users, random.Random(seed), handed_over)
    return match, users, stored(match)[-1][0]


def refused(code: str, call, **kwargs) -> MatchError:
    with pytest.raises(MatchError) as info:
        call(**kwargs)
    assert info.value.code == code, info.value.message
    return info.value


def unchanged(match: Match) -> None:
    """A refusal changed nothing: same version, same moves, no request stored."""
    now = fresh(match.pk)
    assert now.version == match.version
    assert stored(now) == stored(match)


def trailing_run(moves, seat) -> int:
    """The index of the first of ``seat``'s actions at the end of ``moves``."""
    first = len(moves)
    while first and moves[first - 1][0] == seat:
        first -= 1
    return first


# -- accepted --------------------------------------------------------------------------------


def test_an_accepted_takeback_removes_the_move_and_rebuilds_the_position_under_a_new_version(alice, bob):
    match, users = casual_territories(alice, bob, speed="live", seconds_per_move=90)
    match = play_until(match.pk, users, random.Random(3), lambda m, moves: sum(s is not None for s, _ in moves) >= 4)
    before = stored(match)
    seat = before[-1][0]
    asker, other = users[seat], users[1 - seat]

    asked = takeback_request(match_id=match.pk, user=asker, version=match.version)
    assert asked.outcome == "asked"
    waiting = fresh(match.pk)
    assert waiting.version == match.version, "asking changes no position"
    assert stored(waiting) == before

    later = timezone.now()
    result = takeback_answer(match_id=match.pk, user=other, accept=True, version=match.version)
    assert result.outcome == "taken_back"
    after = fresh(match.pk)
    remaining = before[: trailing_run(before, seat)]
    assert stored(after) == remaining and len(remaining) < len(before)
    assert after.version == match.version + 1, "the version moves forward, never back"
    assert after.rewound_version == after.version
    fresh_replay = get_game("territories").replay(2, after.options, [a for _, a in remaining])
    assert state_cache.load(after).view(None) == fresh_replay.view(None) == after.snapshot
    assert after.to_move == seat == fresh_replay.current_player()
    assert later + timedelta(seconds=89) < after.deadline <= timezone.now() + timedelta(seconds=90)
    assert after.takeback is None
    notice = ChatMessage.objects.get(match=after, user__isnull=True)
    assert "took back their" in notice.text and "agreed by" in notice.text


def test_a_move_sent_for_the_position_before_the_takeback_is_refused_as_stale(alice, bob):
    match, users, seat = just_moved(alice, bob, 5)
    state = state_cache.load(match)
    takeback_request(match_id=match.pk, user=users[seat], version=match.version)
    takeback_answer(match_id=match.pk, user=users[1 - seat], accept=True, version=match.version)
    # The opponent's move on the old position, sent while the takeback went through.
    refused(
        "stale",
        services.match_act,
        match_id=match.pk,
        user=users[1 - seat],
        action=state.legal_actions()[0],
        version=match.version,
    )
    after = fresh(match.pk)
    # The player who took back moves again on the new version.
    rebuilt = state_cache.load(after)
    services.match_act(match_id=match.pk, user=users[seat], action=rebuilt.legal_actions()[0], version=after.version)
    assert fresh(match.pk).version == after.version + 1


def test_a_process_that_remembers_the_position_before_the_takeback_replays_instead_of_appending(alice, bob):
    match, users = casual_territories(alice, bob)
    match = play_until(match.pk, users, random.Random(8), lambda m, moves: sum(s is not None for s, _ in moves) >= 3)
    seat = stored(match)[-1][0]
    old_state = state_cache.load(match)
    takeback_request(match_id=match.pk, user=users[seat], version=match.version)
    takeback_answer(match_id=match.pk, user=users[1 - seat], accept=True, version=match.version)
    after = fresh(match.pk)
    # Another process knew the match at the version before the takeback, with more moves.
    state_cache.forget_all()
    state_cache.remember(match.pk, match.version, old_state)
    loaded = state_cache.load(after)
    assert loaded.history == [a for _, a in stored(after)]
    assert len(loaded.history) < len(old_state.history)


def test_bots_accept_at_once_in_untimed_practice_and_their_stale_move_does_nothing(alice, monkeypatch):
    queued = []
    monkeypatch.setattr(tasks, "schedule_bot", lambda match_id, version: queued.append((match_id, version)))
    match = services.match_create(user=alice, game="territories", num_players=2, rated=False, speed="untimed")
    services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    match = fresh(match.pk)
    rng = random.Random(2)
    alice_seat = match.seats.get(user=alice).index
    for _ in range(200):  # alice moves; the bot's moves are played by hand, as its task would
        match = fresh(match.pk)
        if match.to_move != alice_seat:
            tasks.bot_act(match.pk, match.version)
            continue
        match = move(match.pk, {alice_seat: alice}, rng)
        if match.to_move != alice_seat:
            break
    assert queued[-1] == (match.pk, match.version), "the bot's move is queued for this version"
    before = stored(match)

    result = takeback_request(match_id=match.pk, user=alice, version=match.version)
    assert result.outcome == "taken_back", "the bot accepts at once"
    after = fresh(match.pk)
    assert after.to_move == alice_seat and len(stored(after)) < len(before)
    assert tasks.bot_act(match.pk, match.version) is None, "the task for the old version does nothing"
    assert stored(fresh(match.pk)) == stored(after)


def test_in_a_timed_match_bots_decline_a_takeback(alice, monkeypatch):
    monkeypatch.setattr(tasks, "schedule_bot", lambda match_id, version: None)  # the bot thinks long
    match = services.match_create(user=alice, game="territories", num_players=2, rated=False, speed="live")
    services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    match = fresh(match.pk)
    alice_seat = match.seats.get(user=alice).index
    if match.to_move != alice_seat:
        tasks.bot_act(match.pk, match.version)
    match = move(match.pk, {alice_seat: alice}, random.Random(1))
    error = refused("bots_decline", takeback_request, match_id=match.pk, user=alice, version=match.version)
    assert "untimed practice" in error.message
    unchanged(match)


def test_in_a_three_player_match_every_other_person_must_accept(alice, bob, carol):
    match, users = casual_for_three("gp02a", alice, bob, carol)
    match = play_until(match.pk, users, random.Random(4), last_is_a_persons)
    before = stored(match)
    seat = before[-1][0]
    first, second = [users[i] for i in range(3) if i != seat]

    takeback_request(match_id=match.pk, user=users[seat], version=match.version)
    assert takeback_answer(match_id=match.pk, user=first, accept=True, version=match.version).outcome == "accepted"
    assert stored(fresh(match.pk)) == before, "one acceptance of two is not enough"
    refused("pending", takeback_answer, match_id=match.pk, user=first, accept=True, version=match.version)
    assert takeback_answer(match_id=match.pk, user=second, accept=True, version=match.version).outcome == "taken_back"
    assert stored(fresh(match.pk)) == before[: trailing_run(before, seat)]


def test_one_decline_ends_the_request_and_it_cannot_be_asked_again_for_that_move(alice, bob, carol):
    match, users = casual_for_three("gp02a", alice, bob, carol)
    match = play_until(match.pk, users, random.Random(6), last_is_a_persons)
    seat = stored(match)[-1][0]
    first, second = [users[i] for i in range(3) if i != seat]
    takeback_request(match_id=match.pk, user=users[seat], version=match.version)
    assert takeback_answer(match_id=match.pk, user=first, accept=False, version=match.version).outcome == "declined"
    refused("no_request", takeback_answer, match_id=match.pk, user=second, accept=True, version=match.version)
    refused("declined", takeback_request, match_id=match.pk, user=users[seat], version=match.version)
    unchanged(match)
    payload = json.loads(json.dumps(fresh(match.pk).takeback))
    assert payload["declined_by"] == [i for i in range(3) if i != seat][0]


# -- refused ---------------------------------------------------------------------------------


def test_a_rated_match_never_takes_a_move_back(alice, bob):
    match = start_two_player("territories", alice, bob)  # rated
    users = {0: alice, 1: bob}
    match = play_until(match.pk, users, random.Random(1), last_is_a_persons)
    error = refused(
        "rated", takeback_request, match_id=match.pk, user=users[stored(match)[-1][0]], version=match.version
    )
    assert "rated" in error.message
    unchanged(match)


def test_a_finished_match_takes_nothing_back(alice, bob):
    match, users = casual_territories(alice, bob)
    match = play_until(match.pk, users, random.Random(1), last_is_a_persons)
    seat = stored(match)[-1][0]
    services.match_resign(match_id=match.pk, user=users[1 - seat])
    match = fresh(match.pk)
    refused("finished", takeback_request, match_id=match.pk, user=users[seat], version=match.version)
    unchanged(match)


def test_before_anybody_moved_there_is_nothing_to_take_back(alice, bob):
    match, users = casual_territories(alice, bob)
    refused(
        "nothing_to_take_back", takeback_request, match_id=match.pk, user=users[match.to_move], version=match.version
    )
    unchanged(match)


def test_only_the_player_who_moved_may_ask(alice, bob):
    match, users = casual_territories(alice, bob)
    first = match.to_move
    match = move(match.pk, users, random.Random(1))
    error = refused("not_yours", takeback_request, match_id=match.pk, user=users[1 - first], version=match.version)
    assert "only the player who made a move" in error.message
    unchanged(match)


def test_a_move_answered_by_another_player_can_no_longer_be_taken_back(alice, bob):
    match, users = casual_territories(alice, bob)
    first = match.to_move
    rng = random.Random(1)
    match = play_until(match.pk, users, rng, lambda m, moves: m.to_move != first)
    match = move(match.pk, users, rng)  # the other player answers
    error = refused("moved_since", takeback_request, match_id=match.pk, user=users[first], version=match.version)
    assert "moved since" in error.message
    unchanged(match)


def test_a_move_followed_by_chance_is_never_taken_back(alice, bob, carol):
    match, users = casual_for_three("dice-territory", alice, bob, carol)
    # A roll: the player's action, then the dice the server drew for it.
    match = play_until(
        match.pk, users, random.Random(2), lambda m, moves: moves[-1][0] is None and moves[-2][0] is not None
    )
    roller = stored(match)[-2][0]
    error = refused("chance", takeback_request, match_id=match.pk, user=users[roller], version=match.version)
    assert "nothing random is drawn again" in error.message
    unchanged(match)


def test_one_request_at_a_time_and_a_move_lapses_it(alice, bob):
    match, users, seat = just_moved(alice, bob, 9)
    takeback_request(match_id=match.pk, user=users[seat], version=match.version)
    refused("pending", takeback_request, match_id=match.pk, user=users[seat], version=match.version)
    refused("not_yours", takeback_answer, match_id=match.pk, user=users[seat], accept=True, version=match.version)
    # The other player moves instead of answering: the request lapses.
    moved = move(match.pk, users, random.Random(1))
    error = refused(
        "no_request", takeback_answer, match_id=match.pk, user=users[1 - seat], accept=True, version=moved.version
    )
    assert "lapsed" in error.message
    assert fresh(match.pk).version == moved.version
    snapshot = APIClient().get(f"/api/matches/{match.pk}/").json()
    assert snapshot["takeback"] is None


def test_spectators_and_bad_input_are_refused_with_a_reason(alice, bob, carol):
    match, users = casual_territories(alice, bob)
    match = play_until(match.pk, users, random.Random(1), last_is_a_persons)
    seat = stored(match)[-1][0]
    refused("not_seated", takeback_request, match_id=match.pk, user=carol, version=match.version)
    refused("bad_request", takeback_request, match_id=match.pk, user=users[seat], version="7")
    refused("stale", takeback_request, match_id=match.pk, user=users[seat], version=match.version - 1)
    refused("not_found", takeback_request, match_id=10**9, user=users[seat], version=1)
    takeback_request(match_id=match.pk, user=users[seat], version=match.version)
    refused("not_seated", takeback_answer, match_id=match.pk, user=carol, accept=True, version=match.version)
    refused(
        "bad_request", takeback_answer, match_id=match.pk, user=users[1 - seat], accept="yes", version=match.version
    )
    unchanged(match)


# -- what everyone reads afterwards ----------------------------------------------------------


def test_the_move_list_and_the_downloaded_record_no_longer_show_a_move_taken_back(client, alice, bob):
    match, users = casual_territories(alice, bob)
    rng = random.Random(11)
    match = play_until(match.pk, users, rng, lambda m, moves: sum(s is not None for s, _ in moves) >= 3)
    seat = stored(match)[-1][0]
    takeback_request(match_id=match.pk, user=users[seat], version=match.version)
    takeback_answer(match_id=match.pk, user=users[1 - seat], accept=True, version=match.version)
    kept = stored(fresh(match.pk))
    listed = APIClient().get(f"/api/matches/{match.pk}/moves/").json()["results"]
    assert [(row["seat"], row["action"]) for row in listed] == kept
    while fresh(match.pk).status == Match.Status.ACTIVE:
        move(match.pk, users, rng)
    record = json.loads(client.get(f"/matches/{match.pk}/record.json").content)
    assert record["actions"] == [a for _, a in stored(fresh(match.pk))]
    frames = replay_frames(client.get(f"/matches/{match.pk}/replay.json").json())
    assert len(frames) == len(record["actions"]) + 1
    assert get_game("territories").replay(2, record["options"], record["actions"]).current_player() != CHANCE


def test_the_api_asks_and_answers_with_the_sockets_codes(alice, bob):
    match, users, seat = just_moved(alice, bob, 1)
    before = stored(match)
    asker, other = APIClient(), APIClient()
    asker.force_authenticate(users[seat])
    other.force_authenticate(users[1 - seat])
    url = f"/api/matches/{match.pk}/takeback/"

    wrong = other.post(url, {"version": match.version}, format="json")
    assert wrong.status_code == 403 and wrong.json()["code"] == "not_yours"
    bad = asker.post(url, {"version": "soon"}, format="json")
    assert bad.status_code == 400 and bad.json()["code"] == "bad_request"
    asked = asker.post(url, {"version": match.version}, format="json")
    assert asked.status_code == 200
    assert asked.json()["takeback"] == {"seat": seat, "accepted": [], "waiting": [1 - seat], "declined_by": None}
    again = asker.post(url, {"version": match.version}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "pending"
    answered = other.post(url + "answer/", {"accept": True, "version": match.version}, format="json")
    assert answered.status_code == 200
    body = answered.json()
    assert body["version"] == match.version + 1 and body["takeback"] is None
    assert body["moves"] == len(stored(fresh(match.pk))) < len(before)
    late = other.post(url + "answer/", {"accept": True, "version": body["version"]}, format="json")
    assert late.status_code == 409 and late.json()["code"] == "no_request"
