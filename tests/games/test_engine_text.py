"""What the game engines say (the line above the board, the moves, why a move is refused, who
won and why) reaches each reader in their language: German, French or Spanish on the match
page and its socket, English for the bots' API unless it asks for another."""

import json
import random
from typing import Any, cast

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils.translation.trans_real import translation

from games import selectors, services, state_cache
from games.engine_text import catalogue, msgids, spoken, translated
from games.engines import CHANCE, IllegalAction, all_games, get_game
from games.engines.base import Text
from games.outcome import outcome_words
from games.seat_names import seat_names
from portal.asgi import application

from .helpers import fresh, start_two_player
from .test_api import api_for
from .test_socket import HOST, patch_auth, receive  # noqa: F401 (patch_auth is a fixture)

LANGUAGES = ("de", "fr", "es")
PLAYERS = {"territories": 2, "game-of-god": 2, "chit-territory": 3, "dice-territory": 4, "gp02a": 4}
OPTIONS = {"gp02a": {"negotiation": True}}


def texts_in(value):
    """Every ``Text`` in ``value``, those inside another's values too."""
    if isinstance(value, Text):
        yield value
        for inner in value.params.values():
            yield from texts_in(inner)
    elif isinstance(value, dict):
        for inner in value.values():
            yield from texts_in(inner)
    elif isinstance(value, (list, tuple)):
        for inner in value:
            yield from texts_in(inner)


def said_in_a_random_game(slug: str, seed: int) -> list[Text]:
    """What a random game of ``slug`` says: headlines, views, move labels, refusals (an
    action legal a moment ago, tried again), the ending, the tie-breaks and the outcome."""
    engine = get_game(slug)
    n = PLAYERS[slug]
    state = engine.new_state(n, OPTIONS.get(slug))
    rng = random.Random(seed)
    said: list = [list(engine.tie_breaks)]
    earlier: list[str] = []
    while True:
        views = [state.view(seat) for seat in (None, *range(n))]
        for view in views:
            # The live updates look for words under the keys the engine names only.
            elsewhere = [key for key, value in view.items() if key not in state.text_keys and any(texts_in(value))]
            assert not elsewhere, f"{slug} says words under {elsewhere}, which stay English on the match page"
        said += [state.prompt(), state.prompt_others(), state.end_words(), *views]
        said += [engine.action_label(action) for action in state.legal_actions()]
        for action in earlier[:3]:
            try:
                state.clone().apply(action)
            except IllegalAction as refusal:
                said.append(refusal.args[0])
        for junk in ("nonsense", "move:", "offer:9@red>blue", "trunk:a1-a9", "capture:a1", "build:castle@z9"):
            try:
                state.clone().apply(junk)
            except IllegalAction as refusal:
                said.append(refusal.args[0])
        if state.is_terminal():
            break
        earlier = state.legal_actions()
        if state.current_player() == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply(rng.choices(outcomes, weights)[0])
        else:
            state.apply(rng.choice(earlier))
    names = seat_names([f"player{i}" for i in range(n)], state.view(None).get("seat_colours"))
    places = state.ranking()
    seats = [{"index": i, "place": places[i], "score": s} for i, s in enumerate(state.scores())]
    said += [names, outcome_words(names, seats, "game over", state.end_words())]
    said += [outcome_words(names, [{**seats[0], "resigned": True}, *seats[1:]], "resigned")]
    return list(texts_in(said))


@pytest.mark.parametrize("slug", sorted(game.slug for game in all_games()))
def test_everything_an_engine_says_is_in_the_catalogue_and_said_whole_in_every_language(slug):
    assert slug in PLAYERS
    texts = said_in_a_random_game(slug, 1) + said_in_a_random_game(slug, 2)
    templates = {text.msgid for text in texts}
    assert len(templates) > 20
    known = set(msgids(slug))
    assert templates <= known, f"not marked for translation: {sorted(templates - known)}"
    for language in LANGUAGES:
        compiled = cast(Any, translation(language))._catalog  # the compiled .mo's messages
        missing = sorted(m for m in templates if m not in compiled)
        assert not missing, f"no {language} translation of {missing}"
        for text in {(t.msgid, str(t)): t for t in texts}.values():
            words = translated(text, language)  # a value the template lacks would raise KeyError
            assert "%(" not in words and words.strip() == words, (language, text.msgid, words)


def test_the_match_page_catalogue_holds_the_games_templates_in_the_pages_language():
    german = catalogue("territories", "de")
    assert german["Farm house on %(square)s"] == "Bauernhaus auf %(square)s"
    assert "%(name)s (%(colour)s)" not in german  # said the same in German: the page formats the template
    assert catalogue("territories", "en") == {}  # English needs none: the templates are it


def territories_match(alice, bob):
    """A Territories match at its first farm house, with (the mover, the other player)."""
    match = start_two_player("territories", alice, bob)
    return match, (alice, bob) if match.to_move == 0 else (bob, alice)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_german_reader_of_a_live_match_sees_the_headline_and_the_moves_in_german(alice, bob, patch_auth):  # noqa: F811
    match, (mover, other) = await sync_to_async(territories_match)(alice, bob)
    patch_auth["user"] = other
    german = WebsocketCommunicator(
        application, f"/ws/matches/{match.pk}/", headers=HOST + [(b"cookie", b"django_language=de")]
    )
    assert (await german.connect(timeout=10))[0]
    first = spoken(json.loads(await german.receive_from(timeout=10)), "de")
    assert first["type"] == "snapshot"
    assert selectors.headline(first) == "Gelb setzt ein Bauernhaus auf einen freien Platz (noch 1 zu setzen)."

    await sync_to_async(services.match_act)(match_id=match.pk, user=mover, action="farm:b2", version=match.version)
    while True:
        raw = json.loads(await german.receive_from(timeout=10))
        if raw["type"] == "snapshot" and raw.get("new_moves"):
            break
    update = spoken(raw, "de")
    assert update["new_moves"][-1]["label"] == "Bauernhaus auf b2"
    assert selectors.headline(update) == "Rot: setze ein Bauernhaus auf einen freien Platz (noch 2 zu setzen)."
    assert update["seat_names"][update["seat"]] == "bob (rot)" or update["seat_names"][update["seat"]] == "alice (rot)"
    # One update for every reader: the same frame says English to an English page.
    assert spoken(raw)["new_moves"][-1]["label"] == "Farm house on b2"

    # A refused move is explained in the page's language, with the same code.
    version = (await sync_to_async(fresh)(match.pk)).version
    await german.send_to(text_data=json.dumps({"type": "act", "action": "farm:a1", "version": version}))
    error = await receive(german, "error")
    assert error == {"type": "error", "code": "illegal", "message": "a1 ist kein Platz für ein Bauernhaus."}
    await german.disconnect()


@pytest.mark.django_db(transaction=True)
def test_the_match_page_is_drawn_in_the_readers_language_and_carries_its_catalogue(client, alice, bob):
    match, (mover, _) = territories_match(alice, bob)
    client.force_login(mover)
    page = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "setze ein Bauernhaus auf einen freien Platz" in page
    assert '"Farm house on %(square)s": "Bauernhaus auf %(square)s"' in page
    english = client.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "place a farm house on a free spot" in english


@pytest.mark.django_db(transaction=True)
def test_the_api_speaks_english_and_explains_a_refusal_in_the_language_it_asks_for(alice, bob):
    match, (mover, _) = territories_match(alice, bob)
    api = api_for(mover)
    snap = api.get(f"/api/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE="de").json()
    state = state_cache.load(fresh(match.pk))
    assert snap["prompt_others"] == "Yellow places a farm house on a free spot (1 to place)."
    assert snap["view"]["prompt"] == str(state.prompt()) == "Yellow: place a farm house on a free spot (1 to place)."
    assert snap["legal_actions"][0] == {"action": "farm:b2", "label": "Farm house on b2"}
    body = {"action": "farm:a1", "version": snap["version"]}
    url = f"/api/matches/{match.pk}/actions/"
    english = api.post(url, body, format="json")
    german = api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="de")
    spanish = api.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="es")
    assert english.status_code == german.status_code == spanish.status_code == 400
    assert english.json() == {"code": "illegal", "message": "a1 is not a farm-house spot."}
    assert german.json() == {"code": "illegal", "message": "a1 ist kein Platz für ein Bauernhaus."}
    assert spanish.json() == {"code": "illegal", "message": "a1 no es un sitio de granja."}


@pytest.mark.django_db
def test_the_move_list_the_match_page_loads_is_in_its_language_and_the_api_stays_english(client, alice, bob):
    from games import services

    match, (mover, _) = territories_match(alice, bob)
    services.match_act(match_id=match.pk, user=mover, action="farm:b2", version=match.version)
    english = client.get(f"/api/matches/{match.pk}/moves/").json()["results"]
    german = client.get(f"/api/matches/{match.pk}/moves/?lang=de").json()["results"]
    assert english[-1]["label"] == "Farm house on b2"
    assert german[-1]["label"] == "Bauernhaus auf b2"
    assert [m["action"] for m in german] == [m["action"] for m in english]
    assert [m["label"] for m in german] != [m["label"] for m in english]
    # A language the site lacks is English, as without one.
    assert client.get(f"/api/matches/{match.pk}/moves/?lang=xx").json()["results"] == english


def test_match_pages_of_a_new_language_asked_at_once_all_get_the_catalogue():
    """The first pages of a game in a language read its templates from the sources; many at
    once (a crowd opening a match) each get the same catalogue, none an error."""
    from concurrent.futures import ThreadPoolExecutor

    from games import engine_text

    engine_text.msgids.cache_clear()
    engine_text.catalogue.cache_clear()
    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(lambda i: catalogue("gp02a", ("de", "fr", "es")[i % 3]), range(24)))
    assert all(c == catalogue("gp02a", ("de", "fr", "es")[i % 3]) for i, c in enumerate(got))
    assert got[0]["Roll a %(number)s"] != "Roll a %(number)s"


@pytest.mark.django_db
def test_a_games_summary_and_options_are_in_the_readers_language(client, alice):
    from games import services

    page = client.get("/games/chit-territory/", headers={"Accept-Language": "de"}).content.decode()
    assert "Zieh Chits aus deinem Becher" in page and "Draw chits from your cup" not in page
    client.force_login(alice)
    lobby = client.get("/play/new/?game=chit-territory", headers={"Accept-Language": "fr"}).content.decode()
    assert "Montagnes et rivières" in lobby and "Mountains and rivers" not in lobby
    match = services.match_create(user=alice, game="game-of-god", num_players=2, options={"pieces": 12})
    from django.utils import translation

    with translation.override("es"):
        assert match.options_text == "Piezas por jugador: 12"
    with translation.override("en"):
        assert match.options_text == "Pieces per player: 12"


def test_a_clock_is_said_in_the_readers_language():
    from django.utils import translation

    from games.clock import Clock

    clock = Clock("correspondence", 3 * 24 * 3600)
    with translation.override("de"):
        assert clock.label == "3 Tage"
    with translation.override("fr"):
        assert Clock("correspondence", 24 * 3600).label == "1 jour"
    with translation.override("en"):
        assert clock.label == "3 days"


def test_a_refused_option_number_is_explained_in_the_readers_language():
    from django.utils import translation

    from games.engines import get_game

    with pytest.raises(ValueError) as refused:
        get_game("game-of-god").normalise_options({"pieces": 7}, 2)
    with translation.override("de"):
        said = translated(refused.value.args[0])
    assert said == "Figuren je Spieler bei 2 Spielern: eine gerade Zahl von 2 bis 16, nicht 7."
    assert str(refused.value) == "Pieces per player with 2 players: an even number from 2 to 16, not 7."


def test_the_game_form_explains_a_refused_option_number_in_the_pages_language():
    from django.utils import translation

    from games.forms import GameForm

    with translation.override("de"):
        form = GameForm(data={"game": "game-of-god", "num_players": "2", "opt_game-of-god_pieces": "7"})
        assert not form.is_valid()
        assert form.errors["opt_game-of-god_pieces"] == [
            "Figuren je Spieler bei 2 Spielern: eine gerade Zahl von 2 bis 16, nicht 7."
        ]
