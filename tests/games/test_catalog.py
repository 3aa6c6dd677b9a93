"""The catalog: the games as other apps see them, built from the engines' registry."""

import dataclasses

import pytest

from games import bots, catalog, engines


def test_the_catalog_lists_every_engine_in_registry_order():
    assert [g.slug for g in catalog.all_games()] == [g.slug for g in engines.all_games()]
    assert catalog.game_slugs() == {g.slug for g in engines.all_games()}


@pytest.mark.parametrize("engine", engines.all_games(), ids=lambda g: g.slug)
def test_each_game_is_described_as_its_engine_describes_it(engine):
    info = catalog.get_game(engine.slug)
    assert (info.name, info.summary, info.min_players, info.max_players) == (
        engine.name,
        engine.summary,
        engine.min_players,
        engine.max_players,
    )
    assert info.player_counts == tuple(engine.player_counts)
    assert catalog.game_name(engine.slug) == engine.name
    assert (engine.slug, engine.name) in catalog.game_choices()


def test_a_game_description_cannot_be_changed():
    with pytest.raises(dataclasses.FrozenInstanceError):
        catalog.get_game("territories").name = "Something else"  # type: ignore[misc]  # the point of the test


def test_an_unknown_game_is_a_key_error():
    with pytest.raises(KeyError, match="no-such-game"):
        catalog.get_game("no-such-game")
    with pytest.raises(KeyError):
        catalog.game_name("no-such-game")


def test_player_counts_are_checked_in_words():
    catalog.get_game("game-of-god").check_players(4)
    with pytest.raises(ValueError, match="Game of God is played by 2, 4 players, not 3."):
        catalog.get_game("game-of-god").check_players(3)


def test_the_computer_players_are_named_as_the_bots_are():
    assert catalog.bot_names() == bots.bot_names()
    assert catalog.bot_choices() == [(name, bots.bot_label(name)) for name in bots.bot_names()]
