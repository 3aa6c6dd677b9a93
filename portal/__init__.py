# The portal's version: the one place it is written (pyproject.toml reads it from here). It is
# shown in every page's footer and at GET /api/version/; CHANGELOG.md says what each one brought.
__version__ = "0.1.0"

from .celery import app as celery_app  # noqa: E402

__all__ = ("__version__", "celery_app")
