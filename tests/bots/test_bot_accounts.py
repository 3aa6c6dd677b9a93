"""The data migration that gives every bot level an account to sit in seats under."""

import importlib

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model

from games.bot_strength import level_description
from games.services import bot_account

migration = importlib.import_module("games.migrations.0003_more_bots")

LEVELS = {"Greedy": "greedy", "MCTS Easy": "mcts-easy", "MCTS Medium": "mcts-medium", "MCTS Hard": "mcts-hard"}


@pytest.fixture
def no_level_bots(db):
    get_user_model().objects.filter(bot_name__in=LEVELS.values()).delete()


def test_every_level_gets_a_bot_account_that_cannot_log_in(no_level_bots):
    migration.create_bots(apps, None)
    User = get_user_model()
    for username, bot_name in LEVELS.items():
        user = User.objects.get(username=username)
        assert user.is_bot and user.bot_name == bot_name
        assert not user.has_usable_password()
        assert "ahead" in user.bio or "search" in user.bio  # the bio says how it plays


def test_running_the_migration_again_makes_no_second_account(no_level_bots):
    migration.create_bots(apps, None)
    migration.create_bots(apps, None)
    assert get_user_model().objects.filter(bot_name__in=LEVELS.values()).count() == len(LEVELS)


def test_a_person_who_took_a_bots_name_keeps_it(no_level_bots, make_user):
    person = make_user("Greedy")
    migration.create_bots(apps, None)
    person.refresh_from_db()
    assert not person.is_bot
    bot = get_user_model().objects.get(is_bot=True, bot_name="greedy")
    assert bot.username == "Greedy (bot)"


def test_undoing_the_migration_removes_only_its_bots(no_level_bots):
    bot_account("random")
    migration.create_bots(apps, None)
    migration.remove_bots(apps, None)
    User = get_user_model()
    assert not User.objects.filter(bot_name__in=LEVELS.values()).exists()
    assert User.objects.filter(is_bot=True, bot_name="random").exists()


def test_a_bots_page_says_how_its_level_plays_from_the_level_not_from_the_stored_bio(client, db):
    hard = bot_account("mcts-hard")
    hard.bio = "An old text written when the account was made."
    hard.save()
    page = client.get(f"/players/{hard.username}/").content.decode()
    assert level_description("mcts-hard") in page
    assert "An old text" not in page


def test_a_bot_whose_level_is_gone_keeps_the_bio_it_was_made_with(client, db):
    retired = get_user_model().objects.create(
        username="Retired", is_bot=True, bot_name="retired-level", bio="Played long ago."
    )
    assert "Played long ago." in client.get(f"/players/{retired.username}/").content.decode()
