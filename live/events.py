"""The events the sockets are sent, as typed contracts between the writes and the consumers.

Each ``type`` names the consumer method that handles it (Channels turns ``match.updated``
into ``match_updated``). Events carry text already serialised where a socket only forwards
it, so a socket runs no query and no ``json.dumps`` per listener.
"""

from __future__ import annotations

from typing import Final, Literal, TypedDict

MATCH_UPDATED: Final = "match.updated"
CHAT_MESSAGE: Final = "chat.message"
CHAT_HIDDEN: Final = "chat.hidden"
MATCH_TAKEBACK: Final = "match.takeback"
REMATCH_OFFER: Final = "rematch.offer"
ANALYSIS_PROGRESS: Final = "analysis.progress"
ME_CHANGED: Final = "me.changed"
ME_NOTICE: Final = "me.notice"
ME_CHALLENGE: Final = "me.challenge"
LOBBY_CHANGED: Final = "lobby.changed"
TOURNAMENT_CHANGED: Final = "tournament.changed"
SOCKETS_REVOKED: Final = "sockets.revoked"


class CatchUp(TypedDict):
    """For the other processes' engine-state caches, never for a page: the raw actions (chance
    outcomes unmasked) that lead from the previous version to this one."""

    from_version: int
    from_moves: int
    actions: list[str]
    deadline: str | None  # when the seat now to move runs out of time (ISO 8601), if it can


class MatchUpdated(TypedDict):
    """A new version of a match: each audience's snapshot, serialised once by the writer."""

    type: Literal["match.updated"]
    version: int
    spectator: str  # the spectators' snapshot frame, JSON text
    seats: list[str | None]  # one frame per seat (None: its player left); [] for spectators' group
    players: dict[str, int]  # user id as text -> seat
    match_id: int
    to_move: int | None  # who is to move, for sockets that only count turns (/ws/me/)
    status: str  # the match's status at this version (open, active, finished, aborted)
    catch_up: CatchUp | None  # None when moves were taken back: no appending catches up


class ChatPosted(TypedDict):
    type: Literal["chat.message"]
    message: dict


class ChatHidden(TypedDict):
    """A moderator hid a chat message: the pages drop it."""

    type: Literal["chat.hidden"]
    id: int


class TakebackChanged(TypedDict):
    """A request to take back a move was asked or answered (public to every audience)."""

    type: Literal["match.takeback"]
    version: int
    takeback: dict | None


class RematchOffered(TypedDict):
    """A rematch of a finished match offered or answered."""

    type: Literal["rematch.offer"]
    offer: dict


class MeChanged(TypedDict):
    """A person's counts changed (``seats``: their matches too, so listen again)."""

    type: Literal["me.changed"]
    seats: bool


class MeNotice(TypedDict):
    """Something a person must act on soon (their tournament table is ready): their pages
    count again, like ``me.changed``, and say it (a banner, the tab's title)."""

    type: Literal["me.notice"]
    kind: str  # the notification's kind, whose name is the tab's title
    text: str  # in English
    phrase: dict  # the text as a phrase (portal.phrases), said in each page's language; {}: none
    url: str


class MeChallenge(TypedDict):
    """A challenge of the person's stopped waiting (accepted, declined, withdrawn, expired):
    their open challenges page shows it, or goes to the match."""

    type: Literal["me.challenge"]
    challenge: dict  # id, state, match_url (None unless accepted)


class AnalysisProgress(TypedDict):
    """The analysis of a finished match moved on: its status and the share judged, in percent."""

    type: Literal["analysis.progress"]
    status: str
    progress: int


class LobbyChanged(TypedDict):
    type: Literal["lobby.changed"]


class TournamentChanged(TypedDict):
    type: Literal["tournament.changed"]


class SocketsRevoked(TypedDict):
    """A person's sign-in ended: every socket of theirs closes, or, with ``session`` (a digest
    of one session's key, ``credentials.session_digest``), those of that session only."""

    type: Literal["sockets.revoked"]
    session: str | None


def sockets_revoked(*, session: str | None = None) -> SocketsRevoked:
    return {"type": "sockets.revoked", "session": session}


def me_changed(*, seats: bool = False) -> MeChanged:
    return {"type": "me.changed", "seats": seats}


def me_notice(*, kind: str, text: str, phrase: dict, url: str) -> MeNotice:
    return {"type": "me.notice", "kind": kind, "text": text, "phrase": phrase, "url": url}


def me_challenge(*, challenge: dict) -> MeChallenge:
    return {"type": "me.challenge", "challenge": challenge}


def analysis_progress(*, status: str, progress: int) -> AnalysisProgress:
    return {"type": "analysis.progress", "status": status, "progress": progress}


def lobby_changed() -> LobbyChanged:
    return {"type": "lobby.changed"}


def tournament_changed() -> TournamentChanged:
    return {"type": "tournament.changed"}
