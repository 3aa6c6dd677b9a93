"""A form sent without its CSRF token gets the site's own 403 page, saying what to do."""

from django.test import Client

from portal.views import CSRF_FAILURE_MESSAGE


def test_a_post_without_its_token_gets_the_styled_page_with_what_to_do(alice):
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post("/accounts/logout/", {})
    assert response.status_code == 403
    page = response.content.decode()
    assert "Your session expired or the form was open too long; reload the page and try again." in page
    assert CSRF_FAILURE_MESSAGE in page
    assert "Reload the page" in page
    assert "<nav" in page or "<header" in page  # the site's frame, not Django's bare page
    assert "CSRF verification failed" not in page


def test_a_post_without_its_token_by_a_visitor_gets_the_same_page(db):
    response = Client(enforce_csrf_checks=True).post("/accounts/login/", {"login": "x", "password": "y"})
    assert response.status_code == 403
    assert CSRF_FAILURE_MESSAGE in response.content.decode()
