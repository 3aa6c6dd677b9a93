"""The admin for operators and moderators: every page renders for staff and is refused to
others; a stuck match is ended as aborted through the services; a chat message is hidden from
everyone, with the moderation log saying who hid what and when."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from challenges.models import Challenge
from challenges.services import challenge_create
from games import selectors, services
from games.models import ChatMessage, Match, ModerationLog, Move
from notifications.models import Notification
from tests.tournaments.helpers import announce
from tournaments.models import Tournament

from .helpers import fresh, start_two_player
from .test_socket import open_socket, patch_auth, receive  # noqa: F401 -- the fixture

pytestmark = pytest.mark.django_db

CHANGELISTS = [
    "games_match",
    "games_move",
    "games_chatmessage",
    "games_moderationlog",
    "challenges_challenge",
    "challenges_rematchoffer",
    "tournaments_tournament",
    "notifications_notification",
]


@pytest.fixture
def staff(make_user):
    return make_user("moderator", is_staff=True, is_superuser=True)


@pytest.fixture
def match(alice, bob):
    """A match being played with a little chat, beside a challenge (and the notification it
    told) and a tournament, so that every admin page has a row to show."""
    challenge_create(user=alice, to=bob, game="game-of-god", num_players=2)
    Notification.objects.create(user=bob, kind=Notification.Kind.CHALLENGE_RECEIVED, text="alice challenges you")
    announce(alice)
    match = start_two_player("game-of-god", alice, bob)
    services.chat_post(match_id=match.pk, user=alice, text="good luck")
    services.chat_post(match_id=match.pk, user=bob, text="something rude")
    return fresh(match.pk)


def change_pages(match) -> list[str]:
    pages = [reverse("admin:games_match_change", args=[match.pk])]
    pages.append(reverse("admin:games_chatmessage_change", args=[match.chat_messages.first().pk]))
    pages.append(reverse("admin:games_move_change", args=[match.moves.first().pk]))
    for model in (Challenge, Tournament, Notification):
        row = model.objects.get()
        pages.append(reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[row.pk]))
    return pages


def test_every_admin_page_renders_for_staff_with_searches_and_filters(client, staff, match):
    client.force_login(staff)
    for name in CHANGELISTS:
        url = reverse(f"admin:{name}_changelist")
        assert client.get(url).status_code == 200, url
        assert client.get(url, {"q": "alice"}).status_code == 200, url
    assert client.get(reverse("admin:games_match_changelist"), {"q": "not-a-number"}).status_code == 200
    filtered = client.get(reverse("admin:games_match_changelist"), {"status__exact": "active", "q": str(match.pk)})
    assert f">{match.pk}</a>" in filtered.content.decode()
    for url in change_pages(match):
        assert client.get(url).status_code == 200, url


def test_the_match_page_shows_its_state_seats_and_links_to_its_moves_and_chat(client, staff, match):
    client.force_login(staff)
    page = client.get(reverse("admin:games_match_change", args=[match.pk])).content.decode()
    assert f"Being played at version {match.version}" in page
    assert "alice" in page and "bob" in page  # the seats
    moves = reverse("admin:games_move_changelist") + f"?match__id__exact={match.pk}"
    assert moves in page
    listed = client.get(moves).content.decode()
    assert all(
        f'<td class="field-action">{action}</td>' in listed for action in match.moves.values_list("action", flat=True)
    )
    assert 'name="_save"' not in page, "a match is read, never saved over from a form"


def test_the_admin_is_refused_to_people_who_are_not_staff(client, alice, match):
    client.force_login(alice)
    for name in CHANGELISTS:
        response = client.get(reverse(f"admin:{name}_changelist"))
        assert response.status_code == 302 and "/admin/login/" in response.url
    for url in change_pages(match):
        response = client.get(url)
        assert response.status_code == 302 and "/admin/login/" in response.url
    client.logout()
    assert client.get(reverse("admin:games_match_changelist")).status_code == 302


def test_ending_a_match_as_aborted_ends_it_tells_its_players_and_logs_who_did_it(client, staff, match):
    client.force_login(staff)
    response = client.post(
        reverse("admin:games_match_changelist"),
        {"action": "end_as_aborted", "_selected_action": [match.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert f"Ended as aborted: #{match.pk}" in response.content.decode()
    ended = fresh(match.pk)
    assert ended.status == Match.Status.ABORTED and ended.end_reason == "ended_by_staff"
    assert ended.finished_at is not None and ended.to_move is None and ended.version > match.version
    assert ended.chat_messages.filter(user=None, text__contains="A moderator ended this match").exists()
    entry = ModerationLog.objects.get(action=ModerationLog.Action.END_MATCH)
    assert entry.moderator == staff and entry.match_id == match.pk

    again = client.post(
        reverse("admin:games_match_changelist"),
        {"action": "end_as_aborted", "_selected_action": [match.pk]},
        follow=True,
    )
    assert "over already" in again.content.decode()
    assert ModerationLog.objects.filter(action=ModerationLog.Action.END_MATCH).count() == 1


def test_only_staff_end_a_match_through_the_service(alice, match):
    with pytest.raises(services.MatchError) as refused:
        services.match_staff_end(match_id=match.pk, moderator=alice)
    assert refused.value.code == "forbidden"
    assert fresh(match.pk).status == Match.Status.ACTIVE


def test_a_hidden_chat_message_is_shown_to_nobody_and_the_log_says_who_hid_it(client, staff, alice, bob, match):
    rude = ChatMessage.objects.get(text="something rude")
    client.force_login(staff)
    response = client.post(
        reverse("admin:games_chatmessage_changelist"), {"action": "hide", "_selected_action": [rude.pk]}, follow=True
    )
    assert "Hidden: 1 message(s)" in response.content.decode()
    rude.refresh_from_db()
    assert rude.is_hidden and rude.hidden_by == staff
    for viewer in (alice, bob):
        chat = selectors.match_payload(fresh(match.pk), viewer)["chat"]
        assert [line["text"] for line in chat] == ["good luck"]
    client.force_login(alice)
    api_chat = client.get(f"/api/matches/{match.pk}/chat/").json()["results"]
    assert [line["text"] for line in api_chat] == ["good luck"]

    entry = ModerationLog.objects.get(action=ModerationLog.Action.HIDE_CHAT)
    assert entry.moderator == staff and entry.chat_message == rude and entry.detail == "bob: something rude"
    assert entry.created_at is not None

    services.chat_hide(message_id=rude.pk, moderator=staff, hidden=False)
    assert [line["text"] for line in selectors.match_payload(fresh(match.pk), alice)["chat"]] == [
        "good luck",
        "something rude",
    ]
    assert ModerationLog.objects.filter(chat_message=rude).count() == 2


def test_only_staff_hide_a_chat_message(alice, match):
    message = ChatMessage.objects.get(text="something rude")
    with pytest.raises(services.MatchError):
        services.chat_hide(message_id=message.pk, moderator=alice)
    message.refresh_from_db()
    assert not message.is_hidden and not ModerationLog.objects.exists()


def test_the_moves_list_is_read_only(client, staff, match):
    client.force_login(staff)
    move = Move.objects.filter(match=match).earliest("index")
    page = client.get(reverse("admin:games_move_change", args=[move.pk])).content.decode()
    assert 'name="_save"' not in page
    assert client.post(reverse("admin:games_move_change", args=[move.pk]), {"action": "x"}).status_code == 403


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_open_match_page_drops_a_message_as_it_is_hidden(alice, bob, make_user, patch_auth):  # noqa: F811
    staff = await sync_to_async(make_user)("moderator", is_staff=True)
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    message = await sync_to_async(services.chat_post)(match_id=match.pk, user=bob, text="something rude")
    ws, ok, _ = await open_socket(patch_auth, match.pk, alice)
    assert ok
    await receive(ws, "snapshot")
    await sync_to_async(services.chat_hide)(message_id=message.pk, moderator=staff)
    assert await receive(ws, "chat_hidden") == {"type": "chat_hidden", "id": message.pk}
    await ws.disconnect()
