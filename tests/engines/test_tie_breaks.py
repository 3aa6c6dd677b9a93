"""Every final ranking can be explained to people: between two seats on equal scores, the
game's tie-breaks (``Game.tie_breaks``, each seat's values from ``tie_break_values``) decide
the order, and when those are equal too the place is shared."""

import pytest

from games.engines import all_games

from .test_conformance import CASES, playout_states

PLAYOUTS = 12
# Random playouts until every case has shown each kind of tie it can have. The rarest, a tie on
# the scores and on every tie-break in two-player chit territory, first comes at seed 860.
MAX_SEEDS = 3000

# Which way each tie-break counts, read from the first word of its label.
BETTER_WHEN = {"more": 1, "higher": 1, "fewer": -1, "lower": -1}


def final_state(game, num_players, options, seed):
    *_, state = playout_states(game, num_players, seed, options)
    return state


def check_ties(game, state):
    """Check every pair of seats on equal scores; return the kinds of tie seen: ``decided`` (the
    tie-breaks differ, and the better values took the better place) and ``shared`` (equal
    tie-break values too, or none in this game: one place for both)."""
    num_players = state.num_players
    scores, places, view = state.scores(), state.ranking(), state.view(None)
    tie_breaks = view["tie_breaks"]
    assert tie_breaks["labels"] == list(game.tie_breaks)
    values = tie_breaks["values"]
    assert len(values) == num_players and all(len(v) == len(game.tie_breaks) for v in values)
    kinds = set()
    for i in range(num_players):
        for j in range(num_players):
            if i == j or scores[i] != scores[j]:
                continue
            facts = (scores, places, values)
            assert (places[i] == places[j]) == (values[i] == values[j]), facts
            if values[i] == values[j]:
                kinds.add("shared")
                continue
            kinds.add("decided")
            k = next(k for k, (a, b) in enumerate(zip(values[i], values[j], strict=True)) if a != b)
            direction = BETTER_WHEN[game.tie_breaks[k].split()[0]]
            i_is_better = (values[i][k] - values[j][k]) * direction > 0
            assert (places[i] < places[j]) == i_is_better, (game.tie_breaks[k], *facts)
    return kinds


@pytest.mark.parametrize("game,num_players,options", CASES)
def test_equal_scores_are_ordered_by_the_tie_breaks_shown_or_share_a_place(game, num_players, options):
    """Every case is played until it has ended in a tie the tie-breaks decide (when the game has
    tie-breaks) and in a tie they leave shared: a case whose playouts never tie checks nothing."""
    for label in game.tie_breaks:
        assert label.split()[0] in BETTER_WHEN, f"say which way {label!r} counts"
    wanted = {"decided", "shared"} if game.tie_breaks else {"shared"}
    seen: set[str] = set()
    for seed in range(MAX_SEEDS):
        if seed >= PLAYOUTS and wanted <= seen:
            break
        seen |= check_ties(game, final_state(game, num_players, options, seed))
    assert wanted <= seen, f"no playout of {MAX_SEEDS} ended in a tie of each kind {sorted(wanted - seen)}"


def test_a_running_game_shows_no_tie_breaks():
    for game in all_games():
        state = game.new_state(game.allowed_player_counts()[0])
        assert state.view(None)["tie_breaks"] is None
