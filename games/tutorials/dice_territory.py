"""Learn Territory (dice): rolling, claiming spaces by their number, free rolls, stopping, capture."""

from . import Step, Tutorial, gettext_noop

TUTORIAL = Tutorial(
    slug="dice-territory",
    num_players=3,
    seat=0,
    names=(gettext_noop("You"), gettext_noop("Computer"), gettext_noop("Computer")),
    intro=gettext_noop(
        "Each space of the 6 x 6 board shows the sum of two dice (a1 is 2, f6 is 12). On your turn "
        "you roll and put a marker on a space of the number you rolled. Rare numbers are worth "
        "more: 2 and 12 are worth 11 points, 7 only 1. At the end your best group of spaces "
        "joined along their sides is your score."
    ),
    setup=("first:0", "card:A"),
    steps=(
        Step(
            title=gettext_noop("Roll"),
            prompt=gettext_noop("You play first. Roll the two dice."),
            play=("roll", "dice:1,2"),
            hint=gettext_noop("Press Roll."),
        ),
        Step(
            title=gettext_noop("Claim a space"),
            prompt=gettext_noop(
                "You rolled 1 + 2 = 3. Two spaces are marked 3: b1 and a2, worth 9 points each. Claim b1."
            ),
            play=("claim:b1",),
            hint=gettext_noop("Put your marker on b1, one of the two spaces marked 3."),
            done=gettext_noop("A white marker stands on b1. It becomes your piece when your turn ends well."),
        ),
        Step(
            title=gettext_noop("Roll again"),
            prompt=gettext_noop(
                "Your first three rolls are free. Roll again, then put the marker on the space of "
                "the number: build a group next to b1."
            ),
            play=("roll", "dice:1,1", "claim:a1"),
            hint=gettext_noop("Roll, then claim the space of the number you rolled, next to b1."),
            done=gettext_noop("A 2: a1, worth 11, the most a space is worth, and joined to b1."),
        ),
        Step(
            title=gettext_noop("A free roll never busts"),
            prompt=gettext_noop(
                "Roll your third free roll. A number you already rolled is safe on a free roll: claim its space."
            ),
            play=("roll", "dice:2,1", "claim:a2"),
            hint=gettext_noop("Roll, then claim the other space marked 3, a2."),
            done=gettext_noop("3 again, and nothing lost: a free roll never busts."),
        ),
        Step(
            title=gettext_noop("Stop while you are ahead"),
            prompt=gettext_noop(
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
            hint=gettext_noop("Press Stop: one more roll could bust."),
            done=gettext_noop(
                "Your markers became pieces: a1, b1 and a2 make a group worth 29. The next player "
                "rolled 6, 8 and 12, tried a fourth roll, rolled 6 again and lost all three markers. "
                "The third rolled a 3: with no space marked 3 free, a capture is forced, so b1 is "
                "theirs now (your group is worth 20) and their turn ended at once."
            ),
            expect={"scores": [20, 0, 9], "to_move": 0},
        ),
        Step(
            title=gettext_noop("Capture"),
            prompt=gettext_noop(
                "Round 2 opens with a card face up that changes this round's rules; Bold gives you "
                "four free rolls. Roll: on a 3 you must take b1 back, as no space marked 3 is free."
            ),
            play=("roll", "dice:1,2", "capture:b1"),
            hint=gettext_noop("Roll, then capture b1 back."),
            done=gettext_noop("Captured: b1 is yours again and your group is worth 29. A capture ends your turn."),
            expect={"scores": [29, 0, 0], "to_move": 1},
        ),
    ),
    closing=gettext_noop(
        "The game lasts a set number of rounds (8 with three players). Round 1's card lies face "
        "down and never takes effect; every later round opens with a card face up that bends the "
        "rules for that round. Your score is your best group of joined spaces. Now play a whole game."
    ),
)


def _turn(*rolls: tuple[str, str], stop: bool = True) -> tuple[str, ...]:
    """A turn of the script: for each roll its dice and the spaces claimed, then ``stop``."""
    actions: list[str] = []
    for dice, spaces in rolls:
        actions += ["roll", f"dice:{dice}", *(f"claim:{space}" for space in spaces.split())]
    return (*actions, "stop") if stop else tuple(actions)


# The second lesson: three rule cards, each changing one of the learner's turns.
CARDS = Tutorial(
    slug="dice-territory",
    lesson="cards",
    title=gettext_noop("Rule cards"),
    num_players=3,
    seat=0,
    names=(gettext_noop("You"), gettext_noop("Computer"), gettext_noop("Computer")),
    intro=gettext_noop(
        "Every round after the first opens with a rule card face up that changes the rules for "
        "that round only. Round 1 has been played: your group d5, e5, e6 is worth 21. Here come "
        "three cards, one a round."
    ),
    setup=(
        "first:0",
        "card:A",  # round 1: face down, no effect
        *_turn(("4,5", "d5"), ("5,5", "e5"), ("6,5", "e6")),
        *_turn(("1,1", "a1"), ("1,2", "b1"), ("2,2", "b2")),
        *_turn(("1,6", "f1"), ("2,6", "f2"), ("1,5", "e1")),
        "card:H",
    ),
    steps=(
        Step(
            title=gettext_noop("Doubles"),
            prompt=gettext_noop(
                "Round 2's card is H, Doubles: a roll of doubles puts two markers on spaces of that "
                "number. Roll, then claim both 8s next to your group, c5 and d4."
            ),
            play=(*_turn(("4,4", "c5 d4"), stop=False),),
            hint=gettext_noop("Roll, then claim c5 and d4."),
            done=gettext_noop("Double 4: two markers for one roll, both joined to your group through d5."),
        ),
        Step(
            title=gettext_noop("Finish the turn"),
            prompt=gettext_noop("Two free rolls are left. Roll and claim twice next to your group, then stop."),
            play=(
                *_turn(("6,5", "f5"), ("3,6", "e4")),
                *_turn(("1,3", "c1"), ("2,3", "d1"), ("1,4", "c2")),
                *_turn(("2,5", "e2"), ("3,4", "d3"), ("1,5", "d2")),
                "card:G",
            ),
            hint=gettext_noop("Roll, claim f5, roll, claim e4, then stop."),
            done=gettext_noop("Your group is worth 41 now. Round 3's card is G, Lucky seven."),
            expect={"scores": [41, 44, 12], "to_move": 0},
        ),
        Step(
            title=gettext_noop("Lucky seven"),
            prompt=gettext_noop(
                "With Lucky seven a rolled 7 may go on any free space, whatever its number. Roll, "
                "and put your 7 on f6, the 12 in the corner, worth 11."
            ),
            play=(*_turn(("3,4", "f6"), stop=False),),
            hint=gettext_noop("Roll, then claim f6."),
            done=gettext_noop("A 7 is worth 1 on its own spaces; on f6 it is worth 11."),
        ),
        Step(
            title=gettext_noop("Finish the turn"),
            prompt=gettext_noop("Roll and claim twice more, then stop."),
            play=(
                *_turn(("4,5", "c6"), ("1,5", "c3")),
                *_turn(("1,2", "a2"), ("1,3", "a3"), ("2,3", "b3")),
                *_turn(("1,4", "a4"), ("3,5", "e3"), ("2,4", "a5")),
                "card:F",
            ),
            hint=gettext_noop("Roll, claim c6, roll, claim c3, then stop."),
            done=gettext_noop("Your group is worth 57. Round 4's card is F, Second chance."),
            expect={"scores": [57, 65, 15], "to_move": 0},
        ),
        Step(
            title=gettext_noop("Second chance"),
            prompt=gettext_noop(
                "With Second chance the first repeated number after the free rolls is forgiven: no "
                "bust, nothing placed. Play your three free rolls: claim c4, f4 and f3."
            ),
            play=(*_turn(("1,6", "c4"), ("6,4", "f4"), ("4,5", "f3"), stop=False),),
            hint=gettext_noop("Roll and claim c4, then f4, then f3."),
            done=gettext_noop("Three markers on the board, and the free rolls are over."),
        ),
        Step(
            title=gettext_noop("A repeat forgiven"),
            prompt=gettext_noop(
                "Risk a fourth roll: this round a repeated number does not bust you the first time. Roll, then stop."
            ),
            play=("roll", "dice:6,4", "stop"),
            hint=gettext_noop("Roll once more, then stop."),
            done=gettext_noop(
                "10 again, a repeat of f4's number, and Second chance forgave it: your markers stayed "
                "and became pieces. Your group is worth 73."
            ),
            expect={"scores": [73, 65, 15], "to_move": 1},
        ),
    ),
    closing=gettext_noop(
        "The deck holds ten cards, each drawn once, so one game sees only some of them: Calm, "
        "Cautious (2 free rolls), Bold (4), Truce (no captures), Plunder (a capture does not end "
        "the turn), Second chance, Lucky seven, Doubles, Reversal (the round goes the other way) "
        "and Insurance (a bust loses only the markers placed after the free rolls). Now play a "
        "whole game."
    ),
)

LESSONS = (TUTORIAL, CARDS)
