import pytest


@pytest.fixture
def tasks_in_process(monkeypatch):
    """Celery tasks run inside the test, in its transaction, even with a broker and a worker
    (PostgreSQL + Redis): for rules tested without committing anything."""
    from portal.celery import app

    monkeypatch.setitem(app.conf, "task_always_eager", True)
