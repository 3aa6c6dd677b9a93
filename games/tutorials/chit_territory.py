"""Learn Territory (chits): draw, build, rows of one type, the castle rule, the centre, discard, war."""

from . import Step, Tutorial

TUTORIAL = Tutorial(
    slug="chit-territory",
    num_players=2,
    seat=0,
    names=("You", "Computer"),
    intro=(
        "Each turn you draw two chits from your cup into your reserve, may spend an army on war, "
        "build one structure from the reserve on an empty plot, and keep at most 4 chits. The board "
        "is nine territories of 3 x 3 plots; points come from rows of structures, from having the "
        "most of a type, and from controlling territories."
    ),
    setup=("first:0", "draw:temple", "draw:temple"),
    steps=(
        Step(
            title="Build",
            prompt="You drew two temples into your reserve. Build one on a1, the top-left corner.",
            play=(
                "build:temple@a1",
                "draw:castle",
                "draw:town",
                "build:castle@b3",
                "draw:temple",
                "draw:castle",
            ),
            hint="Build a temple on a1.",
            done=(
                "The sole player with the most of a type scores 3: your temple and the computer's "
                "castle are worth 3 each. You drew a temple and a castle."
            ),
            expect={"scores": [3, 3]},
        ),
        Step(
            title="Start a row",
            prompt="Build a second temple on b1, next to the first.",
            play=(
                "build:temple@b1",
                "draw:farm",
                "draw:town",
                "build:farm@h8",
                "draw:palace",
                "draw:mine",
            ),
            hint="Build a temple on b1.",
        ),
        Step(
            title="Three of a kind in a row",
            prompt=(
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
            hint="Build a temple on c1, the end of the row.",
            done="a1, b1, c1: three temples in a row, 6 points, and 3 more for the most temples: 9.",
            expect={"scores": [9, 9]},
        ),
        Step(
            title="Castles keep apart",
            prompt=(
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
            hint="Build the castle on e5, in the middle of the board.",
            done=("You control the centre territory (more structures there than anyone): 5 points. 9 + 5 = 14."),
            expect={"scores": [14, 12]},
        ),
        Step(
            title="Keep four",
            prompt=(
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
            hint="Build the palace on f5, then discard the farm.",
            done="The most palaces: 3 more, 17. You drew an army.",
            expect={"scores": [17, 12]},
        ),
        Step(
            title="War",
            prompt=(
                "Before building you may spend an army on war: it removes one opponent's structure. "
                "Remove the computer's castle on b3, then build your castle on a2, a plot that castle "
                "barred."
            ),
            play=("war:b3", "build:castle@a2", "draw:temple", "draw:town"),
            hint="Choose war on b3, then build the castle on a2.",
            done="The castle on b3 is gone, and now you have the most castles: 20 to 12.",
            expect={"scores": [20, 12]},
        ),
    ),
    closing=(
        "The game ends when all 81 plots are built on, or after five full rounds in a row in "
        "which nobody built. Besides rows and most-of-a-type, controlling "
        "territories pays: 5 to 9 structures in one, three territories in a line, a 2 x 2 square of "
        "them, all four corners, and all six types in one territory. Now play a whole game."
    ),
)

LESSONS = (TUTORIAL,)
