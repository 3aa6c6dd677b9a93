"""/metrics: the counters an operator graphs and alerts on move when the site is used, and
nobody reads them without the token."""

import asyncio
import json
import os
import random
import subprocess
import sys

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from prometheus_client.parser import text_string_to_metric_families

import live
from games.models import Move
from live import reach
from tests.conftest import drain_worker, wait_for
from tests.games.helpers import fresh, play_turn, start_two_player
from tests.games.test_socket import open_socket, patch_auth, receive  # noqa: F401 -- the fixture

TOKEN = "a-scraper-token-of-some-length"


def scrape() -> dict[tuple[str, tuple], float]:
    """Every sample of /metrics by (name, sorted labels)."""
    response = Client().get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200, response.content
    samples = {}
    for family in text_string_to_metric_families(response.content.decode()):
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


def value(samples, name, **labels) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


async def until(moved, timeout: float = 30.0) -> dict:
    """Scrape until ``moved(samples)``: the last step of a move is recorded after its ack."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        samples = await sync_to_async(scrape)()
        if moved(samples) or asyncio.get_running_loop().time() > deadline:
            return samples
        await asyncio.sleep(0.02)


@pytest.fixture
def metrics_on(settings):
    settings.METRICS_TOKEN = TOKEN


def test_metrics_are_refused_to_everyone_while_no_token_is_set(client, settings):
    settings.METRICS_TOKEN = ""
    response = client.get("/metrics", headers={"Authorization": "Bearer anything"})
    assert response.status_code == 403
    assert b"METRICS_TOKEN" in response.content


def test_metrics_are_refused_without_the_token_or_with_a_wrong_one(client, metrics_on):
    assert client.get("/metrics").status_code == 401
    response = client.get("/metrics", headers={"Authorization": "Bearer not-the-token"})
    assert response.status_code == 401 and response["WWW-Authenticate"].startswith("Bearer")
    assert client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_move_over_the_socket_moves_the_move_counters_and_the_socket_gauge(alice, bob, patch_auth, metrics_on):  # noqa: F811
    match = await sync_to_async(start_two_player)("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    before = await sync_to_async(scrape)()

    ws, ok, _ = await open_socket(patch_auth, match.pk, mover)
    assert ok
    snapshot = await receive(ws, "snapshot")
    while_open = await sync_to_async(scrape)()
    await ws.send_to(
        text_data=json.dumps(
            {"type": "act", "action": snapshot["legal_actions"][0]["action"], "version": match.version}
        )
    )
    await receive(ws, "ack")
    # The socket's time is taken once its broadcast is out too, a moment after the ack.
    after_move = await until(
        lambda s: (
            value(s, "portal_move_seconds_count", path="socket")
            > value(before, "portal_move_seconds_count", path="socket")
        )
    )
    await ws.disconnect()
    after_close = await sync_to_async(scrape)()

    assert (await sync_to_async(fresh)(match.pk)).version > match.version
    assert (
        value(after_move, "portal_moves_total", game="game-of-god")
        == value(before, "portal_moves_total", game="game-of-god") + 1
    )
    for path in ("socket", "service"):
        served = value(after_move, "portal_move_seconds_count", path=path) - value(
            before, "portal_move_seconds_count", path=path
        )
        assert served == 1, path
    sockets = "portal_open_sockets"
    assert value(while_open, sockets, consumer="MatchConsumer") == value(before, sockets, consumer="MatchConsumer") + 1
    assert value(after_close, sockets, consumer="MatchConsumer") == value(before, sockets, consumer="MatchConsumer")


def test_a_refused_move_is_counted_by_its_reason(alice, bob, metrics_on):
    from games import services

    match = start_two_player("game-of-god", alice, bob)
    mover = alice if match.to_move == 0 else bob
    before = scrape()
    with pytest.raises(services.MatchError):
        services.match_act(match_id=match.pk, user=mover, action="nonsense", version=match.version + 5)
    after = scrape()
    assert (
        value(after, "portal_move_refusals_total", code="stale")
        == value(before, "portal_move_refusals_total", code="stale") + 1
    )
    assert value(after, "portal_moves_total", game="game-of-god") == value(
        before, "portal_moves_total", game="game-of-god"
    )


@pytest.mark.django_db
def test_a_broadcast_that_cannot_go_out_is_counted(metrics_on, monkeypatch):
    before = scrape()
    monkeypatch.setattr(reach, "down", lambda: True)
    outbox = live.Outbox()
    outbox.send("match-1", {"type": "chat.message", "message": {}})
    assert live.publish_now(outbox) is False
    after = scrape()
    failures = "portal_broadcast_failures_total"
    assert value(after, failures, reason="redis_down") == value(before, failures, reason="redis_down") + 1


@pytest.mark.django_db(transaction=True)
def test_the_bot_queue_depth_and_a_bots_think_time_are_reported(alice, metrics_on):
    from games import services

    before = scrape()
    assert ("portal_bot_queue_depth", ()) in before
    match = services.match_create_against_bots(user=alice, bot="random", game="game-of-god", num_players=2)
    rng = random.Random(1)

    def the_bot_has_moved() -> bool:
        # The dice may give the person turn after turn before the bot's first.
        play_turn(match.pk, {0: alice}, rng)
        drain_worker()
        return Move.objects.filter(match=match, seat=1).exists()

    wait_for(the_bot_has_moved, message="the bot's move")
    thought = "portal_bot_think_seconds_count"
    assert value(scrape(), thought, bot="random") > value(before, thought, bot="random")


@pytest.mark.django_db(transaction=True)
def test_a_finished_match_rated_moves_the_rating_lag(alice, bob, metrics_on):
    from rankings.models import RatingChange
    from tests.challenges.helpers import finished_two_player

    before = scrape()
    match = finished_two_player(alice, bob)
    drain_worker()
    wait_for(lambda: RatingChange.objects.filter(match=match).exists(), message="the ratings")
    lag = "portal_rating_lag_seconds_count"
    assert value(scrape(), lag) == value(before, lag) + 1


@pytest.mark.django_db(transaction=True)
def test_celery_tasks_are_timed_and_their_failures_counted(metrics_on, settings):
    from games.tasks import bot_act
    from rankings.tasks import rate_unrated

    before = scrape()
    rate_unrated.delay()  # a worker runs it (eagerly without a broker)
    drain_worker()
    bot_act.apply(args=("not-a-match", 1), throw=False)  # run here: it raises, and Celery records the failure
    after = scrape()
    ran, failed = "portal_celery_task_seconds_count", "portal_celery_task_failures_total"
    assert (
        value(after, ran, task="rankings.tasks.rate_unrated")
        == value(before, ran, task="rankings.tasks.rate_unrated") + 1
    )
    assert value(after, failed, task="games.tasks.bot_act") == value(before, failed, task="games.tasks.bot_act") + 1
    if not settings.CELERY_TASK_ALWAYS_EAGER:  # it went through the queue, and its wait there is known
        waited = "portal_celery_task_wait_seconds_count"
        assert (
            value(after, waited, task="rankings.tasks.rate_unrated")
            == value(before, waited, task="rankings.tasks.rate_unrated") + 1
        )


def test_with_a_shared_directory_every_process_adds_up_and_an_ended_one_leaves_the_socket_count(tmp_path):
    """uvicorn --workers N, Celery's children: each process writes its samples to
    PROMETHEUS_MULTIPROC_DIR, and any one of them serves the sum."""
    environment = {**os.environ, "PROMETHEUS_MULTIPROC_DIR": str(tmp_path), "PORTAL_TESTING": "1"}
    count = "from portal import metrics; metrics.move_played('territories'); metrics.socket_opened('MatchConsumer')"
    for _ in range(2):
        subprocess.run([sys.executable, "-c", count], env=environment, check=True, timeout=60)
    read = "from portal import metrics; import sys; sys.stdout.write(metrics.render().decode())"
    text = subprocess.run(
        [sys.executable, "-c", read], env=environment, check=True, timeout=60, capture_output=True, text=True
    ).stdout
    samples = {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }
    assert value(samples, "portal_moves_total", game="territories") == 2
    assert value(samples, "portal_open_sockets", consumer="MatchConsumer") == 0, "both processes have ended"
