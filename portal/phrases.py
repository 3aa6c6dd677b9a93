"""A sentence kept as data, said later in its reader's language.

A phrase is ``{"msgid": ..., "args": {...}}``: an English message marked for translation where
it is written (``gettext_noop``) and its named parts, each a plain value, another phrase, or
``{"ordinal": n}`` ("1st", "1.", "1er"). It is JSON, so it can be stored (a notification's words)
or sent (a socket's event), and said in whatever language is active when it is shown.
"""

from __future__ import annotations

from typing import Any

from django.contrib.humanize.templatetags.humanize import ordinal
from django.utils import translation
from django.utils.html import strip_tags
from django.utils.translation import gettext


def phrase(msgid: str, **args: Any) -> dict:
    """The phrase of ``msgid`` (an English message with ``%(name)s`` parts) and its parts."""
    return {"msgid": msgid, "args": args}


def ordinal_of(number: int) -> dict:
    """A number said as an ordinal in the reader's language."""
    return {"ordinal": number}


def say(value: Any) -> str:
    """``value`` (a phrase, an ordinal or a plain value) in the active language. A phrase whose
    translation does not fit its parts is said in English rather than not at all."""
    if isinstance(value, dict) and "ordinal" in value:
        return strip_tags(ordinal(value["ordinal"]) or "")  # plain text: French's is "1<sup>er</sup>"
    if isinstance(value, dict) and isinstance(value.get("msgid"), str):
        msgid = value["msgid"]
        args = value.get("args") or {}
        if not isinstance(args, dict) or not args:
            return gettext(msgid)
        parts = {name: say(part) for name, part in args.items()}
        try:
            return gettext(msgid) % parts
        except (KeyError, TypeError, ValueError):
            try:
                return msgid % parts
            except (KeyError, TypeError, ValueError):
                return msgid
    return str(value)


def say_in_english(value: Any) -> str:
    with translation.override("en"):
        return say(value)
