"""A browser in Tokyo: the correspondence deadline reads in Tokyo time on the match page, and
the browser's zone is saved on the account that had none."""

import pytest
from django.db import connection

from accounts.models import User
from games.models import Match
from tests.conftest import wait_for
from tests.games.browser.pages import log_in
from tests.notifications.helpers import correspondence

from .test_time_zones import DEADLINE

pytestmark = pytest.mark.browser


def test_a_browser_in_tokyo_reads_the_deadline_in_tokyo_time_and_its_zone_is_saved(asgi_server, browser, make_user):
    ann, ben = make_user("ann"), make_user("ben")
    match = correspondence(ann, ben)
    Match.objects.filter(pk=match.pk).update(deadline=DEADLINE)
    connection.close()
    page = log_in(browser.new_context(timezone_id="Asia/Tokyo").new_page(), asgi_server, ann)
    page.goto(f"{asgi_server}{match.get_absolute_url()}")
    due = page.locator("#move-due")
    due.wait_for(state="visible", timeout=15_000)
    assert "15 Jan 2031, 18:30" in due.inner_text()
    wait_for(lambda: User.objects.get(pk=ann.pk).time_zone == "Asia/Tokyo", message="the browser's zone saved")
