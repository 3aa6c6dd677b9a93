"""The levels' budgets and settings, per game: data only, no logic.

The bot tournament (``bench.bots``) fingerprints the bots' code without this file and
records, per game, the settings each bot played with (``bench.bots.bot_settings``), so a
change of one level's budget in one game restarts only the claims that level plays in that
game, not every claim.
"""

# Each level's iteration budget per game: its strength. A search is capped by iterations, not
# by the clock, so a level plays the same moves on a busy machine as on an idle one (it only
# takes longer); the budgets are sized from each game's slowest positions
# (``python -m bench.bot_probe x 0 CONFIG x --speed``) so that Hard stays under
# ``HARD_LIMIT_SECONDS`` of one idle core a move.
LEVEL_ITERATIONS = {
    "mcts-easy": {
        "gp02a": 2,
        "dice-territory": 150,
        "territories": 60,
        "chit-territory": 2,
        "game-of-god": 15,
    },
    "mcts-medium": {
        "gp02a": 1500,
        "dice-territory": 1500,
        "territories": 600,
        "chit-territory": 1200,
        "game-of-god": 2500,
    },
    "mcts-hard": {
        "gp02a": 12000,
        "dice-territory": 10000,
        "territories": 6000,
        "chit-territory": 6000,
        "game-of-god": 10000,
    },
}
# How long Hard's budget takes at most on one idle core, in seconds: what its player page
# states. On a busy server it takes longer and plays the same moves.
HARD_LIMIT_SECONDS = 2
# The wall-clock safety cap on a search, far above the time any budget takes on an idle core:
# only a pathological position or a starved machine reaches it, and the bots' queue counts
# each search it stops (``portal_bot_safety_stops_total``), whose move is then not the level's.
SAFETY_SECONDS = 10.0

# Where Medium and Hard let Greedy's one-step judgement order the root (progressive widening
# and bias, see ``MCTSBot``): the games with many actions a turn, where it measured better
# against Greedy on the same seeds (1,500 iterations; chit game 3 players 0.42 share of 12
# games against 0.33 without, GP02A 3 players 0.50 against 0.42, 4 players 0.38 of 8 against
# 0.25). Easy searches without it.
PRIOR = {"prior": True, "widen": 1.0, "prior_weight": 1.0}
PRIOR_GAMES = ("gp02a", "chit-territory")

# Where Hard judges its leaves by what is still to come (``games.bots.potential``), not only by
# the scores so far: per game, the largest table it does so at. The chit game, at 2 players:
# its scores count a territory's bonuses all or nothing; at Medium's budget a search judging
# so won 10 of 14 two-player games against the same search judging by the scores, while Hard
# judging so at 4 players took no first place in 18 games against three Greedy bots. Game of
# God, at every table: its scores count only pieces already home; at Medium's budget a search
# judging so won 8 of 8 two-player games against Medium, and came first in 5 of 5
# four-player games against three Medium bots. It costs a quarter more time an iteration.
POTENTIAL_LEVELS = {"mcts-hard": {"chit-territory": 2, "game-of-god": 4}}

# What each MCTS level searches with in each game.
LEVEL_SETTINGS = {
    level: {
        slug: {
            "iterations": n,
            **(PRIOR if level != "mcts-easy" and slug in PRIOR_GAMES else {}),
            **({"potential": limit} if (limit := POTENTIAL_LEVELS.get(level, {}).get(slug)) else {}),
        }
        for slug, n in budgets.items()
    }
    for level, budgets in LEVEL_ITERATIONS.items()
}
