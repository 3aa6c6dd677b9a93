"""Django's ASGI handler, with no thread for a request that needs none.

Django gives every ASGI request a thread of its own (``ThreadSensitiveContext``), made when the
request first runs sync code: a sync view, a sync middleware hook, ``sync_to_async``. Its
handler also calls the receivers of ``request_started`` and ``request_finished`` (and closes the
response) through ``sync_to_async``, so even an async view behind async middleware gets a
thread made, used twice and joined: most of the cost of a trivial request.

Those receivers are Django's per-thread upkeep: the database connections of the request's
thread closed or handed back to the pool, the queries log reset, the caches and the URLconf of
the request's context released. Here they run where the request's sync code ran: in its thread
if it has one (a connection opened there is handed back there, as with Django's handler), in
the event loop otherwise, where there is no connection to close and nothing waits.
``request_started`` is always sent in the event loop: at that point the request has no thread
yet, and the receivers would find nothing to do in a new one either. So the receivers of both
signals must stay quick and sync, as Django's are (a test lists them).

``handle`` is Django 5.2's with those three calls changed (marked ``# here``); a test compares
Django's with the copy it was made from, so an upgrade of Django is reviewed here.
"""

from __future__ import annotations

import asyncio

import django
from asgiref.sync import SyncToAsync, sync_to_async
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import asgi
from django.urls import set_script_prefix


def request_has_thread() -> bool:
    """Whether the current request ran sync code in a thread of its own (asgiref keeps one
    executor per ``ThreadSensitiveContext``, made on the first thread-sensitive call)."""
    context = SyncToAsync.thread_sensitive_context.get(None)
    return context is not None and context in SyncToAsync.context_to_thread_executor


async def close_response(response) -> None:
    """``response.close()`` (which sends ``request_finished``) in the request's thread if it
    has one, else here."""
    if request_has_thread():
        await sync_to_async(response.close)()
    else:
        response.close()


class ASGIHandler(asgi.ASGIHandler):
    async def handle(self, scope, receive, send):
        """
        Handles the ASGI request. Called via the __call__ method.
        """
        # Receive the HTTP request body as a stream object.
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        # Request is complete and can be served.
        set_script_prefix(asgi.get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)  # here
        # Get the request and check for basic issues.
        request, error_response = self.create_request(scope, body_file)
        if request is None:
            body_file.close()
            await self.send_response(error_response, send)  # type: ignore[arg-type]
            await close_response(error_response)  # here
            return

        async def process_request(request, send):
            response = await self.run_get_response(request)
            try:
                await self.send_response(response, send)
            except asyncio.CancelledError:
                # Client disconnected during send_response (ignore exception).
                pass

            return response

        # Try to catch a disconnect while getting response.
        tasks = [
            # Check the status of these tasks and (optionally) terminate them
            # in this order. The listen_for_disconnect() task goes first
            # because it should not raise unexpected errors that would prevent
            # us from cancelling process_request().
            asyncio.create_task(self.listen_for_disconnect(receive)),
            asyncio.create_task(process_request(request, send)),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        # Now wait on both tasks (they may have both finished by now).
        for task in tasks:
            if task.done():
                try:
                    task.result()
                except RequestAborted:
                    # Ignore client disconnects.
                    pass
                except AssertionError:
                    body_file.close()
                    raise
            else:
                # Allow views to handle cancellation.
                task.cancel()
                try:
                    await task
                except asyncio.CancelledError:
                    # Task re-raised the CancelledError as expected.
                    pass

        try:
            response = tasks[1].result()
        except asyncio.CancelledError:
            await signals.request_finished.asend(sender=self.__class__)
        else:
            await close_response(response)  # here

        body_file.close()


def get_asgi_application() -> ASGIHandler:
    """``django.core.asgi.get_asgi_application`` with this handler."""
    django.setup(set_prefix=False)
    return ASGIHandler()
