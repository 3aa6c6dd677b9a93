"""How pages show a service's refusal (a ``portal.errors.ServiceError``): the one place that
catches it, so views do not.

Two context managers, each swallowing the refusal raised in its block after showing it, and
each yielding a ``Refusal`` that says afterwards whether there was one::

    with refusals.on_form(form):          # by the field at fault, else above the form
        match = services.match_create(...)
        return redirect(match)
    return render(request, "...", {"form": form})

    with refusals.as_message(request) as refused:   # on the next page, as an error message
        services.tournament_start(...)
        messages.success(request, "Started.")
    return redirect(tournament)

Anything else raised in the block goes on its way.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.contrib import messages

from .errors import ServiceError


class Refusal:
    """What a block refused: ``error`` (None when nothing was), and whether it was shown on
    the form (``on_form``) or as a message. True when there was a refusal."""

    def __init__(self) -> None:
        self.error: ServiceError | None = None
        self.on_form = False

    def __bool__(self) -> bool:
        return self.error is not None


@contextmanager
def on_form(form, *, others_to=None) -> Iterator[Refusal]:
    """Show a refusal on ``form``: by the field it names when the form has that field, else as
    an error of the whole form; or, given ``others_to`` (a request), one that names none of the
    form's fields as an error message instead."""
    refusal = Refusal()
    try:
        yield refusal
    except ServiceError as exc:
        refusal.error = exc
        if exc.field in form.fields:
            form.add_error(exc.field, exc.message)
            refusal.on_form = True
        elif others_to is None:
            form.add_error(None, exc.message)
            refusal.on_form = True
        else:
            messages.error(others_to, exc.message)


@contextmanager
def as_message(request) -> Iterator[Refusal]:
    """Show a refusal as an error message (the messages framework): the view then redirects as
    it does after success, or where ``refused`` tells it to."""
    refusal = Refusal()
    try:
        yield refusal
    except ServiceError as exc:
        refusal.error = exc
        messages.error(request, exc.message)
