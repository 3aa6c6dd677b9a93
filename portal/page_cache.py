"""The shared parts of pages, rendered once and kept in the cache until what they show changes.

A page asks for its fragments under the *areas* of the site they show. Each area has a
generation, a random token kept in the cache, and a fragment is kept with the generations it
was rendered under, so a change makes every fragment showing it stale at once by drawing a
new token for its area: the next request finds the tokens differ and renders afresh.

    finished            the latest finished matches of every game (home page)
    finished:<slug>     the latest finished matches of one game (game page)
    ratings             the ratings of every game (Hall of Fame page)
    ratings:<slug>      the ratings of one game (game page, ranking pages)
    open                the public matches waiting for players (lobby)
    people              the names of accounts and which of them are bots
    forums              which forum belongs to which game
    live:<group>        what the sockets of a live room's group are told (``live_area``): a
                        match's page (``live:match-<id>``)

Generations move on commit of: a match ending (``games.signals.match_finished``), a
match's ratings or a recompute (``rankings.services``), a change to the open matches
(``games.signals.open_matches_changed``), an account saved with its name or bot flag, a
forum saved (``portal.receivers``). Moves do none of these. The one area a move moves on is
its match's, ``live:match-<id>``: the live room (``live.publishing``) draws a new generation for
it whenever it sends the match's sockets a message (a move, a chat line, a seat given up, a
takeback asked, a rematch offered), after the commit, in the same Redis command that
publishes the message (``generation_in_redis``): the move path's only touch of this cache.
Every committed change of a match goes out to its sockets that way, so none can leave its
page behind.

Fragments and pages are kept per language (the one active when they are rendered): a page in
German is never served to someone reading English.

Nothing personal is ever inside a fragment, not even the viewer's time zone: fragments are
rendered in UTC and print times as ``<time datetime>`` elements that the page's script shows
in each viewer's zone; a whole page is kept per time zone cookie too. Fragments are rendered without the request (no
user, no session, no CSRF token), and a template marks what differs per viewer with
``{% personal "me" row.user_id %} class="me"{% endpersonal %}``: the fragment keeps the text
with its condition, and ``{% fill fragment %}`` puts it in, or leaves it out, for each
request. A ``{% csrf_token %}`` inside a personal part gets the viewer's token.

Generations live in the shared cache (Redis when ``REDIS_URL`` is set), so every process
sees a bump at once; the local-memory cache of the embedded default serves its one process.
A fingerprint of the code is part of every stamp too: after a deploy, nothing the old
templates rendered is served.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import logging
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from asgiref.sync import sync_to_async
from django.apps import apps
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import caches
from django.db import transaction
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from .cache import FaultTolerantRedisCache, aget_many, aset_many

log = logging.getLogger(__name__)

# A safety net only: an entry is never used once a generation it was built under has moved
# on. The timeout bounds how long a change made behind the services' back (the admin, a
# shell) can show, and frees the entries of pages nobody asks for any more.
FRAGMENT_SECONDS = 600

GENERATION_KEY = "page:gen:{}"
FRAGMENT_KEY = "page:{}:{}:{}"  # language, page, fragment

# What a ``{% csrf_token %}`` renders while a fragment is built; each viewer gets their own.
CSRF_SLOT = "csrf-token-of-the-viewer"
# Set in the context of a fragment being built: ``{% personal %}`` then leaves a marker.
BUILDING = "page_cache_building"
# Set on a request whose page may be kept for every visitor who brings nothing: the token of a
# ``{% form_token %}`` (the footer's language form) is then this slot, and each visitor gets
# their own as the page is served.
SHARED_PAGE = "page_cache_shared"
FORM_TOKEN_SLOT = b"csrf-token-of-this-visitor"


# --------------------------------------------------------------------------------------
# The cache and the code


@functools.cache
def shared_cache():
    """The default cache, one object per process. Django keeps one per request context, and
    under ASGI every request runs in a context of its own: the Redis backend's connection
    pool goes with the object, so each request would open a new connection to Redis (about
    a millisecond here, more than reading the fragments). One object's pool serves every
    thread of the process."""
    return caches.create_connection("default")


@functools.cache
def release() -> str:
    """A fingerprint of the code and templates this process renders with. Part of every
    fragment's stamp, so that after a deploy nothing rendered by the old code is served,
    whatever the generations say."""
    digest = hashlib.blake2b(digest_size=6)
    base = settings.BASE_DIR
    ours = [Path(app.path) for app in apps.get_app_configs() if Path(app.path).parent == base]
    for folder in sorted([*ours, base / "templates", base / "locale"]):
        for path in sorted(folder.rglob("*")):
            if path.suffix in (".py", ".html", ".mo") and path.is_file():
                digest.update(str(path.relative_to(base)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()


# --------------------------------------------------------------------------------------
# Who is looking: the conditions of personal parts


@dataclass(frozen=True)
class Viewer:
    user_id: str | None
    found_id: str | None

    @classmethod
    def of(cls, context) -> Viewer:
        user = context.get("user")
        found = context.get("found")
        signed_in = user is not None and user.is_authenticated
        return cls(
            user_id=str(user.pk) if signed_in else None,
            found_id=str(found.pk) if found is not None else None,
        )


CONDITIONS: dict[str, Callable[[Viewer, str], bool]] = {
    # The row, seat or line of the signed-in viewer (the argument is a user id).
    "me": lambda viewer, arg: viewer.user_id is not None and viewer.user_id == arg,
    # Anyone signed in (forms that need an account).
    "signed-in": lambda viewer, arg: viewer.user_id is not None,
    # The ranking row the viewer searched for (the argument is the Rating's id).
    "found": lambda viewer, arg: viewer.found_id is not None and viewer.found_id == arg,
}


def shows(condition: str, arg: Any, context) -> bool:
    return CONDITIONS[condition](Viewer.of(context), "" if arg is None else str(arg))


_MARKER = re.compile(r"<!--personal:([a-z-]+):([\w-]*):([A-Za-z0-9_=-]*)-->")


def marker(condition: str, arg: Any, html: str) -> str:
    """Where a personal part goes in a fragment being built: an HTML comment, which escaped
    text (names, anything people type) can never produce."""
    encoded = base64.urlsafe_b64encode(html.encode()).decode()
    return f"<!--personal:{condition}:{'' if arg is None else arg}:{encoded}-->"


# --------------------------------------------------------------------------------------
# Fragments


@dataclass(frozen=True)
class Rendered:
    """A rendered fragment: shared HTML, with (condition, argument, html) for each personal part."""

    parts: tuple[str | tuple[str, str, str], ...]

    def fill(self, context) -> str:
        viewer = Viewer.of(context)
        out = []
        for part in self.parts:
            if isinstance(part, str):
                out.append(part)
            elif CONDITIONS[part[0]](viewer, part[1]):
                out.append(part[2])
        html = "".join(out)
        if CSRF_SLOT in html:
            html = html.replace(CSRF_SLOT, str(context.get("csrf_token", "")))
        return mark_safe(html)  # the output of our own templates, escaped when rendered


def render(template: str, context: dict) -> Rendered:
    """Render ``template`` as a shared fragment: no request, personal parts kept aside, and
    in UTC whoever asks first (its times are ``<time>`` elements the page's script shows in
    each viewer's zone)."""
    with timezone.override("UTC"):
        html = render_to_string(template, {**context, BUILDING: True, "csrf_token": CSRF_SLOT})
    pieces = _MARKER.split(html)
    parts: list[str | tuple[str, str, str]] = []
    for i in range(0, len(pieces) - 1, 4):
        text, condition, arg, encoded = pieces[i : i + 4]
        if text:
            parts.append(text)
        parts.append((condition, arg, base64.urlsafe_b64decode(encoded).decode()))
    if pieces[-1]:
        parts.append(pieces[-1])
    return Rendered(tuple(parts))


def _keys(page: str, areas: list[str], builders) -> tuple[list[str], dict[str, str]]:
    language = translation.get_language() or settings.LANGUAGE_CODE
    fragment_keys = {name: FRAGMENT_KEY.format(language, page, name) for name in builders}
    return [GENERATION_KEY.format(area) for area in areas], fragment_keys


def _fresh(found: dict, generation_keys: list[str], keys: dict[str, str]) -> dict[str, Any] | None:
    """The fragments of ``keys`` from ``found`` (what the cache answered), or None unless
    every generation is known and every fragment was built under them."""
    if not all(key in found for key in generation_keys):
        return None
    stamp = ".".join([release(), *(found[key] for key in generation_keys)])
    result = {}
    for name, key in keys.items():
        entry = found.get(key)
        if entry is None or entry[0] != stamp:
            return None
        result[name] = entry[1]
    return result


def cached(page: str, areas: Iterable[str], builders: dict[str, Callable[[], Any]]) -> dict[str, Any]:
    """The values of ``builders`` (usually ``render(...)`` of a fragment) for ``page``: read
    from the cache while the generations of ``areas`` are those they were built under,
    built and kept otherwise.

    One round trip to the cache reads the generations and the fragments together; building
    adds one more. A builder that returns None is not kept (for what must not be cached,
    such as a page number out of range).
    """
    areas = list(areas)
    generation_keys, keys = _keys(page, areas, builders)
    cache = shared_cache()
    found = cache.get_many([*generation_keys, *keys.values()])
    if all(key in found for key in generation_keys):
        stamp = ".".join([release(), *(found[key] for key in generation_keys)])
    else:
        stamp = ".".join([release(), *generations(areas)])
    result, new = {}, {}
    for name, key in keys.items():
        entry = found.get(key)
        if entry is not None and entry[0] == stamp:
            result[name] = entry[1]
            continue
        # Built from what the database holds now, kept under the generations read before:
        # if a change lands meanwhile, its new generation makes this entry stale at once.
        result[name] = builders[name]()
        if result[name] is not None:
            new[key] = (stamp, result[name])
    if new:
        cache.set_many(new, FRAGMENT_SECONDS)
    return result


async def acached(page: str, areas: Iterable[str], builders: dict[str, Callable[[], Any]]) -> dict[str, Any]:
    """``cached`` for an async view: when every fragment is in the cache and fresh, read in
    the event loop (one round trip, no thread); otherwise ``cached`` in a thread, which builds
    what is missing from the database as before."""
    areas = list(areas)
    generation_keys, keys = _keys(page, areas, builders)
    cache = shared_cache()
    wanted = [*generation_keys, *keys.values()]
    found = await aget_many(cache, wanted)
    result = _fresh(found, generation_keys, keys)
    if result is not None:
        return result
    return await sync_to_async(cached, thread_sensitive=True)(page, areas, builders)


# --------------------------------------------------------------------------------------
# Whole pages
#
# A visitor without a session or messages of their own sees what every such visitor sees: the
# page is its fragments around parts that are the same for all (the header of someone signed
# out, the forms that need an account left out). So an async view may keep the whole page,
# in this process's memory, under its address and the generations of the areas it shows: the
# next such visitor gets it for one small cache read (the generations) and no render, and a
# change to one of its areas makes it stale at once, as it does the fragments. A page whose
# rendering used a CSRF token (a form) is never kept for them: the token belongs to one visitor.
#
# A signed-in visitor's page is kept for that visitor's session alone: under the session's key,
# the account and the password hash's digest the session holds, the visitor's CSRF cookie and
# the generation of the area ``viewer:<id>`` (what the pages show of the account itself: its
# name and rights, the challenges waiting for it), besides the page's areas. Their next request
# for the address reads the session and the generations from the cache (one small read in the
# event loop, ``prefetch``; two when its guess of the keys missed) and gets the page without
# loading the account or rendering anything. An account
# saved (a password changed, a name, deactivated) moves its area on, so every session of it is
# checked afresh by Django's authentication on its next page, as without this cache: a session
# ended by a sign-out or a password change is never served a kept page. A session that holds
# messages (``_messages``) or a visitor with a messages cookie gets no kept page.

# A generation of a live room's group lives this long without a message (and is drawn afresh,
# so that nothing kept under the old one is served): the rooms of finished matches go away.
LIVE_AREA_SECONDS = 24 * 3600

PAGES_KEPT = 512
# A signed-in visitor's page is kept this long at most: should the move of an account's area
# be lost (the cache unreachable just then), a session it ended gets a kept page no longer.
SIGNED_IN_SECONDS = 60.0
_pages: OrderedDict[tuple, tuple[bytes, bool, float | None]] = OrderedDict()


def viewer_area(user_id) -> str:
    """The area of what the pages show of one account to itself."""
    return f"viewer:{user_id}"


def live_area(group: str) -> str:
    """The area of what the pages show of a live room's ``group`` (``live.groups``): it moves
    on with every message sent to the group's sockets."""
    return f"live:{group}"


def _area_seconds(area: str) -> int | None:
    return LIVE_AREA_SECONDS if area.startswith("live:") else None


# Set on a response by ``keep_at_most``: how long ``whole_page`` may keep it.
_KEEP_AT_MOST = "page_cache_keep_at_most"


def keep_at_most(response: HttpResponse, seconds: float) -> HttpResponse:
    """Mark ``response``, built for ``whole_page``, to be kept ``seconds`` at most whoever asked
    (``SIGNED_IN_SECONDS`` still bounds a signed-in visitor's); 0 or less: not kept. For a page
    that also changes with time (a clock running out) or that is not worth keeping."""
    setattr(response, _KEEP_AT_MOST, seconds)
    return response


def _no_messages(request) -> bool:
    return (
        request.method == "GET"
        and settings.MESSAGE_STORAGE == "django.contrib.messages.storage.fallback.FallbackStorage"
        and "messages" not in request.COOKIES  # the cookie of that storage
    )


def _brings_nothing(request) -> bool:
    """No session and no message of its own: nothing on the page can be this visitor's."""
    return _no_messages(request) and settings.SESSION_COOKIE_NAME not in request.COOKIES


async def _signed_in(request) -> tuple | None:
    """For a signed-in visitor whose page may be kept: (user id, what else their kept page is
    kept under), read from the session in the event loop; None for anyone else."""
    session = getattr(request, "session", None)
    csrf_secret = request.META.get("CSRF_COOKIE")
    if not _no_messages(request) or session is None or session.session_key is None:
        return None
    user_id = await session.aget(SESSION_KEY)
    if user_id is None or await session.aget("_messages") is not None:
        return None
    digest = await session.aget(HASH_SESSION_KEY)
    return user_id, (session.session_key, user_id, digest, await session.aget(BACKEND_SESSION_KEY), csrf_secret)


# What a signed-in visitor's next page will read, guessed from what the last ones read, so that
# the session and the generations come in one round trip (``prefetch``): the account each
# session belonged to, and the areas each address's page showed. Only which keys are read is
# guessed; every value used is read afresh with the rest.
GUESSES_KEPT = 4096
_session_users: OrderedDict[str, Any] = OrderedDict()
_address_areas: OrderedDict[str, tuple[str, ...]] = OrderedDict()
# Set on the request by ``prefetch``: {generation key: value} of what was read, and the keys read.
_PREFETCHED = "page_cache_prefetched"


def _remember(kept: OrderedDict, key: str, value: Any) -> None:
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > GUESSES_KEPT:
        kept.popitem(last=False)


async def prefetch(request) -> None:
    """Load the session of ``request`` in the event loop, and with it, in the same round trip,
    the generations its page is likely to ask for: the areas this address's page showed last,
    and the area of the account this session belonged to last. A later ``whole_page`` then
    reads only what the guess missed. Does nothing when the session is loaded or has no key;
    a session the cache does not hold is left to load as usual (from the database)."""
    session = getattr(request, "session", None)
    if (
        session is None
        or session.session_key is None
        or hasattr(session, "_session_cache")
        or getattr(session, "_cache", None) is not shared_cache()  # not the site's store (``portal.sessions``)
    ):
        return
    generation_keys: list[str] = []
    if _no_messages(request):
        areas = _address_areas.get(request.get_full_path(), ())
        user_id = _session_users.get(session.session_key)
        if user_id is not None:
            areas = (*areas, viewer_area(user_id))
        generation_keys = [GENERATION_KEY.format(area) for area in areas]
    session_key = session.cache_key
    found = await aget_many(shared_cache(), [session_key, *generation_keys])
    data = found.pop(session_key, None)
    if data is not None:  # as the store's own load would have found it
        session._session_cache = data
        session.accessed = True
    if generation_keys:
        setattr(request, _PREFETCHED, (found, frozenset(generation_keys)))


async def _generations_of(request, generation_keys: list[str]) -> dict[str, str]:
    """The generations of ``generation_keys``: those ``prefetch`` read for this request, and
    the rest from the cache now."""
    nothing: tuple[dict[str, str], frozenset[str]] = ({}, frozenset())
    found, read = getattr(request, _PREFETCHED, nothing)
    missing = [key for key in generation_keys if key not in read]
    result = {key: found[key] for key in generation_keys if key in found}
    if missing:
        result.update(await aget_many(shared_cache(), missing))
    return result


async def whole_page(
    request,
    areas: Iterable[str],
    build: Callable[[], Awaitable[HttpResponse]],
    personal_seconds: float | None = None,
) -> HttpResponse:
    """``await build()``, the page of ``request`` showing ``areas``; or the page built for the
    last visitor who brought nothing of their own, for such a visitor, or for this signed-in
    visitor's session before, while the generations it was built under are the same. A
    signed-in visitor's page is kept ``SIGNED_IN_SECONDS`` at most, ``personal_seconds`` when
    shorter (for what ends with time rather than a write: a challenge expiring); a page the
    build marked with ``keep_at_most`` is kept that long at most, for everyone."""
    areas = list(dict.fromkeys(areas))
    address = request.get_full_path()
    key = None
    csrf_secret = None
    if _brings_nothing(request):
        who: tuple = ()
        request.META[SHARED_PAGE] = True
    else:
        signed_in = await _signed_in(request)
        if signed_in is None:
            return await build()
        user_id, who = signed_in
        csrf_secret = who[-1]
        _remember(_address_areas, address, tuple(areas))
        _remember(_session_users, who[0], user_id)
        areas.append(viewer_area(user_id))
    generation_keys = [GENERATION_KEY.format(area) for area in areas]
    found = await _generations_of(request, generation_keys)
    if all(k in found for k in generation_keys):
        # The visitor's time zone as their browser keeps it: the page prints times in it.
        zone = request.COOKIES.get(settings.TIME_ZONE_COOKIE_NAME, "")[:64]
        language = translation.get_language()
        key = (address, zone, language, release(), *(found[k] for k in generation_keys), *who)
        kept = _pages.get(key)
        if kept is not None:
            content, csrf_used, until = kept
            if until is None or time.monotonic() < until:
                _pages.move_to_end(key)
                if csrf_used:  # the cookie is sent again, as a render using the token does
                    request.META["CSRF_COOKIE_NEEDS_UPDATE"] = True
                return HttpResponse(_with_form_token(request, content))
    # Built from what the cache and the database hold now, kept under the generations read
    # before: if a change lands meanwhile, its new generation makes this page stale at once.
    response = await build()
    if key is None:
        if response.status_code == 200:
            # First page of these areas since the cache was emptied (an account's, a match's
            # since its last message a day ago): they get generations, for the next request.
            # Not before the page is found: an address of no page leaves nothing behind.
            missing = [area for area, k in zip(areas, generation_keys, strict=True) if k not in found]
            await sync_to_async(generations, thread_sensitive=True)(missing)
        return _form_token_filled(request, response, who)
    csrf_used = bool(request.META.get("CSRF_COOKIE_NEEDS_UPDATE"))
    limit = getattr(response, _KEEP_AT_MOST, None)
    if response.status_code == 200 and not response.cookies and (limit is None or limit > 0):
        now = time.monotonic()
        if who and request.META.get("CSRF_COOKIE") == csrf_secret:  # no new CSRF cookie made
            seconds = min([SIGNED_IN_SECONDS, *(s for s in (personal_seconds, limit) if s is not None)])
            _keep(key, response.content, csrf_used, now + seconds)
        elif not who and not csrf_used:
            _keep(key, response.content, False, None if limit is None else now + limit)
    return _form_token_filled(request, response, who)


def _form_token_filled(request, response: HttpResponse, who: tuple) -> HttpResponse:
    """A page built for a visitor who brought nothing, with their own CSRF token in its forms."""
    if not who and FORM_TOKEN_SLOT in response.content:
        response.content = _with_form_token(request, response.content)
    return response


def _with_form_token(request, content: bytes) -> bytes:
    """A page kept for every visitor, with this visitor's own CSRF token in its forms."""
    if FORM_TOKEN_SLOT not in content:
        return content
    return content.replace(FORM_TOKEN_SLOT, get_token(request).encode())


def _keep(key: tuple, content: bytes, csrf_used: bool, until: float | None) -> None:
    _pages[key] = (content, csrf_used, until)
    while len(_pages) > PAGES_KEPT:
        _pages.popitem(last=False)


# --------------------------------------------------------------------------------------
# Generations


def _token() -> str:
    return secrets.token_hex(6)


def generations(areas: Iterable[str]) -> list[str]:
    """The current generation of each area, in order (one round trip when all are known)."""
    cache = shared_cache()
    keys = [GENERATION_KEY.format(area) for area in areas]
    found = cache.get_many(keys)
    missing = [key for key in keys if key not in found]
    if missing:
        # First use, or evicted: start from a new random token, never from a number that an
        # entry kept from before might still carry. Whoever adds first wins.
        seconds = {GENERATION_KEY.format(area): _area_seconds(area) for area in areas}
        for key in missing:
            cache.add(key, _token(), seconds[key])
        added = cache.get_many(missing)
        found.update({key: added.get(key) or _token() for key in missing})
    return [found[key] for key in keys]


def bump(*areas: str) -> None:
    """Make every fragment showing ``areas`` stale: the next request renders it afresh.

    Called after other services' commits (a move that ended a match, a seat taken): a cache
    that cannot be reached is logged, never raised into them. The pages then catch up
    within ``FRAGMENT_SECONDS``."""
    try:
        for seconds, group in _by_lifetime(areas).items():
            shared_cache().set_many({GENERATION_KEY.format(area): _token() for area in group}, seconds)
    except Exception:
        log.exception("Could not mark %s as changed in the page cache", ", ".join(areas))


async def abump(*areas: str) -> None:
    """``bump`` from the event loop, without a thread (the live room, after a match's change)."""
    try:
        for seconds, group in _by_lifetime(areas).items():
            await aset_many(shared_cache(), {GENERATION_KEY.format(area): _token() for area in group}, seconds)
    except Exception:
        log.exception("Could not mark %s as changed in the page cache", ", ".join(areas))


def generation_in_redis(area: str, address) -> tuple[str, int, int] | None:
    """For a ``live:`` area: the Redis key of its generation, a new generation (a random number,
    which the cache stores as it is) and its lifetime, for a sender on the Redis at ``address``
    to set in the command that tells the sockets (``live.layer``); None when the cache is not
    kept there (then ``abump``)."""
    seconds = _area_seconds(area)
    if seconds is None or not kept_in_redis_at(address):
        return None
    return shared_cache().make_and_validate_key(GENERATION_KEY.format(area)), secrets.randbits(48), seconds


def kept_in_redis_at(address) -> bool:
    """Whether the page cache is the Redis at ``address``."""
    cache = shared_cache()
    return isinstance(cache, FaultTolerantRedisCache) and cache.address == address


def _by_lifetime(areas: Iterable[str]) -> dict[int | None, list[str]]:
    grouped: dict[int | None, list[str]] = {}
    for area in areas:
        grouped.setdefault(_area_seconds(area), []).append(area)
    return grouped


def bump_on_commit(*areas: str) -> None:
    """``bump`` once the current transaction commits (at once outside of one)."""
    transaction.on_commit(lambda: bump(*areas))


def ratings_changed(*games: str) -> None:
    """The ratings of ``games`` were written (a match's, or a recompute's): after commit."""
    bump_on_commit("ratings", *(f"ratings:{slug}" for slug in games))
