"""The check before the tournament counts an older code's games for the code now: both
versions must play the same seeded openings, move for move, at every table and level."""

import json
import shutil

import pytest

from bench import bots, play_check
from tests.bots.test_tournament import claim, record


def test_a_seeded_opening_is_the_same_every_time_and_differs_by_bot():
    first = play_check.play_opening("game-of-god", 2, "greedy", 10)
    assert first == play_check.play_opening("game-of-god", 2, "greedy", 10)
    assert len(first) >= 10
    assert first != play_check.play_opening("game-of-god", 2, "random", 10)


@pytest.mark.skipif(shutil.which("git") is None, reason="the check compares two git trees")
def test_the_code_now_plays_as_itself():
    fingerprint, differ = play_check.compare("HEAD", ["random", "greedy"])
    assert differ == []
    assert len(fingerprint) == 12


def _tree_with_games(tmp_path):
    tree = tmp_path / "tree"
    shutil.copytree(play_check.ROOT / "games", tree / "games", ignore=shutil.ignore_patterns("__pycache__"))
    return tree


def test_a_tree_whose_bot_chooses_otherwise_is_found_to_play_differently(tmp_path):
    tree = _tree_with_games(tmp_path)
    greedy = tree / "games" / "bots" / "greedy.py"
    source = greedy.read_text()
    ties_broken = "return best[0] if len(best) == 1 else rng.choice(best)"
    assert ties_broken in source
    # An older Greedy that takes the last of its best moves instead of drawing one of them.
    greedy.write_text(source.replace(ties_broken, "return best[-1]"))
    old = play_check._run_in(tree, ["greedy", "random"])
    new = play_check._run_in(play_check.ROOT, ["greedy", "random"])
    differ = sorted(key for key in new if old[key] != new[key])
    assert differ, "the altered Greedy played every opening as the code now does"
    assert all(key.endswith("/greedy") for key in differ)  # Random, unchanged, plays alike


def test_a_copy_of_the_code_now_plays_alike(tmp_path):
    tree = _tree_with_games(tmp_path)
    assert play_check._run_in(tree, ["greedy"]) == play_check._run_in(play_check.ROOT, ["greedy"])


def _one_game(tmp_path):
    results = tmp_path / "bots.jsonl"
    results.write_text(json.dumps(record(claim("easy-vs-random"), 0, True, fingerprint="old")) + "\n")
    return results


def test_an_older_code_that_plays_differently_is_not_adopted(tmp_path, monkeypatch, capsys):
    results = _one_game(tmp_path)
    before = results.read_text()
    monkeypatch.setattr(play_check, "compare", lambda rev, levels: ("old", ["territories/2/mcts-easy"]))
    with pytest.raises(SystemExit) as exit_:
        bots.main(["--adopt-rev", "abc123", "--list", "--results", str(results)])
    assert exit_.value.code == 1
    assert "plays differently: territories/2/mcts-easy" in capsys.readouterr().err
    assert results.read_text() == before


def test_an_older_code_that_plays_the_same_has_its_games_counted_as_the_code_nows(tmp_path, monkeypatch, capsys):
    results = _one_game(tmp_path)
    monkeypatch.setattr(play_check, "compare", lambda rev, levels: ("old", []))
    bots.main(["--adopt-rev", "abc123", "--list", "--results", str(results)])
    assert "Adopted 1 games of code old" in capsys.readouterr().out
    [adopted] = bots.load_records(results)
    assert adopted["fingerprint"] == bots.code_fingerprint() and adopted["adopted_from"] == ["old"]


def test_adopting_plays_no_game_even_without_report_or_list(tmp_path, monkeypatch, capsys):
    results = _one_game(tmp_path)
    monkeypatch.setattr(play_check, "compare", lambda rev, levels: ("old", []))
    monkeypatch.setattr(bots, "run", lambda *args, **kwargs: pytest.fail("adopting started the tournament"))
    bots.main(["--adopt-rev", "abc123", "--no-write", "--results", str(results)])
    out = capsys.readouterr().out
    assert "Adopted 1 games of code old" in out and "games played" not in out
