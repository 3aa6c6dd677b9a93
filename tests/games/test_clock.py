"""The clock's rules, one value for matches and tournaments (``games.clock``)."""

import pytest
from django.conf import settings

from games.clock import DAY, FOR_TOURNAMENT, Clock, ClockError


def refusal(**choice) -> tuple[str, str]:
    with pytest.raises(ClockError) as caught:
        Clock.chosen(**choice)
    return caught.value.message, caught.value.field


def test_a_clock_left_out_is_the_settings_default():
    assert Clock.chosen("live") == Clock("live", settings.LIVE_SECONDS_DEFAULT)
    assert Clock.chosen("correspondence") == Clock("correspondence", settings.CORRESPONDENCE_DAYS_DEFAULT * DAY)


def test_the_bounds_are_the_same_for_matches_and_tournaments_in_their_own_words():
    assert Clock.chosen("live", 10).seconds_per_move == 10 and Clock.chosen("live", 3600).seconds_per_move == 3600
    assert refusal(speed="live", seconds_per_move=9) == (
        "A live match gives 10 to 3600 seconds per move.",
        "seconds_per_move",
    )
    assert refusal(speed="live", seconds_per_move=3601, wording=FOR_TOURNAMENT) == (
        "Live play gives 10 to 3600 seconds per move.",
        "seconds_per_move",
    )
    assert Clock.chosen("correspondence", days_per_move=14).days == 14
    assert refusal(speed="correspondence", days_per_move=15) == (
        "A correspondence match gives 1 to 14 days per move.",
        "days_per_move",
    )
    assert refusal(speed="correspondence", days_per_move=0, wording=FOR_TOURNAMENT) == (
        "Correspondence play gives 1 to 14 days per move.",
        "days_per_move",
    )
    assert refusal(speed="live", seconds_per_move=True)[1] == "seconds_per_move"
    assert refusal(speed="blitz") == ("Speed must be untimed, live or correspondence.", "speed")
    assert refusal(speed="blitz", wording=FOR_TOURNAMENT) == ("The clock is live or correspondence.", "speed")


def test_untimed_play_only_where_the_caller_allows_it():
    assert Clock.chosen("untimed") == Clock("untimed", 0)
    assert refusal(speed="untimed", untimed_allowed=False) == (
        "Untimed practice is casual: choose a live or correspondence clock for a rated match.",
        "speed",
    )
    assert refusal(speed="untimed", untimed_allowed=False, wording=FOR_TOURNAMENT)[0] == (
        "A tournament runs on a clock: choose live or correspondence play."
    )


@pytest.mark.parametrize(
    ("clock", "label", "args"),
    [
        (Clock("live", 90), "90 s", {"speed": "live", "seconds_per_move": 90, "days_per_move": None}),
        (Clock("live", 180), "3 min", {"speed": "live", "seconds_per_move": 180, "days_per_move": None}),
        (
            Clock("correspondence", DAY),
            "1 day",
            {"speed": "correspondence", "seconds_per_move": None, "days_per_move": 1},
        ),
        (
            Clock("correspondence", 3 * DAY),
            "3 days",
            {"speed": "correspondence", "seconds_per_move": None, "days_per_move": 3},
        ),
        (Clock("untimed", 0), "", {"speed": "untimed", "seconds_per_move": None, "days_per_move": None}),
    ],
)
def test_a_stored_clock_gives_its_words_and_match_creates_arguments(clock, label, args):
    assert clock.label == label
    assert clock.create_args() == args
    assert Clock.chosen(**args) == clock
    assert clock.timed == (clock.speed != "untimed")
