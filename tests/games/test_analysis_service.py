"""Asking for the analysis of a finished match: who may, when, how often, and what they get."""

import json
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games import receivers, services
from games.models import Match, MatchAnalysis
from games.services.analysis import analysis_budget
from games.services.writes import MatchError
from games.signals import analysis_requested
from tests.conftest import wait_for

from .helpers import finished_by_random_play, start_two_player

pytestmark = pytest.mark.django_db(transaction=True)


def api_as(user):
    client = APIClient()
    client.force_authenticate(user)
    return client


def done(match_id: int) -> MatchAnalysis:
    return wait_for(
        lambda: MatchAnalysis.objects.filter(match_id=match_id, status="done").first(), message="analysis done"
    )


def test_a_player_asks_for_the_analysis_and_gets_every_position_judged(alice, bob):
    match = finished_by_random_play("territories", [alice, bob], seed=3)
    services.analysis_request(user=alice, match_id=match.pk)
    analysis = done(match.pk)
    result = analysis.result or {}
    assert analysis.progress == 100
    assert len(result["values"]) == match.moves.count() + 1
    assert [seat["seat"] for seat in result["seats"]] == [0, 1]
    assert result["thresholds"] == {"blunder": 0.3, "mistake": 0.2, "inaccuracy": 0.1}


def test_asking_again_returns_the_stored_analysis_without_computing_it_again(alice, bob):
    match = finished_by_random_play("territories", [alice, bob], seed=3)
    first = services.analysis_request(user=alice, match_id=match.pk)
    done(match.pk)
    again = services.analysis_request(user=bob, match_id=match.pk)
    assert again.pk == first.pk and again.status == "done"
    assert MatchAnalysis.objects.count() == 1


def test_a_match_still_being_played_is_refused_and_nothing_is_told_of_it(alice, bob):
    match = start_two_player("territories", alice, bob)
    with pytest.raises(MatchError) as refused:
        services.analysis_request(user=alice, match_id=match.pk)
    assert refused.value.code == "not_finished"
    response = api_as(alice).get(f"/api/matches/{match.pk}/analysis/")
    assert response.status_code == 409 and "result" not in response.json()
    assert not MatchAnalysis.objects.exists()


def test_anyone_signed_in_may_ask_for_a_public_match_but_only_players_for_an_invite_only_one(alice, bob, make_user):
    carol = make_user("carol")
    public = finished_by_random_play("territories", [alice, bob], seed=3)
    services.analysis_request(user=carol, match_id=public.pk)
    done(public.pk)
    private = finished_by_random_play("territories", [alice, bob], seed=4)
    Match.objects.filter(pk=private.pk).update(visibility=Match.Visibility.INVITE)
    with pytest.raises(MatchError) as refused:
        services.analysis_request(user=carol, match_id=private.pk)
    assert refused.value.code == "not_found"
    assert APIClient().post(f"/api/matches/{public.pk}/analysis/").status_code in (401, 403)


def test_one_person_may_have_only_a_few_analyses_waiting(alice, bob, settings):
    settings.ANALYSIS_QUEUED_PER_PERSON = 2
    # The workers are held back: every analysis asked for stays queued.
    analysis_requested.disconnect(dispatch_uid="games.queue_analysis")
    try:
        matches = [finished_by_random_play("territories", [alice, bob], seed=s) for s in range(3)]
        for match in matches[:2]:
            services.analysis_request(user=alice, match_id=match.pk)
        with pytest.raises(MatchError) as refused:
            services.analysis_request(user=alice, match_id=matches[2].pk)
        assert refused.value.code == "too_many_pending"
        assert services.analysis_request(user=bob, match_id=matches[2].pk).status == "queued"
    finally:
        analysis_requested.connect(receivers.queue_analysis, dispatch_uid="games.queue_analysis")


def test_the_api_requests_then_answers_status_and_result(alice, bob):
    match = finished_by_random_play("territories", [alice, bob], seed=5)
    client = api_as(bob)
    assert client.get(f"/api/matches/{match.pk}/analysis/").json()["status"] == "none"
    asked = client.post(f"/api/matches/{match.pk}/analysis/")
    assert asked.status_code in (200, 202)
    done(match.pk)
    assert client.get(f"/api/matches/{match.pk}/analysis/status/").json() == {"status": "done", "progress": 100}
    result = client.get(f"/api/matches/{match.pk}/analysis/").json()["result"]
    assert len(result["values"]) == match.moves.count() + 1
    assert client.post(f"/api/matches/{match.pk}/analysis/").status_code == 200


def test_the_match_page_offers_the_analysis_then_shows_its_chart_summary_and_thresholds(client, alice, bob):
    match = finished_by_random_play("territories", [alice, bob], seed=3)
    client.force_login(alice)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Analyse this game" in page
    client.post(f"/matches/{match.pk}/analysis/request/")
    done(match.pk)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="analysis-chart"' in page and "Analyse this game" not in page
    assert page.count('class="analysis-line') == 2 and page.count('class="analysis-band"') == match.moves.count() + 1
    assert "is an inaccuracy, 20 a mistake, 30 a blunder" in page
    panel = client.get(f"/matches/{match.pk}/analysis/").content.decode()
    assert "analysis-summary" in panel and "Mistakes" in panel


def test_the_page_gives_the_replay_every_judged_decision_by_the_position_after_it(client, alice, bob):
    match = finished_by_random_play("territories", [alice, bob], seed=3)
    client.force_login(alice)
    client.post(f"/matches/{match.pk}/analysis/request/")
    result = done(match.pk).result
    assert result is not None
    decisions = result["decisions"]
    page = client.get(f"/matches/{match.pk}/").content.decode()
    found = re.search(r'<script id="analysis-hints" type="application/json">(.*?)</script>', page)
    assert found is not None
    hints = json.loads(found.group(1))
    assert decisions and sorted(hints, key=int) == [str(d["step"] + 1) for d in decisions]
    for d in decisions:
        hint = hints[str(d["step"] + 1)]
        assert (hint["action"], hint["best"], hint["best_label"], hint["grade"]) == (
            d["action"],
            d["best"],
            d["best_label"],
            d["grade"],
        )
        assert hint["name"].startswith(("alice (", "bob (")[d["seat"]])


def test_a_reader_of_german_gets_the_analysis_panel_in_german(client, alice, bob):
    match = finished_by_random_play("territories", [alice, bob], seed=3)
    client.force_login(alice)
    german = {"Accept-Language": "de"}
    page = client.get(f"/matches/{match.pk}/", headers=german).content.decode()
    assert "Diese Partie analysieren" in page and "Analyse this game" not in page
    client.post(f"/matches/{match.pk}/analysis/request/")
    done(match.pk)
    panel = client.get(f"/matches/{match.pk}/analysis/", headers=german).content.decode()
    assert "Genauigkeit" in panel and "ist eine Ungenauigkeit, 20 ein Fehler, 30 ein Patzer" in panel
    assert 'class="analysis-mark blunder" title="Patzer"' in panel and "Accuracy" not in panel


def test_a_match_being_played_offers_no_analysis(client, alice, bob):
    match = start_two_player("territories", alice, bob)
    client.force_login(alice)
    assert "Analyse this game" not in client.get(f"/matches/{match.pk}/").content.decode()
    assert client.get(f"/matches/{match.pk}/analysis/").status_code == 404
    assert client.post(f"/matches/{match.pk}/analysis/request/").status_code == 302
    assert not MatchAnalysis.objects.exists()


def test_an_analysis_left_unfinished_past_twice_the_time_limit_is_queued_again(alice, bob):
    match = finished_by_random_play("territories", [alice, bob], seed=6)
    lost = MatchAnalysis.objects.create(match=match, budget=analysis_budget(), status="running", requested_by=alice)
    assert services.analysis_request(user=bob, match_id=match.pk).status == "running"  # still under way
    MatchAnalysis.objects.filter(pk=lost.pk).update(created_at=timezone.now() - timedelta(hours=2))
    services.analysis_request(user=bob, match_id=match.pk)
    assert done(match.pk).pk == lost.pk


def test_the_analysis_of_a_dice_game_never_names_its_face_down_card(alice, bob, make_user, settings):
    settings.ANALYSIS_ITERATIONS = 4
    match = finished_by_random_play("dice-territory", [alice, bob, make_user("carol")], seed=2)
    face_down = match.moves.get(index=1).action
    assert face_down.startswith("card:")
    services.analysis_request(user=alice, match_id=match.pk)
    done(match.pk)
    body = api_as(bob).get(f"/api/matches/{match.pk}/analysis/").content.decode()
    later = set(match.moves.filter(index__gt=1).values_list("action", flat=True))
    assert face_down not in later and face_down not in body
