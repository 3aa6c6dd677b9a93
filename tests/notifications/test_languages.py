"""A notification reads in the language of whoever reads it: kept as its kind and its parts,
said when shown (the centre page, the API, the header's socket), in English where the
reader has no other language, and as written for the notifications kept from before."""

import pytest
from rest_framework.test import APIClient

from accounts.models import User
from notifications import services
from notifications.models import Notification
from portal.phrases import ordinal_of, phrase

from .helpers import correspondence, until_waiting_for

pytestmark = pytest.mark.django_db


def speaking(user, language: str) -> User:
    User.objects.filter(pk=user.pk).update(language=language)
    return User.objects.get(pk=user.pk)


def centre(client, user) -> str:
    client.force_login(user)
    return client.get("/notifications/").content.decode()


def test_a_your_turn_notification_reads_in_french_to_a_french_reader_and_in_english_to_others(client, alice, bob):
    match = until_waiting_for(correspondence(alice, bob), alice)
    services.your_turn_sweep()
    note = Notification.objects.get(user=alice, kind="your_turn")
    assert note.text == f"Your move in Game of God #{match.pk}."  # what is kept: English, and its parts
    french = centre(client, speaking(alice, "fr"))
    assert f"À vous de jouer dans Game of God n°{match.pk}." in french
    assert "Your move in" not in french
    assert '<span class="badge">À vous</span>' in french
    english = centre(client, speaking(alice, ""))
    assert f"Your move in Game of God #{match.pk}." in english and "À vous de jouer" not in english


def test_a_place_reads_as_a_french_ordinal_in_plain_words(client, alice):
    services.notify(
        user_ids=[alice.pk],
        kind="match_finished",
        phrase=phrase(
            "%(game)s #%(match)s is over: you placed %(place)s.", game="Territories", match=7, place=ordinal_of(1)
        ),
    )
    assert Notification.objects.get(user=alice).text == "Territories #7 is over: you placed 1st."
    body = centre(client, speaking(alice, "fr"))
    assert "Territories n°7 est terminée : vous êtes 1er." in body
    assert '<span class="badge">Partie terminée</span>' in body and "sup" not in body.split("notification-list")[1]


def test_a_challenge_reads_in_the_readers_language_with_its_terms(
    client, alice, bob, django_capture_on_commit_callbacks
):
    from challenges import services as challenges

    with django_capture_on_commit_callbacks(execute=True):
        challenges.challenge_create(
            user=bob, to=alice, game="territories", num_players=2, rated=True, speed="correspondence", days_per_move=3
        )
    note = Notification.objects.get(user=alice, kind="challenge_received")
    assert note.text == "bob challenges you to Territories (2 players, correspondence, 3 days a move, rated)."
    body = centre(client, speaking(alice, "fr"))
    assert "bob vous lance un défi : Territories (2 joueurs, par correspondance, 3 days par coup, classée)." in body


def test_the_api_says_a_notification_in_the_language_the_client_accepts(alice):
    services.notify(
        user_ids=[alice.pk],
        kind="forum_reply",
        phrase=phrase("%(author)s replied in “%(topic)s”.", author="bob", topic="Openings"),
    )
    api = APIClient()
    api.force_authenticate(alice)
    french = api.get("/api/notifications/", headers={"Accept-Language": "fr"}).json()["results"][0]
    assert french["text"] == "bob a répondu dans « Openings »."
    assert api.get("/api/notifications/").json()["results"][0]["text"] == "bob replied in “Openings”."


def test_a_notification_kept_from_before_is_shown_as_it_was_written(client, alice):
    Notification.objects.create(user=alice, kind="forum_reply", text="carol replied in “Old times”.", url="/play/")
    body = centre(client, speaking(alice, "fr"))
    assert "carol replied in “Old times”." in body and '<span class="badge">Réponse sur le forum</span>' in body


def test_a_phrase_whose_translation_does_not_fit_its_parts_is_said_in_english():
    from django.utils import translation

    from portal.phrases import say

    with translation.override("fr"):
        assert (
            say(phrase("Your move in %(game)s #%(match)s.", game="Territories")) == "Your move in %(game)s #%(match)s."
        )
        assert say(phrase("Your move in %(game)s #%(match)s.", game="Territories", match=3)) == (
            "À vous de jouer dans Territories n°3."
        )
