"""Every lesson of every game replays through its engine: each scripted action legal where
it is played, the learner to move wherever a step asks something of them, and the facts the
words state (scores, whose turn, what is refused) true. A rule change that breaks a lesson
fails here."""

import pytest

from games.engines import CHANCE, TERMINAL, IllegalAction, all_games, get_game
from games.tutorials import all_tutorials, answer, get_tutorial, lessons_of, moves_of, position

SLUGS = sorted({t.slug for t in all_tutorials()})
LESSONS = [pytest.param(t.slug, t.lesson, id=f"{t.slug}/{t.lesson}") for t in all_tutorials()]


def test_every_game_has_a_first_lesson_and_a_second_for_what_the_first_leaves_out():
    assert sorted(g.slug for g in all_games()) == SLUGS
    for slug in SLUGS:
        lessons = lessons_of(slug)
        assert [t.lesson for t in lessons][0] == "basics" and len(lessons) == 2
        assert get_tutorial(slug) is lessons[0] and lessons[0].next is lessons[1] and lessons[1].next is None
        assert len({t.title for t in lessons}) == 2


def test_an_unknown_lesson_is_a_key_error():
    with pytest.raises(KeyError):
        get_tutorial("gp02a", "no-such-lesson")


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


@pytest.mark.parametrize(("slug", "lesson"), LESSONS)
def test_every_scripted_action_is_legal_and_the_words_hold(slug, lesson):
    tutorial = get_tutorial(slug, lesson)
    checked = 0
    for index, state in _replay_step_by_step(tutorial):
        step = tutorial.steps[index]
        assert set(step.expect) <= {"scores", "to_move", "refused"}, f"step {index + 1}: unknown fact {step.expect}"
        if "scores" in step.expect:
            assert state.scores() == step.expect["scores"], f"step {index + 1} ({step.title})"
            checked += 1
        if "to_move" in step.expect:
            to_move = step.expect["to_move"]
            assert state.current_player() == (TERMINAL if to_move is None else to_move), f"step {index + 1}"
            checked += 1
    assert checked, "the lesson states no fact that the test could check"
    if tutorial.ends_game:
        assert state.is_terminal(), "the lesson teaches an end of the game and reaches it"
        assert tutorial.steps[-1].expect.get("to_move", 0) is None, "its last step says the game is over"
    else:
        assert not state.is_terminal(), "the lesson leaves the game to be played on"


@pytest.mark.parametrize(
    ("slug", "lesson"),
    [(t.slug, t.lesson) for t in all_tutorials() if any("refused" in step.expect for step in t.steps)],
)
def test_what_a_lesson_says_is_refused_is_refused_and_changes_nothing(slug, lesson):
    tutorial = get_tutorial(slug, lesson)
    refused = 0
    state = tutorial.new_state()
    for action in tutorial.setup:
        state.apply(action)
    for step in tutorial.steps:
        for action in step.expect.get("refused", ()):
            before = state.view(None)
            with pytest.raises(IllegalAction):
                state.apply(action)
            assert state.view(None) == before
            refused += 1
        for action in step.play:
            state.apply(action)
    assert refused


@pytest.mark.parametrize(("slug", "lesson"), LESSONS)
def test_chance_in_a_lesson_is_fixed_by_its_script(slug, lesson):
    """Every chance outcome the lesson plays is one the engine offers at that point: the
    script decides it, nothing is drawn."""
    tutorial = get_tutorial(slug, lesson)
    state = tutorial.new_state()
    for action in tutorial.setup + tuple(a for step in tutorial.steps for a in step.play):
        if state.current_player() == CHANCE:
            assert action in [outcome for outcome, _ in state.chance_outcomes()]
        state.apply(action)


@pytest.mark.parametrize(("slug", "lesson"), LESSONS)
def test_a_lesson_is_short_and_every_step_asks_the_learner_something(slug, lesson):
    tutorial = get_tutorial(slug, lesson)
    moves = moves_of(slug, lesson)
    assert 5 <= len(tutorial.steps) <= 8
    assert {m.step for m in moves} == set(range(len(tutorial.steps)))
    for step in tutorial.steps:
        assert step.prompt and step.hint and step.title


@pytest.mark.parametrize(("slug", "lesson"), LESSONS)
def test_playing_the_taught_actions_walks_the_lesson_to_its_end(slug, lesson):
    progress = 0
    for move in moves_of(slug, lesson):
        here = position(slug, progress, lesson)
        assert here.state.current_player() == get_tutorial(slug, lesson).seat
        assert move.action in here.state.legal_actions()
        result = answer(slug, progress, move.action, lesson)
        assert result.ok and result.position.progress == progress + 1
        progress += 1
    assert position(slug, progress, lesson).finished


@pytest.mark.parametrize(("slug", "lesson"), LESSONS)
def test_another_action_changes_nothing_and_gets_the_steps_hint(slug, lesson):
    here = position(slug, 0, lesson)
    taught = here.move.action
    other = next(a for a in here.state.legal_actions() if a != taught) if len(here.state.legal_actions()) > 1 else None
    hint = get_tutorial(slug, lesson).steps[0].hint
    for wrong in filter(None, [other, "no-such-move"]):
        result = answer(slug, 0, wrong, lesson)
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
