"""A rematch: a player of a finished match offers the same match again; the others accept or
decline; when everyone asked has accepted, it starts with the seats moved round by one."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from challenges import services
from challenges.models import RematchAnswer, RematchOffer
from challenges.services import ChallengeError
from challenges.signals import rematch_offered
from games import services as match_services
from games.models import Match

from .helpers import finished_against_bot, finished_three_player, finished_two_player

pytestmark = pytest.mark.django_db


def seat_users(match):
    return list(match.seats.order_by("index").values_list("user_id", flat=True))


@pytest.fixture
def offers_sent():
    received = []

    def receiver(sender, **kwargs):
        received.append(kwargs)

    rematch_offered.connect(receiver)
    yield received
    rematch_offered.disconnect(receiver)


def test_an_accepted_rematch_is_the_same_match_with_the_seats_swapped(alice, bob):
    original = finished_two_player(alice, bob, options={}, speed="correspondence", days_per_move=3)
    offer = services.rematch_offer(match_id=original.pk, user=bob)
    assert offer.state == "pending" and offer.new_match is None

    offer = services.rematch_answer(offer_id=offer.pk, user=alice, accept=True)

    assert offer.state == "accepted"
    rematch = Match.objects.get(pk=offer.new_match_id)
    assert rematch.status == Match.Status.ACTIVE
    assert (rematch.game, rematch.num_players, rematch.options) == (original.game, 2, original.options)
    assert (rematch.speed, rematch.seconds_per_move, rematch.rated) == ("correspondence", 3 * 86400, True)
    # Alice moved first last time; now Bob does.
    assert seat_users(original) == [alice.pk, bob.pk]
    assert seat_users(rematch) == [bob.pk, alice.pk]
    assert rematch.creator == bob


def test_the_rematch_keeps_the_options_and_a_casual_match_stays_casual(alice, bob):
    original = finished_two_player(alice, bob, game="chit-territory", rated=False, speed="untimed")
    options = original.options
    offer = services.rematch_offer(match_id=original.pk, user=alice)
    offer = services.rematch_answer(offer_id=offer.pk, user=bob, accept=True)
    rematch = offer.new_match
    assert rematch.options == options and not rematch.rated and rematch.speed == "untimed"


def test_a_decline_ends_the_offer_and_makes_no_match(alice, bob):
    original = finished_two_player(alice, bob)
    offer = services.rematch_offer(match_id=original.pk, user=alice)
    matches = Match.objects.count()

    offer = services.rematch_answer(offer_id=offer.pk, user=bob, accept=False)

    assert offer.state == "declined" and offer.new_match is None
    assert Match.objects.count() == matches
    with pytest.raises(ChallengeError) as refused:
        services.rematch_answer(offer_id=offer.pk, user=bob, accept=True)
    assert refused.value.code == "closed" and "declined" in refused.value.message


def test_after_a_decline_a_new_offer_may_be_made(alice, bob):
    original = finished_two_player(alice, bob)
    first = services.rematch_offer(match_id=original.pk, user=alice)
    services.rematch_answer(offer_id=first.pk, user=bob, accept=False)
    second = services.rematch_offer(match_id=original.pk, user=bob)
    assert second.state == "pending" and second.pk != first.pk


def test_bots_accept_at_once_so_a_rematch_against_a_bot_starts_when_offered(alice):
    original = finished_against_bot(alice, bot="greedy")
    offer = services.rematch_offer(match_id=original.pk, user=alice)
    assert offer.state == "accepted"
    rematch = offer.new_match
    assert rematch.status == Match.Status.ACTIVE
    bot_id = seat_users(original)[1]
    assert seat_users(rematch) == [bot_id, alice.pk]  # the bot moves first this time
    assert list(RematchAnswer.objects.filter(offer=offer).values_list("user_id", flat=True)) == [alice.pk]


def test_everyone_asked_must_accept_before_a_three_player_rematch_starts(alice, bob, make_user):
    carol = make_user("carol")
    original = finished_three_player(alice, bob, carol)
    offer = services.rematch_offer(match_id=original.pk, user=carol)
    offer = services.rematch_answer(offer_id=offer.pk, user=alice, accept=True)
    assert offer.state == "pending" and offer.new_match is None

    offer = services.rematch_answer(offer_id=offer.pk, user=bob, accept=True)

    assert offer.state == "accepted"
    assert seat_users(offer.new_match) == [bob.pk, carol.pk, alice.pk]
    assert offer.new_match.status == Match.Status.ACTIVE


def test_accepting_twice_is_refused_and_makes_one_match(alice, bob, make_user):
    carol = make_user("carol")
    original = finished_three_player(alice, bob, carol)
    offer = services.rematch_offer(match_id=original.pk, user=alice)
    services.rematch_answer(offer_id=offer.pk, user=bob, accept=True)
    with pytest.raises(ChallengeError) as refused:
        services.rematch_answer(offer_id=offer.pk, user=bob, accept=True)
    assert refused.value.code == "closed" and "already" in refused.value.message

    two = finished_two_player(alice, bob)
    offer = services.rematch_offer(match_id=two.pk, user=alice)
    services.rematch_answer(offer_id=offer.pk, user=bob, accept=True)
    with pytest.raises(ChallengeError) as refused:
        services.rematch_answer(offer_id=offer.pk, user=bob, accept=True)
    assert refused.value.code == "closed"
    assert RematchOffer.objects.get(pk=offer.pk).new_match_id is not None
    assert Match.objects.filter(creator=alice, game=two.game, status="active").count() == 1


def test_accepting_after_the_offer_expired_is_refused_and_the_offer_is_marked_expired(alice, bob):
    original = finished_two_player(alice, bob)
    offer = services.rematch_offer(match_id=original.pk, user=alice)
    RematchOffer.objects.filter(pk=offer.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    with pytest.raises(ChallengeError) as refused:
        services.rematch_answer(offer_id=offer.pk, user=bob, accept=True)
    assert refused.value.code == "closed" and "expired" in refused.value.message
    offer.refresh_from_db()
    assert offer.state == "expired" and offer.new_match is None


def test_the_periodic_sweep_expires_offers_left_a_day(alice, bob, settings):
    original = finished_two_player(alice, bob)
    offer = services.rematch_offer(match_id=original.pk, user=alice)
    fresh_offer = services.rematch_offer(match_id=finished_two_player(alice, bob).pk, user=bob)
    RematchOffer.objects.filter(pk=offer.pk).update(
        expires_at=timezone.now() - timedelta(hours=settings.REMATCH_OFFER_EXPIRY_HOURS) / 24
    )
    call_command("run_clocks", "--once")
    offer.refresh_from_db()
    fresh_offer.refresh_from_db()
    assert offer.state == "expired" and fresh_offer.state == "pending"
    # An expired offer no longer stands in the way of a new one.
    assert services.rematch_offer(match_id=original.pk, user=bob).state == "pending"


def test_only_the_players_of_a_match_may_offer_a_rematch(alice, bob, make_user):
    original = finished_two_player(alice, bob)
    with pytest.raises(ChallengeError) as refused:
        services.rematch_offer(match_id=original.pk, user=make_user("watcher"))
    assert refused.value.code == "forbidden"
    assert not RematchOffer.objects.exists()


def test_a_spectator_cannot_answer_an_offer(alice, bob, make_user):
    original = finished_two_player(alice, bob)
    offer = services.rematch_offer(match_id=original.pk, user=alice)
    with pytest.raises(ChallengeError) as refused:
        services.rematch_answer(offer_id=offer.pk, user=make_user("watcher"), accept=True)
    assert refused.value.code == "forbidden"
    offer.refresh_from_db()
    assert offer.state == "pending"


def test_a_match_still_being_played_or_called_off_has_no_rematch(alice, bob):
    from tests.games.helpers import start_two_player

    playing = start_two_player("game-of-god", alice, bob)
    with pytest.raises(ChallengeError) as refused:
        services.rematch_offer(match_id=playing.pk, user=alice)
    assert refused.value.code == "not_finished"
    match_services.match_abort(match_id=playing.pk, user=alice)
    with pytest.raises(ChallengeError) as refused:
        services.rematch_offer(match_id=playing.pk, user=alice)
    assert refused.value.code == "not_finished"
    with pytest.raises(ChallengeError) as refused:
        services.rematch_offer(match_id=10**9, user=alice)
    assert refused.value.code == "not_found"


def test_one_offer_waits_at_a_time_and_a_played_rematch_is_not_offered_again(alice, bob):
    original = finished_two_player(alice, bob)
    offer = services.rematch_offer(match_id=original.pk, user=alice)
    with pytest.raises(ChallengeError) as refused:
        services.rematch_offer(match_id=original.pk, user=bob)
    assert refused.value.code == "already_pending"
    services.rematch_answer(offer_id=offer.pk, user=bob, accept=True)
    with pytest.raises(ChallengeError) as refused:
        services.rematch_offer(match_id=original.pk, user=bob)
    assert refused.value.code == "closed"


def test_only_the_person_who_offered_may_withdraw_it(alice, bob):
    offer = services.rematch_offer(match_id=finished_two_player(alice, bob).pk, user=alice)
    with pytest.raises(ChallengeError) as refused:
        services.rematch_cancel(offer_id=offer.pk, user=bob)
    assert refused.value.code == "forbidden"
    assert services.rematch_cancel(offer_id=offer.pk, user=alice).state == "cancelled"
    with pytest.raises(ChallengeError):
        services.rematch_answer(offer_id=offer.pk, user=bob, accept=True)


def test_no_rematch_with_a_player_whose_account_is_closed(alice, bob):
    original = finished_two_player(alice, bob)
    bob.is_active = False
    bob.save()
    with pytest.raises(ChallengeError) as refused:
        services.rematch_offer(match_id=original.pk, user=alice)
    assert refused.value.code == "forbidden" and "bob" in refused.value.message


def test_the_people_asked_are_signalled_once_the_offer_is_committed(
    alice, offers_sent, make_user, django_capture_on_commit_callbacks
):
    carol = make_user("carol")
    match = match_services.match_create(user=alice, game="gp02a", num_players=3, rated=False, speed="untimed")
    match_services.match_join(match_id=match.pk, user=carol)
    match_services.match_seat_bot(match_id=match.pk, user=alice, bot="random")
    match_services.match_resign(match_id=match.pk, user=alice)
    match_services.match_resign(match_id=match.pk, user=carol)

    with django_capture_on_commit_callbacks(execute=True):
        services.rematch_offer(match_id=match.pk, user=alice)
        assert offers_sent == []  # not before the offer is committed

    assert len(offers_sent) == 1
    sent = offers_sent[0]
    assert sent["match_id"] == match.pk
    assert sent["user_ids"] == [carol.pk]  # neither the bot nor the person offering
    from portal.phrases import say_in_english

    assert say_in_english(sent["phrase"]) == f"alice offers a rematch of {match.game_name} #{match.pk}."
    assert sent["url"] == match.get_absolute_url()


def test_no_signal_when_only_bots_are_asked(alice, offers_sent, django_capture_on_commit_callbacks):
    match = finished_against_bot(alice)
    with django_capture_on_commit_callbacks(execute=True):
        services.rematch_offer(match_id=match.pk, user=alice)
    assert offers_sent == []


# -- the pages -------------------------------------------------------------------------


def test_the_finished_match_page_offers_a_rematch_to_its_players_only(client, alice, bob, make_user):
    original = finished_two_player(alice, bob)
    client.force_login(alice)
    body = client.get(original.get_absolute_url()).content.decode()
    assert 'id="rematch"' in body and '"seated": true' in body
    client.force_login(make_user("watcher"))
    body = client.get(original.get_absolute_url()).content.decode()
    assert '"seated": false' in body


def test_offering_and_accepting_through_the_pages_lands_on_the_rematch(client, alice, bob):
    original = finished_two_player(alice, bob)
    client.force_login(bob)
    response = client.post(f"/matches/{original.pk}/rematch/")
    assert response.status_code == 302 and response.url == original.get_absolute_url()
    offer = RematchOffer.objects.get(match=original)

    client.force_login(alice)
    body = client.get(original.get_absolute_url()).content.decode()
    assert f'"id": {offer.pk}' in body and '"state": "pending"' in body
    response = client.post(f"/rematches/{offer.pk}/accept/")
    offer.refresh_from_db()
    assert response.status_code == 302 and response.url == offer.new_match.get_absolute_url()


def test_a_refused_answer_through_the_pages_says_why(client, alice, bob, make_user):
    original = finished_two_player(alice, bob)
    offer = services.rematch_offer(match_id=original.pk, user=alice)
    client.force_login(make_user("watcher"))
    response = client.post(f"/rematches/{offer.pk}/accept/", {"next": original.get_absolute_url()}, follow=True)
    assert "Only the players asked can answer" in response.content.decode()
    response = client.post(f"/rematches/{offer.pk}/accept/", {"next": "https://elsewhere.example/"})
    assert response.url == "/play/"  # never sent off the site


def test_an_offer_cannot_be_accepted_once_a_player_closed_their_account(alice, bob, make_user):
    carol = make_user("carol")
    offer = services.rematch_offer(match_id=finished_three_player(alice, bob, carol).pk, user=alice)
    services.rematch_answer(offer_id=offer.pk, user=bob, accept=True)
    alice.is_active = False
    alice.save()
    with pytest.raises(ChallengeError, match="alice no longer plays here"):
        services.rematch_answer(offer_id=offer.pk, user=carol, accept=True)
    offer.refresh_from_db()
    assert offer.state == "pending" and offer.new_match is None
