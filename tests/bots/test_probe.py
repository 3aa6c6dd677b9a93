"""The tuning probe (bench/bot_probe.py): what its speed timing measures."""

from bench import bot_probe
from games.bots import get_bot
from games.bots.levels import SAFETY_SECONDS


def test_a_level_is_timed_by_its_iteration_budget_not_by_its_clock():
    hard = bot_probe.unclocked(get_bot("mcts-hard"))

    assert hard.seconds is None
    assert hard.settings("chit-territory", 3) == {**get_bot("mcts-hard").settings("chit-territory", 3), "seconds": None}


def test_lifting_the_clock_for_a_timing_leaves_the_level_people_play_alone():
    bot_probe.unclocked(get_bot("mcts-hard"))

    assert get_bot("mcts-hard").seconds == SAFETY_SECONDS


def test_configurations_without_a_clock_are_timed_as_they_are():
    greedy = get_bot("greedy")
    spec = bot_probe.make_bot("mcts:iterations=50")

    assert bot_probe.unclocked(greedy) is greedy
    assert bot_probe.unclocked(spec) is spec
