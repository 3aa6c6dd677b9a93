"""The channel layer: a message to a match goes out once and reaches its players' sockets
before its spectators', on Redis (with REDIS_URL) as on the embedded default."""

from __future__ import annotations

import asyncio

import pytest
from channels.layers import get_channel_layer
from django.conf import settings

from live.groups import match_group, match_players_group

pytestmark = pytest.mark.asyncio

UPDATE = {"type": "match.updated", "version": 7, "seats": ['{"seat": 0}', '{"seat": 1}'], "spectator": "{}"}


class Arrivals:
    """The order in which channels' queues were handed a message."""

    def __init__(self) -> None:
        self.order: list[str] = []

    def watch(self, layer, channel: str) -> None:
        queue = layer.channels[channel]
        put = queue.put_nowait

        def recorded(item):
            self.order.append(channel)
            put(item)

        queue.put_nowait = recorded


def on_redis() -> bool:
    return bool(getattr(settings, "REDIS_URL", ""))


async def channels_of(layer, count: int) -> list[str]:
    return [await layer.new_channel() for _ in range(count)]


async def receive_all(layer, channels: list[str]) -> list[dict]:
    return [await asyncio.wait_for(layer.receive(channel), 5) for channel in channels]


async def test_a_message_to_the_match_reaches_every_socket_players_first():
    layer = get_channel_layer()
    spectators = await channels_of(layer, 3)
    players = await channels_of(layer, 2)
    # The spectators join first: the order of arrival is not the order of joining.
    for channel in spectators:
        await layer.group_add(match_group(901), channel)
    for channel in players:
        await layer.group_add(match_players_group(901), channel)
    if on_redis():
        loop_layer = layer._get_layer()
        arrivals = Arrivals()
        for channel in spectators + players:
            arrivals.watch(loop_layer, channel)

    await layer.group_send(match_group(901), UPDATE)

    received = await receive_all(layer, players + spectators)
    assert all(message["version"] == 7 and message["seats"] == UPDATE["seats"] for message in received)
    if on_redis():
        assert set(arrivals.order[:2]) == set(players), arrivals.order
        # Decoded once for the process: every socket reads the same message.
        assert all(message is received[0] for message in received)
    for channel in spectators:
        await layer.group_discard(match_group(901), channel)
    for channel in players:
        await layer.group_discard(match_players_group(901), channel)


async def test_a_socket_that_leaves_gets_nothing_more_and_the_others_still_do():
    layer = get_channel_layer()
    stays, leaves = await channels_of(layer, 2)
    await layer.group_add(match_group(902), stays)
    await layer.group_add(match_players_group(902), leaves)
    await layer.group_discard(match_players_group(902), leaves)

    await layer.group_send(match_group(902), {"type": "chat.message", "message": {"text": "hello"}})

    assert (await asyncio.wait_for(layer.receive(stays), 5))["message"] == {"text": "hello"}
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(leaves), 0.3)
    await layer.group_discard(match_group(902), stays)


@pytest.mark.skipif(not on_redis(), reason="Redis publishes only with REDIS_URL")
async def test_a_message_to_the_match_is_one_redis_publish_whoever_listens():
    import redis.asyncio as redis

    layer = get_channel_layer()
    players = await channels_of(layer, 2)
    spectators = await channels_of(layer, 2)
    for channel in players:
        await layer.group_add(match_players_group(903), channel)
    for channel in spectators:
        await layer.group_add(match_group(903), channel)
    watcher = redis.Redis.from_url(settings.REDIS_URL)
    pubsub = watcher.pubsub()
    await pubsub.psubscribe(f"{layer._get_layer().prefix}__group__match-903*")
    await pubsub.get_message(timeout=1)  # the subscription's confirmation

    await layer.group_send(match_group(903), UPDATE)
    await receive_all(layer, players + spectators)

    published = []
    while (message := await pubsub.get_message(ignore_subscribe_messages=True, timeout=0.5)) is not None:
        published.append(message["channel"])
    assert len(published) == 1, published
    await pubsub.aclose()
    await watcher.aclose()
    for channel in players:
        await layer.group_discard(match_players_group(903), channel)
    for channel in spectators:
        await layer.group_discard(match_group(903), channel)
