"""The analysis of a finished game (games.bots.analysis) finds where it was lost, the same way
every time, and judges each seat only by what it could see."""

import random

import pytest

from games.bots import analysis as analysis_module
from games.bots.analysis import BLUNDER, INACCURACY, MISTAKE, analyse, grade
from games.bots.base import sample_outcome
from games.engines import get_game

# Small budgets that still find each blunder below: the tests stay fast.
ITERATIONS = 40


def _ends_at_once(state, action, seat):
    """(the seat is sole first, the seat is last or shares every place) when ``action`` ends the
    game at once (forced moves played), else None."""
    after = state.clone()
    after.apply(action)
    while not after.is_terminal() and after.current_player() >= 0 and len(after.legal_actions()) == 1:
        after.apply(after.legal_actions()[0])
    if not after.is_terminal():
        return None
    places = after.ranking()
    return places[seat] == 1 and places.count(1) == 1, places[seat] == max(places)


def thrown_away(slug: str, players: int, seed: int):
    """A game played at random from ``seed`` until a seat could win it with one move and lose
    it with another, where it plays the losing one (the rest forced). Returns the record, the
    blunder's step and the moves that would have won."""
    game = get_game(slug)
    state = game.new_state(players, {})
    rng = random.Random(seed)
    while not state.is_terminal():
        seat = state.current_player()
        if seat < 0:
            state.apply(sample_outcome(state.chance_outcomes(), rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            ends = {action: _ends_at_once(state, action, seat) for action in legal}
            wins = [a for a, end in ends.items() if end and end[0]]
            losses = [a for a, end in ends.items() if end and end[1] and not end[0]]
            if wins and losses:
                step = len(state.history)
                state.apply(losses[0])
                while not state.is_terminal():
                    state.apply(state.legal_actions()[0])
                return game, list(state.history), step, wins
        state.apply(rng.choice(legal))
    raise AssertionError("no game thrown away in one move from this seed")


@pytest.mark.parametrize(
    ("slug", "players", "seed"),
    [
        ("territories", 2, 7),
        ("game-of-god", 2, 1),
        ("chit-territory", 2, 13),
        ("dice-territory", 3, 20),
        ("gp02a", 3, 35),
    ],
)
def test_a_game_thrown_away_in_one_move_has_that_move_marked_a_blunder_with_the_winning_move(slug, players, seed):
    game, record, step, wins = thrown_away(slug, players, seed)
    start = max(0, step - 3)
    result = analyse(game, players, {}, record, iterations=ITERATIONS, seed=1, start=start)
    judged = {d["step"]: d for d in result["decisions"]}
    blunder = judged[step]
    assert blunder["grade"] == "blunder", blunder
    assert blunder["best"] in wins
    assert blunder["best_label"] == game.action_label(blunder["best"])
    seat = blunder["seat"]
    assert result["seats"][seat]["blunders"] >= 1
    # The chart: the seat's value falls to a draw or worse after the blunder.
    assert result["values"][step + 1 - start][seat] <= 0.5
    # The biggest swing is named by a judged decision, the blunder's or a bigger one.
    swing = result["swing"]
    assert swing["step"] in judged and abs(swing["after"] - swing["before"]) >= 0.5 - 1e-9


def test_the_same_record_gets_the_same_analysis_every_time():
    game, record, step, _wins = thrown_away("territories", 2, 7)
    first = analyse(game, 2, {}, record, iterations=20, seed=5)
    assert analyse(game, 2, {}, record, iterations=20, seed=5) == first
    assert len(first["values"]) == len(record) + 1


def test_pausing_an_analysis_often_changes_nothing_in_its_result(monkeypatch):
    game, record, _step, _wins = thrown_away("dice-territory", 3, 20)
    start = len(record) - 20
    unpaused = analyse(game, 3, {}, record, iterations=10, seed=3, start=start)
    monkeypatch.setattr(analysis_module, "PAUSE_EVERY", 0.0)  # a pause after every iteration
    pauses = []

    def pause():
        pauses.append(random.random())  # other work drawing random numbers meanwhile

    assert analyse(game, 3, {}, record, iterations=10, seed=3, start=start, pause=pause) == unpaused
    assert len(pauses) >= 20 * 10


def test_forced_moves_and_chance_are_not_judged():
    game, record, _step, _wins = thrown_away("dice-territory", 3, 20)
    result = analyse(game, 3, {}, record, iterations=10, seed=1, start=len(record) - 30)
    state = game.replay(3, {}, record[: len(record) - 30])
    choices = set()
    for i in range(len(record) - 30, len(record)):
        if state.current_player() >= 0 and len(state.legal_actions()) > 1:
            choices.add(i)
        state.apply(record[i])
    assert {d["step"] for d in result["decisions"]} == choices


def test_the_grades_follow_the_thresholds():
    assert (INACCURACY, MISTAKE, BLUNDER) == (0.10, 0.20, 0.30)
    assert [grade(x) for x in (0.0, 0.09, 0.1, 0.2, 0.29, 0.3, 1.0)] == [
        "",
        "",
        "inaccuracy",
        "mistake",
        "mistake",
        "blunder",
        "blunder",
    ]


def test_the_dice_games_face_down_card_never_reaches_the_analysis():
    """Two games alike but for the face-down round-1 card (nobody sees it, it never takes
    effect) get the very same analysis: no search learnt which card it was."""
    game = get_game("dice-territory")
    _game, record, _step, _wins = thrown_away("dice-territory", 3, 20)
    face_up = set(record[2:])
    hidden = [
        card
        for card in ("card:A", "card:B", "card:C", "card:D", "card:E", "card:F", "card:G", "card:H", "card:I", "card:J")
        if card not in face_up
    ]
    assert record[1] in hidden and len(hidden) >= 2
    other = [*record[:1], next(card for card in hidden if card != record[1]), *record[2:]]
    game.replay(3, {}, other)  # the other card gives a game just as legal
    analyses = [analyse(game, 3, {}, r, iterations=8, seed=2) for r in (record, other)]
    assert analyses[0] == analyses[1]
    assert all(d["action"] != record[1] for d in analyses[0]["decisions"])
    # A public record (an imported one) masks the card: it gets the same analysis.
    masked = [record[0], "card:?", *record[2:]]
    assert analyse(game, 3, {}, masked, iterations=8, seed=2) == analyses[0]


def test_the_chips_still_in_the_bag_never_reach_the_analysis_of_the_moves_before_they_are_drawn():
    """GP02A's hands lie open (its rules), so what no seat knows is what the bag gives next: the
    moves made before a draw are judged the same whether or not the record goes on past it."""
    game, record, _step, _wins = thrown_away("gp02a", 3, 35)
    state = game.replay(3, {}, [])
    draws = []
    for index, action in enumerate(record):
        if state.current_player() < 0 and index > 10:
            draws.append(index)
        state.apply(action)
    cut = draws[len(draws) // 2]  # a draw in mid-game, with decisions before it
    start = max(0, cut - 12)
    whole = analyse(game, 3, {}, record, iterations=8, seed=4, start=start)
    until_the_draw = analyse(game, 3, {}, record[:cut], iterations=8, seed=4, start=start)
    before = [d for d in whole["decisions"] if d["step"] < cut]
    assert before, "decisions before the draw are judged"
    assert before == until_the_draw["decisions"]
    assert whole["values"][: cut - start] == until_the_draw["values"][: cut - start]
