"""Every player in their own time zone: a zone saved on the account (chosen on the profile
page, or the browser's saved once on a first visit), a cookie for visitors, UTC otherwise;
times stored in UTC and shown in the viewer's zone, never cached in another's."""

import pickle
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.core.cache import cache

from accounts.models import User
from games.models import Match
from tests.notifications.helpers import correspondence, waiting_for
from tests.tournaments.helpers import announce

pytestmark = pytest.mark.django_db

# 09:30 UTC is 18:30 in Tokyo and 10:30 in Paris (winter time).
DEADLINE = datetime(2031, 1, 15, 9, 30, tzinfo=UTC)


def move_due_line(client, match) -> str:
    body = client.get(match.get_absolute_url()).content.decode()
    start = body.index('id="move-due"')
    return body[start : body.index("</p>", start)]


@pytest.fixture
def waiting(alice, bob):
    """A correspondence match whose move is due at ``DEADLINE``."""
    match = correspondence(alice, bob)
    Match.objects.filter(pk=match.pk).update(deadline=DEADLINE)
    return match


def test_a_correspondence_deadline_is_shown_in_the_players_zone_and_follows_a_change_of_zone(client, waiting):
    player = waiting_for(waiting)
    client.force_login(player)
    User.objects.filter(pk=player.pk).update(time_zone="Asia/Tokyo")
    line = move_due_line(client, waiting)
    assert "15 Jan 2031, 18:30 JST" in line
    assert 'datetime="2031-01-15T09:30:00Z"' in line  # the page's script reads the UTC moment

    client.post("/settings/time-zone/", {"zone-time_zone": "Europe/Paris"})
    assert "15 Jan 2031, 10:30 CET" in move_due_line(client, waiting)


def test_without_a_zone_the_deadline_is_in_the_browsers_cookie_zone_else_utc(client, waiting):
    assert "15 Jan 2031, 09:30 UTC" in move_due_line(client, waiting)
    client.cookies["tz"] = "America/New_York"
    assert "15 Jan 2031, 04:30 EST" in move_due_line(client, waiting)
    client.cookies["tz"] = "Mars/Olympus_Mons"  # not a zone: ignored
    assert "15 Jan 2031, 09:30 UTC" in move_due_line(client, waiting)


def test_the_profile_page_shows_the_zone_and_saves_a_chosen_one(client, alice):
    client.force_login(alice)
    page = client.get("/settings/profile/").content.decode()
    assert "Time zone" in page and '<option value="Asia/Tokyo">Asia/Tokyo</option>' in page
    response = client.post("/settings/time-zone/", {"zone-time_zone": "Asia/Tokyo"}, follow=True)
    assert "Times are now shown in Asia/Tokyo." in response.content.decode()
    assert User.objects.get(pk=alice.pk).time_zone == "Asia/Tokyo"
    assert '<option value="Asia/Tokyo" selected>' in response.content.decode()


def test_an_unknown_zone_is_refused_with_a_message_and_changes_nothing(client, alice):
    User.objects.filter(pk=alice.pk).update(time_zone="Europe/Paris")
    client.force_login(alice)
    response = client.post("/settings/time-zone/", {"zone-time_zone": "Europe/Atlantis"})
    assert "Europe/Atlantis is not a time zone we know" in response.content.decode()
    assert User.objects.get(pk=alice.pk).time_zone == "Europe/Paris"


def test_the_browsers_zone_is_saved_once_for_a_person_without_one(client, alice):
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert 'data-time-zone-save="/settings/time-zone/browser/"' in page
    assert client.post("/settings/time-zone/browser/", {"time_zone": "Asia/Tokyo"}).status_code == 204
    assert User.objects.get(pk=alice.pk).time_zone == "Asia/Tokyo"
    page = client.get("/").content.decode()
    assert 'data-time-zone="Asia/Tokyo"' in page and "data-time-zone-save" not in page
    # Another browser (a laptop on a trip) does not move it.
    client.post("/settings/time-zone/browser/", {"time_zone": "America/Chicago"})
    assert User.objects.get(pk=alice.pk).time_zone == "Asia/Tokyo"


def test_the_browsers_zone_never_overrides_a_chosen_one(client, alice):
    client.force_login(alice)
    client.post("/settings/time-zone/", {"zone-time_zone": "Europe/Lisbon"})
    client.post("/settings/time-zone/browser/", {"time_zone": "Asia/Tokyo"})
    assert User.objects.get(pk=alice.pk).time_zone == "Europe/Lisbon"


def test_the_browsers_zone_is_checked_and_needs_the_csrf_token(alice):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(alice)
    assert strict.post("/settings/time-zone/browser/", {"time_zone": "Asia/Tokyo"}).status_code == 403
    assert User.objects.get(pk=alice.pk).time_zone == ""
    plain = Client()
    plain.force_login(alice)
    response = plain.post("/settings/time-zone/browser/", {"time_zone": "Nowhere/Special"})
    assert response.status_code == 400 and "not a time zone we know" in response.json()["message"]
    assert User.objects.get(pk=alice.pk).time_zone == ""


def test_a_visitor_not_signed_in_keeps_the_browsers_zone_in_a_cookie(client):
    page = client.get("/").content.decode()
    assert 'data-time-zone-save=""' in page and 'data-time-zone-cookie="tz"' in page
    response = client.post("/settings/time-zone/browser/", {"time_zone": "Asia/Tokyo"})
    assert response.status_code == 204 and response.cookies["tz"].value == "Asia/Tokyo"
    assert 'data-time-zone="Asia/Tokyo"' in client.get("/").content.decode()


def test_a_cached_fragment_is_never_served_with_another_zones_times(client, alice, make_user):
    """The game page's tournaments are one fragment for everyone: built for a viewer in Tokyo,
    it reaches a viewer in New York with the UTC moment, not Tokyo's time of day."""
    cache.clear()
    starts = (datetime.now(UTC) + timedelta(days=2)).replace(hour=9, minute=30, second=0, microsecond=0)
    announce(alice, name="Dawn cup", starts_at=starts)
    tokyo = make_user("tokyo", time_zone="Asia/Tokyo")
    client.force_login(tokyo)
    first = client.get("/games/territories/").content.decode()
    assert "Dawn cup" in first
    client.logout()
    client.cookies["tz"] = "America/New_York"
    second = client.get("/games/territories/").content.decode()
    iso = starts.isoformat().replace("+00:00", "Z")
    for body in (first, second):
        section = body[body.index("Dawn cup") : body.index("entered", body.index("Dawn cup"))]
        assert f'datetime="{iso}"' in section and "09:30 UTC" in section
        assert "JST" not in section and "18:30" not in section


def test_a_kept_whole_page_is_kept_per_zone(client, waiting):
    """Pages kept whole for visitors are kept for each zone their browsers keep."""
    cache.clear()
    client.cookies["tz"] = "Asia/Tokyo"
    tokyo = client.get("/").content.decode()
    client.cookies["tz"] = "Europe/Paris"
    paris = client.get("/").content.decode()
    assert 'data-time-zone="Asia/Tokyo"' in tokyo and 'data-time-zone="Europe/Paris"' in paris


def test_the_viewer_zone_behaves_as_the_zone_it_settles_on(rf):
    from django.contrib.auth.models import AnonymousUser

    from accounts.time_zones import ViewerZone

    request = rf.get("/", HTTP_COOKIE="tz=Asia/Tokyo")
    request.user = AnonymousUser()
    shown = DEADLINE.astimezone(ViewerZone(request))
    assert (shown.hour, shown.minute, shown.tzname()) == (18, 30, "JST")
    assert shown == DEADLINE.astimezone(ZoneInfo("Asia/Tokyo"))
    # A time read in the zone (a form's) pickles as the zone itself, without the request.
    read = pickle.loads(pickle.dumps(datetime(2031, 1, 15, 18, 30, tzinfo=ViewerZone(request))))
    assert read == DEADLINE and read.tzinfo == ZoneInfo("Asia/Tokyo")


@pytest.mark.parametrize(("path", "zone"), [("/api/challenges/", "UTC"), ("/challenges/", "Asia/Tokyo")])
def test_the_api_speaks_utc_whoever_asks(rf, path, zone):
    from django.contrib.auth.models import AnonymousUser
    from django.utils import timezone

    from accounts.middleware import TimeZoneMiddleware

    request = rf.get(path, HTTP_COOKIE="tz=Asia/Tokyo")
    request.user = AnonymousUser()
    seen = []
    TimeZoneMiddleware(lambda request: seen.append(timezone.get_current_timezone_name()))(request)
    assert seen == [zone]


@pytest.mark.asyncio
async def test_in_an_async_stack_the_zone_is_active_in_the_event_loop(rf):
    from asgiref.sync import iscoroutinefunction
    from django.contrib.auth.models import AnonymousUser
    from django.utils import timezone

    from accounts.middleware import TimeZoneMiddleware

    async def view(request):
        return timezone.get_current_timezone_name()

    middleware = TimeZoneMiddleware(view)
    request = rf.get("/", HTTP_COOKIE="tz=Asia/Tokyo")
    request.user = AnonymousUser()
    assert iscoroutinefunction(middleware)
    assert await middleware(request) == "Asia/Tokyo"
    assert timezone.get_current_timezone_name() == "UTC"  # and only for the request
