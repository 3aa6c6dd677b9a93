"""The sequential bot tournament (bench/bots.py) and its report (bench/bots_report.py)."""

import fcntl
import json
import math

import pytest

from bench import bots, bots_report
from bench.report import machine
from games.engines import all_games


def claim(kind, game="territories", players=2):
    return next(c for c in bots.all_claims() if (c.kind, c.game, c.players) == (kind, game, players))


def record(c, index, won, fingerprint="abc", seconds=1.0):
    """A finished 2-player game of the claim's pairing that the tested bot ``won`` or lost."""
    seat = index % c.players
    names = [c.tested if s == seat else c.opponent for s in range(c.players)]
    ranking = [1 if (s == seat) == won else 2 for s in range(c.players)]
    return {
        "fingerprint": fingerprint,
        "game": c.game,
        "players": c.players,
        "tested": c.tested,
        "opponent": c.opponent,
        "index": index,
        "seat": seat,
        "bots": names,
        "ranking": ranking,
        "place": ranking[seat],
        "seconds": seconds,
        "think": {},
    }


def test_every_game_and_player_count_has_the_five_claims_of_the_levels():
    claims = bots.all_claims()
    combos = {(g.slug, n) for g in all_games() for n in g.allowed_player_counts()}
    assert {(c.game, c.players) for c in claims} == combos
    assert len(claims) == 5 * len(combos)
    kinds = {c.kind: c for c in claims if (c.game, c.players) == ("chit-territory", 4)}
    assert set(kinds) == {"easy-vs-random", "greedy-vs-easy", "medium-vs-greedy", "hard-vs-medium", "hard-vs-greedy"}
    assert (kinds["greedy-vs-easy"].tested, kinds["greedy-vs-easy"].opponent) == ("greedy", "mcts-easy")
    # Hard against Greedy: twice the fair share of first places at 4 players, 65% at 2.
    assert (kinds["hard-vs-greedy"].score, kinds["hard-vs-greedy"].target) == ("first", 0.5)
    assert claim("hard-vs-greedy").target == 0.65
    assert claim("hard-vs-greedy", "dice-territory", 3).target == pytest.approx(2 / 3, abs=1e-4)
    # The other claims: place score, H0 "no better than even" against H1 "60%".
    assert {(c.score, round(c.target - c.margin, 6)) for c in claims if c.kind != "hard-vs-greedy"} == {("place", 0.5)}


def test_a_game_seats_the_tested_bot_in_a_rotating_seat_and_records_what_a_verdict_needs():
    for index in range(3):
        r = bots.play_game(("fp", "gp02a", 3, "greedy", "random", index))
        assert r["seat"] == index and r["bots"][index] == "greedy"
        assert r["bots"].count("random") == 2
        assert sorted(r["ranking"])[0] == 1 and r["place"] == r["ranking"][index]
        assert r["fingerprint"] == "fp" and r["seconds"] > 0
        assert r["think"]["greedy"]["decisions"] > 0


def test_the_fingerprint_changes_with_the_bot_or_engine_code(tmp_path):
    for folder in ("games/bots", "games/engines"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "x.py").write_text("A = 1\n")
    before = bots.code_fingerprint(tmp_path)
    assert bots.code_fingerprint(tmp_path) == before
    (tmp_path / "games/bots/x.py").write_text("A = 2\n")
    assert bots.code_fingerprint(tmp_path) != before
    (tmp_path / "games/bots/notes.txt").write_text("not code")
    assert len(bots.code_fingerprint(tmp_path)) == len(before)


def test_the_levels_budgets_are_not_code_each_game_records_what_its_bots_searched_with(tmp_path):
    for folder in ("games/bots", "games/engines"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "games/bots/mcts.py").write_text("A = 1\n")
    (tmp_path / "games/bots/levels.py").write_text("EASY = 30\n")
    before = bots.code_fingerprint(tmp_path)
    (tmp_path / "games/bots/levels.py").write_text("EASY = 10\n")
    assert bots.code_fingerprint(tmp_path) == before
    # What the bots searched with is in each game instead, per game: Easy's budget differs
    # from game to game, Greedy and Random have none.
    r = bots.play_game(("fp", "game-of-god", 2, "mcts-easy", "random", 0))
    assert r["settings"] == {"mcts-easy": bots.bot_settings("mcts-easy", "game-of-god"), "random": ""}
    assert bots.bot_settings("mcts-easy", "game-of-god") != bots.bot_settings("mcts-easy", "gp02a")
    assert bots.bot_settings("mcts-easy", "gp02a") != bots.bot_settings("mcts-medium", "gp02a")
    assert bots.bot_settings("greedy", "gp02a") == ""


def test_a_level_with_new_settings_in_one_game_restarts_only_the_claims_it_plays_in_that_game(monkeypatch):
    easy_random, greedy_easy, medium_greedy = (
        claim(kind, "gp02a", 3) for kind in ("easy-vs-random", "greedy-vs-easy", "medium-vs-greedy")
    )
    records = []
    for c in (easy_random, greedy_easy, medium_greedy):
        for i in range(30):
            r = record(c, i, True)
            r["settings"] = bots.settings_of(c.game, (c.tested, c.opponent))
            records.append(r)
    assert all(bots.Scheduler([c], records, "abc").decided(c) for c in (easy_random, greedy_easy, medium_greedy))
    settings = {**bots.get_bot("mcts-easy").per_game, "gp02a": {"iterations": 7}}
    monkeypatch.setattr(bots.get_bot("mcts-easy"), "per_game", settings)
    scheduler = bots.Scheduler([easy_random, greedy_easy, medium_greedy], records, "abc")
    assert not scheduler.decided(easy_random) and not scheduler.decided(greedy_easy)
    assert scheduler.decided(medium_greedy)
    # The new games get seeds of their own, not those of the games that no longer count.
    assert bots.game_seed("abc", "gp02a", 3, "mcts-easy", "random", 0) != bots.game_seed(
        "abc", "gp02a", 3, "mcts-medium", "random", 0
    )


def games_before_the_setting(bot):
    """The recorded games of ``bot`` played by the code before the search had its "potential"
    setting (fingerprint fc5acd8af5a0, adopted since by the code now)."""
    with bots.RESULTS.open() as results:
        for line in results:
            r = json.loads(line)
            if "fc5acd8af5a0" in (r.get("fingerprint"), *r.get("adopted_from", [])) and bot in r.get("settings", {}):
                yield r


def test_a_setting_added_later_restarts_only_the_claims_of_the_level_and_game_that_turn_it_on(monkeypatch):
    # The games recorded before the search had a "potential" setting still count for every
    # level and game that leaves it off: their settings read the same as then.
    older = {r["game"]: r["settings"]["mcts-medium"] for r in games_before_the_setting("mcts-medium")}
    assert set(older) == {g.slug for g in all_games()}
    assert {slug: bots.bot_settings("mcts-medium", slug) for slug in older} == older
    # Turned on in one game, it restarts that game's claims of the level and no other.
    medium = bots.get_bot("mcts-medium")
    on = {**medium.per_game, "gp02a": {**medium.per_game["gp02a"], "potential": 4}}
    monkeypatch.setattr(medium, "per_game", on)
    now = {slug: bots.bot_settings("mcts-medium", slug) for slug in older}
    assert [slug for slug in now if now[slug] != older[slug]] == ["gp02a"]


def test_a_setting_for_small_tables_leaves_the_games_of_larger_tables_counted(monkeypatch):
    # Hard judges what is to come in the chit game at 2 players only: at 3 and 4 it searches
    # as before, so the games it played there before the setting still count. (Those games
    # were played under the time cap of then, 1.8 s, since raised to a safety cap.)
    monkeypatch.setattr(bots.get_bot("mcts-hard"), "seconds", 1.8)
    chit = [r for r in games_before_the_setting("mcts-hard") if r["game"] == "chit-territory"]
    before = {r["settings"]["mcts-hard"] for r in chit}
    assert len(before) == 1
    assert bots.bot_settings("mcts-hard", "chit-territory", 3) in before
    assert bots.bot_settings("mcts-hard", "chit-territory", 4) in before
    assert bots.bot_settings("mcts-hard", "chit-territory", 2) not in before


def test_a_setting_for_larger_tables_reads_at_a_small_table_as_its_size(monkeypatch):
    # Hard judged Game of God by what is to come at 2 players first, then at 4 as well: its
    # two-player games search alike under either limit, so they keep counting.
    hard = bots.get_bot("mcts-hard")
    now = {players: bots.bot_settings("mcts-hard", "game-of-god", players) for players in (2, 4)}
    first = {**hard.per_game, "game-of-god": {**hard.per_game["game-of-god"], "potential": 2}}
    monkeypatch.setattr(hard, "per_game", first)
    assert bots.bot_settings("mcts-hard", "game-of-god", 2) == now[2]
    assert bots.bot_settings("mcts-hard", "game-of-god", 4) != now[4]


def test_hard_alone_judges_what_is_to_come_in_two_player_chit_games_and_every_game_of_god():
    limits = {"chit-territory": 2, "game-of-god": 4}
    for name in ("mcts-easy", "mcts-medium", "mcts-hard"):
        for slug, settings in bots.get_bot(name).per_game.items():
            assert settings.get("potential", 0) == (limits.get(slug, 0) if name == "mcts-hard" else 0)


def test_games_of_code_that_only_moved_can_be_adopted_by_the_code_now(tmp_path):
    c = claim("easy-vs-random")
    results = tmp_path / "bots.jsonl"
    results.write_text("".join(json.dumps(record(c, i, True, fingerprint=fp)) + "\n" for i, fp in enumerate("ab" * 5)))
    assert bots.adopt(results, "a", "new") == 5
    games = bots.load_records(results)
    assert [g["fingerprint"] for g in games] == ["new", "b"] * 5
    adopted = games[0]
    assert adopted["adopted_from"] == ["a"] and adopted["settings"] == bots.settings_of(c.game, adopted["bots"])
    assert bots.counted(adopted, "new")
    # Adopted again by later code, the game keeps the whole line of code it stood for.
    assert bots.adopt(results, "new", "newer") == 5
    assert bots.load_records(results)[0]["adopted_from"] == ["a", "new"]


def test_in_a_retimed_game_a_game_whose_search_ran_into_its_clock_is_not_adopted(tmp_path):
    """Faster code searches further in the same time: a game cut short by the clock might
    have gone otherwise, so it stays with the code that played it. Elsewhere it is adopted."""
    c = claim("hard-vs-greedy")
    games = [record(c, i, True, fingerprint="a") for i in range(4)]
    games[1]["think"] = {"mcts-hard": {"decisions": 40, "time_bound": 3}, "greedy": {"decisions": 40}}
    games[2]["think"] = {"mcts-hard": {"decisions": 40, "time_bound": 0}, "greedy": {"decisions": 40}}
    results = tmp_path / "bots.jsonl"
    results.write_text("".join(json.dumps(g) + "\n" for g in games))
    assert bots.adopt(results, "a", "new", retimed=frozenset({"gp02a"})) == 4  # not this game
    results.write_text("".join(json.dumps(g) + "\n" for g in games))
    assert bots.adopt(results, "a", "new", retimed=frozenset({c.game})) == 3
    assert [g["fingerprint"] for g in bots.load_records(results)] == ["new", "a", "new", "new"]


def test_an_adopted_game_keeps_the_settings_it_was_played_with(tmp_path):
    """A game of an older budget did not count before its code was adopted and must not
    count after."""
    c = claim("easy-vs-random")
    now = bots.settings_of(c.game, [c.tested, c.opponent])
    games = [record(c, i, True, fingerprint="a") for i in range(2)]
    games[0]["settings"] = now
    games[1]["settings"] = {**now, c.tested: "0ldb0d9e"}
    results = tmp_path / "bots.jsonl"
    results.write_text("".join(json.dumps(g) + "\n" for g in games))
    assert bots.adopt(results, "a", "new") == 2
    kept, older = bots.load_records(results)
    assert older["settings"][c.tested] == "0ldb0d9e"
    assert bots.counted(kept, "new") and not bots.counted(older, "new")


def test_games_of_other_code_do_not_count_toward_a_verdict():
    c = claim("easy-vs-random")
    wins = [record(c, i, True) for i in range(30)]
    old = [record(c, i, False, fingerprint="old") for i in range(30)]
    scheduler = bots.Scheduler([c], old + wins, "abc")
    assert scheduler.decided(c)
    assert c.decide(scheduler.games[c.pairing]).decision == "H1"
    assert not bots.Scheduler([c], old, "abc").decided(c)


def test_the_scheduler_feeds_the_undecided_claim_with_the_least_time_and_resumes_the_numbering():
    cheap, costly = claim("easy-vs-random"), claim("hard-vs-greedy")
    records = [record(cheap, i, True, seconds=1) for i in range(3)]
    records += [record(costly, 0, True, seconds=100)]
    scheduler = bots.Scheduler([cheap, costly], records, "abc")
    task = scheduler.next_task()
    assert task == ("abc", "territories", 2, "mcts-easy", "random", 3)  # 3 s spent against 100 s
    # Once the cheap claim is decided, only the other is played.
    for i in range(3, 40):
        scheduler.finished(record(cheap, i, True))
        scheduler.in_flight[cheap.pairing] = 1
    scheduler.in_flight[cheap.pairing] = 0
    assert scheduler.decided(cheap)
    assert [scheduler.next_task()[3] for _ in range(3)] == ["mcts-hard"] * 3


def test_every_other_game_goes_to_the_claim_whose_verdict_is_nearest():
    """A claim one or two wins from its verdict is not left waiting behind claims that have
    had less time; the claim with the least time still gets every other game."""
    near, far, fresh = claim("hard-vs-greedy"), claim("hard-vs-medium"), claim("medium-vs-greedy")
    # 13 wins in 16 games against a 65% target: a few more wins decide it (costly games).
    records = [record(near, i, i % 5 != 4, seconds=100) for i in range(16)]
    # Even so far: no drift toward either bound (cheaper, so it has had less time than `near`).
    records += [record(far, i, i % 2 == 0, seconds=50) for i in range(16)]
    scheduler = bots.Scheduler([near, far, fresh], records, "abc")
    assert not scheduler.decided(near) and scheduler.time_to_verdict(near) < scheduler.time_to_verdict(far)
    assert scheduler.time_to_verdict(fresh) == math.inf  # no games yet: no drift to judge
    tasks = [scheduler.next_task()[3:5] for _ in range(4)]
    assert tasks == [("mcts-medium", "greedy"), ("mcts-hard", "greedy")] * 2


def test_a_run_plays_until_the_claim_is_decided_keeps_every_game_and_resumes(tmp_path):
    results = tmp_path / "bots.jsonl"
    # A claim of quick games (Greedy beats Random at every Game of God), decided in about 20.
    c = bots.Claim("game-of-god", 2, "greedy-vs-random", "greedy", "random", "place", 0.6, 0.1, "Greedy beats Random")
    played = bots.run([c], results, minutes=None, processes=2, fingerprint="test")
    lines = results.read_text().splitlines()
    assert played == len(lines) >= 8
    games = [json.loads(line) for line in lines]
    assert c.decide(games).decision != "continue"
    assert sorted(g["index"] for g in games) == list(range(len(games)))
    # A second run finds the claim decided in the file and plays nothing.
    assert bots.run([c], results, minutes=None, processes=2, fingerprint="test") == 0
    # Out of time: nothing new is launched.
    assert bots.run([claim("hard-vs-greedy")], results, minutes=1e-9, processes=2, fingerprint="test") == 0


def test_the_report_gives_each_claim_its_verdict_and_each_bot_its_elo(tmp_path):
    met, missed, open_ = claim("easy-vs-random"), claim("greedy-vs-easy"), claim("medium-vs-greedy")
    records = [record(met, i, i % 4 != 0) for i in range(40)]  # Easy wins 3 in 4
    records += [record(missed, i, i % 4 == 0) for i in range(40)]  # Greedy wins 1 in 4
    records += [record(open_, i, i % 2 == 0) for i in range(6)]
    records += [record(met, i, False, fingerprint="old") for i in range(5)]
    doc, strength = tmp_path / "BOTS.md", tmp_path / "strength.json"
    doc.write_text("# Bots\n\nWhat the bots are.\n")
    bots_report.write([met, missed, open_], records, "abc", doc=doc, strength=strength)
    text = doc.read_text()
    assert text.startswith("# Bots\n\nWhat the bots are.")  # the prose stays
    assert "fingerprint `abc`" in text and "5 games of other code" in text
    rows = {line.split("|")[3].strip(): line for line in text.splitlines() if line.startswith("| Territories | 2 |")}
    assert rows["MCTS Easy vs Random"].rstrip(" |").endswith("met")
    assert "**missed**" in rows["Greedy vs MCTS Easy"]
    assert rows["MCTS Medium vs Greedy"].rstrip(" |").endswith("undecided")
    assert "1 met, 1 missed, 1 undecided" in text
    rated = json.loads(strength.read_text())
    assert rated["fingerprint"] == "abc"
    territories = rated["games"]["territories"]
    assert territories["random"]["elo"] == 0
    # Easy scored 3 in 4 against Random (+191 Elo before the prior), Greedy 1 in 4 against Easy.
    assert 150 < territories["mcts-easy"]["elo"] < 200
    assert territories["greedy"]["elo"] == pytest.approx(0, abs=30)
    assert territories["mcts-easy"]["plus_minus"] > 0


def test_the_report_writes_each_claims_verdict_per_game_and_table_for_the_level_choices(tmp_path):
    met, missed, open_ = claim("easy-vs-random"), claim("greedy-vs-easy"), claim("hard-vs-medium", "gp02a", 3)
    records = [record(met, i, i % 4 != 0) for i in range(40)]
    records += [record(missed, i, i % 4 == 0) for i in range(40)]
    records += [record(open_, i, i % 2 == 0) for i in range(6)]
    records += [record(open_, i, True, fingerprint="old") for i in range(40)]  # other code: not counted
    strength = tmp_path / "strength.json"
    bots_report.write([met, missed, open_], records, "abc", doc=tmp_path / "BOTS.md", strength=strength)
    written = json.loads(strength.read_text())
    assert written["claims"] == {
        "territories": {"2": {"easy-vs-random": "met", "greedy-vs-easy": "missed"}},
        "gp02a": {"3": {"hard-vs-medium": "undecided"}},
    }
    decided = {kind: n for kind, n in written["claim_games"]["territories"]["2"].items()}
    assert 0 < decided["easy-vs-random"] <= 40 and 0 < decided["greedy-vs-easy"] <= 40
    assert written["claim_games"]["gp02a"]["3"] == {"hard-vs-medium": 6}
    # The rest of the file is as before: the fingerprint reported on, and the Elo per game.
    assert written["fingerprint"] == "abc" and written["anchor"] == "random"
    assert set(written["games"]) == {"territories", "gp02a"} and written["written"]


def test_the_report_names_the_machines_the_games_were_played_on(tmp_path):
    c = claim("easy-vs-random")
    records = [{**record(c, i, True, seconds=1800.0), "machine": "Xeon, 2 cores, CPython 3.11.7"} for i in range(3)]
    records += [{**record(c, i, True, seconds=1800.0), "machine": "EPYC, 2 cores, CPython 3.11.7"} for i in range(3, 5)]
    records += [record(c, i, True, seconds=1800.0) for i in range(5, 9)]  # recorded before games named one
    doc = tmp_path / "BOTS.md"
    bots_report.write([c], records, "abc", doc=doc, strength=tmp_path / "strength.json")
    assert (
        "(4.5 core-hours, two games at a time; 1.5 on Xeon, 2 cores, CPython 3.11.7; "
        "1.0 on EPYC, 2 cores, CPython 3.11.7; 2.0 on machines the records do not name (played before they did))"
    ) in doc.read_text()
    # Before any game, no machine is named.
    bots_report.write([c], [], "abc", doc=doc, strength=tmp_path / "strength.json")
    assert "(0.0 core-hours, two games at a time)" in doc.read_text()


def test_the_report_says_how_loaded_the_machine_was_when_hard_thought_longest(tmp_path):
    c = claim("hard-vs-medium")
    calm = {**record(c, 0, True, seconds=100.0), "cpu_seconds": 95.0, "load": 2.0}
    calm["think"] = {"mcts-hard": {"decisions": 10, "total": 5.0, "max": 1.2, "iterations": 0, "time_bound": 0}}
    busy = {**record(c, 1, True, seconds=100.0), "cpu_seconds": 30.0, "load": 9.0}
    busy["think"] = {"mcts-hard": {"decisions": 10, "total": 5.0, "max": 2.3, "iterations": 0, "time_bound": 0}}
    doc = tmp_path / "BOTS.md"
    bots_report.write([c], [calm, busy], "abc", doc=doc, strength=tmp_path / "strength.json")
    assert (
        "MCTS Hard's longest think was 2.30 s (its budget takes up to 2 s on an idle core), "
        "in a game that got 30% of a core "
        "(load average 9.0)."
    ) in doc.read_text()


def test_a_game_records_the_machine_it_was_played_on():
    r = bots.play_game(("fp", "game-of-god", 2, "greedy", "random", 0))
    info = machine()
    assert r["machine"] == f"{info['cpu']}, {info['cores']} cores, {info['python']}"
    assert info["cpu"] and info["cores"] != "?"


def test_retiming_a_game_that_does_not_exist_is_refused_and_changes_nothing(tmp_path, capsys):
    c = claim("easy-vs-random")
    results = tmp_path / "bots.jsonl"
    results.write_text(json.dumps(record(c, 0, True, fingerprint="a")) + "\n")
    before = results.read_text()
    with pytest.raises(SystemExit):
        bots.main(["--adopt", "a", "--retimed", "chess", "--list", "--results", str(results)])
    assert "no game 'chess'" in capsys.readouterr().err
    assert results.read_text() == before


def test_a_game_recorded_twice_counts_once(tmp_path):
    # Two runs at once on the same file would play the same seeded games and record them twice.
    c = claim("easy-vs-random")
    results = tmp_path / "bots.jsonl"
    games = [record(c, i, True) for i in range(3)]
    results.write_text("".join(json.dumps(r) + "\n" for r in games + games[1:]))
    assert [r["index"] for r in bots.load_records(results)] == [0, 1, 2]
    # The same index under other settings is another game.
    other = {**games[0], "settings": {"mcts-easy": "0123abcd", "random": ""}}
    results.write_text("".join(json.dumps(r) + "\n" for r in [*games, other]))
    assert len(bots.load_records(results)) == 4


def test_a_run_or_an_adoption_into_a_results_file_in_use_is_refused_and_changes_nothing(tmp_path, capsys):
    c = claim("easy-vs-random")
    results = tmp_path / "bots.jsonl"
    results.write_text(json.dumps(record(c, 0, True, fingerprint="a")) + "\n")
    before = results.read_text()
    with results.open("a") as other_run:
        fcntl.flock(other_run.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        with pytest.raises(bots.ResultsBusy):
            bots.run([c], results, minutes=None, processes=1, fingerprint="a")
        with pytest.raises(SystemExit) as exit_:
            bots.main(["--adopt", "a", "--list", "--results", str(results)])
        assert exit_.value.code == 1
        assert "Another run is playing into" in capsys.readouterr().err
    assert results.read_text() == before


def _stopped_by_the_cap(r: dict, decisions: int = 1) -> dict:
    """``r`` with ``decisions`` of the tested bot's searches ended by the safety cap."""
    think = {"decisions": 30, "total": 60.0, "max": 900.0, "iterations": 90000, "time_bound": decisions}
    return {**r, "think": {r["tested"]: think}}


def test_a_game_in_which_the_safety_cap_stopped_a_search_decides_nothing_and_its_deal_is_not_dealt_again():
    c = claim("hard-vs-medium")
    # Hard won every game, but in the first 20 a search of its was cut short (a paused run).
    records = [_stopped_by_the_cap(record(c, i, True)) for i in range(20)]
    scheduler = bots.Scheduler([c], records, "abc")
    assert not scheduler.decided(c) and scheduler.games.get(c.pairing, []) == []
    assert scheduler.next_task() == ("abc", "territories", 2, "mcts-hard", "mcts-medium", 20)
    scheduler.finished(_stopped_by_the_cap(record(c, 20, True)))
    assert scheduler.games.get(c.pairing, []) == []
    for i in range(21, 40):
        scheduler.in_flight[c.pairing] = 1
        scheduler.finished(record(c, i, True))
    assert scheduler.decided(c) and len(scheduler.games[c.pairing]) == 19


def test_the_report_counts_voided_games_apart_and_measures_their_stops(tmp_path):
    c = claim("hard-vs-medium")
    records = [record(c, i, True) for i in range(30)]
    records += [_stopped_by_the_cap(record(c, 30 + i, False), 2) for i in range(3)]
    for r in records[:30]:
        r["think"] = {"mcts-hard": {"decisions": 30, "total": 30.0, "max": 1.5, "iterations": 90000, "time_bound": 0}}
    doc, strength = tmp_path / "BOTS.md", tmp_path / "strength.json"
    doc.write_text("# Bots\n")
    bots_report.write([c], records, "abc", doc=doc, strength=strength)
    text = doc.read_text()
    assert "the 30 games of bot and engine code" in text and "Nor are the 3 games" in text
    row = next(line for line in text.splitlines() if line.startswith("| Territories | 2 | MCTS Hard vs MCTS Medium"))
    assert "| 100% " in row, "the voided losses are not in the share"
    hard = next(line for line in text.splitlines() if line.startswith("| Territories | MCTS Hard |"))
    # 6 of the 990 decisions were stopped by the cap, all in the voided games.
    assert hard.split("|")[3].strip() == "990" and hard.rstrip(" |").endswith("1%")


def test_a_run_starts_no_game_while_its_pause_file_exists(tmp_path, capsys):
    results = tmp_path / "bots.jsonl"
    c = bots.Claim("game-of-god", 2, "greedy-vs-random", "greedy", "random", "place", 0.6, 0.1, "Greedy beats Random")
    bots.pause_file(results).touch()
    assert bots.run([c], results, minutes=0.03, processes=2, fingerprint="test") == 0
    assert results.read_text() == "" and "paused while" in capsys.readouterr().out
    bots.pause_file(results).unlink()
    assert bots.run([c], results, minutes=None, processes=2, fingerprint="test") >= 8


def test_adopting_is_refused_when_the_code_now_has_dealt_the_same_seeded_games(tmp_path):
    """A run of the new code started before adoption deals from index 0 again: adopting the
    older games then would count each of those deals twice."""
    c = claim("easy-vs-random")
    games = [record(c, i, True, fingerprint="a") for i in range(3)] + [record(c, 0, False, fingerprint="new")]
    results = tmp_path / "bots.jsonl"
    results.write_text("".join(json.dumps(g) + "\n" for g in games))
    before = results.read_text()
    with pytest.raises(bots.SameDeals, match=f"{c.game} {c.players}p {c.tested} vs {c.opponent}"):
        bots.adopt(results, "a", "new")
    assert results.read_text() == before
