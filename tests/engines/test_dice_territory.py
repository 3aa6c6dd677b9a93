"""Territory, the dice game: one test per rule of shared/rules/dice-territory.md and per card.

Positions are reached by applying scripted actions, dice included (``dice:A,B`` forces a
roll). Spaces: column a-f is 1-6, row 1-6; a space is marked column + row, so the 7s are
a6 b5 c4 d3 e2 f1, the 3s b1 a2, the 11s f5 e6, the 2 is a1 and the 12 is f6.
"""

import json
import random

import pytest

from games.engines import CHANCE, TERMINAL, IllegalAction
from games.engines.dice_territory import CARDS, GAME, SPACE_NAMES

CARD_NAMES = {letter: name for letter, name, _ in CARDS}


# ---------------------------------------------------------------------------
# Helpers


def play(state, script):
    """Apply each whitespace-separated action of ``script``."""
    for action in script.split():
        state.apply(action)
    return state


def new_game(num_players=3, first=0, hidden="J"):
    """A game whose first player is ``first`` and whose face-down round-1 card is ``hidden``."""
    return play(GAME.new_state(num_players), f"first:{first} card:{hidden}")


def dice_for(number):
    a = 1 if number <= 7 else number - 6
    return f"dice:{a},{number - a}"


def space(view, name):
    return view["board"][SPACE_NAMES.index(name)]


def owned(state, seat):
    """The spaces held by ``seat``'s pieces (not this turn's markers)."""
    return sorted(c["space"] for c in state.view(None)["board"] if c["owner"] == seat)


def markers(state):
    return sorted(c["space"] for c in state.view(None)["board"] if c["marker"])


def bust_out(state):
    """End the current turn leaving the board as it was: the free rolls claim free spaces,
    then the first number is repeated until the turn busts. (Under card J the free-roll
    markers would stay; the tests never call this in a J round.)"""
    seat = state.current_player()
    first_number = None
    while state.current_player() == seat:
        legal = state.legal_actions()
        if legal == ["roll"]:
            board = state.view(None)["board"]
            number = next(c["number"] for c in board if c["owner"] is None and not c["marker"])
            first_number = first_number or number
            play(state, f"roll {dice_for(number)}")
        elif legal == ["roll", "stop"]:
            play(state, f"roll {dice_for(first_number)}")
        else:
            claims = [a for a in legal if a.startswith("claim:")]
            assert claims, "bust_out expects a free space"
            state.apply(claims[0])


def next_round(state, card):
    """Bust out every turn left in this round, then draw ``card`` for the next one."""
    while state.current_player() != CHANCE:
        bust_out(state)
    state.apply(f"card:{card}")
    return state


def finish(state, cards="ABCDEFGHI"):
    """Bust out every turn to the end of the game, drawing cards in ``cards`` order."""
    while not state.is_terminal():
        if state.current_player() == CHANCE:
            legal = state.legal_actions()
            state.apply(next(f"card:{c}" for c in cards if f"card:{c}" in legal))
        else:
            bust_out(state)
    return state


def free_rolls_of(state, number=7):
    """How many rolls the current player may make before ``stop`` is offered (each roll of
    ``number`` claims the first free space)."""
    count = 0
    while state.legal_actions() == ["roll"]:
        play(state, f"roll {dice_for(number)}")
        count += 1
        legal = state.legal_actions()
        if any(a.startswith(("claim:", "capture:")) for a in legal):
            state.apply(legal[0])
    return count


# ---------------------------------------------------------------------------
# Board and set-up


def test_board_is_a_six_by_six_addition_table_with_the_rule_values():
    board = new_game().view(None)["board"]
    assert len(board) == 36
    by_name = {c["space"]: c for c in board}
    assert by_name["a1"]["number"] == 2 and by_name["f6"]["number"] == 12
    assert by_name["c4"]["number"] == 7 and by_name["b1"]["number"] == by_name["a2"]["number"] == 3
    counts = {n: sum(1 for c in board if c["number"] == n) for n in range(2, 13)}
    assert counts == {2: 1, 3: 2, 4: 3, 5: 4, 6: 5, 7: 6, 8: 5, 9: 4, 10: 3, 11: 2, 12: 1}
    values = {c["number"]: c["value"] for c in board}
    assert values == {2: 11, 12: 11, 3: 9, 11: 9, 4: 7, 10: 7, 5: 5, 9: 5, 6: 3, 8: 3, 7: 1}
    assert all(c["owner"] is None and not c["marker"] for c in board)


def test_the_first_player_is_a_uniform_chance_draw_then_the_round_one_card():
    state = GAME.new_state(5)
    assert state.current_player() == CHANCE
    assert state.chance_outcomes() == [(f"first:{s}", 0.2) for s in range(5)]
    state.apply("first:3")
    assert state.current_player() == CHANCE
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == [f"card:{c}" for c in "ABCDEFGHIJ"]
    assert all(p == pytest.approx(0.1) for _, p in outcomes)
    state.apply("card:D")
    assert state.current_player() == 3
    assert state.view(None)["turn_order"] == [3, 4, 0, 1, 2]


def test_cards_are_drawn_from_what_is_left_of_the_deck():
    state = next_round(new_game(hidden="C"), "F")
    while state.current_player() != CHANCE:
        bust_out(state)
    letters = [a[-1] for a, _ in state.chance_outcomes()]
    assert letters == list("ABDEGHIJ")
    with pytest.raises(IllegalAction, match="not in the deck"):
        state.apply("card:F")


@pytest.mark.parametrize("num_players,rounds", [(3, 8), (4, 6), (5, 5), (6, 4)])
def test_round_counts_for_3_4_5_6_players(num_players, rounds):
    state = new_game(num_players, first=1)
    assert state.view(None)["rounds"] == rounds
    finish(state)
    assert state.current_player() == TERMINAL
    assert sum(1 for a in state.history if a.startswith("card:")) == rounds
    assert state.history.count("stop") == 0
    # One turn per player per round: every turn ends in one bust here.
    turn_starts = 0
    replay = GAME.new_state(num_players)
    previous = None
    for action in state.history:
        replay.apply(action)
        turn = replay.view(None)["turn"]
        if turn is not None and turn != previous:
            turn_starts += 1
        previous = turn
    assert turn_starts == rounds * num_players
    assert state.view(None)["round"] == rounds


def test_a_round_is_one_turn_each_clockwise_from_the_first_player_every_round():
    state = new_game(4, first=2, hidden="A")
    seen = []
    for _ in range(4):
        seen.append(state.current_player())
        bust_out(state)
    assert seen == [2, 3, 0, 1]
    assert state.current_player() == CHANCE
    state.apply("card:B")
    assert state.current_player() == 2


# ---------------------------------------------------------------------------
# A turn


def test_a_turn_starts_with_a_roll_and_the_dice_are_36_ordered_pairs():
    state = new_game()
    assert state.legal_actions() == ["roll"]
    state.apply("roll")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36 and {p for _, p in outcomes} == {1 / 36}
    assert "dice:1,2" in dict(outcomes) and "dice:2,1" in dict(outcomes)
    state.apply("dice:2,5")
    assert state.legal_actions() == ["claim:f1", "claim:e2", "claim:d3", "claim:c4", "claim:b5", "claim:a6"]
    view = state.view(0)
    assert view["rolls"] == [{"dice": [2, 5], "number": 7, "result": "placed"}]
    assert view["last_chance"] == {"kind": "dice", "dice": [2, 5], "number": 7}


def test_a_claim_must_be_a_free_space_of_the_number_rolled():
    state = play(new_game(), "roll dice:3,4")
    with pytest.raises(IllegalAction, match="a1 is not marked 7"):
        state.apply("claim:a1")
    state.apply("claim:c4")
    play(state, "roll dice:4,3")
    with pytest.raises(IllegalAction, match="c4 is not free"):
        state.apply("claim:c4")


def test_free_rolls_never_bust_even_on_a_repeated_number():
    state = play(new_game(), "roll dice:3,4 claim:c4 roll dice:4,3 claim:d3 roll dice:5,2 claim:e2")
    assert state.current_player() == 0
    assert state.legal_actions() == ["roll", "stop"]
    assert markers(state) == ["c4", "d3", "e2"]
    assert [r["result"] for r in state.view(0)["rolls"]] == ["placed"] * 3


def test_a_player_cannot_stop_during_the_free_rolls():
    state = play(new_game(), "roll dice:3,4 claim:c4")
    assert state.legal_actions() == ["roll"]
    with pytest.raises(IllegalAction, match="free rolls"):
        state.apply("stop")
    assert state.view(0)["free_rolls_left"] == 2


def test_a_new_number_after_the_free_rolls_places_a_marker():
    state = play(new_game(), "roll dice:1,1 claim:a1 roll dice:1,2 claim:b1 roll dice:2,2 claim:c1")
    play(state, "roll dice:6,6 claim:f6")
    assert markers(state) == ["a1", "b1", "c1", "f6"]
    assert state.legal_actions() == ["roll", "stop"]


def test_a_repeat_after_the_free_rolls_busts_and_removes_this_turns_markers_only():
    state = play(new_game(), "roll dice:1,1 claim:a1 roll dice:1,2 claim:b1 roll dice:2,2 claim:c1 stop")
    # Seat 1: three free rolls, a fourth number, then a repeat of the first.
    play(state, "roll dice:3,4 claim:c4 roll dice:5,6 claim:f5 roll dice:3,4 claim:d3")
    play(state, "roll dice:6,6 claim:f6 roll dice:2,5")
    assert state.current_player() == 2
    assert markers(state) == []
    assert owned(state, 1) == []
    assert owned(state, 0) == ["a1", "b1", "c1"]
    assert state.view(None)["last_turn"] == {"seat": 1, "ended_by": "bust", "kept": []}


def test_stopping_turns_the_markers_into_pieces():
    state = play(new_game(), "roll dice:1,1 claim:a1 roll dice:1,2 claim:b1 roll dice:2,2 claim:c1")
    assert owned(state, 0) == [] and state.scores()[0] == 0
    state.apply("stop")
    assert owned(state, 0) == ["a1", "b1", "c1"]
    assert markers(state) == []
    assert state.scores()[0] == 11 + 9 + 7
    assert state.current_player() == 1


def test_capture_removes_the_piece_ends_the_turn_and_keeps_the_markers():
    state = play(new_game(), "roll dice:1,1 claim:a1 roll dice:1,2 claim:b1 roll dice:2,2 claim:c1 stop")
    play(state, "roll dice:5,6 claim:f5 roll dice:1,2")
    assert "capture:b1" in state.legal_actions()
    state.apply("capture:b1")
    assert state.current_player() == 2
    assert owned(state, 1) == ["b1", "f5"]
    assert owned(state, 0) == ["a1", "c1"]
    assert state.view(None)["last_turn"] == {"seat": 1, "ended_by": "capture", "kept": ["b1", "f5"]}


def test_capture_is_optional_while_a_space_of_the_number_is_free():
    state = play(new_game(), "roll dice:1,2 claim:b1 roll dice:1,1 claim:a1 roll dice:1,1 stop")
    play(state, "roll dice:2,1")
    assert state.legal_actions() == ["claim:a2", "capture:b1"]
    state.apply("claim:a2")
    assert state.current_player() == 1 and owned(state, 0) == ["a1", "b1"]


def test_capture_is_forced_when_no_space_of_the_number_is_free():
    state = play(new_game(), "roll dice:1,2 claim:b1 roll dice:2,1 claim:a2 roll dice:1,1 claim:a1 stop")
    play(state, "roll dice:1,2")
    assert state.legal_actions() == ["capture:b1", "capture:a2"]
    assert state.prompt() == "You rolled 3: every space marked 3 is taken, so capture one."
    with pytest.raises(IllegalAction, match="not free"):
        state.apply("claim:a2")
    state.apply("capture:a2")
    assert state.current_player() == 2 and owned(state, 1) == ["a2"]


def test_a_number_whose_spaces_are_all_your_own_places_nothing_and_the_turn_goes_on():
    state = play(new_game(), "roll dice:1,1 claim:a1 roll dice:1,1")  # a1 holds our marker
    assert state.current_player() == 0 and state.legal_actions() == ["roll"]
    assert state.view(0)["rolls"][-1] == {"dice": [1, 1], "number": 2, "result": "nothing"}
    play(state, "roll dice:1,2 claim:b1 stop")
    state = next_round(state, "A")
    play(state, "roll dice:1,1")  # a1 now holds our piece
    assert state.current_player() == 0 and state.legal_actions() == ["roll"]
    assert markers(state) == []


def test_a_capture_cannot_take_your_own_space_or_a_free_one():
    state = play(new_game(), "roll dice:1,2 claim:b1 roll dice:2,1")
    with pytest.raises(IllegalAction, match="already yours"):
        state.apply("capture:b1")
    with pytest.raises(IllegalAction, match="free: claim it"):
        state.apply("capture:a2")


# ---------------------------------------------------------------------------
# The round-1 card


@pytest.mark.parametrize("hidden", list("ABCDEFGHIJ"))
def test_the_round_one_card_has_no_effect(hidden):
    state = new_game(3, first=0, hidden=hidden)
    # Seat 0 plays first (no Reversal): three 7s in the free rolls (no Cautious bust),
    # stop is offered after three rolls (not Bold).
    assert state.current_player() == 0
    play(state, "roll dice:3,4 claim:f1 roll dice:3,4 claim:e2 roll dice:3,4 claim:d3")
    assert state.legal_actions() == ["roll", "stop"]
    state.apply("stop")
    # Seat 1: doubles place one marker (not Doubles); a 7 offers only 7-spaces (not Lucky
    # seven); a capture is allowed (not Truce) and ends the turn (not Plunder).
    assert state.current_player() == 1
    play(state, "roll dice:2,2 claim:c1")
    assert state.legal_actions() == ["roll"]
    play(state, "roll dice:1,6")
    assert state.legal_actions() == [
        "claim:c4", "claim:b5", "claim:a6", "capture:f1", "capture:e2", "capture:d3",
    ]  # fmt: skip
    state.apply("capture:d3")
    # Seat 2: a repeat after the free rolls busts (not Second chance) and takes every marker,
    # free-roll ones included (not Insurance).
    assert state.current_player() == 2
    play(state, "roll dice:1,1 claim:a1 roll dice:5,6 claim:f5 roll dice:6,5 claim:e6 roll dice:1,1")
    assert state.current_player() == CHANCE
    assert owned(state, 0) == ["e2", "f1"]
    assert owned(state, 1) == ["c1", "d3"]
    assert owned(state, 2) == []


@pytest.mark.parametrize("hidden", list("ABCDEFGHIJ"))
def test_the_round_one_card_appears_in_no_view(hidden):
    letter, name, text = next(card for card in CARDS if card[0] == hidden)
    secrets = [f'"letter": "{letter}"', f'"name": "{name}"', f'"text": "{text}"']
    rng = random.Random(ord(hidden))
    state = new_game(4, first=1, hidden=hidden)
    first_view = state.view(None)
    assert first_view["card"] == {
        "letter": None,
        "name": "a hidden card",
        "text": first_view["card"]["text"],
    }
    assert first_view["last_chance"]["card"]["letter"] is None
    while True:
        for seat in [None, 0, 1, 2, 3]:
            dump = json.dumps(state.view(seat), sort_keys=True)
            for secret in secrets:
                assert secret not in dump
            assert "deck" not in json.loads(dump)
        if state.is_terminal():
            break
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            state.apply(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert len(state.view(None)["cards_played"]) == 5
    assert GAME.action_label(f"card:{hidden}") == "A card is drawn"
    assert state.public_history()[1] == "card:?"


def test_a_determinised_copy_redraws_the_hidden_card_among_the_unseen_ones():
    state = next_round(new_game(3, hidden="H"), "C")
    state = next_round(state, "E")
    seen = set()
    for seed in range(200):
        copy = state.determinised(0, random.Random(seed))
        assert copy.view(0) == state.view(0)
        hidden = copy.history[1][-1]
        seen.add(hidden)
        assert hidden not in "CE"
        # The copy's deck is the other unseen cards, and its history replays to it.
        while copy.current_player() != CHANCE:
            bust_out(copy)
        deck = {a[-1] for a in copy.legal_actions()}
        assert deck == set("ABDFGHIJ") - {hidden}
        assert GAME.replay(3, {}, copy.history).legal_actions() == copy.legal_actions()
    assert seen == set("ABDFGHIJ")
    assert state.history[1] == "card:H"


# ---------------------------------------------------------------------------
# The cards, each for one round only (round 3 is drawn as A, Calm; the hidden card is J)


def round_two(card, hidden="J", num_players=3):
    return next_round(new_game(num_players, first=0, hidden=hidden), card)


def test_card_a_calm_changes_nothing():
    state = round_two("A")
    assert state.view(0)["card"]["letter"] == "A"
    assert free_rolls_of(state) == 3
    play(state, "roll dice:3,4")
    assert state.current_player() == 1  # a repeat after 3 free rolls busts
    assert markers(state) == [] and owned(state, 0) == []


def test_card_b_cautious_gives_two_free_rolls_for_one_round():
    state = round_two("B")
    assert state.view(0)["free_rolls"] == 2
    assert free_rolls_of(state) == 2
    play(state, "roll dice:3,4")  # the third roll is a repeat and no longer free
    assert state.current_player() == 1
    state = next_round(state, "A")
    assert free_rolls_of(state) == 3


def test_card_c_bold_gives_four_free_rolls_for_one_round():
    state = round_two("C")
    assert free_rolls_of(state) == 4
    assert markers(state) == ["c4", "d3", "e2", "f1"]
    play(state, "roll dice:3,4")
    assert state.current_player() == 1
    state = next_round(state, "A")
    assert free_rolls_of(state) == 3


def setup_pieces_for_captures(hidden="J"):
    """Round 1: seat 0 holds b1 and a2 (both 3s) and c1; seats 1 and 2 bust."""
    state = new_game(3, first=0, hidden=hidden)
    play(state, "roll dice:1,2 claim:b1 roll dice:2,1 claim:a2 roll dice:2,2 claim:c1 stop")
    return state


def test_card_d_truce_forbids_captures_for_one_round():
    state = next_round(setup_pieces_for_captures(), "D")
    bust_out(state)  # seat 0
    play(state, "roll dice:1,3")  # a 4: c1 is taken, b2 and a3 free
    assert state.legal_actions() == ["claim:b2", "claim:a3"]
    with pytest.raises(IllegalAction, match="No captures"):
        state.apply("capture:c1")
    state.apply("claim:b2")
    play(state, "roll dice:1,2")  # both 3s are taken: nothing placed, no forced capture
    assert state.legal_actions() == ["roll"]
    assert state.view(1)["rolls"][-1]["result"] == "nothing"
    play(state, "roll dice:6,6 claim:f6 roll dice:2,1")  # ... and the 3 still counts as rolled
    assert state.view(None)["last_turn"]["ended_by"] == "bust"
    assert owned(state, 0) == ["a2", "b1", "c1"]
    state = next_round(state, "A")
    bust_out(state)
    play(state, "roll dice:1,2")
    assert state.legal_actions() == ["capture:b1", "capture:a2"]


def test_card_e_plunder_lets_the_turn_go_on_after_a_capture_for_one_round():
    state = next_round(setup_pieces_for_captures(), "E")
    bust_out(state)
    play(state, "roll dice:1,2 capture:b1")
    assert state.current_player() == 1
    assert state.legal_actions() == ["roll"]
    play(state, "roll dice:1,2 capture:a2 roll dice:6,6 claim:f6 stop")
    assert owned(state, 1) == ["a2", "b1", "f6"]
    assert owned(state, 0) == ["c1"]
    state = next_round(state, "A")
    play(state, "roll dice:2,1 capture:a2")
    assert state.current_player() == 1


def test_a_bust_after_a_plunder_capture_leaves_the_captured_space_empty():
    state = next_round(setup_pieces_for_captures(), "E")
    bust_out(state)
    play(state, "roll dice:1,2 capture:b1 roll dice:3,4 claim:c4 roll dice:5,6 claim:f5")
    play(state, "roll dice:1,2")  # 3 again after the free rolls: bust
    assert state.current_player() == 2
    assert space(state.view(None), "b1")["owner"] is None
    assert owned(state, 1) == [] and owned(state, 0) == ["a2", "c1"]


def test_card_f_second_chance_forgives_the_first_repeat_for_one_round():
    state = round_two("F")
    assert free_rolls_of(state) == 3
    play(state, "roll dice:3,4")  # first repeat: ignored
    assert state.current_player() == 0
    assert state.legal_actions() == ["roll", "stop"]
    assert state.view(0)["rolls"][-1]["result"] == "ignored"
    assert markers(state) == ["d3", "e2", "f1"]
    play(state, "roll dice:6,6 claim:f6 roll dice:4,3")  # second repeat: bust
    assert state.current_player() == 1 and markers(state) == []
    state = next_round(state, "A")
    assert free_rolls_of(state) == 3
    play(state, "roll dice:3,4")
    assert state.current_player() == 1


def test_card_g_lucky_seven_places_a_seven_on_any_free_space_for_one_round():
    state = next_round(setup_pieces_for_captures(), "G")
    play(state, "roll dice:3,4")
    legal = state.legal_actions()
    free = [f"claim:{n}" for n in SPACE_NAMES if n not in ("b1", "a2", "c1")]
    assert legal == free  # no opponent on a 7, so no capture
    play(state, "claim:f6 roll dice:1,3")  # other numbers are unchanged
    assert state.legal_actions() == ["claim:b2", "claim:a3"]
    state = next_round(state, "A")
    play(state, "roll dice:3,4")
    assert state.legal_actions() == ["claim:f1", "claim:e2", "claim:d3", "claim:c4", "claim:b5", "claim:a6"]


def test_card_h_doubles_places_two_markers_for_one_round():
    state = round_two("H")
    play(state, "roll dice:2,2")
    assert state.view(0)["placing"]["markers_left"] == 2
    play(state, "claim:c1 claim:a3")
    assert state.legal_actions() == ["roll"]
    play(state, "roll dice:1,3 claim:b2")  # not doubles: one marker
    assert state.legal_actions() == ["roll"]
    play(state, "roll dice:1,1 claim:a1")  # the 2 has one space: the second marker is lost
    assert state.legal_actions() == ["roll", "stop"]
    state.apply("stop")
    assert owned(state, 0) == ["a1", "a3", "b2", "c1"]
    state = next_round(state, "A")
    play(state, "roll dice:3,3 claim:c3")
    assert state.legal_actions() == ["roll"]
    assert markers(state) == ["c3"]


def test_under_doubles_a_capture_still_ends_the_turn_and_forfeits_the_second_marker():
    state = new_game(3, first=0, hidden="A")
    play(state, "roll dice:2,2 claim:c1 roll dice:1,3 claim:b2 roll dice:3,1 claim:a3 stop")
    state = next_round(state, "H")
    bust_out(state)
    play(state, "roll dice:2,2 capture:b2")
    assert state.current_player() == 2
    assert owned(state, 1) == ["b2"] and owned(state, 0) == ["a3", "c1"]


def test_card_i_reversal_plays_the_round_counter_clockwise_for_one_round():
    state = new_game(4, first=1, hidden="A")
    state = next_round(state, "I")
    assert state.view(None)["turn_order"] == [0, 3, 2, 1]
    seen = []
    for _ in range(4):
        seen.append(state.current_player())
        bust_out(state)
    assert seen == [0, 3, 2, 1]
    state.apply("card:B")
    assert state.view(None)["turn_order"] == [1, 2, 3, 0]
    assert state.current_player() == 1


def test_card_j_insurance_keeps_the_free_roll_markers_on_a_bust_for_one_round():
    state = round_two("J", hidden="B")
    play(state, "roll dice:1,1 claim:a1 roll dice:1,2 claim:b1 roll dice:2,2 claim:c1")
    play(state, "roll dice:6,6 claim:f6 roll dice:1,1")  # bust
    assert state.current_player() == 1
    assert owned(state, 0) == ["a1", "b1", "c1"]
    assert space(state.view(None), "f6")["owner"] is None
    state = next_round(state, "A")
    play(state, "roll dice:3,4 claim:c4 roll dice:5,6 claim:f5 roll dice:1,3 claim:a3 roll dice:4,3")
    assert owned(state, 0) == ["a1", "b1", "c1"]


# ---------------------------------------------------------------------------
# End and score


def test_the_worked_example_scores_29():
    state = new_game()
    play(state, "roll dice:1,1 claim:a1 roll dice:1,2 claim:b1 roll dice:2,1 claim:a2")
    play(state, "roll dice:6,6 claim:f6 stop")
    assert owned(state, 0) == ["a1", "a2", "b1", "f6"]
    assert state.scores() == [29, 0, 0]
    view = state.view(2)
    assert view["best_group"][0] == ["a1", "b1", "a2"]
    assert view["score_breakdown"][0] == [["a1 (2)", 11], ["b1 (3)", 9], ["a2 (3)", 9]]
    assert view["owned_value"][0] == 40
    assert sum(points for _, points in view["score_breakdown"][0]) == view["scores"][0]
    finish(state)
    assert state.scores() == [29, 0, 0]
    assert state.ranking() == [1, 2, 2]


def test_corners_do_not_join_a_group():
    state = new_game()
    play(state, "roll dice:1,1 claim:a1 roll dice:1,3 claim:b2 roll dice:5,6 claim:f5 stop")
    assert state.scores()[0] == 11  # a1 and b2 only touch at a corner


def test_ties_on_score_are_broken_by_total_value_owned():
    state = new_game()
    play(state, "roll dice:1,1 claim:a1 roll dice:3,4 claim:c4 roll dice:3,4 claim:d3 stop")
    play(state, "roll dice:6,6 claim:f6 roll dice:3,4 claim:e2 roll dice:3,4 claim:f1 stop")
    play(state, "roll dice:6,6 capture:f6")  # seat 2 takes f6: 11 points, nothing else
    finish(state)
    assert state.scores() == [11, 1, 11]
    assert state.view(None)["owned_value"] == [13, 2, 11]
    assert state.ranking() == [1, 3, 2]


def test_a_tie_on_score_and_total_value_shares_the_place():
    state = new_game()
    play(state, "roll dice:1,1 claim:a1 roll dice:3,4 claim:c4 roll dice:3,4 claim:d3 stop")
    play(state, "roll dice:6,6 claim:f6 roll dice:3,4 claim:e2 roll dice:3,4 claim:f1 stop")
    finish(state)
    assert state.scores() == [11, 11, 0]
    assert state.ranking() == [1, 1, 3]


def test_scores_count_pieces_not_this_turns_markers():
    state = play(new_game(), "roll dice:1,1 claim:a1")
    assert state.scores() == [0, 0, 0]
    assert state.view(0)["score_breakdown"] == [[], [], []]


def test_the_game_ends_after_the_last_round_with_nothing_left_to_do():
    state = finish(new_game(6))
    assert state.legal_actions() == [] and state.chance_outcomes() == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply("roll")
    assert state.view(None)["ranking"] == [1] * 6


# ---------------------------------------------------------------------------
# Actions, labels and replay


@pytest.mark.parametrize("garbage", [None, 7, "", "roll:", "claim:g1", "claim:a0", "dice:0,7", "x" * 200])
def test_garbage_is_refused_without_change(garbage):
    state = play(new_game(), "roll")
    before = json.dumps(state.view(None))
    with pytest.raises(IllegalAction):
        state.apply(garbage)
    assert json.dumps(state.view(None)) == before and state.history[-1] == "roll"


def test_actions_out_of_turn_are_refused_in_plain_words():
    state = new_game()
    with pytest.raises(IllegalAction, match="Roll the dice"):
        state.apply("claim:a1")
    with pytest.raises(IllegalAction):
        state.apply("dice:1,1")
    with pytest.raises(IllegalAction):
        state.apply("card:B")


def test_labels_and_prompts_are_plain_words():
    assert GAME.action_label("roll") == "Roll the dice"
    assert GAME.action_label("claim:c4") == "Claim c4"
    assert GAME.action_label("capture:c4") == "Capture c4"
    assert GAME.action_label("stop") == "Stop and keep your markers"
    assert GAME.action_label("dice:3,4") == "Rolled 3 and 4 (7)"
    state = new_game()
    assert state.prompt() == "Roll the dice."
    play(state, "roll dice:3,4")
    assert state.prompt() == "You rolled 7: place a marker on a space marked 7."


def test_replay_reproduces_a_scripted_game():
    state = setup_pieces_for_captures()
    state = next_round(state, "E")
    bust_out(state)
    play(state, "roll dice:1,2 capture:b1")
    replayed = GAME.replay(3, {}, state.history)
    assert replayed.view(1) == state.view(1)
    assert replayed.legal_actions() == state.legal_actions()
