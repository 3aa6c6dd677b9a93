"""Choosing a level says honestly, for the chosen game and number of players, which levels have
not been shown to play better than the level below them at that table (issue 41): a person
choosing MCTS Hard over MCTS Medium at a table where Hard is no better learns it before playing.
The bots' pages state each level's budget per game and the verdict of each of its claims."""

import json
import re

import pytest
from django.urls import reverse

from bench import bots as tournament
from games import bot_strength, services
from games import views as game_views
from games.bots.levels import HARD_LIMIT_SECONDS, LEVEL_ITERATIONS
from games.engines import all_games
from games.services import bot_account
from tests.tournaments.helpers import announce

HARD_UNDECIDED = "At 3 players, MCTS Hard has not been shown to play better than MCTS Medium."
HARD_MISSED = "At 3 players, MCTS Hard plays no better than MCTS Medium (measured)."
GREEDY_MISSED = "At 3 players, Greedy plays no better than MCTS Easy (measured)."
LADDER = ("easy-vs-random", "greedy-vs-easy", "medium-vs-greedy", "hard-vs-medium")


def every_claim_met() -> dict:
    return {
        game.slug: {str(n): {kind: "met" for kind in (*LADDER, "hard-vs-greedy")} for n in game.allowed_player_counts()}
        for game in all_games()
    }


def use(monkeypatch, path):
    monkeypatch.setattr(bot_strength, "STRENGTH_FILE", path)
    bot_strength.forget()
    game_views._lobby_forms.cache_clear()  # the lobby's forms are rendered once per process


@pytest.fixture
def measured(tmp_path, monkeypatch):
    """A strength file as ``python -m bench.bots --report`` writes it: every claim met but
    Hard over Medium at GP02A's 3 players (undecided) and, in the dice game at 3 players, Hard
    over Medium and Greedy over Easy (both missed)."""
    claims = every_claim_met()
    claims["gp02a"]["3"]["hard-vs-medium"] = "undecided"
    claims["dice-territory"]["3"]["hard-vs-medium"] = "missed"
    claims["dice-territory"]["3"]["greedy-vs-easy"] = "missed"
    games = {
        slug: {str(n): {kind: 40 for kind in tables[str(n)]} for n in map(int, tables)}
        for slug, tables in claims.items()
    }
    games["gp02a"]["3"]["hard-vs-medium"] = 12
    path = tmp_path / "strength.json"
    path.write_text(
        json.dumps({"fingerprint": "abc", "anchor": "random", "games": {}, "claims": claims, "claim_games": games})
    )
    use(monkeypatch, path)
    yield
    bot_strength.forget()
    game_views._lobby_forms.cache_clear()


def notes_of(page: str, prefix: str = "computer_") -> list[str]:
    """The lines about the levels the form shows as served (before any script)."""
    form = page[page.index(f'id="{prefix}game"') :]
    box = re.search(r'<div class="level-notes" data-level-notes[^>]*>(.*?)</div>', form, re.S)
    assert box, "the form has no place for the lines about the levels"
    return re.findall(r"<p[^>]*>(.*?)</p>", box.group(1))


def games_data(page: str, prefix: str = "computer_") -> dict:
    found = re.search(rf'<script id="{prefix}games" type="application/json">(.*?)</script>', page, re.S)
    assert found, "the page carries no data for its form's script"
    return json.loads(found.group(1))


def test_the_level_choice_says_where_hard_has_not_been_shown_better_than_medium(client, alice, measured):
    client.force_login(alice)
    page = client.get(reverse("play-computer") + "?game=gp02a").content.decode()
    assert notes_of(page) == [HARD_UNDECIDED]  # GP02A starts at 3 players


def test_the_level_choice_says_where_a_level_plays_no_better_than_the_one_below(client, alice, measured):
    client.force_login(alice)
    page = client.get(reverse("play-computer") + "?game=dice-territory").content.decode()
    assert notes_of(page) == [GREEDY_MISSED, HARD_MISSED]  # in the order of the level menu


def test_no_line_where_every_level_is_shown_better_than_the_one_below(client, alice, measured):
    client.force_login(alice)
    page = client.get(reverse("play-computer") + "?game=territories").content.decode()
    assert notes_of(page) == []


def test_a_refused_post_shows_the_lines_of_the_table_it_chose(client, alice, measured):
    client.force_login(alice)
    # Rated untimed practice is refused; the form comes back at GP02A's 4 players, where all is met.
    post = {"game": "gp02a", "num_players": 4, "bot": "mcts-hard", "time_control": "untimed", "rated": "on"}
    page = client.post(reverse("play-computer"), post).content.decode()
    assert 'class="error"' in page and notes_of(page) == []
    post["num_players"] = 3
    assert notes_of(client.post(reverse("play-computer"), post).content.decode()) == [HARD_UNDECIDED]


def test_the_page_carries_the_lines_of_every_table_for_its_script(client, alice, measured):
    client.force_login(alice)
    for path in (reverse("play-computer"), reverse("lobby")):
        data = games_data(client.get(path).content.decode())
        assert [n["text"] for n in data["gp02a"]["notes"]["3"]] == [HARD_UNDECIDED]
        assert data["gp02a"]["notes"]["4"] == []
        dice = data["dice-territory"]["notes"]["3"]
        assert [(n["level"], n["verdict"]) for n in dice] == [("greedy", "missed"), ("mcts-hard", "missed")]
        assert all(data[g.slug]["notes"][str(n)] == [] for g in all_games() if g.slug == "territories" for n in [2])
        assert set(data["chit-territory"]["notes"]) == {"2", "3", "4"}  # every table the game allows


def test_the_create_form_chooses_no_level_and_says_nothing_about_levels(client, alice, measured):
    client.force_login(alice)
    page = client.get(reverse("lobby") + "?game=gp02a").content.decode()
    assert "notes" not in games_data(page, "id_")["gp02a"]
    create = page[page.index('id="new-heading"') :]
    assert "data-level-notes" not in create


def test_the_lines_are_in_the_pages_language(client, alice, measured):
    client.force_login(alice)
    page = client.get(reverse("play-computer") + "?game=gp02a", headers={"accept-language": "de"}).content.decode()
    (line,) = notes_of(page)
    assert line != HARD_UNDECIDED and "3" in line and "MCTS Hard" in line and "MCTS Medium" in line


def test_without_a_strength_file_no_level_is_said_to_be_better_than_the_one_below(client, alice, tmp_path, monkeypatch):
    use(monkeypatch, tmp_path / "absent.json")
    client.force_login(alice)
    try:
        page = client.get(reverse("play-computer") + "?game=gp02a").content.decode()
    finally:
        bot_strength.forget()
    assert notes_of(page) == [  # in the order of the level menu
        "At 3 players, Greedy has not been shown to play better than MCTS Easy.",
        "At 3 players, MCTS Easy has not been shown to play better than Random.",
        "At 3 players, MCTS Medium has not been shown to play better than Greedy.",
        HARD_UNDECIDED,
    ]


def test_the_verdicts_read_from_the_file_and_anything_it_does_not_say_is_undecided(tmp_path, monkeypatch):
    path = tmp_path / "strength.json"
    path.write_text(json.dumps({"claims": {"gp02a": {"3": {"hard-vs-medium": "met", "medium-vs-greedy": "maybe"}}}}))
    use(monkeypatch, path)
    try:
        assert bot_strength.verdict("gp02a", 3, "hard-vs-medium") == "met"
        assert bot_strength.verdict("gp02a", 3, "medium-vs-greedy") == "undecided"  # not a verdict
        assert bot_strength.verdict("gp02a", 4, "hard-vs-medium") == "undecided"
        assert bot_strength.verdict("territories", 2, "hard-vs-medium") == "undecided"
        path.write_text("not json")
        bot_strength.forget()
        assert bot_strength.verdict("gp02a", 3, "hard-vs-medium") == "undecided"
    finally:
        bot_strength.forget()


def test_the_site_knows_the_tournaments_claims_as_the_tournament_tests_them():
    assert {kind: (tested, opponent) for kind, tested, opponent, *_ in tournament.KINDS} == bot_strength.CLAIMS


def test_a_bots_page_says_where_its_level_has_not_been_shown_better_than_the_one_below(client, alice, measured):
    client.force_login(alice)
    hard = client.get(reverse("player", args=[bot_account("mcts-hard").username]) + "?game=gp02a")
    page = hard.content.decode()
    data = games_data(page, "challenge_")
    assert [n["text"] for n in data["gp02a"]["notes"]["3"]] == [HARD_UNDECIDED]
    assert [n["text"] for n in data["dice-territory"]["notes"]["3"]] == [HARD_MISSED]  # Hard's line only
    greedy = client.get(reverse("player", args=[bot_account("greedy").username])).content.decode()
    assert [n["text"] for n in games_data(greedy, "challenge_")["dice-territory"]["notes"]["3"]] == [GREEDY_MISSED]
    person = client.get(reverse("player", args=["alice"])).content.decode()
    assert "data-level-notes" not in person


@pytest.mark.parametrize("level", ["mcts-easy", "mcts-medium", "mcts-hard"])
def test_a_bots_page_states_its_budget_in_each_game_as_the_levels_file_sets_it(client, db, level):
    page = client.get(reverse("player", args=[bot_account(level).username])).content.decode()
    for game in all_games():
        iterations = LEVEL_ITERATIONS[level][game.slug]
        assert f"{game.name}: {iterations:,} continuations of the game a move" in page
    assert "20,000" not in page


def test_bots_without_a_search_budget_state_none(client, db):
    for name in ("random", "greedy"):
        page = client.get(reverse("player", args=[bot_account(name).username])).content.decode()
        assert "continuations of the game a move" not in page


def test_a_bots_page_gives_the_verdict_of_each_of_its_claims_at_each_table(client, db, measured):
    page = client.get(reverse("player", args=[bot_account("mcts-hard").username])).content.decode()
    rows = re.findall(
        r'<tr data-kind="([^"]+)" data-verdict="([^"]+)"><td>([^<]+)</td><td class="num">(\d)</td>'
        r"<td>([^<]+)</td><td>([^<]+)</td></tr>",
        page,
    )
    tables = sum(len(g.allowed_player_counts()) for g in all_games())
    assert len(rows) == 2 * tables  # Hard over Medium and Hard over Greedy, at every table
    found = {(name, players, kind): (verdict, text) for kind, verdict, name, players, _claim, text in rows}
    assert found[("GP02A Territory", "3", "hard-vs-medium")] == ("undecided", "not shown yet (12 games)")
    assert found[("Territory (dice)", "3", "hard-vs-medium")] == ("missed", "not so (measured) (40 games)")
    assert found[("GP02A Territory", "4", "hard-vs-medium")] == ("met", "shown (40 games)")
    assert "MCTS Hard plays better than MCTS Medium" in page
    random_page = client.get(reverse("player", args=[bot_account("random").username])).content.decode()
    assert "data-kind=" not in random_page  # no claim tests Random


@pytest.mark.django_db(transaction=True)
def test_filling_a_matchs_empty_seats_with_bots_says_where_a_level_is_not_shown_better(client, alice, measured):
    waiting = services.match_create(user=alice, game="dice-territory", num_players=3)
    client.force_login(alice)
    page = client.get(waiting.get_absolute_url()).content.decode()
    form = page[page.index('id="bot-level"') :]
    assert re.findall(r'<p class="level-note"[^>]*>(.*?)</p>', form) == [GREEDY_MISSED, HARD_MISSED]
    at_four = services.match_create(user=alice, game="gp02a", num_players=4)
    assert 'class="level-note"' not in client.get(at_four.get_absolute_url()).content.decode()


@pytest.mark.django_db(transaction=True)
def test_entering_a_bot_in_a_tournament_says_where_a_level_is_not_shown_better_at_its_tables(client, alice, measured):
    cup = announce(alice, game="gp02a", table_size=3)
    client.force_login(alice)
    page = client.get(reverse("tournament", args=[cup.pk])).content.decode()
    assert re.findall(r'<p class="level-note"[^>]*>(.*?)</p>', page) == [HARD_UNDECIDED]
    at_four = announce(alice, name="Winter cup", game="gp02a", table_size=4)
    assert 'class="level-note"' not in client.get(reverse("tournament", args=[at_four.pk])).content.decode()


def test_a_bots_page_says_how_it_plays_in_the_pages_language(client, db):
    hard = reverse("player", args=[bot_account("mcts-hard").username])
    english = client.get(hard).content.decode()
    assert f"where it takes up to {HARD_LIMIT_SECONDS} seconds a move" in english
    assert "Monte Carlo tree search" in english
    german = client.get(hard, headers={"accept-language": "de"}).content.decode()
    assert "Monte-Carlo-Baumsuche" in german and "Monte Carlo tree search" not in german
    assert "Fortsetzungen des Spiels pro Zug" in german  # the budgets too
