"""Every final ranking can be explained to people: between two seats on equal scores, the
game's tie-breaks (``Game.tie_breaks``, each seat's values from ``tie_break_values``) decide
the order, and when those are equal too the place is shared."""

import pytest

from games.engines import all_games

from .test_conformance import CASES, playout_states

PLAYOUTS = 12


def final_state(game, num_players, options, seed):
    *_, state = playout_states(game, num_players, seed, options)
    return state


@pytest.mark.parametrize("game,num_players,options", CASES)
def test_equal_scores_are_ordered_by_the_tie_breaks_shown_or_share_a_place(game, num_players, options):
    for seed in range(PLAYOUTS):
        state = final_state(game, num_players, options, seed)
        scores, places, view = state.scores(), state.ranking(), state.view(None)
        tie_breaks = view["tie_breaks"]
        assert tie_breaks["labels"] == list(game.tie_breaks)
        values = tie_breaks["values"]
        assert len(values) == num_players and all(len(v) == len(game.tie_breaks) for v in values)
        for i in range(num_players):
            for j in range(num_players):
                if i != j and scores[i] == scores[j]:
                    assert (places[i] == places[j]) == (values[i] == values[j]), (seed, scores, places, values)


def test_a_running_game_shows_no_tie_breaks():
    for game in all_games():
        state = game.new_state(game.allowed_player_counts()[0])
        assert state.view(None)["tie_breaks"] is None
