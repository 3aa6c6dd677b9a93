"""What a committed write must tell the sockets, and the work that must follow it.

A service fills its outbox only as its transaction commits (``on_commit``), so a change that
is rolled back never reaches a socket; the edge that called the service then publishes it
(``live.publish``). Messages go out first, in the order they were put in; then each
follow-up (a bot's turn, the news that a match ended) runs on its own.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

from django.db import transaction


class Outbox:
    __slots__ = ("messages", "follow_ups")

    def __init__(self) -> None:
        self.messages: list[tuple[str, Mapping[str, Any]]] = []
        self.follow_ups: list[Callable[[], object]] = []

    def send(self, group: str, event: Mapping[str, Any]) -> None:
        """Put ``event`` for ``group`` in the outbox now (the caller has committed)."""
        self.messages.append((group, event))

    def then(self, follow_up: Callable[[], object]) -> None:
        """Run ``follow_up()`` after the messages went out (in a database thread on the loop)."""
        self.follow_ups.append(follow_up)

    def send_on_commit(self, group: str, event: Mapping[str, Any]) -> None:
        """Put ``event`` in the outbox once the current transaction commits (at once outside one)."""
        transaction.on_commit(partial(self.send, group, event), robust=True)

    def then_on_commit(self, follow_up: Callable[[], object]) -> None:
        transaction.on_commit(partial(self.then, follow_up), robust=True)

    def __bool__(self) -> bool:
        return bool(self.messages or self.follow_ups)

    def __repr__(self) -> str:
        return f"<Outbox {len(self.messages)} messages, {len(self.follow_ups)} follow-ups>"
