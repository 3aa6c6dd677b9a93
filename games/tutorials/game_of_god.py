"""Learn Game of God: the empty column, moving like a rook, challenges with dice, trapping,
freezing a piece in the opponent's goal area."""

from . import Step, Tutorial, gettext_noop

TUTORIAL = Tutorial(
    slug="game-of-god",
    num_players=2,
    seat=0,
    names=(gettext_noop("You"), gettext_noop("Computer")),
    intro=gettext_noop(
        "You are North, with 14 pieces standing in pairs on the top row; South starts on the bottom "
        "row. The aim: bring all your pieces into South's goal area, the bottom row. A piece that "
        "enters it stays there for good."
    ),
    setup=("chooser:0",),
    steps=(
        Step(
            title=gettext_noop("The empty column"),
            prompt=gettext_noop(
                "Your row has 8 squares and 7 pairs, so one square stays empty, and South's empty "
                "square is in the same column. Leave column d empty."
            ),
            play=("vacant:d", "first:0"),
            hint=gettext_noop("Choose column d."),
            done=gettext_noop("The dice say you move first."),
            expect={"to_move": 0},
        ),
        Step(
            title=gettext_noop("Move"),
            prompt=gettext_noop(
                "The top piece of a stack moves any distance in a straight line over empty squares, "
                "and from your own row only forward. Move the top piece of e1 down to e4."
            ),
            play=("move:e1-e4", "move:f8-f4", "pass"),
            hint=gettext_noop("Move the top piece of e1 to e4."),
            done=gettext_noop("South moved next to your piece and could have challenged it, but let it be."),
        ),
        Step(
            title=gettext_noop("Challenge"),
            prompt=gettext_noop(
                "When the piece you moved stands alone next to a lone enemy piece, both outside "
                "every goal area, you may challenge it. Move the top piece of g1 to g4, beside "
                "South's f4, then challenge f4."
            ),
            play=("move:g1-g4", "challenge:f4", "dice:6,2", "move:e8-e5", "challenge:e4", "dice:2,4"),
            hint=gettext_noop("Move from g1 to g4, then challenge the piece on f4."),
            done=gettext_noop(
                "Each side rolls a die: your 6 beat South's 2, so your piece now stands on top of "
                "South's on f4, which is trapped until yours moves off. Then South challenged your "
                "piece on e4 and lost, 2 to 4."
            ),
        ),
        Step(
            title=gettext_noop("Trap or spare"),
            prompt=gettext_noop(
                "A defender who rolls higher chooses: trap the challenger (your piece goes on top of "
                "it) or spare it. Trap it."
            ),
            play=("trap",),
            hint=gettext_noop("Choose Trap."),
            done=gettext_noop("Your piece from e4 now sits on top of South's on e5, and it is your move again."),
            expect={"to_move": 0},
        ),
        Step(
            title=gettext_noop("Head for the goal"),
            prompt=gettext_noop(
                "Move your top piece from e5 west to d5: the d column is open all the way down. "
                "No need to challenge this time: pass."
            ),
            play=("move:e5-d5", "pass", "move:a8-a6"),
            hint=gettext_noop("Move from e5 to d5, then pass."),
            done=gettext_noop(
                "Moving off e5 freed South's piece there: a trapped piece moves again once nothing is on top."
            ),
        ),
        Step(
            title=gettext_noop("Into the goal area"),
            prompt=gettext_noop("Move from d5 down to d8, the empty square of South's goal area."),
            play=("move:d5-d8",),
            hint=gettext_noop("Move the piece on d5 to d8."),
            done=gettext_noop("Home: the piece on d8 is frozen there for good and counts 1 point."),
            expect={"scores": [1, 0], "to_move": 1},
        ),
    ),
    closing=gettext_noop(
        "Whoever brings all their pieces into the opponent's goal area wins at once. If the player "
        "to move has no legal move, the game ends and the most pieces in the opponent's goal area "
        "wins. Now play a whole game."
    ),
)

# The second lesson, on a small board set: one pair each. Trapping and freeing a piece, and
# the end by stalemate, which comes sooner than newcomers expect.
STALEMATE = Tutorial(
    slug="game-of-god",
    lesson="stalemate",
    title=gettext_noop("Trapped pieces and stalemate"),
    num_players=2,
    seat=0,
    names=(gettext_noop("You"), gettext_noop("Computer")),
    options={"pieces": 2},
    intro=gettext_noop(
        "A short game: one pair each (the number of pieces is an option of a new match). You are "
        "North, with your pair on d1; South's pair is on d8. A piece still in its own goal area "
        "moves only forward, so a piece standing right in front of it blocks it."
    ),
    setup=("chooser:0", *(f"vacant:{column}" for column in "abcefgh"), "first:0"),
    steps=(
        Step(
            title=gettext_noop("Walk forward"),
            prompt=gettext_noop("Move the top piece of d1 down to d4."),
            play=("move:d1-d4", "move:d8-d6"),
            hint=gettext_noop("Move the top piece of d1 to d4."),
            done=gettext_noop("South walked forward too, to d6."),
        ),
        Step(
            title=gettext_noop("Side by side"),
            prompt=gettext_noop("Move your piece on d4 to d5, next to South's lone piece on d6."),
            play=("move:d4-d5",),
            hint=gettext_noop("Move the piece on d4 to d5."),
        ),
        Step(
            title=gettext_noop("Trap it"),
            prompt=gettext_noop("Challenge the piece on d6."),
            play=("challenge:d6", "dice:6,3", "move:d8-d7"),
            hint=gettext_noop("Challenge d6."),
            done=gettext_noop(
                "Your 6 beat South's 3: your piece stands on top of South's on d6, a mixed stack. "
                "The trapped piece cannot move, nothing may stand on the stack or pass it, so "
                "South's last piece on d8 could only step forward to d7."
            ),
            expect={"to_move": 0},
        ),
        Step(
            title=gettext_noop("Free it"),
            prompt=gettext_noop(
                "A trapped piece moves again once nothing is on top of it. Move your piece off the "
                "stack, from d6 to f6, on its way to South's goal area."
            ),
            play=("move:d6-f6", "move:d6-d2"),
            hint=gettext_noop("Move the top piece of d6 to f6."),
            done=gettext_noop(
                "Freed, South's piece walked forward to d2, right in front of your last piece on "
                "d1: in your own goal area it moves only forward, so it is blocked."
            ),
            expect={"to_move": 0},
        ),
        Step(
            title=gettext_noop("Into the goal area"),
            prompt=gettext_noop("Move from f6 down to f8, in South's goal area, where a piece stays for good."),
            play=("move:f6-f8", "move:d7-d3"),
            hint=gettext_noop("Move the piece on f6 to f8."),
            done=gettext_noop(
                "South moved, and now you have no legal move: f8 is frozen and d1 is blocked. The "
                "game ends at once, a stalemate, and the most pieces in the opponent's goal area "
                "win: 1 to 0, yours."
            ),
            expect={"scores": [1, 0], "to_move": None},
        ),
    ),
    closing=gettext_noop(
        "A stalemate ends the game whoever is stuck, and it comes sooner than you may think: "
        "walking a piece up to the square in front of an enemy stack on its home row blocks that "
        "stack, and a side whose pieces are all blocked, trapped or frozen in goal areas has no "
        "move left. Count the pieces in goal areas before you block, or get blocked. Now play a whole game."
    ),
    ends_game=True,
)

LESSONS = (TUTORIAL, STALEMATE)
