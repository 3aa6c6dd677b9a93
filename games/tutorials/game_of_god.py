"""Learn Game of God: the empty column, moving like a rook, challenges with dice, trapping,
freezing a piece in the opponent's goal area."""

from . import Step, Tutorial

TUTORIAL = Tutorial(
    slug="game-of-god",
    num_players=2,
    seat=0,
    names=("You", "Computer"),
    intro=(
        "You are North, with 14 pieces standing in pairs on the top row; South starts on the bottom "
        "row. The aim: bring all your pieces into South's goal area, the bottom row. A piece that "
        "enters it stays there for good."
    ),
    setup=("chooser:0",),
    steps=(
        Step(
            title="The empty column",
            prompt=(
                "Your row has 8 squares and 7 pairs, so one square stays empty, and South's empty "
                "square is in the same column. Leave column d empty."
            ),
            play=("vacant:d", "first:0"),
            hint="Choose column d.",
            done="The dice say you move first.",
            expect={"to_move": 0},
        ),
        Step(
            title="Move",
            prompt=(
                "The top piece of a stack moves any distance in a straight line over empty squares, "
                "and from your own row only forward. Move the top piece of e1 down to e4."
            ),
            play=("move:e1-e4", "move:f8-f4", "pass"),
            hint="Move the top piece of e1 to e4.",
            done=("South moved next to your piece and could have challenged it, but let it be."),
        ),
        Step(
            title="Challenge",
            prompt=(
                "When the piece you moved stands alone next to a lone enemy piece, both outside "
                "every goal area, you may challenge it. Move the top piece of g1 to g4, beside "
                "South's f4, then challenge f4."
            ),
            play=("move:g1-g4", "challenge:f4", "dice:6,2", "move:e8-e5", "challenge:e4", "dice:2,4"),
            hint="Move from g1 to g4, then challenge the piece on f4.",
            done=(
                "Each side rolls a die: your 6 beat South's 2, so your piece now stands on top of "
                "South's on f4, which is trapped until yours moves off. Then South challenged your "
                "piece on e4 and lost, 2 to 4."
            ),
        ),
        Step(
            title="Trap or spare",
            prompt=(
                "A defender who rolls higher chooses: trap the challenger (your piece goes on top of "
                "it) or spare it. Trap it."
            ),
            play=("trap",),
            hint="Choose Trap.",
            done="Your piece from e4 now sits on top of South's on e5, and it is your move again.",
            expect={"to_move": 0},
        ),
        Step(
            title="Head for the goal",
            prompt=(
                "Move your top piece from e5 west to d5: the d column is open all the way down. "
                "No need to challenge this time: pass."
            ),
            play=("move:e5-d5", "pass", "move:a8-a6"),
            hint="Move from e5 to d5, then pass.",
            done="Moving off e5 freed South's piece there: a trapped piece moves again once nothing is on top.",
        ),
        Step(
            title="Into the goal area",
            prompt="Move from d5 down to d8, the empty square of South's goal area.",
            play=("move:d5-d8",),
            hint="Move the piece on d5 to d8.",
            done="Home: the piece on d8 is frozen there for good and counts 1 point.",
            expect={"scores": [1, 0], "to_move": 1},
        ),
    ),
    closing=(
        "Whoever brings all their pieces into the opponent's goal area wins at once. If the player "
        "to move has no legal move, the game ends and the most pieces in the opponent's goal area "
        "wins. Now play a whole game."
    ),
)

LESSONS = (TUTORIAL,)
