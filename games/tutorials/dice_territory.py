"""Learn Territory (dice): rolling, claiming spaces by their number, free rolls, stopping, capture."""

from . import Step, Tutorial

TUTORIAL = Tutorial(
    slug="dice-territory",
    num_players=3,
    seat=0,
    names=("You", "Computer", "Computer"),
    intro=(
        "Each space of the 6 x 6 board shows the sum of two dice (a1 is 2, f6 is 12). On your turn "
        "you roll and put a marker on a space of the number you rolled. Rare numbers are worth "
        "more: 2 and 12 are worth 11 points, 7 only 1. At the end your best group of spaces "
        "joined along their sides is your score."
    ),
    setup=("first:0", "card:A"),
    steps=(
        Step(
            title="Roll",
            prompt="You play first. Roll the two dice.",
            play=("roll", "dice:1,2"),
            hint="Press Roll.",
        ),
        Step(
            title="Claim a space",
            prompt=("You rolled 1 + 2 = 3. Two spaces are marked 3: b1 and a2, worth 9 points each. Claim b1."),
            play=("claim:b1",),
            hint="Put your marker on b1, one of the two spaces marked 3.",
            done="A white marker stands on b1. It becomes your piece when your turn ends well.",
        ),
        Step(
            title="Roll again",
            prompt=(
                "Your first three rolls are free. Roll again, then put the marker on the space of "
                "the number: build a group next to b1."
            ),
            play=("roll", "dice:1,1", "claim:a1"),
            hint="Roll, then claim the space of the number you rolled, next to b1.",
            done="A 2: a1, worth 11, the most a space is worth, and joined to b1.",
        ),
        Step(
            title="A free roll never busts",
            prompt=("Roll your third free roll. A number you already rolled is safe on a free roll: claim its space."),
            play=("roll", "dice:2,1", "claim:a2"),
            hint="Roll, then claim the other space marked 3, a2.",
            done="3 again, and nothing lost: a free roll never busts.",
        ),
        Step(
            title="Stop while you are ahead",
            prompt=(
                "The free rolls are over. From now on a number you already rolled this turn is a "
                "bust: every marker of the turn is lost. You rolled 3, 2 and 3; keep what you have: "
                "stop."
            ),
            play=(
                "stop",
                # The next player rolls three free rolls, risks a fourth and busts on a repeat.
                "roll",
                "dice:3,3",
                "claim:c3",
                "roll",
                "dice:4,4",
                "claim:d4",
                "roll",
                "dice:6,6",
                "claim:f6",
                "roll",
                "dice:3,3",
                # The third rolls a 3: every 3 is yours, so it must capture one.
                "roll",
                "dice:2,1",
                "capture:b1",
                "card:C",
            ),
            hint="Press Stop: one more roll could bust.",
            done=(
                "Your markers became pieces: a1, b1 and a2 make a group worth 29. The next player "
                "rolled 6, 8 and 12, tried a fourth roll, rolled 6 again and lost all three markers. "
                "The third rolled a 3: with no space marked 3 free, a capture is forced, so b1 is "
                "theirs now (your group is worth 20) and their turn ended at once."
            ),
            expect={"scores": [20, 0, 9], "to_move": 0},
        ),
        Step(
            title="Capture",
            prompt=(
                "Round 2 opens with a card face up that changes this round's rules; Bold gives you "
                "four free rolls. Roll: on a 3 you must take b1 back, as no space marked 3 is free."
            ),
            play=("roll", "dice:1,2", "capture:b1"),
            hint="Roll, then capture b1 back.",
            done="Captured: b1 is yours again and your group is worth 29. A capture ends your turn.",
            expect={"scores": [29, 0, 0], "to_move": 1},
        ),
    ),
    closing=(
        "The game lasts a set number of rounds (8 with three players). Round 1's card lies face "
        "down and never takes effect; every later round opens with a card face up that bends the "
        "rules for that round. Your score is your best group of joined spaces. Now play a whole game."
    ),
)

LESSONS = (TUTORIAL,)
