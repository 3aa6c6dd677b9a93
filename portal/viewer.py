"""Who is asking, for the async views: read without blocking the event loop."""

from __future__ import annotations


async def viewer(request):
    """The signed-in user, or an anonymous one, read as an async view must: the session from
    the cache in the event loop (``portal.cache``; from the database in a thread if it is not
    there), the account from the database in a thread; nothing at all without a session
    cookie. ``request.user`` is that object afterwards, so the templates and context
    processors read it, and the session, with nothing more to wait for."""
    user = await request.auser()
    request.user = user
    return user
