"""GP02A Territory's Negotiation variant through the real match path: the option chosen in the
create form, an offer and its answer as moves of ``services.match_act``, the payloads each seat
gets, and a bot answering an offer made to it."""

import random

import pytest

from games import services, state_cache
from games.bots.negotiation import negotiation_move
from games.engines.gp02a import GAME, P_DEAL, offer_action
from games.models import Match
from games.selectors import match_payload
from tests.conftest import wait_for

from .helpers import fresh

pytestmark = pytest.mark.django_db(transaction=True)


def people_match(users, bots=()):
    """A four-player GP02A match with Negotiation: ``users`` in the first seats, then bots."""
    match = services.match_create(user=users[0], game="gp02a", num_players=4, options={"negotiation": True})
    for user in users[1:]:
        services.match_join(match_id=match.pk, user=user)
    for index, bot in enumerate(bots, start=len(users)):
        services.match_seat_bot(match_id=match.pk, user=users[0], index=index, bot=bot)
    return fresh(match.pk)


def play_to_a_persons_deal(match_id, people, rng):
    """People play random legal moves (bots play themselves) until a person is the Main Player
    at the deal step; returns the match and its state then."""

    def there():
        match = fresh(match_id)
        assert match.status == Match.Status.ACTIVE, "the game ended before a person dealt"
        state = state_cache.load(match)
        if match.to_move in people and state.phase == P_DEAL:
            return match, state
        if match.to_move in people:
            action = rng.choice(state.legal_actions())
            services.match_act(match_id=match_id, user=people[match.to_move], action=action, version=match.version)
        return None

    return wait_for(there, timeout=60, interval=0.01, message="a person to deal")


def a_small_offer(state, partner):
    """One chip of the Main Player's for one of another colour of the partner's."""
    mine, theirs = state.hands[state.main], state.hands[partner]
    pairs = [(a, b) for a in range(5) for b in range(5) if mine[a] and theirs[b]]
    a, b = next(((a, b) for a, b in pairs if a != b), pairs[0])
    give = [0] * 5
    take = [0] * 5
    give[a] = take[b] = 1
    return offer_action(partner, give, take), give, take


def test_the_create_form_offers_negotiation_for_gp02a_only_and_stores_it(client, alice):
    client.force_login(alice)
    page = client.get("/play/new/").content.decode()
    assert 'data-game="gp02a"' in page and "GP02A Territory: Negotiation" in page
    assert "js/match-form.js" in page
    response = client.post(
        "/play/new/",
        {
            "game": "gp02a",
            "num_players": 4,
            "speed": "live",
            "seconds_per_move": 60,
            "days_per_move": 2,
            "visibility": "public",
            "opt_gp02a_negotiation": "on",
            "opt_chit-territory_mountains_rivers": "on",  # another game's option is ignored
        },
    )
    match = Match.objects.get()
    assert response.status_code == 302
    assert match.options == {"negotiation": True}


def test_an_offer_and_its_acceptance_go_through_the_match_path_and_replay(alice, bob, make_user):
    users = [alice, bob, make_user("carol"), make_user("dave")]
    match = people_match(users)
    people = dict(enumerate(users))
    match, state = play_to_a_persons_deal(match.pk, people, random.Random(1))
    main = state.main
    partner = (main + 1) % 4
    offer, give, take = a_small_offer(state, partner)
    services.match_act(match_id=match.pk, user=people[main], action=offer, version=match.version)
    match = fresh(match.pk)
    assert match.to_move == partner
    # The player offered gets the answers, in plain words; everyone sees the open offer.
    answering = match_payload(match, people[partner], chat=False)
    assert answering["legal_actions"] == [
        {"action": "accept", "label": "Accept the exchange"},
        {"action": "decline", "label": "Decline the exchange"},
    ]
    watching = match_payload(match, people[(main + 2) % 4], chat=False)
    assert watching["legal_actions"] == []
    assert watching["view"]["negotiation"]["open"] == answering["view"]["negotiation"]["open"]
    assert answering["view"]["negotiation"]["open"]["partner"] == partner
    # Somebody else cannot answer for him.
    with pytest.raises(services.MatchError, match="not your turn"):
        services.match_act(match_id=match.pk, user=people[main], action="accept", version=match.version)
    before = [h[:] for h in state_cache.load(match).hands]
    services.match_act(match_id=match.pk, user=people[partner], action="accept", version=match.version)
    match = fresh(match.pk)
    after = state_cache.load(match)
    assert match.to_move == main and after.phase == P_DEAL
    assert after.hands[main] == [before[main][c] - give[c] + take[c] for c in range(5)]
    assert after.hands[partner] == [before[partner][c] + give[c] - take[c] for c in range(5)]
    moves = list(match.moves.order_by("index").values_list("action", flat=True))
    assert moves[-2:] == [offer, "accept"]
    replayed = GAME.replay(4, match.options, moves)
    assert replayed.view(None) == after.view(None)


def test_a_bot_answers_an_offer_made_to_it_as_its_evaluation_says(alice, bob, make_user):
    users = [alice, bob, make_user("carol")]
    match = people_match(users, bots=["greedy"])
    people = dict(enumerate(users))
    match, state = play_to_a_persons_deal(match.pk, people, random.Random(2))
    offer, _, _ = a_small_offer(state, 3)
    services.match_act(match_id=match.pk, user=people[state.main], action=offer, version=match.version)
    asked = state_cache.load(fresh(match.pk))
    expected = negotiation_move(asked, 3)
    assert expected in ("accept", "decline")
    answered = wait_for(lambda: fresh(match.pk).to_move != 3 and fresh(match.pk), message="the bot's answer")
    moves = list(answered.moves.order_by("index").values_list("action", flat=True))
    assert moves[-2:] == [offer, expected]
    assert answered.to_move == state.main
