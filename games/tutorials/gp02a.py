"""Learn GP02A: dealing turn cards, the chronology, placing in a block, groups and majorities,
the roll of 1, the purple chip."""

from . import Step, Tutorial, gettext_noop

TUTORIAL = Tutorial(
    slug="gp02a",
    num_players=3,
    seat=0,
    names=(gettext_noop("You"), gettext_noop("Computer"), gettext_noop("Computer")),
    intro=gettext_noop(
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
            title=gettext_noop("Deal the turn cards"),
            prompt=gettext_noop(
                "You are the Main Player: you rolled 4 and everyone drew 4 chips. Deal the turn cards; "
                "they set the order of play, and you may not keep card 4. Take card 1 to play first, "
                "give card 2 to Red and card 4 to Green."
            ),
            play=("deal:1,2,4",),
            hint=gettext_noop("Deal card 1 to yourself, 2 to Red and 4 to Green."),
            done=gettext_noop("Green holds card 4, so Green will be the next Main Player."),
        ),
        Step(
            title=gettext_noop("The chronology"),
            prompt=gettext_noop(
                "Every turn begins with one chip on the chronology, the strip of 28 fields: each chip "
                "of your colour there is a point that nothing can take away. Put a blue chip there."
            ),
            play=("chrono:blue",),
            hint=gettext_noop("Put a blue chip on the chronology."),
            expect={"scores": [1, 0, 0]},
        ),
        Step(
            title=gettext_noop("Choose a block"),
            prompt=gettext_noop(
                "The rest of your hand goes into one block of the territory (6 blocks of 4 x 3 fields). "
                "Choose block 1, top left."
            ),
            play=("block:1",),
            hint=gettext_noop("Choose block 1."),
        ),
        Step(
            title=gettext_noop("Groups and majorities"),
            prompt=gettext_noop(
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
            hint=gettext_noop("Put blue chips on b2, c2 and d2, in that order."),
            done=gettext_noop(
                "5 points: 1 on the chronology, 1 for the group, 3 for block 1. Then Red and Green "
                "played, and Green, the new Main Player, rolled a 1: on a 1 everyone removes a chip "
                "from a white field. Green took your d2; b2 and c2 are gray and safe."
            ),
            expect={"scores": [5, 1, 8], "to_move": 0},
        ),
        Step(
            title=gettext_noop("A roll of 1"),
            prompt=gettext_noop("Your turn to remove a chip from a white field: take Red's chip on i1."),
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
            hint=gettext_noop("Remove the red chip on i1."),
            done=gettext_noop("Then Green rolled 3 and everyone drew three chips. You drew the purple chip."),
        ),
        Step(
            title=gettext_noop("The purple chip"),
            prompt=gettext_noop(
                "The purple chip is never placed. While you hold it you must, during your turn, "
                "remove any one chip from a white field; the purple goes back to the bag with it. "
                "Remove Green's chip on h1."
            ),
            play=("purge:h1",),
            hint=gettext_noop("Use the purple chip on Green's chip on h1."),
            expect={"scores": [5, 2, 5]},
        ),
        Step(
            title=gettext_noop("Finish your turn"),
            prompt=gettext_noop(
                "Now the usual turn: a blue chip on the chronology, block 1, and your last chip on "
                "d2, joined to your group again."
            ),
            play=("chrono:blue", "block:1", "put:blue@d2"),
            hint=gettext_noop("Chronology blue, then block 1, then a blue chip on d2."),
            done=gettext_noop("6 points: 2 on the chronology, 1 for the group, 3 for block 1."),
            expect={"scores": [6, 2, 5]},
        ),
    ),
    closing=gettext_noop(
        "The game ends when the chronology is full at the end of a round, when the bag cannot give "
        "a player the chips they must draw, or when a player can neither place nor move. Bigger "
        "groups pay much more (5 chips: 3, 8: 6, 11: 10, 15: 16), and with card 2 you may move your "
        "own chips instead of placing (with four players, card 3 too). Now play a whole game."
    ),
)


def _draws(colour: str, count: int) -> tuple[str, ...]:
    return (f"draw:{colour}",) * count


# The second lesson: a second roll of 1 in a round, and a movement turn with card 2.
MOVEMENT = Tutorial(
    slug="gp02a",
    lesson="movement",
    title=gettext_noop("Moving your chips"),
    num_players=3,
    seat=0,
    names=(gettext_noop("You"), gettext_noop("Computer"), gettext_noop("Computer")),
    intro=gettext_noop(
        "The holder of card 2 may, instead of placing the chips in hand, put them back in the bag "
        "and move as many of their own chips already on the territory. You play Blue; you rolled "
        "a 6 and everyone drew six chips."
    ),
    setup=("first:0", "roll:6", *_draws("blue", 6), *_draws("red", 6), *_draws("green", 6)),
    steps=(
        Step(
            title=gettext_noop("A first turn"),
            prompt=gettext_noop(
                "Deal card 1 to yourself, 2 to Red and 4 to Green. Then put a blue chip on the "
                "chronology and the other five in block 1: b2 and c2 (gray), then a1, a3 and d3."
            ),
            play=(
                "deal:1,2,4",
                "chrono:blue",
                "block:1",
                "put:blue@b2",
                "put:blue@c2",
                "put:blue@a1",
                "put:blue@a3",
                "put:blue@d3",
                "chrono:red",
                "block:2",
                "put:red@e1",
                "put:red@f2",
                "put:red@g2",
                "put:red@h1",
                "put:red@e3",
                "chrono:green",
                "block:3",
                "put:green@i1",
                "put:green@j2",
                "put:green@k2",
                "put:green@l1",
                "put:green@i3",
                "roll:1",
                "remove:e1",
            ),
            hint=gettext_noop("Deal 1, 2, 4; blue on the chronology; block 1; then b2, c2, a1, a3 and d3."),
            done=gettext_noop(
                "5 points: 1 on the chronology, 1 for the pair b2-c2, 3 for block 1. Green, the new "
                "Main Player, rolled a 1 and took Red's chip on e1."
            ),
            expect={"scores": [5, 5, 5], "to_move": 0},
        ),
        Step(
            title=gettext_noop("A roll of 1"),
            prompt=gettext_noop(
                "On a 1 every player in turn, from the Main Player, takes one chip off a white field "
                "and puts it back in the bag. Take Green's chip on i1."
            ),
            play=(
                "remove:i1",
                "remove:l1",
                "roll:1",
                "roll:4",
                *_draws("green", 4),
                *_draws("blue", 4),
                *_draws("red", 4),
                "deal:2,4,1",
                "chrono:green",
                "block:6",
                "put:green@i4",
                "put:green@j4",
                "put:green@k4",
            ),
            hint=gettext_noop("Remove the green chip on i1."),
            done=gettext_noop(
                "Red took Green's l1. Green rolled 1 again: a second 1 in a round removes nothing, it "
                "is simply rolled again. Then a 4: four chips each. Green dealt you card 2 and played "
                "card 1."
            ),
            expect={"scores": [5, 5, 10], "to_move": 0},
        ),
        Step(
            title=gettext_noop("Move instead of placing"),
            prompt=gettext_noop(
                "Put a blue chip on the chronology as always. Then, with card 2, choose Move: the "
                "three chips left in your hand go back to the bag, and you lift three of your own "
                "chips from white fields instead."
            ),
            play=("chrono:blue", "move"),
            hint=gettext_noop("Blue on the chronology, then Move."),
            done=gettext_noop("Your hand went back to the bag: now lift three blue chips."),
            expect={"scores": [6, 5, 10]},
        ),
        Step(
            title=gettext_noop("Lift your chips"),
            prompt=gettext_noop(
                "Lift your lone chips on a1, a3 and d3: only chips of your own colour on white "
                "fields may be lifted (gray fields keep theirs)."
            ),
            play=("lift:a1", "lift:a3", "lift:d3"),
            hint=gettext_noop("Lift the blue chips on a1, a3 and d3."),
        ),
        Step(
            title=gettext_noop("Put them in one block"),
            prompt=gettext_noop(
                "Put the three chips into one block with room for them, like a placement; the "
                "fields you lifted from are free again, and it may be the same block. Choose block "
                "1 and put them on b1, c1 and d2, around your gray pair."
            ),
            play=("block:1", "put:blue@b1", "put:blue@c1", "put:blue@d2"),
            hint=gettext_noop("Choose block 1, then put blue chips on b1, c1 and d2."),
            done=gettext_noop(
                "b1, c1, b2, c2 and d2: a group of 5, worth 3 instead of 1. 8 points: 2 on the "
                "chronology, 3 for the group, 3 for block 1."
            ),
            expect={"scores": [8, 5, 10], "to_move": 1},
        ),
    ),
    closing=gettext_noop(
        "Moving is allowed only with card 2 (with four players, card 3 too), and only when you "
        "have as many chips of your own on white fields as you hold in hand and a block can take "
        "them all. It gathers scattered chips into groups and majorities without drawing luck. "
        "Now play a whole game."
    ),
)

LESSONS = (TUTORIAL, MOVEMENT)
