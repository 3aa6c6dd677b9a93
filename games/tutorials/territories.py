"""Learn Territories: farm houses, a fence that must be continued, closing it, land by farm houses."""

from . import Step, Tutorial, gettext_noop

TUTORIAL = Tutorial(
    slug="territories",
    num_players=2,
    seat=0,
    names=(gettext_noop("You"), gettext_noop("Computer")),
    intro=gettext_noop(
        "You play Yellow against Red. First both of you place farm houses, then you take turns "
        "laying trunks (fence pieces) along the lines between squares. Land fenced off with "
        "only your farm houses in it is yours."
    ),
    setup=("first:0",),
    steps=(
        Step(
            title=gettext_noop("Farm houses"),
            prompt=gettext_noop(
                "The eight dashed spots take farm houses: Yellow places 1, Red 2, Yellow 2, Red 2, "
                "Yellow the last. Take the left half of the board: your farm houses go on b2, d2, a5 "
                "and c5, one at a time."
            ),
            play=(
                "farm:b2",
                "farm:f2",
                "farm:h2",
                "farm:d2",
                "farm:a5",
                "farm:e5",
                "farm:g5",
                "farm:c5",
            ),
            hint=gettext_noop("Place your farm houses on the dashed spots b2, d2, a5 and c5."),
            done=gettext_noop("All eight farm houses stand: yours on the left, Red's on the right."),
        ),
        Step(
            title=gettext_noop("The first trunk"),
            prompt=gettext_noop(
                "Now trunks. The very first trunk of the game must touch the border. "
                "Lay the trunk between c1 and d1, down from the top edge."
            ),
            play=("trunk:c1-d1", "trunk:c2-d2"),
            hint=gettext_noop("Click the line between c1 and d1, at the top of the board."),
            done=gettext_noop(
                "Red had to continue your fence from its open end: while a fence has an open end, "
                "the next trunk, whoever lays it, must go on from there."
            ),
            expect={"to_move": 0},
        ),
        Step(
            title=gettext_noop("Continue the fence"),
            prompt=gettext_noop(
                "The fence now ends in the open, below c2 and d2. It is your turn to go on from "
                "that end: turn west and lay the trunk between c2 and c3."
            ),
            play=("trunk:c2-c3", "trunk:b2-b3"),
            hint=gettext_noop("Lay the trunk between c2 and c3, going west from the fence's open end."),
            done=gettext_noop("Red went on west too. One more trunk reaches the left border."),
        ),
        Step(
            title=gettext_noop("Close the fence"),
            prompt=gettext_noop(
                "Lay the trunk between a2 and a3: the fence reaches the border and cuts the corner "
                "off. The corner holds only your farm house, so its 5 land squares are yours."
            ),
            play=("trunk:a2-a3",),
            hint=gettext_noop("Close the fence at the left border: the trunk between a2 and a3."),
            done=gettext_noop(
                "Fenced off: 5 points for Yellow. Whoever closes a fence lays another trunk at once, "
                "so it is your turn again."
            ),
            expect={"scores": [5, 0], "to_move": 0},
        ),
        Step(
            title=gettext_noop("A new fence"),
            prompt=gettext_noop(
                "A new fence must start from a trunk already placed (the border alone is not enough "
                "any more). Start one under your farm house on d2: the trunk between d2 and d3."
            ),
            play=("trunk:d2-d3", "trunk:e2-e3"),
            hint=gettext_noop("Start from the end of your first fence: the trunk between d2 and d3."),
            done=gettext_noop("Red had to follow your new fence east."),
        ),
        Step(
            title=gettext_noop("Land goes by farm houses"),
            prompt=gettext_noop(
                "Turn the fence up towards the top edge: lay the trunk between e2 and f2. "
                "Red's farm house on f2 stays outside."
            ),
            play=("trunk:e2-f2", "trunk:e1-f1"),
            hint=gettext_noop("Lay the trunk between e2 and f2, going up from the fence's open end."),
            done=gettext_noop(
                "Red closed the fence, but land belongs to the farm houses inside: the area d1, e1, "
                "d2, e2 holds only your farm house, on d2, so its land squares d1, e1 and e2 are yours "
                "too. 8 points to 0."
            ),
            expect={"scores": [8, 0], "to_move": 1},
        ),
    ),
    closing=gettext_noop(
        "The game ends as soon as no area holds farm houses of both colours; then each of you scores "
        "the land of the areas holding only your farm houses, and more land wins. One rule guards "
        "the end: no trunk may spoil land, so a fence must always be able to leave farm houses on "
        "both of its sides. Now play a whole game."
    ),
)

# The second lesson: rule 6 (no spoiling land) and the separation that ends the game.
SEPARATION = Tutorial(
    slug="territories",
    lesson="separation",
    title=gettext_noop("No spoiling land, and the end"),
    num_players=2,
    seat=0,
    names=(gettext_noop("You"), gettext_noop("Computer")),
    intro=gettext_noop(
        "The farm houses stand as in the first lesson: yours on the left, Red's on the right. "
        "The game ends as soon as no area holds farm houses of both colours, so every fence "
        "is a step towards dividing the board."
    ),
    setup=(
        "first:0",
        "farm:b2",
        "farm:f2",
        "farm:h2",
        "farm:d2",
        "farm:a5",
        "farm:e5",
        "farm:g5",
        "farm:c5",
    ),
    steps=(
        Step(
            title=gettext_noop("A fence across"),
            prompt=gettext_noop(
                "Rule 6: no trunk may spoil land, so a fence must always be able to end with farm "
                "houses on both of its sides. Fence your farm houses a5 and c5 off from the top "
                "half: start at the left border with the trunk between a3 and a4."
            ),
            play=("trunk:a3-a4", "trunk:b3-b4"),
            hint=gettext_noop("Lay the trunk between a3 and a4, at the left border."),
            done=gettext_noop("Red had to go on from the open end, east along the same line."),
        ),
        Step(
            title=gettext_noop("Go on east"),
            prompt=gettext_noop("Lay the trunk between c3 and c4."),
            play=("trunk:c3-c4", "trunk:d3-d4"),
            hint=gettext_noop("Lay the trunk between c3 and c4."),
        ),
        Step(
            title=gettext_noop("Turn down"),
            prompt=gettext_noop(
                "Red's farm house on e5 must stay out of your area: turn down, with the trunk between d4 and e4."
            ),
            play=("trunk:d4-e4", "trunk:d5-e5"),
            hint=gettext_noop("Lay the trunk between d4 and e4, going down."),
        ),
        Step(
            title=gettext_noop("Close your area"),
            prompt=gettext_noop("Reach the bottom border: the trunk between d6 and e6."),
            play=("trunk:d6-e6",),
            hint=gettext_noop("Lay the trunk between d6 and e6."),
            done=gettext_noop(
                "The bottom-left area holds only your farm houses: its 10 land squares are yours. "
                "Closing a fence, you lay another trunk at once."
            ),
            expect={"scores": [10, 0], "to_move": 0},
        ),
        Step(
            title=gettext_noop("No spoiling land"),
            prompt=gettext_noop(
                "Your new area has farm houses of one colour only, so rule 6 allows no trunk in it "
                "any more (the trunk between a4 and b4 touches your fence, yet it is refused). A new fence "
                "starts from a trunk already placed: lay the trunk between e3 and e4, east from the "
                "corner of your fence."
            ),
            play=("trunk:e3-e4", "trunk:e3-f3"),
            hint=gettext_noop("Lay the trunk between e3 and e4."),
            done=gettext_noop("Red turned the fence up, between e3 and f3."),
            expect={"refused": ["trunk:a4-b4", "trunk:d5-d6"]},
        ),
        Step(
            title=gettext_noop("Keep Red's farm house out"),
            prompt=gettext_noop("Go on up, keeping Red's farm house on f2 to the right: the trunk between e2 and f2."),
            play=("trunk:e2-f2", "trunk:e1-e2"),
            hint=gettext_noop("Lay the trunk between e2 and f2."),
            done=gettext_noop("Red turned west, under e1."),
        ),
        Step(
            title=gettext_noop("The last separation"),
            prompt=gettext_noop(
                "Lay the trunk between d1 and e1, up to the top border. Then no area holds farm "
                "houses of both colours, and the game ends."
            ),
            play=("trunk:d1-e1",),
            hint=gettext_noop("Lay the trunk between d1 and e1."),
            done=gettext_noop(
                "Separated: every area holds farm houses of one colour only, and the game is over. "
                "Your land: 10 in the bottom left and 12 in the top left, 22; Red's 18. You win."
            ),
            expect={"scores": [22, 18], "to_move": None},
        ),
    ),
    closing=gettext_noop(
        "The game ends as soon as no area holds farm houses of both colours; the land of each "
        "area goes to the colour of its farm houses, and more land wins. Now play a whole game."
    ),
    ends_game=True,
)

LESSONS = (TUTORIAL, SEPARATION)
