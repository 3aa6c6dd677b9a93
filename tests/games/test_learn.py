"""Learn by playing, as a learner uses it: the lesson page, moves refused with a hint or
taken, progress kept across reloads, and the closing offer of a match against MCTS Easy."""

import json
import re

import pytest
from django.test import Client

from games.engines import all_games
from games.models import Match
from games.tutorials import get_tutorial, lessons_of, moves_of

pytestmark = pytest.mark.django_db


def lesson_of(response):
    match = re.search(r'<script id="lesson-payload" type="application/json">(.*?)</script>', response.content.decode())
    return json.loads(match.group(1))


def move(client, slug, action, progress):
    return client.post(
        f"/games/{slug}/learn/move/",
        json.dumps({"action": action, "progress": progress}),
        content_type="application/json",
    )


def play_through_from(client, slug, start, upto=None):
    for progress, step in enumerate(moves_of(slug)[start:upto], start=start):
        assert move(client, slug, step.action, progress).json()["ok"]


def play_through(client, slug, upto=None):
    play_through_from(client, slug, 0, upto)


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_every_game_page_and_rules_page_link_to_its_lesson(client, slug):
    for url in (f"/games/{slug}/", f"/games/{slug}/rules/"):
        assert f'href="/games/{slug}/learn/">Learn by playing</a>' in client.get(url).content.decode()


def test_the_help_page_lists_every_lesson(client):
    body = client.get("/help/").content.decode()
    for game in all_games():
        assert f'<a href="/games/{game.slug}/learn/">Learn {game.name} by playing</a>' in body


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_the_lesson_page_shows_the_first_step_on_the_learners_board(client, slug):
    response = client.get(f"/games/{slug}/learn/")
    assert response.status_code == 200
    lesson = lesson_of(response)
    tutorial = get_tutorial(slug)
    assert lesson["step"] == 0 and lesson["progress"] == 0 and not lesson["finished"]
    assert lesson["prompt"] == tutorial.steps[0].prompt
    assert lesson["view"]["game"] == slug and lesson["view"]["current_player"] == tutorial.seat
    assert lesson["legal_actions"], "the learner has moves to choose from"
    assert "Step 1 of" in response.content.decode()


def test_the_page_does_not_give_the_taught_move_away(client):
    lesson = lesson_of(client.get("/games/gp02a/learn/"))
    taught = moves_of("gp02a")[0].action
    # every legal action is offered alike: the server alone says which one the step teaches
    assert taught in [a["action"] for a in lesson.pop("legal_actions")]
    assert taught not in json.dumps(lesson)


def test_a_wrong_move_gets_a_friendly_hint_and_changes_nothing(client):
    answer = move(client, "territories", "farm:h2", 0).json()
    assert answer["ok"] is False
    assert "not the one this step teaches" in answer["hint"] and "b2" in answer["hint"]
    assert answer["lesson"]["progress"] == 0
    illegal = move(client, "territories", "trunk:a1-a2", 0).json()
    assert illegal["ok"] is False and "not allowed here" in illegal["hint"]
    assert lesson_of(client.get("/games/territories/learn/"))["progress"] == 0


def test_the_right_move_answers_with_the_next_step_and_survives_a_reload(client):
    answer = move(client, "territories", "farm:b2", 0).json()
    assert answer["ok"] is True and answer["hint"] == ""
    lesson = answer["lesson"]
    assert lesson["progress"] == 1 and lesson["step"] == 0  # Red placed two; two more of yours
    assert [s["square"] for s in lesson["view"]["squares"] if s["farm"]] == ["b2", "f2", "h2"]
    reloaded = lesson_of(client.get("/games/territories/learn/"))
    assert reloaded["progress"] == 1 and reloaded["view"] == lesson["view"]
    play_through_from(client, "territories", 1, 4)
    lesson = lesson_of(client.get("/games/territories/learn/"))
    assert lesson["step"] == 1 and lesson["title"] == "The first trunk"
    assert lesson["done"] == "All eight farm houses stand: yours on the left, Red's on the right."
    assert sum(1 for s in lesson["view"]["squares"] if s["farm"]) == 8


def test_progress_is_kept_per_game_and_restarting_goes_back_to_the_start(client):
    play_through(client, "territories", upto=2)
    assert lesson_of(client.get("/games/game-of-god/learn/"))["progress"] == 0
    response = client.post("/games/territories/learn/restart/")
    assert response.status_code == 302 and response["Location"] == "/games/territories/learn/"
    assert lesson_of(client.get("/games/territories/learn/"))["progress"] == 0


def test_a_page_showing_an_old_step_is_brought_up_to_date_instead_of_moving(client):
    play_through(client, "territories", upto=1)
    answer = move(client, "territories", "farm:b2", 0).json()  # a second window, one step behind
    assert answer["ok"] is False and "another window" in answer["hint"]
    assert answer["lesson"]["progress"] == 1


@pytest.mark.parametrize(
    "body",
    [
        "not json",
        "[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]",
        '{"action": 3, "progress": 0}',
        '{"action": "farm:b2"}',
        '{"action": "farm:b2", "progress": true}',
        "[]",
    ],
)
def test_a_malformed_move_is_refused_with_a_clear_message(client, body):
    response = client.post("/games/territories/learn/move/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["message"]
    assert lesson_of(client.get("/games/territories/learn/"))["progress"] == 0


def test_a_move_needs_post_and_the_csrf_token():
    careful = Client(enforce_csrf_checks=True)
    page = careful.get("/games/territories/learn/")
    assert careful.get("/games/territories/learn/move/").status_code == 405
    body = json.dumps({"action": "farm:b2", "progress": 0})
    assert careful.post("/games/territories/learn/move/", body, content_type="application/json").status_code == 403
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.content.decode()).group(1)
    answer = careful.post(
        "/games/territories/learn/move/", body, content_type="application/json", headers={"X-CSRFToken": token}
    )
    assert answer.status_code == 200 and answer.json()["ok"]


def test_a_game_without_a_lesson_is_not_found(client):
    assert client.get("/games/chess/learn/").status_code == 404
    assert move(client, "chess", "e4", 0).status_code == 404


def test_the_last_step_offers_a_match_and_starting_it_makes_an_untimed_casual_one_against_mcts_easy(client, alice):
    client.force_login(alice)
    play_through(client, "gp02a")
    response = client.get("/games/gp02a/learn/")
    lesson = lesson_of(response)
    assert lesson["finished"] and lesson["legal_actions"] == []
    assert lesson["prompt"] == get_tutorial("gp02a").closing
    body = response.content.decode()
    form = re.search(r'<form method="post" action="/play/computer/">(.*?)</form>', body, re.S).group(1)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', form))
    fields.pop("csrfmiddlewaretoken")
    assert fields == {"game": "gp02a", "num_players": "3", "bot": "mcts-easy", "time_control": "untimed"}
    started = client.post("/play/computer/", fields)
    match = Match.objects.get()
    assert started["Location"] == f"/matches/{match.pk}/"
    assert match.game == "gp02a" and match.speed == Match.Speed.UNTIMED and not match.rated
    assert match.status == Match.Status.ACTIVE
    seats = list(match.seats.order_by("index"))
    assert seats[0].user == alice and all(s.bot_name() == "mcts-easy" for s in seats[1:])


def test_after_the_last_step_a_visitor_is_asked_to_log_in_to_play(client):
    play_through(client, "game-of-god")
    body = client.get("/games/game-of-god/learn/").content.decode()
    assert "/accounts/login/?next=/games/game-of-god/learn/" in body
    assert 'action="/play/computer/"' not in body
    late = move(client, "game-of-god", "pass", len(moves_of("game-of-god"))).json()
    assert late["ok"] is False and "lesson is over" in late["hint"]


def test_a_lesson_costs_the_database_only_the_session_and_the_account(client, alice, django_assert_max_num_queries):
    client.force_login(alice)
    with django_assert_max_num_queries(2, info="page: the session and the account"):
        assert client.get("/games/chit-territory/learn/").status_code == 200
    with django_assert_max_num_queries(3, info="move: the session read and saved, the account"):
        assert move(client, "chit-territory", moves_of("chit-territory")[0].action, 0).json()["ok"]
    with django_assert_max_num_queries(2, info="a refused move saves nothing"):
        assert not move(client, "chit-territory", "peace", 1).json()["ok"]


# --------------------------------------------------------------------------- further lessons


def lesson_move(client, slug, lesson, action, progress):
    return client.post(
        f"/games/{slug}/learn/{lesson}/move/",
        json.dumps({"action": action, "progress": progress}),
        content_type="application/json",
    )


@pytest.mark.parametrize("slug", [g.slug for g in all_games()])
def test_a_games_second_lesson_has_its_own_page_linked_from_the_first(client, slug):
    second = lessons_of(slug)[1]
    first_page = client.get(f"/games/{slug}/learn/").content.decode()
    assert f'href="/games/{slug}/learn/{second.lesson}/"' in first_page
    response = client.get(f"/games/{slug}/learn/{second.lesson}/")
    assert response.status_code == 200
    lesson = lesson_of(response)
    assert lesson["lesson"] == second.lesson and lesson["progress"] == 0
    assert lesson["prompt"] == second.steps[0].prompt
    body = response.content.decode()
    assert f"{second.title}</strong>" in body and f'data-move-url="/games/{slug}/learn/{second.lesson}/move/"' in body


def test_the_second_lessons_progress_is_its_own_and_restarting_it_leaves_the_first_alone(client):
    play_through(client, "territories", upto=2)
    for progress, step in enumerate(moves_of("territories", "separation")[:3]):
        assert lesson_move(client, "territories", "separation", step.action, progress).json()["ok"]
    assert lesson_of(client.get("/games/territories/learn/separation/"))["progress"] == 3
    assert lesson_of(client.get("/games/territories/learn/"))["progress"] == 2
    response = client.post("/games/territories/learn/separation/restart/")
    assert response["Location"] == "/games/territories/learn/separation/"
    assert lesson_of(client.get("/games/territories/learn/separation/"))["progress"] == 0
    assert lesson_of(client.get("/games/territories/learn/"))["progress"] == 2


def test_a_wrong_move_in_a_second_lesson_gets_its_steps_hint(client):
    answer = lesson_move(client, "chit-territory", "territories", "build:town@a1", 0).json()
    assert answer["ok"] is False and get_tutorial("chit-territory", "territories").steps[0].hint in answer["hint"]
    assert answer["lesson"]["progress"] == 0


def test_the_end_of_the_first_lesson_offers_the_second_and_a_lesson_that_ends_the_game_shows_the_end(client):
    play_through(client, "game-of-god")
    body = client.get("/games/game-of-god/learn/").content.decode()
    assert 'href="/games/game-of-god/learn/stalemate/">Trapped pieces and stalemate</a>' in body
    for progress, step in enumerate(moves_of("game-of-god", "stalemate")):
        assert lesson_move(client, "game-of-god", "stalemate", step.action, progress).json()["ok"]
    lesson = lesson_of(client.get("/games/game-of-god/learn/stalemate/"))
    assert lesson["finished"] and lesson["view"]["terminal"] and lesson["view"]["scores"] == [1, 0]
    assert lesson["title"] == "Lesson done: Trapped pieces and stalemate"
    assert "Stalemate" in lesson["view"]["prompt"]


def test_unknown_lessons_are_not_found_and_the_first_lesson_has_one_address(client):
    assert client.get("/games/gp02a/learn/no-such-lesson/").status_code == 404
    assert lesson_move(client, "gp02a", "no-such-lesson", "roll", 0).status_code == 404
    response = client.get("/games/gp02a/learn/basics/")
    assert response.status_code == 302 and response["Location"] == "/games/gp02a/learn/"


def test_the_help_page_lists_the_further_lessons(client):
    body = client.get("/help/").content.decode()
    for game in all_games():
        second = lessons_of(game.slug)[1]
        assert f'then <a href="/games/{game.slug}/learn/{second.lesson}/">{second.title}</a>' in body


# --------------------------------------------------------------------------- in the reader's language


@pytest.fixture
def catalogue_entries():
    """Changes entries of a language's catalogue for the test (as a translator would; None
    takes one out), and puts them back: ``change("de", {msgid: msgstr})``."""
    from django.utils.translation import trans_real

    changed = []

    def change(language, entries):
        catalogue = trans_real.translation(language)._catalog  # type: ignore[attr-defined]
        for msgid, msgstr in entries.items():
            changed.append((catalogue, msgid, catalogue.get(msgid)))
            for inner in catalogue._catalogs:
                inner.pop(msgid, None)
            if msgstr is not None:
                catalogue[msgid] = msgstr

    yield change
    for catalogue, msgid, before in reversed(changed):
        catalogue._catalogs[0].pop(msgid, None)
        if before is not None:
            catalogue[msgid] = before


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_a_lesson_is_served_in_the_readers_language_where_its_catalogue_translates_it(
    client, catalogue_entries, language
):
    tutorial = get_tutorial("territories")
    first, second = tutorial.steps[:2]
    catalogue_entries(
        language,
        {
            tutorial.intro: f"[{language}] intro",
            tutorial.names[0]: f"[{language}] you",
            first.title: f"[{language}] farm houses",
            first.prompt: f"[{language}] place them",
            first.hint: f"[{language}] b2, d2, a5, c5",
            first.done: f"[{language}] all eight stand",
            second.title: f"[{language}] the first trunk",
        },
    )
    reader = {"Accept-Language": language}
    response = client.get("/games/territories/learn/", headers=reader)
    lesson = lesson_of(response)
    assert lesson["title"] == f"[{language}] farm houses" and lesson["prompt"] == f"[{language}] place them"
    assert lesson["steps"][:2] == [f"[{language}] farm houses", f"[{language}] the first trunk"]
    assert lesson["seat_names"][0].startswith(f"[{language}] you")
    assert f"[{language}] intro" in response.content.decode()
    assert "You play Yellow against Red" not in response.content.decode()

    wrong = client.post(
        "/games/territories/learn/move/",
        json.dumps({"action": "trunk:a1-a2", "progress": 0}),
        content_type="application/json",
        headers=reader,
    ).json()
    refused = {
        "de": "Dieser Zug ist hier nicht erlaubt.",
        "fr": "Ce coup n’est pas permis ici.",
        "es": "Esa jugada no está permitida aquí.",
    }
    assert wrong["hint"].endswith(f"[{language}] b2, d2, a5, c5") and "not allowed" not in wrong["hint"]
    assert wrong["hint"].startswith(refused[language])

    for progress, step in enumerate(moves_of("territories")[:4]):
        answer = client.post(
            "/games/territories/learn/move/",
            json.dumps({"action": step.action, "progress": progress}),
            content_type="application/json",
            headers=reader,
        ).json()
        assert answer["ok"]
    assert answer["lesson"]["done"] == f"[{language}] all eight stand"
    assert answer["lesson"]["title"] == f"[{language}] the first trunk"


def test_a_german_reader_gets_the_lesson_in_german_from_the_catalogue(client):
    response = client.get("/games/territories/learn/", headers={"Accept-Language": "de"})
    lesson = lesson_of(response)
    assert lesson["title"] == "Bauernhäuser"
    assert lesson["prompt"].startswith("Die acht gestrichelten Plätze nehmen Bauernhäuser auf")
    assert lesson["seat_names"][0].startswith("Du") and "Du spielst Gelb gegen Rot." in response.content.decode()


def test_a_lesson_text_the_catalogue_does_not_translate_is_served_in_english(client, catalogue_entries):
    first = get_tutorial("territories").steps[0]
    catalogue_entries("de", {first.prompt: None})
    lesson = lesson_of(client.get("/games/territories/learn/", headers={"Accept-Language": "de"}))
    assert lesson["prompt"] == first.prompt and lesson["title"] == "Bauernhäuser"


def _msgids(po) -> set[str]:
    """The msgids of a .po file (its continued lines joined)."""
    import ast

    ids, current = set(), None
    for line in po.read_text().splitlines() + [""]:
        if line.startswith("msgid "):
            current = [ast.literal_eval(line[6:])]
        elif current is not None and line.startswith('"'):
            current.append(ast.literal_eval(line))
        elif current is not None:
            ids.add("".join(current))
            current = None
    return ids


@pytest.mark.parametrize("language", ["de", "fr", "es"])
def test_every_text_of_every_lesson_is_in_the_catalogue_for_its_translators(language):
    from django.conf import settings

    from games.tutorials import all_tutorials

    msgids = _msgids(settings.BASE_DIR / "locale" / language / "LC_MESSAGES" / "django.po")
    texts = set()
    for tutorial in all_tutorials():
        texts |= {tutorial.intro, tutorial.closing, tutorial.title, *tutorial.names}
        for step in tutorial.steps:
            texts |= {step.title, step.prompt, step.hint, step.done} - {""}
    assert len(texts) > 200
    assert sorted(texts - msgids) == []
