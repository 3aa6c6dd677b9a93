"""An ASGI app that answers every request with the process id that served it."""

import os


async def application(scope, receive, send):
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    body = str(os.getpid()).encode()
    headers = [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def words() -> str:
    """About 4 KB of text like a match update's: the same every time."""
    import random

    rng = random.Random(7)
    vocabulary = ["chip", "block", "chronology", "blue", "red", "green", "seat", "version", '"x":', "{", "}", "12", "7"]
    return " ".join(rng.choice(vocabulary) for _ in range(800))


async def update(scope, receive, send):
    """A WebSocket app that sends ``words()`` once the socket is open, then closes."""
    if scope["type"] != "websocket":
        return await application(scope, receive, send)
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": words()})
    await send({"type": "websocket.close"})
