"""Challenges: from a player's page, ask them to play a match on chosen terms; they accept
(the match starts and both land on it) or decline; the challenger may withdraw; a day later
an unanswered challenge expires."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from challenges import services
from challenges.models import Challenge
from challenges.services import ChallengeError
from challenges.signals import challenge_received
from games.models import Match
from games.services import MatchError, bot_account

pytestmark = pytest.mark.django_db

TERMS = {"game": "game-of-god", "num_players": 2, "rated": True, "speed": "live", "seconds_per_move": 30}


def challenge(by, to, **terms):
    return services.challenge_create(user=by, to=to, **{**TERMS, **terms})


def test_an_accepted_challenge_starts_the_match_on_its_terms_with_both_seated(alice, bob):
    sent = challenge(alice, bob, game="chit-territory", speed="correspondence", days_per_move=7, seconds_per_move=None)
    assert sent.state == "pending" and sent.match is None

    accepted = services.challenge_accept(challenge_id=sent.pk, user=bob)

    match = accepted.match
    assert accepted.state == "accepted"
    assert match.status == Match.Status.ACTIVE
    assert (match.game, match.speed, match.seconds_per_move, match.rated) == (
        "chit-territory",
        "correspondence",
        7 * 86400,
        True,
    )
    assert list(match.seats.order_by("index").values_list("user_id", flat=True)) == [alice.pk, bob.pk]


def test_a_larger_game_keeps_its_other_seats_open_for_the_challenger_to_fill(alice, bob):
    sent = challenge(alice, bob, game="dice-territory", num_players=3)
    match = services.challenge_accept(challenge_id=sent.pk, user=bob).match
    assert match.status == Match.Status.OPEN and match.creator == alice
    assert list(match.seats.order_by("index").values_list("user_id", flat=True)) == [alice.pk, bob.pk, None]


def test_the_terms_follow_the_rules_of_any_match(alice, bob):
    with pytest.raises(MatchError, match="Untimed practice is casual"):
        challenge(alice, bob, speed="untimed", rated=True)
    with pytest.raises(MatchError, match="played by"):
        challenge(alice, bob, game="territories", num_players=3)
    with pytest.raises(MatchError, match="no game called"):
        challenge(alice, bob, game="chess")
    assert not Challenge.objects.exists()


def test_nobody_challenges_themselves(alice):
    with pytest.raises(ChallengeError, match="cannot challenge yourself"):
        challenge(alice, alice)


def test_challenging_a_bot_is_a_match_against_the_computer_at_once(alice):
    bot = bot_account("greedy")
    sent = challenge(alice, bot, game="dice-territory", num_players=3, rated=False, speed="untimed")
    assert sent.state == "accepted"
    match = sent.match
    assert match.status == Match.Status.ACTIVE
    assert list(match.seats.order_by("index").values_list("user_id", flat=True)) == [alice.pk, bot.pk, bot.pk]


def test_a_person_has_at_most_ten_challenges_waiting(alice, make_user, settings):
    settings.MAX_PENDING_CHALLENGES_PER_PERSON = 10
    for _ in range(10):
        challenge(alice, make_user())
    with pytest.raises(ChallengeError) as refused:
        challenge(alice, make_user())
    assert refused.value.code == "too_many_pending"
    assert "10 challenges waiting" in refused.value.message
    # An answer frees a place.
    services.challenge_cancel(challenge_id=Challenge.objects.first().pk, user=alice)
    assert challenge(alice, make_user()).state == "pending"


def test_one_challenge_waits_per_opponent(alice, bob):
    challenge(alice, bob)
    with pytest.raises(ChallengeError) as refused:
        challenge(alice, bob, game="territories")
    assert refused.value.code == "already_pending"
    assert challenge(bob, alice).state == "pending"  # the other way round is another challenge


def test_decline_and_withdraw_are_each_for_one_side(alice, bob):
    sent = challenge(alice, bob)
    with pytest.raises(ChallengeError) as refused:
        services.challenge_accept(challenge_id=sent.pk, user=alice)
    assert refused.value.code == "forbidden"
    with pytest.raises(ChallengeError) as refused:
        services.challenge_cancel(challenge_id=sent.pk, user=bob)
    assert refused.value.code == "forbidden"
    assert services.challenge_decline(challenge_id=sent.pk, user=bob).state == "declined"
    with pytest.raises(ChallengeError) as refused:
        services.challenge_accept(challenge_id=sent.pk, user=bob)
    assert refused.value.code == "closed" and "declined" in refused.value.message

    withdrawn = challenge(alice, bob)
    assert services.challenge_cancel(challenge_id=withdrawn.pk, user=alice).state == "cancelled"
    with pytest.raises(ChallengeError, match="withdrawn"):
        services.challenge_accept(challenge_id=withdrawn.pk, user=bob)


def test_a_stranger_cannot_even_see_a_challenge(alice, bob, make_user):
    sent = challenge(alice, bob)
    with pytest.raises(ChallengeError) as refused:
        services.challenge_accept(challenge_id=sent.pk, user=make_user())
    assert refused.value.code == "not_found"


def test_accepting_twice_makes_one_match(alice, bob):
    sent = challenge(alice, bob)
    services.challenge_accept(challenge_id=sent.pk, user=bob)
    with pytest.raises(ChallengeError) as refused:
        services.challenge_accept(challenge_id=sent.pk, user=bob)
    assert refused.value.code == "closed" and "accepted already" in refused.value.message
    assert Match.objects.filter(creator=alice).count() == 1


def test_accepting_after_a_day_is_refused_and_the_challenge_is_expired(alice, bob):
    sent = challenge(alice, bob)
    Challenge.objects.filter(pk=sent.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ChallengeError, match="expired"):
        services.challenge_accept(challenge_id=sent.pk, user=bob)
    sent.refresh_from_db()
    assert sent.state == "expired" and not Match.objects.exists()


def test_the_periodic_sweep_expires_challenges_left_a_day(alice, bob, make_user):
    old = challenge(alice, bob)
    new = challenge(alice, make_user())
    Challenge.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=1, minutes=1))
    Challenge.objects.filter(pk=old.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    call_command("run_clocks", "--once")
    old.refresh_from_db()
    new.refresh_from_db()
    assert (old.state, new.state) == ("expired", "pending")


def test_the_player_challenged_is_signalled_once_the_challenge_is_committed(
    alice, bob, django_capture_on_commit_callbacks
):
    received = []

    def receiver(sender, **kwargs):
        received.append(kwargs)

    challenge_received.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            sent = challenge(alice, bob)
            assert received == []
    finally:
        challenge_received.disconnect(receiver)
    from portal.phrases import say_in_english

    (told,) = received
    words = told.pop("phrase")
    assert told == {"signal": challenge_received, "challenge_id": sent.pk, "user_id": bob.pk, "url": "/challenges/"}
    assert say_in_english(words) == "alice challenges you to Game of God (2 players, live, 30 s a move, rated)."


# -- the pages -------------------------------------------------------------------------


def test_a_players_page_offers_the_challenge_form_to_others_only(client, alice, bob):
    assert "Sign in</a> to challenge bob" in client.get("/players/bob/").content.decode()
    client.force_login(alice)
    body = client.get("/players/bob/").content.decode()
    assert "Challenge bob" in body and 'action="/players/bob/challenge/"' in body
    body = client.get("/players/alice/").content.decode()
    assert "Challenge alice" not in body


def test_challenging_from_the_form_then_accepting_from_the_lobby(client, alice, bob):
    client.force_login(alice)
    response = client.post(
        "/players/bob/challenge/", {"game": "territories", "num_players": "2", "time_control": "live-90", "rated": "on"}
    )
    assert response.status_code == 302 and response.url == "/challenges/"
    sent = Challenge.objects.get()
    assert (sent.game, sent.seconds_per_move, sent.rated) == ("territories", 90, True)
    assert "waiting for an answer" in client.get("/challenges/").content.decode()

    client.force_login(bob)
    lobby = client.get("/play/").content.decode()
    assert "Challenges for you" in lobby and f"/challenges/{sent.pk}/accept/" in lobby
    response = client.post(f"/challenges/{sent.pk}/accept/")
    sent.refresh_from_db()
    assert response.status_code == 302 and response.url == sent.match.get_absolute_url()


def test_a_wrong_form_says_what_is_wrong_and_sends_nothing(client, alice, bob):
    client.force_login(alice)
    response = client.post(
        "/players/bob/challenge/", {"game": "territories", "num_players": "2", "time_control": "untimed", "rated": "on"}
    )
    assert response.status_code == 200
    assert "Untimed practice is casual" in response.content.decode()
    assert not Challenge.objects.exists()


def test_the_limit_is_explained_on_the_form(client, alice, make_user, settings):
    settings.MAX_PENDING_CHALLENGES_PER_PERSON = 1
    challenge(alice, make_user("first"))
    make_user("second")
    client.force_login(alice)
    response = client.post(
        "/players/second/challenge/", {"game": "territories", "num_players": "2", "time_control": "live-90"}
    )
    assert "You already have 1 challenges waiting" in response.content.decode()


def test_declining_and_withdrawing_from_the_challenges_page(client, alice, bob):
    sent = challenge(alice, bob)
    client.force_login(bob)
    assert "alice</a> challenges you" in client.get("/challenges/").content.decode()
    client.post(f"/challenges/{sent.pk}/decline/")
    sent.refresh_from_db()
    assert sent.state == "declined"
    client.force_login(alice)
    body = client.get("/challenges/").content.decode()
    assert "declined" in body
    again = challenge(alice, bob)
    client.post(f"/challenges/{again.pk}/cancel/")
    again.refresh_from_db()
    assert again.state == "cancelled"


def test_challenging_a_bot_from_its_page_lands_on_the_match_against_it(client, alice):
    bot = bot_account("greedy")
    client.force_login(alice)
    body = client.get(f"/players/{bot.username}/").content.decode()
    assert f"Play against {bot.username}" in body and "Play now" in body
    response = client.post(
        f"/players/{bot.username}/challenge/", {"game": "territories", "num_players": "2", "time_control": "untimed"}
    )
    match = Challenge.objects.get().match
    assert response.status_code == 302 and response.url == match.get_absolute_url()
    assert match.status == Match.Status.ACTIVE and not match.rated
