"""The Celery application. Eager (in-process) when REDIS_URL is unset; see settings."""

import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

app = Celery("portal")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _own_database_pool(**kwargs):
    """A forked worker child must not share its parent's connection pool (its sockets and
    its background threads): drop the inherited one so the child opens its own."""
    # Imported here: only a forked worker on PostgreSQL needs the PostgreSQL backend loaded.
    from django.db.backends.postgresql.base import DatabaseWrapper  # noqa: PLC0415

    DatabaseWrapper._connection_pools.clear()
