"""One lockout for every way to log in: the site's form, the API token endpoint and the admin.

The numbers are the settings' defaults: 5 failures of one account from one address, 20 from
one address whatever the accounts, 20 against one account from anywhere, each within 15
minutes, lock until 15 minutes after the latest failure.
"""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.throttling import AnonRateThrottle, BaseThrottle

from portal.client_ip import client_ip
from tests.conftest import DEMO_PASSWORD

pytestmark = pytest.mark.django_db
User = get_user_model()
WRONG = "not-the-password"


def form_login(client, login, password, **headers):
    return client.post("/accounts/login/", {"login": login, "password": password}, **headers)


def token_login(client, username, password, **headers):
    return client.post("/api/auth/token/", {"username": username, "password": password}, **headers)


def admin_login(client, username, password, **headers):
    return client.post(
        "/admin/login/?next=/admin/", {"username": username, "password": password, "next": "/admin/"}, **headers
    )


def signed_in(client) -> bool:
    return client.get("/").context["user"].is_authenticated


def assert_locked_out_page(response):
    assert response.status_code == 429
    body = response.content.decode()
    assert "Too many failed sign-ins" in body and "Try again after" in body
    assert int(response["Retry-After"]) > 0


# --- every way in ---------------------------------------------------------------------------


def test_the_site_form_refuses_the_right_password_after_five_failures(client, alice):
    for _ in range(4):
        assert form_login(client, "alice", WRONG).status_code == 200
    assert_locked_out_page(form_login(client, "alice", WRONG))
    response = form_login(client, "alice", DEMO_PASSWORD)
    assert_locked_out_page(response)
    assert "in 15 minutes" in response.content.decode()
    assert not signed_in(client)


def test_the_api_token_endpoint_refuses_an_account_the_form_locked(client, alice):
    for _ in range(5):
        form_login(client, "alice", WRONG)
    response = token_login(client, "alice", DEMO_PASSWORD)
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled" and "Try again after" in body["message"]
    assert int(response["Retry-After"]) > 0
    assert not Token.objects.filter(user=alice).exists()


def test_the_api_token_endpoint_locks_out_a_client_that_rotates_x_forwarded_for(client, alice):
    answers = [
        token_login(client, "alice", WRONG, HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code for n in range(5)
    ]
    assert answers == [400, 400, 400, 400, 429]  # the failure that reaches the limit is told so
    response = token_login(client, "alice", DEMO_PASSWORD, HTTP_X_FORWARDED_FOR="198.51.100.99")
    assert response.status_code == 429
    assert not Token.objects.filter(user=alice).exists()


def test_the_admin_login_refuses_the_right_password_after_five_failures(client, make_user):
    make_user("root", is_staff=True, is_superuser=True)
    for _ in range(5):
        admin_login(client, "root", WRONG)
    response = admin_login(client, "root", DEMO_PASSWORD)
    assert_locked_out_page(response)
    assert client.get("/admin/").status_code == 302  # still sent to the log-in page


def test_the_form_refuses_an_account_the_api_locked(client, alice):
    for _ in range(5):
        token_login(client, "alice", WRONG)
    assert_locked_out_page(form_login(client, "alice", DEMO_PASSWORD))
    assert not signed_in(client)


def test_a_right_password_before_the_limit_still_logs_in(client, alice):
    for _ in range(4):
        form_login(client, "alice", WRONG)
    assert form_login(client, "alice", DEMO_PASSWORD).status_code == 302
    assert signed_in(client)
    assert token_login(client, "alice", DEMO_PASSWORD).status_code == 200


# --- what is counted ------------------------------------------------------------------------


def test_failures_by_username_and_by_email_count_for_the_same_account(client, alice):
    for login in ["alice", "ALICE", "alice@example.com", "Alice@Example.com", "alice"]:
        form_login(client, login, WRONG)
    assert_locked_out_page(form_login(client, "alice@example.com", DEMO_PASSWORD))


def test_an_account_locked_from_one_address_still_logs_in_from_another(client, alice):
    for _ in range(5):
        form_login(client, "alice", WRONG, REMOTE_ADDR="203.0.113.1")
    assert_locked_out_page(form_login(client, "alice", DEMO_PASSWORD, REMOTE_ADDR="203.0.113.1"))
    assert form_login(client, "alice", DEMO_PASSWORD, REMOTE_ADDR="203.0.113.2").status_code == 302


def test_an_account_is_locked_from_every_address_after_twenty_failures_across_addresses(client, alice):
    for n in range(20):
        form_login(client, "alice", WRONG, REMOTE_ADDR=f"203.0.113.{n // 4}")  # 4 from each of 5 addresses
    assert_locked_out_page(form_login(client, "alice", DEMO_PASSWORD, REMOTE_ADDR="192.0.2.200"))


def test_an_address_is_locked_for_every_account_after_twenty_failures_across_accounts(client, alice):
    for n in range(20):
        form_login(client, f"someone{n}", WRONG, REMOTE_ADDR="203.0.113.5")
    assert_locked_out_page(form_login(client, "alice", DEMO_PASSWORD, REMOTE_ADDR="203.0.113.5"))
    assert form_login(client, "alice", DEMO_PASSWORD, REMOTE_ADDR="203.0.113.6").status_code == 302


def test_nineteen_failures_across_accounts_do_not_lock_an_address(client, alice):
    for n in range(19):
        form_login(client, f"someone{n}", WRONG, REMOTE_ADDR="203.0.113.5")
    assert form_login(client, "alice", DEMO_PASSWORD, REMOTE_ADDR="203.0.113.5").status_code == 302


def test_a_refused_attempt_does_not_push_the_end_of_the_lockout_back(client, alice):
    for _ in range(5):
        form_login(client, "alice", WRONG)
    counted = AccessAttempt.objects.get()
    for _ in range(3):
        form_login(client, "alice", WRONG)
    assert AccessAttempt.objects.get().attempt_time == counted.attempt_time
    assert AccessAttempt.objects.get().failures_since_start == 5


def test_the_lockout_is_kept_in_the_database_so_losing_the_cache_does_not_lift_it(client, alice):
    from django.core.cache import cache

    for _ in range(5):
        form_login(client, "alice", WRONG)
    cache.clear()  # what a Redis restart does
    assert token_login(client, "alice", DEMO_PASSWORD).status_code == 429
    assert_locked_out_page(form_login(client, "alice", DEMO_PASSWORD))


def test_the_lockout_ends_after_the_cool_off(client, alice):
    for _ in range(5):
        form_login(client, "alice", WRONG)
    AccessAttempt.objects.update(attempt_time=AccessAttempt.objects.get().attempt_time - timedelta(minutes=16))
    assert form_login(client, "alice", DEMO_PASSWORD).status_code == 302


def test_an_administrator_unlocks_an_account_in_the_admin(client, alice, make_user):
    for _ in range(5):
        form_login(client, "alice", WRONG, REMOTE_ADDR="203.0.113.9")
    admin = make_user("root", is_staff=True, is_superuser=True)
    staff = client.__class__()
    staff.force_login(admin)
    changelist = staff.get("/admin/axes/accessattempt/")
    assert changelist.status_code == 200 and "alice" in changelist.content.decode()
    attempt = AccessAttempt.objects.get(username="alice")
    assert staff.post(f"/admin/axes/accessattempt/{attempt.pk}/delete/", {"post": "yes"}).status_code == 302
    assert form_login(client, "alice", DEMO_PASSWORD, REMOTE_ADDR="203.0.113.9").status_code == 302


# --- the client's address -------------------------------------------------------------------


@pytest.fixture
def one_trusted_proxy(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1


def test_every_limit_takes_its_proxy_count_from_the_one_setting(settings):
    assert settings.TRUSTED_PROXY_COUNT == 0
    assert settings.REST_FRAMEWORK["NUM_PROXIES"] == settings.TRUSTED_PROXY_COUNT
    assert settings.ALLAUTH_TRUSTED_PROXY_COUNT == settings.TRUSTED_PROXY_COUNT
    assert settings.AXES_CLIENT_IP_CALLABLE == "portal.client_ip.client_ip"
    assert settings.RATELIMIT_IP_META_KEY == "portal.client_ip.client_ip"


def same_address_everywhere(rf, **meta) -> str:
    """The address the lockout, DRF's throttles and allauth's rate limits each read."""
    from allauth.core.internal.httpkit import get_client_ip as allauth_client_ip
    from django_ratelimit.core import _get_ip as ratelimit_client_ip

    request = rf.post("/accounts/login/", **meta)
    seen = {
        client_ip(request),
        BaseThrottle().get_ident(request),
        allauth_client_ip(request),
        ratelimit_client_ip(request),
    }
    assert len(seen) == 1, seen
    return seen.pop()


def test_without_a_trusted_proxy_x_forwarded_for_is_ignored_everywhere(rf):
    assert same_address_everywhere(rf, REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="198.51.100.7") == "192.0.2.1"


def test_with_one_trusted_proxy_the_address_it_saw_is_used_everywhere(rf, one_trusted_proxy):
    # The proxy (192.0.2.1) appended the address it saw to whatever the client sent.
    spoofed = "198.51.100.7, 10.0.0.1, 203.0.113.50"
    assert same_address_everywhere(rf, REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR=spoofed) == "203.0.113.50"
    assert same_address_everywhere(rf, REMOTE_ADDR="192.0.2.1") == "192.0.2.1"  # no proxy in the way


def test_with_one_trusted_proxy_the_lockout_counts_the_hop_the_proxy_added(client, alice, one_trusted_proxy):
    for n in range(5):
        forwarded = f"198.51.100.{n}, 203.0.113.50"  # the client varies what it sends; the proxy adds its hop
        form_login(client, "alice", WRONG, REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"203.0.113.50"}
    locked = form_login(
        client, "alice", DEMO_PASSWORD, REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="9.9.9.9, 203.0.113.50"
    )
    assert_locked_out_page(locked)
    another_client = form_login(
        client, "alice", DEMO_PASSWORD, REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="203.0.113.51"
    )
    assert another_client.status_code == 302


def test_with_one_trusted_proxy_a_forwarded_value_that_is_no_address_counts_as_the_connection(
    client, alice, one_trusted_proxy
):
    response = token_login(client, "alice", WRONG, REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="unknown")
    assert response.status_code == 400  # a wrong password, told as such, not a server error
    assert AccessAttempt.objects.get().ip_address == "192.0.2.1"


def test_the_api_throttle_is_not_walked_around_by_rotating_x_forwarded_for(client, monkeypatch):
    monkeypatch.setitem(AnonRateThrottle.THROTTLE_RATES, "anon", "3/min")  # the rates every throttle reads
    answers = [client.get("/api/games/", HTTP_X_FORWARDED_FOR=f"198.51.100.{n}").status_code for n in range(6)]
    assert answers == [200, 200, 200, 429, 429, 429]


def test_the_token_endpoint_is_throttled_like_the_rest_of_the_api(client, alice, monkeypatch):
    monkeypatch.setitem(AnonRateThrottle.THROTTLE_RATES, "anon", "2/min")
    answers = [token_login(client, "alice", DEMO_PASSWORD).status_code for _ in range(3)]
    assert answers == [200, 200, 429]


# --- served the way production serves it (ASGI: the middleware's async path) ------------------


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_the_lockout_page_is_served_through_the_asynchronous_middleware(make_user):
    from asgiref.sync import sync_to_async
    from django.test import AsyncClient

    await sync_to_async(make_user)("alice")
    client = AsyncClient()
    for _ in range(5):
        await client.post("/accounts/login/", {"login": "alice", "password": WRONG})
    assert_locked_out_page(await client.post("/accounts/login/", {"login": "alice", "password": DEMO_PASSWORD}))
