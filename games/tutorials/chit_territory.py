"""Learn Territory (chits): draw, build, rows of one type, the castle rule, the centre, discard, war."""

from . import Step, Tutorial, gettext_noop

TUTORIAL = Tutorial(
    slug="chit-territory",
    num_players=2,
    seat=0,
    names=(gettext_noop("You"), gettext_noop("Computer")),
    intro=gettext_noop(
        "Each turn you draw two chits from your cup into your reserve, may spend an army on war, "
        "build one structure from the reserve on an empty plot, and keep at most 4 chits. The board "
        "is nine territories of 3 x 3 plots; points come from rows of structures, from having the "
        "most of a type, and from controlling territories."
    ),
    setup=("first:0", "draw:temple", "draw:temple"),
    steps=(
        Step(
            title=gettext_noop("Build"),
            prompt=gettext_noop("You drew two temples into your reserve. Build one on a1, the top-left corner."),
            play=(
                "build:temple@a1",
                "draw:castle",
                "draw:town",
                "build:castle@b3",
                "draw:temple",
                "draw:castle",
            ),
            hint=gettext_noop("Build a temple on a1."),
            done=gettext_noop(
                "The sole player with the most of a type scores 3: your temple and the computer's "
                "castle are worth 3 each. You drew a temple and a castle."
            ),
            expect={"scores": [3, 3]},
        ),
        Step(
            title=gettext_noop("Start a row"),
            prompt=gettext_noop("Build a second temple on b1, next to the first."),
            play=(
                "build:temple@b1",
                "draw:farm",
                "draw:town",
                "build:farm@h8",
                "draw:palace",
                "draw:mine",
            ),
            hint=gettext_noop("Build a temple on b1."),
        ),
        Step(
            title=gettext_noop("Three of a kind in a row"),
            prompt=gettext_noop(
                "A straight run of 3 or more of your structures scores its length, or twice its "
                "longest stretch of one type when that stretch is 3 or more and this gives more. "
                "Build the third temple on c1."
            ),
            play=(
                "build:temple@c1",
                "draw:town",
                "draw:farm",
                "build:town@i9",
                "draw:castle",
                "draw:town",
            ),
            hint=gettext_noop("Build a temple on c1, the end of the row."),
            done=gettext_noop("a1, b1, c1: three temples in a row, 6 points, and 3 more for the most temples: 9."),
            expect={"scores": [9, 9]},
        ),
        Step(
            title=gettext_noop("Castles keep apart"),
            prompt=gettext_noop(
                "A castle may not stand on any of the 8 plots around an opponent's castle (a temple "
                "next to a temple, a palace next to a palace are barred the same way), so the plots "
                "round b3 are closed to yours. Build your castle on e5, the centre."
            ),
            play=(
                "build:castle@e5",
                "draw:mine",
                "draw:farm",
                "build:mine@g7",
                "draw:farm",
                "draw:palace",
            ),
            hint=gettext_noop("Build the castle on e5, in the middle of the board."),
            done=gettext_noop(
                "You control the centre territory (more structures there than anyone): 5 points. 9 + 5 = 14."
            ),
            expect={"scores": [14, 12]},
        ),
        Step(
            title=gettext_noop("Keep four"),
            prompt=gettext_noop(
                "Build your palace on f5, beside the castle. After building you may keep at most 4 "
                "chits in your reserve: discard the farm."
            ),
            play=(
                "build:palace@f5",
                "discard:farm",
                "draw:mine",
                "draw:town",
                "build:mine@g8",
                "discard:town",
                "draw:army",
                "draw:castle",
            ),
            hint=gettext_noop("Build the palace on f5, then discard the farm."),
            done=gettext_noop("The most palaces: 3 more, 17. You drew an army."),
            expect={"scores": [17, 12]},
        ),
        Step(
            title=gettext_noop("War"),
            prompt=gettext_noop(
                "Before building you may spend an army on war: it removes one opponent's structure. "
                "Remove the computer's castle on b3, then build your castle on a2, a plot that castle "
                "barred."
            ),
            play=("war:b3", "build:castle@a2", "draw:temple", "draw:town"),
            hint=gettext_noop("Choose war on b3, then build the castle on a2."),
            done=gettext_noop("The castle on b3 is gone, and now you have the most castles: 20 to 12."),
            expect={"scores": [20, 12]},
        ),
    ),
    closing=gettext_noop(
        "The game ends when all 81 plots are built on, or after five full rounds in a row in "
        "which nobody built. Besides rows and most-of-a-type, controlling "
        "territories pays: 5 to 9 structures in one, three territories in a line, a 2 x 2 square of "
        "them, all four corners, and all six types in one territory. Now play a whole game."
    ),
)

# The second lesson: what controlling territories pays, and war to take a corner back.
CONTROL = Tutorial(
    slug="chit-territory",
    lesson="territories",
    title=gettext_noop("Lines of territories, corners and war"),
    num_players=2,
    seat=0,
    names=(gettext_noop("You"), gettext_noop("Computer")),
    intro=gettext_noop(
        "The biggest points come from controlling territories: you control one when you have "
        "more structures in it than anyone else, one is enough. Control alone pays nothing (but "
        "in the centre); three territories in a line, a 2 x 2 square of them and all four corners "
        "do."
    ),
    setup=("first:0", "draw:town", "draw:farm"),
    steps=(
        Step(
            title=gettext_noop("Control a territory"),
            prompt=gettext_noop(
                "Build your town on b2. Territory 1, the top-left 3 x 3 plots, then holds one "
                "structure of yours and none of the computer's: you control it."
            ),
            play=("build:town@b2", "draw:mine", "draw:town", "build:mine@e8", "draw:farm", "draw:town"),
            hint=gettext_noop("Build the town on b2."),
            done=gettext_noop(
                "You control territory 1, and the most towns give you 3. The computer built in territory 8."
            ),
            expect={"scores": [3, 3]},
        ),
        Step(
            title=gettext_noop("Three territories in a row"),
            prompt=gettext_noop(
                "Three territories in a line that you all control score 9. Build your farm on e2 "
                "(territory 2), and next turn your town on h2 (territory 3): the top row of "
                "territories is then yours."
            ),
            play=(
                "build:farm@e2",
                "draw:farm",
                "draw:mine",
                "build:farm@d8",
                "draw:town",
                "draw:castle",
                "build:town@h2",
                "draw:mine",
                "draw:temple",
                "build:temple@b8",
                "draw:castle",
                "draw:palace",
            ),
            hint=gettext_noop("Build the farm on e2, then the town on h2."),
            done=gettext_noop(
                "Territories 1-2-3 in a row: 9 points, 12 in all. The computer built a temple in territory 7, a corner."
            ),
            expect={"scores": [12, 6]},
        ),
        Step(
            title=gettext_noop("The centre"),
            prompt=gettext_noop(
                "Lines run down and across too: columns of territories and the two diagonals. "
                "Build your castle on e5: the centre territory alone pays 5, and it is in the "
                "middle of four lines."
            ),
            play=("build:castle@e5", "draw:town", "draw:mine", "build:town@g5", "draw:palace", "draw:town"),
            hint=gettext_noop("Build the castle on e5, in the centre territory."),
            done=gettext_noop("The centre: 5 points, and the most castles: 3. 20 to 6."),
            expect={"scores": [20, 6]},
        ),
        Step(
            title=gettext_noop("A diagonal"),
            prompt=gettext_noop(
                "Build your palace on h8, in territory 9: with 1 and 5 that makes the diagonal "
                "1-5-9. Then discard the farm, to keep 4 chits."
            ),
            play=(
                "build:palace@h8",
                "discard:farm",
                "draw:mine",
                "draw:town",
                "build:mine@d9",
                "discard:mine",
                "draw:army",
                "draw:castle",
            ),
            hint=gettext_noop("Build the palace on h8, then discard the farm."),
            done=gettext_noop("The diagonal 1-5-9: 9 more, and 3 for the most palaces: 32. You drew an army."),
            expect={"scores": [32, 6]},
        ),
        Step(
            title=gettext_noop("War for a corner"),
            prompt=gettext_noop(
                "The computer's temple holds territory 7, the last corner you lack. Spend your army: "
                "war on b8 removes that temple. Then build your castle on a7: territory 7 is yours."
            ),
            play=(
                "war:b8",
                "build:castle@a7",
                "draw:town",
                "draw:farm",
                "build:farm@f9",
                "discard:mine",
                "draw:temple",
                "draw:farm",
            ),
            hint=gettext_noop("Choose war on b8, then build the castle on a7."),
            done=gettext_noop(
                "All four corners, 1, 3, 7 and 9: 8 points, and the other diagonal, 3-5-7: 9 more. "
                "The temple went back to the computer's discard pile, and with it the most temples: "
                "49 to 6."
            ),
            expect={"scores": [49, 6]},
        ),
        Step(
            title=gettext_noop("A column and a square"),
            prompt=gettext_noop(
                "Build your temple on b5, in territory 4: the column 1-4-7 and the square 1-2-4-5 "
                "are then yours. Then discard the farm."
            ),
            play=("build:temple@b5", "discard:farm"),
            hint=gettext_noop("Build the temple on b5, then discard the farm."),
            done=gettext_noop(
                "The column 1-4-7: 9, the square of territories 1-2-4-5: 8, and the most temples: "
                "3. 69 points from nine structures."
            ),
            expect={"scores": [69, 6]},
        ),
    ),
    closing=gettext_noop(
        "Control needs strictly more structures than every other player, so one rival structure "
        "more in a territory undoes lines, squares and corners at once: watch the armies in the "
        "reserves. Now play a whole game."
    ),
)

LESSONS = (TUTORIAL, CONTROL)
