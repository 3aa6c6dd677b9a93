"""The live room: everything between a committed write and the sockets.

A write (a service of any app) says what the sockets must be told in an ``Outbox``, filled as
its transaction commits; the edge that called it (a socket, a view, a task) publishes that
outbox: ``publish`` on the event loop, ``publish_on_commit`` from sync code. Nothing else in
the project sends to a channel layer.

Here too: the group names (``groups``), the typed events (``events``), the sockets' database
threads (``executor``), the bridge from worker threads to the server's event loop
(``bridge``), the base consumer every socket extends (``sockets.JsonSocket``: frame limits,
flood control, ping, error frames), what a socket knows of its person's sign-in and how its end
closes their sockets (``credentials``, ``close_user_sockets``) and whether the channel layer
can be reached (``reach``).

This package imports no domain app: the apps use it, never the reverse.
"""

from .credentials import close_user_sockets
from .outbox import Outbox
from .publishing import publish, publish_now, publish_on_commit

__all__ = ["Outbox", "close_user_sockets", "publish", "publish_now", "publish_on_commit"]
