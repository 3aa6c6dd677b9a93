"""A match's clock as a value: its speed and the seconds a seat has for each move.

The one place of the clock's rules, for matches (and the challenges that keep terms for one)
and for tournaments: live play gives ``MIN_LIVE_SECONDS`` to ``MAX_LIVE_SECONDS`` seconds a
move, correspondence 1 to ``MAX_CORRESPONDENCE_DAYS`` days, untimed practice only where the
caller allows it (a casual match; never a tournament); a clock left out is the default of the
settings. No models here: the stored form is ``(speed, seconds_per_move)``, as on ``Match``,
``Challenge`` and ``Tournament``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext, ngettext

# The speeds, as ``Match.Speed`` stores them.
UNTIMED, LIVE, CORRESPONDENCE = "untimed", "live", "correspondence"

MIN_LIVE_SECONDS, MAX_LIVE_SECONDS = 10, 3600
MIN_CORRESPONDENCE_DAYS, MAX_CORRESPONDENCE_DAYS = 1, 14
DAY = 86400  # seconds


class ClockError(ValueError):
    """A clock the rules refuse: ``message`` is for people, ``field`` the choice at fault
    (``speed``, ``seconds_per_move`` or ``days_per_move``)."""

    def __init__(self, message: str, field: str):
        super().__init__(message)
        self.message = message
        self.field = field


@dataclass(frozen=True)
class Wording:
    """What a refusal says, in the words of the page that asked."""

    live: str
    correspondence: str
    untimed: str
    speed: str

    def live_range(self) -> str:
        return self.live.format(low=MIN_LIVE_SECONDS, high=MAX_LIVE_SECONDS)

    def correspondence_range(self) -> str:
        return self.correspondence.format(low=MIN_CORRESPONDENCE_DAYS, high=MAX_CORRESPONDENCE_DAYS)


FOR_MATCH = Wording(
    live="A live match gives {low} to {high} seconds per move.",
    correspondence="A correspondence match gives {low} to {high} days per move.",
    untimed="Untimed practice is casual: choose a live or correspondence clock for a rated match.",
    speed="Speed must be untimed, live or correspondence.",
)
FOR_TOURNAMENT = Wording(
    live="Live play gives {low} to {high} seconds per move.",
    correspondence="Correspondence play gives {low} to {high} days per move.",
    untimed="A tournament runs on a clock: choose live or correspondence play.",
    speed="The clock is live or correspondence.",
)


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class Clock:
    """``seconds_per_move`` is 0 when untimed and whole days for correspondence."""

    speed: str
    seconds_per_move: int

    @classmethod
    def chosen(
        cls,
        speed,
        seconds_per_move=None,
        days_per_move=None,
        *,
        untimed_allowed: bool = True,
        wording: Wording = FOR_MATCH,
    ) -> Clock:
        """The clock a form or the API asks for, checked; ``ClockError`` says what is wrong.
        A live clock reads ``seconds_per_move``, a correspondence one ``days_per_move``; the
        one left out (``None``) is the settings' default."""
        if speed == UNTIMED:
            if not untimed_allowed:
                raise ClockError(wording.untimed, "speed")
            return cls(UNTIMED, 0)
        if speed == LIVE:
            seconds = settings.LIVE_SECONDS_DEFAULT if seconds_per_move is None else seconds_per_move
            if not _whole(seconds) or not MIN_LIVE_SECONDS <= seconds <= MAX_LIVE_SECONDS:
                raise ClockError(wording.live_range(), "seconds_per_move")
            return cls(LIVE, seconds)
        if speed == CORRESPONDENCE:
            days = settings.CORRESPONDENCE_DAYS_DEFAULT if days_per_move is None else days_per_move
            if not _whole(days) or not MIN_CORRESPONDENCE_DAYS <= days <= MAX_CORRESPONDENCE_DAYS:
                raise ClockError(wording.correspondence_range(), "days_per_move")
            return cls(CORRESPONDENCE, days * DAY)
        raise ClockError(wording.speed, "speed")

    @property
    def timed(self) -> bool:
        return self.speed != UNTIMED

    @property
    def days(self) -> int | None:
        """Days per move of a correspondence clock; ``None`` for the others."""
        return self.seconds_per_move // DAY if self.speed == CORRESPONDENCE else None

    @property
    def label(self) -> str:
        """The clock in words: "90 s", "3 min", "2 days" ("" when untimed)."""
        seconds = self.seconds_per_move
        if not self.timed:
            return ""
        if seconds >= DAY and seconds % DAY == 0:
            days = seconds // DAY
            return ngettext("%(days)d day", "%(days)d days", days) % {"days": days}
        if seconds >= 120 and seconds % 60 == 0:
            return gettext("%(minutes)d min") % {"minutes": seconds // 60}
        return gettext("%(seconds)d s") % {"seconds": seconds}

    def create_args(self) -> dict:
        """``match_create``'s clock arguments (``speed``, ``seconds_per_move``, ``days_per_move``)."""
        return {
            "speed": self.speed,
            "seconds_per_move": self.seconds_per_move if self.speed == LIVE else None,
            "days_per_move": self.days,
        }
