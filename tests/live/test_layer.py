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


@pytest.mark.skipif(not on_redis(), reason="the crowd is served in turns by the Redis layer")
async def test_a_crowd_of_spectators_is_served_in_turns_the_loop_reading_its_sockets_between():
    from live.layer import SERVED_PER_TURN

    layer = get_channel_layer()
    crowd = await channels_of(layer, 5 * SERVED_PER_TURN + 3)
    players = await channels_of(layer, 2)
    for channel in crowd:
        await layer.group_add(match_group(904), channel)
    for channel in players:
        await layer.group_add(match_players_group(904), channel)
    loop_layer = layer._get_layer()
    arrivals = Arrivals()
    for channel in crowd + players:
        arrivals.watch(loop_layer, channel)
    # Something the loop has to do meanwhile (a player's next move read from its socket): it
    # is noted when it runs, among the crowd's turns.
    served_before = []

    def player_frame_read():
        served_before.append(len(arrivals.order))

    first, second = dict(UPDATE, version=7), dict(UPDATE, version=8)
    await layer.group_send(match_group(904), first)
    await layer.group_send(match_group(904), second)
    received: dict[str, list[int]] = {channel: [] for channel in crowd + players}
    received[players[0]].append((await asyncio.wait_for(layer.receive(players[0]), 5))["version"])
    asyncio.get_running_loop().call_soon(player_frame_read)

    for channel in crowd + players:
        while len(received[channel]) < 2:
            received[channel].append((await asyncio.wait_for(layer.receive(channel), 5))["version"])
    assert all(versions == [7, 8] for versions in received.values()), "every socket, every message, in order"
    assert set(arrivals.order[:2]) == set(players)
    everyone = 2 * len(crowd + players)
    assert served_before and served_before[0] < everyone, "the loop ran other work before the crowd had both"
    for channel in crowd:
        await layer.group_discard(match_group(904), channel)
    for channel in players:
        await layer.group_discard(match_players_group(904), channel)
