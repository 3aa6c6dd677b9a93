"""Learn GP02A: dealing turn cards, the chronology, placing in a block, groups and majorities,
the roll of 1, the purple chip."""

from . import Step, Tutorial

TUTORIAL = Tutorial(
    slug="gp02a",
    num_players=3,
    seat=0,
    names=("You", "Computer", "Computer"),
    intro=(
        "You play Blue against Red and Green; with three players Yellow is a dummy colour that "
        "anyone may place. Each round the Main Player rolls the die and everyone draws that many "
        "chips from the bag; then everyone plays a turn in the order of the turn cards: one chip on "
        "the chronology, the rest into one block of the territory."
    ),
    setup=(
        "first:0",
        "roll:4",
        "draw:blue",
        "draw:blue",
        "draw:blue",
        "draw:blue",
        "draw:red",
        "draw:red",
        "draw:green",
        "draw:green",
        "draw:green",
        "draw:green",
        "draw:green",
        "draw:red",
    ),
    steps=(
        Step(
            title="Deal the turn cards",
            prompt=(
                "You are the Main Player: you rolled 4 and everyone drew 4 chips. Deal the turn cards; "
                "they set the order of play, and you may not keep card 4. Take card 1 to play first, "
                "give card 2 to Red and card 4 to Green."
            ),
            play=("deal:1,2,4",),
            hint="Deal card 1 to yourself, 2 to Red and 4 to Green.",
            done="Green holds card 4, so Green will be the next Main Player.",
        ),
        Step(
            title="The chronology",
            prompt=(
                "Every turn begins with one chip on the chronology, the strip of 28 fields: each chip "
                "of your colour there is a point that nothing can take away. Put a blue chip there."
            ),
            play=("chrono:blue",),
            hint="Put a blue chip on the chronology.",
            expect={"scores": [1, 0, 0]},
        ),
        Step(
            title="Choose a block",
            prompt=(
                "The rest of your hand goes into one block of the territory (6 blocks of 4 x 3 fields). "
                "Choose block 1, top left."
            ),
            play=("block:1",),
            hint="Choose block 1.",
        ),
        Step(
            title="Groups and majorities",
            prompt=(
                "Put your three chips on b2, c2 and d2. Gray fields (b2, c2) are for good: no chip "
                "there is ever removed. Chips joined side by side form a group (2-4 chips: 1 point), "
                "and the sole colour with the most chips in a block scores 3; colours tied for the "
                "most share it, 3 divided by their number and rounded down."
            ),
            play=(
                "put:blue@b2",
                "put:blue@c2",
                "put:blue@d2",
                "chrono:red",
                "block:2",
                "put:red@f2",
                "put:green@e1",
                "put:green@h1",
                "chrono:green",
                "block:3",
                "put:green@i2",
                "put:green@j2",
                "put:red@i1",
                "roll:1",
                "remove:d2",
            ),
            hint="Put blue chips on b2, c2 and d2, in that order.",
            done=(
                "5 points: 1 on the chronology, 1 for the group, 3 for block 1. Then Red and Green "
                "played, and Green, the new Main Player, rolled a 1: on a 1 everyone removes a chip "
                "from a white field. Green took your d2; b2 and c2 are gray and safe."
            ),
            expect={"scores": [5, 1, 8], "to_move": 0},
        ),
        Step(
            title="A roll of 1",
            prompt="Your turn to remove a chip from a white field: take Red's chip on i1.",
            play=(
                "remove:i1",
                "remove:i2",
                "roll:3",
                "draw:green",
                "draw:green",
                "draw:red",
                "draw:blue",
                "draw:purple",
                "draw:blue",
                "draw:red",
                "draw:red",
                "draw:green",
                "deal:1,4,2",
            ),
            hint="Remove the red chip on i1.",
            done="Then Green rolled 3 and everyone drew three chips. You drew the purple chip.",
        ),
        Step(
            title="The purple chip",
            prompt=(
                "The purple chip is never placed. While you hold it you must, during your turn, "
                "remove any one chip from a white field; the purple goes back to the bag with it. "
                "Remove Green's chip on h1."
            ),
            play=("purge:h1",),
            hint="Use the purple chip on Green's chip on h1.",
            expect={"scores": [5, 2, 5]},
        ),
        Step(
            title="Finish your turn",
            prompt=(
                "Now the usual turn: a blue chip on the chronology, block 1, and your last chip on "
                "d2, joined to your group again."
            ),
            play=("chrono:blue", "block:1", "put:blue@d2"),
            hint="Chronology blue, then block 1, then a blue chip on d2.",
            done="6 points: 2 on the chronology, 1 for the group, 3 for block 1.",
            expect={"scores": [6, 2, 5]},
        ),
    ),
    closing=(
        "The game ends when the chronology is full at the end of a round, when the bag cannot give "
        "a player the chips they must draw, or when a player can neither place nor move. Bigger "
        "groups pay much more (5 chips: 3, 8: 6, 11: 10, 15: 16), and with card 2 you may move your "
        "own chips instead of placing (with four players, card 3 too). Now play a whole game."
    ),
)

LESSONS = (TUTORIAL,)
