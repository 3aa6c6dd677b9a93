"""The channel layers: Channels' own, with a match's sockets reached by one message, players first.

A match's sockets listen in two tiers of one group (``live.groups``): its players in
``match-N-players``, everyone else in ``match-N``. A message sent to the match (to either name)
is published once and reaches both tiers: in each process, the players' sockets first, then
the spectators'. So a move costs one Redis publish, however many watch it, and a crowd of
spectators never stands between a move and the opponent who must answer it.

``TieredRedisPubSubChannelLayer`` is channels-redis' pub/sub layer with two changes on the
receiving side of a group's message: it is decoded once per process, not once per socket
(every socket of the process gets the same dict: handlers read a message, never change it),
and it is handed to the first tier's sockets at once, to the others in turns of
``SERVED_PER_TURN`` sockets, one turn per pass of the event loop, so the loop reads the players'
next moves between turns instead of after the whole crowd. ``TieredInMemoryChannelLayer``
gives the embedded default (one process, no Redis) the same delivery.

On the sending side, a message to a match's group also moves the match's kept page on
(``portal.page_cache``): the message is published and the page's new generation set in one
Redis command (a script: ``PUBLISH`` then ``SET ... EX``), when the page cache is kept in the
same Redis; measured, that adds about a tenth of what a second command would cost the event
loop. Otherwise (and with the in-memory layer) ``live.publishing`` moves it on after the send.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import deque
from typing import Any

from channels.layers import InMemoryChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer, RedisSingleShardConnection
from channels_redis.utils import _wrap_close  # noqa: PLC2701 -- as channels-redis closes its own loop layers
from redis.exceptions import NoScriptError

from portal import page_cache

from .groups import FIRST_TIER, page_group


def group_of(name: str) -> tuple[str, int]:
    """The group a name belongs to, and its tier there (0: served first, 1: the others)."""
    if name.endswith(FIRST_TIER):
        return name[: -len(FIRST_TIER)], 0
    return name, 1


class TieredInMemoryChannelLayer(InMemoryChannelLayer):
    async def group_send(self, group: str, message: dict) -> None:
        base, _ = group_of(group)
        await super().group_send(base + FIRST_TIER, message)
        await super().group_send(base, message)


# The second tier's sockets (a match's spectators) handed a group's message in one pass of the
# event loop, at most: about a millisecond of the loop's work.
SERVED_PER_TURN = 16

# Publish ARGV[1] on KEYS[1], and set KEYS[2] to ARGV[2] for ARGV[3] seconds.
PUBLISH_AND_SET = "redis.call('PUBLISH', KEYS[1], ARGV[1]) redis.call('SET', KEYS[2], ARGV[2], 'EX', ARGV[3]) return 1"
PUBLISH_AND_SET_SHA = hashlib.sha1(PUBLISH_AND_SET.encode()).hexdigest()


class TieredRedisPubSubChannelLayer(RedisPubSubChannelLayer):
    def redis_address(self) -> Any:
        """The address of the Redis the groups' messages go through (the first host's), as
        configured; None when none is given."""
        hosts = self._kwargs.get("hosts")
        if not hosts:
            return None
        return hosts[0].get("address") if isinstance(hosts[0], dict) else hosts[0]

    def sets_page_generations(self) -> bool:
        """Whether a message to a match's group sets its page's new generation too."""
        return page_cache.kept_in_redis_at(self.redis_address())

    def page_generation(self, group: str) -> tuple[str, int, int] | None:
        """What to set with a message to ``group``: (key, generation, seconds), or None."""
        shown = page_group(group)
        if shown is None:
            return None
        return page_cache.generation_in_redis(page_cache.live_area(shown), self.redis_address())

    def deserialize(self, message: Any) -> Any:
        """A group's message reaches a socket's queue decoded already (``_Shard``)."""
        if isinstance(message, dict):
            return message
        return super().deserialize(message)

    def _get_layer(self) -> RedisPubSubLoopLayer:
        # As channels-redis' own, with a layer of ours for each event loop.
        loop = asyncio.get_running_loop()
        layer = self._layers.get(loop)
        if layer is None:
            layer = self._layers[loop] = _LoopLayer(*self._args, **self._kwargs, channel_layer=self)
            _wrap_close(self, loop)
        return layer


class _LoopLayer(RedisPubSubLoopLayer):
    """Group membership by tier: Redis channel name -> (first tier, the others), each a dict
    used as an ordered set of this process's channel names."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._tiers: dict[str, tuple[dict[str, None], dict[str, None]]] = {}
        # Redis channel name -> the group's messages still to hand to its second tier, in order:
        # (message, channels, how many of them have it already).
        self._waiting: dict[str, deque[tuple[dict, list[str], int]]] = {}
        self._shards: list[RedisSingleShardConnection] = [_Shard(shard.host, self) for shard in self._shards]

    async def group_add(self, group: str, channel: str) -> None:
        if channel not in self.channels:
            raise RuntimeError(f"Only a channel of this process can join a group ({group!r}).")
        base, tier = group_of(group)
        redis_channel = self._get_group_channel_name(base)
        tiers = self._tiers.setdefault(redis_channel, ({}, {}))
        tiers[tier][channel] = None
        await self._get_shard(redis_channel).subscribe(redis_channel)

    async def group_discard(self, group: str, channel: str) -> None:
        base, tier = group_of(group)
        redis_channel = self._get_group_channel_name(base)
        tiers = self._tiers.get(redis_channel)
        if tiers is None or channel not in tiers[tier]:
            return
        del tiers[tier][channel]
        if not tiers[0] and not tiers[1]:
            del self._tiers[redis_channel]
            await self._get_shard(redis_channel).unsubscribe(redis_channel)

    async def group_send(self, group: str, message: dict) -> None:
        base, _ = group_of(group)
        redis_channel = self._get_group_channel_name(base)
        data = self.channel_layer.serialize(message)
        shard = self._get_shard(redis_channel)
        generation = self.channel_layer.page_generation(base)
        if generation is None:
            await shard.publish(redis_channel, data)
        else:
            assert isinstance(shard, _Shard)
            await shard.publish_and_set(redis_channel, data, *generation)

    def serve_in_turns(self, name: str, message: dict, channels: list[str]) -> None:
        """Hand ``message`` to ``channels`` (the second tier of the group on Redis channel
        ``name``) at most ``SERVED_PER_TURN`` at a time, one turn per pass of the event loop: the
        loop reads its sockets between turns, so a player's move that arrives while a crowd of
        spectators is being served waits for one turn, not for the crowd. The group's messages
        reach each socket in the order they came."""
        waiting = self._waiting.get(name)
        if waiting is not None:  # a turn is due already: after the messages before this one
            waiting.append((message, channels, 0))
        elif len(channels) <= SERVED_PER_TURN:
            self._put(message, channels)
        else:
            self._waiting[name] = deque([(message, channels, 0)])
            self._serve_turn(name)

    def _serve_turn(self, name: str) -> None:
        waiting = self._waiting.get(name)
        if waiting is None:
            return  # flushed meanwhile
        budget = SERVED_PER_TURN
        while waiting and budget:
            message, channels, start = waiting[0]
            end = min(start + budget, len(channels))
            self._put(message, channels[start:end])
            budget -= end - start
            if end == len(channels):
                waiting.popleft()
            else:
                waiting[0] = (message, channels, end)
        if waiting:
            asyncio.get_running_loop().call_soon(self._serve_turn, name)
        else:
            del self._waiting[name]

    def _put(self, message: dict, channels: list[str]) -> None:
        for channel in channels:
            queue = self.channels.get(channel)
            if queue is not None:  # still here
                queue.put_nowait(message)

    async def flush(self) -> None:
        self._tiers = {}
        self._waiting = {}
        await super().flush()


class _Shard(RedisSingleShardConnection):
    async def publish_and_set(self, channel: str, message: bytes, key: str, value: int, seconds: int) -> None:
        """``publish``, with ``key`` set in the same command (the script, loaded on first use)."""
        async with self._lock:
            self._ensure_redis()
            args = (2, channel, key, message, value, seconds)
            try:
                await self._redis.evalsha(PUBLISH_AND_SET_SHA, *args)
            except NoScriptError:
                await self._redis.eval(PUBLISH_AND_SET, *args)

    def _receive_message(self, message: dict | None) -> None:
        if message is None:
            return
        name = message["channel"]
        if isinstance(name, bytes):
            name = name.decode()
        layer: _LoopLayer = self.channel_layer
        queue = layer.channels.get(name)
        if queue is not None:  # a socket's own channel
            queue.put_nowait(message["data"])
            return
        tiers = layer._tiers.get(name)
        if tiers is None:
            return
        decoded = layer.channel_layer.deserialize(message["data"])
        first, others = tiers
        for channel in first:
            queue = layer.channels.get(channel)
            if queue is not None:
                queue.put_nowait(decoded)
        if others:
            layer.serve_in_turns(name, decoded, list(others))
