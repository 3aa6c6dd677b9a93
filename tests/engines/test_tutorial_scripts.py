"""Every game's lesson replays through its engine: each scripted action legal where it is
played, the learner to move wherever a step asks something of them, and the facts the
words state (scores, whose turn) true. A rule change that breaks a lesson fails here."""

import pytest

from games.engines import all_games, get_game
from games.tutorials import all_tutorials, answer, get_tutorial, moves_of, position

SLUGS = [t.slug for t in all_tutorials()]


def test_every_game_has_a_lesson():
    assert sorted(SLUGS) == sorted(g.slug for g in all_games())


def _replay_step_by_step(tutorial):
    """Yield (step index, state after the step's last action), applying each action only if
    the engine lists it as legal where it is played."""
    state = get_game(tutorial.slug).new_state(tutorial.num_players, tutorial.options)
    for action in tutorial.setup:
        assert action in state.legal_actions(), f"setup: {action} is not legal"
        state.apply(action)
    for index, step in enumerate(tutorial.steps):
        assert state.current_player() == tutorial.seat, f"step {index + 1} starts with the learner not to move"
        for action in step.play:
            assert action in state.legal_actions(), f"step {index + 1}: {action} is not legal"
            state.apply(action)
        yield index, state


@pytest.mark.parametrize("slug", SLUGS)
def test_every_scripted_action_is_legal_and_the_words_hold(slug):
    tutorial = get_tutorial(slug)
    checked = 0
    for index, state in _replay_step_by_step(tutorial):
        step = tutorial.steps[index]
        assert set(step.expect) <= {"scores", "to_move"}, f"step {index + 1}: unknown fact {step.expect}"
        if "scores" in step.expect:
            assert state.scores() == step.expect["scores"], f"step {index + 1} ({step.title})"
            checked += 1
        if "to_move" in step.expect:
            assert state.current_player() == step.expect["to_move"], f"step {index + 1} ({step.title})"
            checked += 1
    assert checked, "the lesson states no fact that the test could check"
    assert not state.is_terminal(), "the lesson leaves the game to be played on"


@pytest.mark.parametrize("slug", SLUGS)
def test_a_lesson_is_short_and_every_step_asks_the_learner_something(slug):
    tutorial = get_tutorial(slug)
    moves = moves_of(slug)
    assert 5 <= len(tutorial.steps) <= 8
    assert {m.step for m in moves} == set(range(len(tutorial.steps)))
    for step in tutorial.steps:
        assert step.prompt and step.hint and step.title


@pytest.mark.parametrize("slug", SLUGS)
def test_playing_the_taught_actions_walks_the_lesson_to_its_end(slug):
    progress = 0
    for move in moves_of(slug):
        here = position(slug, progress)
        assert here.state.current_player() == get_tutorial(slug).seat
        assert move.action in here.state.legal_actions()
        result = answer(slug, progress, move.action)
        assert result.ok and result.position.progress == progress + 1
        progress += 1
    assert position(slug, progress).finished


@pytest.mark.parametrize("slug", SLUGS)
def test_another_action_changes_nothing_and_gets_the_steps_hint(slug):
    here = position(slug, 0)
    taught = here.move.action
    other = next(a for a in here.state.legal_actions() if a != taught) if len(here.state.legal_actions()) > 1 else None
    hint = get_tutorial(slug).steps[0].hint
    for wrong in filter(None, [other, "no-such-move"]):
        result = answer(slug, 0, wrong)
        assert not result.ok
        assert result.position.progress == 0
        assert hint in result.hint


def test_a_legal_but_untaught_move_is_told_apart_from_an_illegal_one():
    legal_other = answer("territories", 0, "farm:d2")
    illegal = answer("territories", 0, "trunk:c1-d1")
    assert "legal move, but not the one" in legal_other.hint
    assert "not allowed here" in illegal.hint


def test_the_dice_lesson_keeps_the_face_down_card_hidden_from_the_learner():
    view = position("dice-territory", 0).state.view(0)
    assert view["card"]["letter"] is None
    assert "Calm" not in str(view)
