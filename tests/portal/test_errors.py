"""The one error model: every service refuses with a ``portal.errors.ServiceError``, and one
table gives each code its HTTP status, through the API's exception handler."""

import json
from typing import Any

import pytest
from django import forms
from django.contrib.messages import get_messages
from django.contrib.messages.storage.fallback import FallbackStorage
from django.test import RequestFactory

from challenges.services import ChallengeError
from forums.services import ForumError
from games.services import MatchError
from portal import refusals
from portal.api_errors import api_exception_handler
from portal.errors import HTTP_STATUS, ServiceError
from tournaments.services import TournamentError


@pytest.mark.parametrize("error_class", [MatchError, ForumError, TournamentError, ChallengeError])
def test_every_service_error_is_a_service_error(error_class):
    error = error_class("Not now.")
    assert isinstance(error, ServiceError)
    assert (error.code, error.message, str(error)) == ("bad_request", "Not now.", "Not now.")


def test_a_service_error_holds_its_code_message_and_field():
    error = ServiceError("full", "The tournament is full.", field="name")
    assert (error.code, error.message, error.field, str(error)) == (
        "full",
        "The tournament is full.",
        "name",
        error.message,
    )
    assert ServiceError("stale", "Moved on.").field is None


def test_the_apps_errors_keep_their_message_first_call():
    assert MatchError("Somebody moved.", "stale").code == "stale"
    assert TournamentError("Too late.", "finished").code == "finished"
    assert TournamentError("Give it a name.", field="name").field == "name"
    assert ChallengeError("Answered already.", "closed").code == "closed"


def _answer(error):
    response = api_exception_handler(error, {})
    return response.status_code, response.data


@pytest.mark.parametrize(("code", "status"), sorted(HTTP_STATUS.items()))
def test_each_code_gets_its_status_through_the_api(code, status):
    assert _answer(MatchError("Refused.", code)) == (status, {"code": code, "message": "Refused."})


@pytest.mark.parametrize(
    ("code", "status"),
    [("bad_request", 400), ("illegal", 400), ("not_your_turn", 403), ("not_seated", 403), ("forbidden", 403)]
    + [("not_found", 404), ("stale", 409), ("finished", 409), ("full", 409), ("closed", 409)]
    + [("too_many_open", 409), ("rate_limited", 429), ("throttled", 429)],
)
def test_the_table_keeps_the_statuses_clients_know(code, status):
    assert HTTP_STATUS[code] == status


def test_an_unknown_code_is_a_bad_request():
    assert _answer(ServiceError("no_such_code", "Refused.")) == (400, {"code": "no_such_code", "message": "Refused."})


def test_a_field_stays_out_of_the_api_body_and_what_the_edge_adds_goes_in():
    error = TournamentError("Give it a name.", field="name")
    assert _answer(error)[1] == {"code": "bad_request", "message": "Give it a name."}
    error.extra["snapshot"] = {"version": 3}
    assert (
        json.dumps(_answer(error)[1])
        == '{"code": "bad_request", "message": "Give it a name.", "snapshot": {"version": 3}}'
    )


class NameForm(forms.Form):
    name = forms.CharField()


def test_a_page_shows_a_refusal_by_the_field_it_names_else_above_the_form():
    form = NameForm({"name": "x"})
    assert form.is_valid()
    with refusals.on_form(form) as refused:
        raise TournamentError("Give it a name.", field="name")
    assert refused and refused.on_form and form.errors == {"name": ["Give it a name."]}
    with refusals.on_form(form):
        raise MatchError("Not now.")
    assert form.non_field_errors() == ["Not now."]
    with refusals.on_form(form) as refused:
        pass
    assert not refused


def _request_with_messages():
    """A request as the messages middleware leaves it (a session and a message store)."""
    request: Any = RequestFactory().post("/")
    request.session = {}
    request._messages = FallbackStorage(request)
    return request


def test_a_page_shows_a_refusal_as_a_message_and_lets_anything_else_through():
    request = _request_with_messages()
    with refusals.as_message(request) as refused:
        raise ForumError("The topic is locked.")
    assert refused and [str(m) for m in get_messages(request)] == ["The topic is locked."]
    with pytest.raises(ValueError), refusals.as_message(request):
        raise ValueError("a bug, not a refusal")


def test_a_form_can_send_a_refusal_about_no_field_of_its_own_to_the_messages():
    request = _request_with_messages()
    form = NameForm({"name": "x"})
    assert form.is_valid()
    with refusals.on_form(form, others_to=request) as refused:
        raise TournamentError("The tournament has started.", "stale")
    assert refused and not refused.on_form and not form.errors
    assert [str(m) for m in get_messages(request)] == ["The tournament has started."]
