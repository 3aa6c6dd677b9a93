"""What every WebSocket meets before its route: a cap on the sockets one client address holds
open, and a clean refusal for a path no route serves."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.security.websocket import AllowedHostsOriginValidator
from django.conf import settings
from rest_framework.authtoken.models import Token

from .client_ip import client_address

# Close codes a page can tell apart (4000-4999 are the application's own).
TOO_MANY_SOCKETS = 4429
# A socket opened with ``?auth=frame`` whose first frame is not ``{"type": "auth", "token": ...}``,
# whose token is no active account's, or that sent nothing in time (``FirstFrameToken``).
AUTH_FRAME_EXPECTED = 4400
AUTH_TOKEN_REFUSED = 4401
AUTH_FRAME_LATE = 4408


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


def token_key(authorization: str) -> str | None:
    """The API token an ``Authorization`` header names (``Token <key>``, or ``Bearer <key>``)."""
    kind, _, key = authorization.partition(" ")
    return key.strip() if kind in ("Token", "Bearer") and key.strip() else None


def token_account(key: str):
    """The active account whose API token ``key`` is, or None (sync: a database thread)."""
    token = Token.objects.select_related("user").filter(key=key).first()
    return token.user if token is not None and token.user.is_active else None


def _token_of(scope) -> str | None:
    """The API token a socket's handshake sends."""
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            return token_key(value.decode("latin-1"))
    return None


class TokenAuth:
    """ASGI middleware, inside channels' session auth: a socket whose handshake sends an API
    token (a program: a bot) speaks for that token's account, as the REST API does
    (``scope["api_token"]``: its sign-in is the token, which a new password or a token issued
    anew ends: ``live.credentials``). A token that is no active account's is refused (403)."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        key = _token_of(scope)
        if key is None:
            return await self.inner(scope, receive, send)
        user = await database_sync_to_async(token_account)(key)
        if user is None:
            message = await receive()
            if message["type"] == "websocket.connect":
                await send({"type": "websocket.close"})  # the handshake refused
            return None
        return await self.inner({**scope, "user": user, "api_token": key}, receive, send)


class OriginOrToken:
    """Channels' check that a socket comes from a page of this site (its ``Origin``), for
    sockets signed in by the browser's cookie; one that sends an API token (which no page of
    another site can send) needs no Origin."""

    def __init__(self, inner):
        self.inner = inner
        self.checked = AllowedHostsOriginValidator(inner)

    async def __call__(self, scope, receive, send):
        if _token_of(scope) is not None:
            return await self.inner(scope, receive, send)
        return await self.checked(scope, receive, send)


def _first_frame_asked(scope) -> bool:
    """Whether a socket asks to sign in by its first frame (``?auth=frame``, no token header)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return query.get("auth") == ["frame"] and _token_of(scope) is None


class FirstFrameToken:
    """ASGI middleware, outside the Origin check: a program that cannot set the handshake's
    headers opens its socket with ``?auth=frame`` and sends ``{"type": "auth", "token": "<key>"}``
    as its first frame within ``SOCKET_AUTH_SECONDS``. Until then the socket reaches no
    consumer: it hears nothing and can do nothing. Its cookies are dropped, so a page of another
    site that opens such a socket in a signed-in browser speaks for nobody (it has no token to
    send, and without one the socket is closed). With a good token, the rest of the stack sees
    the token as if it came in the ``Authorization`` header (``TokenAuth``). A wrong token closes
    the socket with 4401, another frame first with 4400, silence with 4408, each with a reason."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        if scope.get("type") != "websocket" or not _first_frame_asked(scope):
            return await self.inner(scope, receive, send)
        message = await receive()
        if message["type"] != "websocket.connect":
            return None  # gone before its handshake
        await send({"type": "websocket.accept"})
        key = await self._token(receive, send)
        if key is None:
            return None
        headers = [(name, value) for name, value in scope.get("headers", []) if name not in (b"cookie", b"origin")]
        headers.append((b"authorization", f"Token {key}".encode("latin-1")))
        return await self.inner({**scope, "headers": headers}, _connected_first(receive), _accepted_already(send))

    @staticmethod
    async def _token(receive, send) -> str | None:
        """The token of the first frame (its account checked), or None once the socket is closed."""

        async def close(code: int, reason: str) -> None:
            await send({"type": "websocket.close", "code": code, "reason": reason})

        try:
            message = await asyncio.wait_for(receive(), timeout=settings.SOCKET_AUTH_SECONDS)
        except TimeoutError:
            await close(AUTH_FRAME_LATE, f"No auth frame within {settings.SOCKET_AUTH_SECONDS} seconds.")
            return None
        if message["type"] != "websocket.receive":
            return None  # the client left
        try:
            frame = json.loads(message.get("text") or "")
        except ValueError:
            frame = None
        key = frame.get("token") if isinstance(frame, dict) and frame.get("type") == "auth" else None
        if not isinstance(key, str) or not key.strip() or len(key) > 100:
            await close(AUTH_FRAME_EXPECTED, 'The first frame must be {"type": "auth", "token": "<your API token>"}.')
            return None
        if await database_sync_to_async(token_account)(key.strip()) is None:
            await close(AUTH_TOKEN_REFUSED, "That token is no account's.")
            return None
        return key.strip()


def _connected_first(receive):
    """The stack below sees the handshake it expects first, then the socket's own messages."""
    handshake = [{"type": "websocket.connect"}]

    async def replayed():
        return handshake.pop() if handshake else await receive()

    return replayed


def _accepted_already(send):
    """The socket is accepted already: the consumer's accept is dropped, and a refusal before it
    (which would be a refused handshake) becomes a close with a code the program can read."""
    accepted = False

    async def sending(message):
        nonlocal accepted
        if message["type"] == "websocket.accept":
            accepted = True
            return None
        if message["type"] == "websocket.close" and not accepted:
            message = {"code": 4403, "reason": "Refused.", **{k: v for k, v in message.items() if v is not None}}
        return await send(message)

    return sending
