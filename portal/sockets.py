"""What every WebSocket meets before its route: a cap on the sockets one client address holds
open, and a clean refusal for a path no route serves."""

from __future__ import annotations

from collections import Counter

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings

from .client_ip import client_address

# Close codes a page can tell apart (4000-4999 are the application's own).
TOO_MANY_SOCKETS = 4429


def scope_address(scope) -> str | None:
    """The client's address of a socket, as every limit of the site counts it (client_ip)."""
    peer = (scope.get("client") or (None,))[0]
    forwarded = b",".join(value for name, value in scope.get("headers", []) if name == b"x-forwarded-for")
    return client_address(peer, forwarded.decode("latin-1") or None)


class SocketsPerAddressLimit:
    """ASGI middleware: at most ``SOCKETS_PER_ADDRESS`` open sockets per client address in this
    process. One more is accepted and closed at once with code 4429 and a reason, so the page
    can say why (a refused handshake tells a browser nothing)."""

    def __init__(self, inner):
        self.inner = inner
        self.open: Counter[str | None] = Counter()

    async def __call__(self, scope, receive, send):
        address = scope_address(scope)
        if self.open[address] >= settings.SOCKETS_PER_ADDRESS:
            await self.refuse(receive, send)
            return
        self.open[address] += 1
        try:
            return await self.inner(scope, receive, send)
        finally:
            self.open[address] -= 1
            if not self.open[address]:
                del self.open[address]

    @staticmethod
    async def refuse(receive, send):
        message = await receive()
        if message["type"] != "websocket.connect":
            return  # the client left before its handshake
        await send({"type": "websocket.accept"})
        reason = f"Too many open connections from your address (at most {settings.SOCKETS_PER_ADDRESS})."
        await send({"type": "websocket.close", "code": TOO_MANY_SOCKETS, "reason": reason})


class UnknownPathConsumer(AsyncWebsocketConsumer):
    """Any socket path no route serves: the handshake is refused (HTTP 403), nothing logged."""

    async def connect(self):
        await self.close()
