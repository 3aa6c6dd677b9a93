"""The conformance suite: every registered engine keeps the contract of games/engines/base.py.

Parametrised over ``all_games()``, so an engine added to the registry is checked here without
new code.
"""

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engines import CHANCE, TERMINAL, IllegalAction, all_games, get_game

GAMES = all_games()
SLUGS = [g.slug for g in GAMES]
MAX_ACTIONS = 20_000  # no game may take more actions than this to end
PLAYOUTS_PER_COUNT = 6


def pick(state, rng):
    """A chance outcome by its probability, or a uniformly random legal action."""
    if state.current_player() == CHANCE:
        outcomes = state.chance_outcomes()
        return rng.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
    return rng.choice(state.legal_actions())


def snapshot(state):
    return json.dumps([state.view(None), state.scores(), state.history], sort_keys=True)


def playout_states(game, num_players, seed, options=None):
    """Yield every state of one random playout (the same object, advanced in place)."""
    rng = random.Random(seed)
    state = game.new_state(num_players, options)
    yield state
    for _ in range(MAX_ACTIONS):
        if state.is_terminal():
            return
        state.apply(pick(state, rng))
        yield state
    raise AssertionError(f"{game.slug} did not end within {MAX_ACTIONS} actions (seed {seed})")


def option_sets(game, num_players):
    """The default game, each yes/no option flipped, and every value of each number option."""
    yield {}
    for option in game.options:
        if option.values is None:
            yield {option.name: not option.default}
        else:
            for value in game.option_values(option, num_players):
                yield {option.name: value}


def case_id(game, num_players, options):
    chosen = [k if v is True else f"{k}{v}" for k, v in options.items() if v]
    return f"{game.slug}-{num_players}p-{'-'.join(chosen) or 'default'}"


CASES = [
    pytest.param(game, n, options, id=case_id(game, n, options))
    for game in GAMES
    for n in game.allowed_player_counts()
    for options in option_sets(game, n)
]


def test_registry_knows_every_game_by_slug():
    for game in GAMES:
        assert get_game(game.slug) is game
    with pytest.raises(KeyError, match="known games"):
        get_game("no-such-game")


@pytest.mark.parametrize("game", GAMES, ids=SLUGS)
def test_metadata_is_complete(game):
    assert game.name and game.summary
    assert game.min_players <= min(game.allowed_player_counts())
    assert max(game.allowed_player_counts()) <= game.max_players
    with pytest.raises(ValueError):
        game.check_players(game.max_players + 1)
    with pytest.raises(ValueError):
        game.normalise_options({"no_such_option": True})


@pytest.mark.parametrize("game,num_players,options", CASES)
def test_random_playouts_end_and_every_step_keeps_the_contract(game, num_players, options):
    for seed in range(PLAYOUTS_PER_COUNT):
        for steps, state in enumerate(playout_states(game, num_players, seed, options), start=1):
            player = state.current_player()
            assert player in (CHANCE, TERMINAL) or 0 <= player < num_players
            legal = state.legal_actions()
            if player == TERMINAL:
                assert legal == []
                assert state.is_terminal()
                ranking = state.ranking()
                assert len(ranking) == num_players
                assert all(1 <= place <= num_players for place in ranking)
                assert min(ranking) == 1
                # Places count like a sports table: a seat's place is one more than the
                # number of seats strictly ahead of it (1, 1, 3; never 1, 1, 2).
                for place in ranking:
                    assert place == 1 + sum(1 for other in ranking if other < place), ranking
                # Ties are broken by the rules, but never against the points: a better place
                # never has fewer points than a worse one.
                scores = state.scores()
                for i in range(num_players):
                    for j in range(num_players):
                        if ranking[i] < ranking[j]:
                            assert scores[i] >= scores[j], (ranking, scores)
            else:
                assert legal, f"no legal action at step {steps} of a live game"
                assert len(set(legal)) == len(legal), "legal actions listed twice"
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                assert all(p > 0 for _, p in outcomes)
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                assert sorted(a for a, _ in outcomes) == sorted(legal)
            else:
                assert state.chance_outcomes() == []
        assert state.is_terminal()


@pytest.mark.parametrize("game,num_players,options", CASES)
def test_every_listed_action_applies_and_unlisted_ones_raise_without_change(game, num_players, options):
    rng = random.Random(7)
    # Well-formed actions: everything that was legal somewhere in a few games.
    seen: set[str] = set()
    for seed in (2, 3):
        for state in playout_states(game, num_players, seed, options):
            seen.update(state.legal_actions())
    garbage = {"", "nonsense", "move:", "put:red@z99", "roll:0", ":", "a" * 200}
    checked = 0
    for index, state in enumerate(playout_states(game, num_players, 1, options)):
        if index % 3:
            continue
        legal = state.legal_actions()
        for action in legal[:40]:
            probe = state.clone()
            probe.apply(action)
            assert probe.history[-1] == action
        before = snapshot(state)
        # Actions legal elsewhere in the game but not here (a taken square, the wrong
        # phase, another seat's move), and plain garbage.
        elsewhere = sorted(seen - set(legal))
        illegal = rng.sample(elsewhere, min(30, len(elsewhere))) + sorted(garbage - set(legal))
        for action in illegal:
            with pytest.raises(IllegalAction):
                state.apply(action)
            assert snapshot(state) == before, f"refused {action!r} but changed the state"
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("game", GAMES, ids=SLUGS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(action=st.one_of(st.text(max_size=30), st.none(), st.integers(), st.binary(max_size=10)))
def test_garbage_raises_illegal_action(game, action):
    state = game.new_state(min(game.allowed_player_counts()))
    rng = random.Random(3)
    for _ in range(25):  # somewhere past the set-up
        if state.is_terminal():
            break
        state.apply(pick(state, rng))
    if action in state.legal_actions():
        return
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply(action)
    assert snapshot(state) == before


@pytest.mark.parametrize("game,num_players,options", CASES)
def test_replay_of_the_history_equals_the_live_state(game, num_players, options):
    for seed in range(3):
        for index, state in enumerate(playout_states(game, num_players, 100 + seed, options)):
            if index % 25 == 0 or state.is_terminal():
                replayed = game.replay(num_players, options, list(state.history))
                assert snapshot(replayed) == snapshot(state)
                assert replayed.current_player() == state.current_player()
                assert replayed.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("game,num_players,options", CASES)
def test_clone_is_independent_of_the_original(game, num_players, options):
    rng = random.Random(11)
    for index, state in enumerate(playout_states(game, num_players, 5, options)):
        if index % 10 or state.is_terminal():
            continue
        before = snapshot(state)
        copy = state.clone()
        assert snapshot(copy) == before
        for _ in range(5):
            if copy.is_terminal():
                break
            copy.apply(pick(copy, rng))
        assert snapshot(state) == before
        # And the other way round: playing on in the original leaves a copy as it was.
        copy = state.clone()
        for _ in range(5):
            if state.is_terminal():
                break
            state.apply(pick(state, rng))
        assert snapshot(copy) == before


@pytest.mark.parametrize("game,num_players,options", CASES)
def test_views_are_json_and_a_determinised_copy_looks_the_same_to_its_seat(game, num_players, options):
    rng = random.Random(13)
    for index, state in enumerate(playout_states(game, num_players, 9, options)):
        if index % 7 and not state.is_terminal():
            continue
        for seat in [None, *range(num_players)]:
            view = state.view(seat)
            json.dumps(view)
            for key in ("game", "current_player", "terminal", "prompt", "scores"):
                assert key in view
            guess = state.determinised(seat, rng)
            assert guess.view(seat) == view, "a determinised copy differs in what the seat sees"
            assert guess.current_player() == state.current_player()
            if state.current_player() == seat:
                assert guess.legal_actions() == state.legal_actions()


@pytest.mark.parametrize("game,num_players,options", CASES)
def test_a_game_whose_views_are_alike_shows_every_seat_what_a_spectator_sees(game, num_players, options):
    """The site sends such a game's spectator view to every seat: it must be all they see."""
    states = list(playout_states(game, num_players, 11, options))
    differ = sum(1 for state in states if any(state.view(seat) != state.view(None) for seat in range(num_players)))
    if game.new_state(num_players).views_alike:
        assert differ == 0
    else:
        assert differ > 0, "views said to differ by seat never do: declare them alike"


@pytest.mark.parametrize("game,num_players,options", CASES)
def test_once_the_seats_are_settled_every_view_names_a_distinct_colour_per_seat(game, num_players, options):
    """The page's seat list shows each player in the colour the board draws them in."""
    for index, state in enumerate(playout_states(game, num_players, 5, options)):
        colours = state.view(None).get("seat_colours")
        if colours is None:  # allowed only while chance has not settled the seats (Territories)
            assert index < 3 and state.current_player() == CHANCE
            continue
        assert len(colours) == num_players and len(set(colours)) == num_players
        assert all(isinstance(c, str) and c for c in colours)
        if index > 30:
            break


@pytest.mark.parametrize("game,num_players,options", CASES)
def test_the_words_for_everyone_but_the_seat_to_move_never_speak_to_you(game, num_players, options):
    """``prompt_others`` is read by the other seats and spectators: it names the seat to move
    and says nothing to the reader as if they were that seat."""
    for seed in (3, 4):
        for state in playout_states(game, num_players, seed, options):
            words = state.prompt_others()
            assert words and not re.search(r"\byou(r)?\b", words, re.IGNORECASE), words
