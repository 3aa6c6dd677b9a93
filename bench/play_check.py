"""Whether two versions of the code play the same: the check before the tournament's games of
older code are counted for the code now (``python -m bench.bots --adopt``).

Run from the project folder::

    python -m bench.play_check 191d01e            # the code at 191d01e against the code now

A change to ``games/bots`` or ``games/engines`` gives the code a new fingerprint, and the
tournament counts only the games of one fingerprint (``bench.bots``), so a change of words or
of speed would otherwise start every claim afresh. The check plays, in both versions, the
opening of one seeded game per table the claims play at (every seat the same bot), for every
level: each level's first decisions with a real choice, at the level's real budget, with the
same seeds and dice. Two versions play the same when every level picks the same actions at
every table; the check prints each table and level that differs and exits 1.

Each version runs in its own process from its own tree (a git worktree of the older commit,
made for the check and removed after it), so nothing of the code now leaks into the older one.
Only the engine contract's oldest calls are used, which every version has.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The tables the claims are decided at (bench.bots.all_claims), and each level's decisions.
TABLES = (
    ("gp02a", 3),
    ("gp02a", 4),
    ("dice-territory", 3),
    ("dice-territory", 6),
    ("territories", 2),
    ("chit-territory", 2),
    ("chit-territory", 3),
    ("chit-territory", 4),
    ("game-of-god", 2),
    ("game-of-god", 4),
)
DECISIONS = {"random": 60, "greedy": 40, "mcts-easy": 20, "mcts-medium": 10, "mcts-hard": 4}
MAX_ACTIONS = 5_000


def play_opening(slug: str, players: int, bot_name: str, decisions: int) -> list[str]:
    """The actions of one seeded game of ``bot_name`` at every seat, up to its ``decisions``-th
    decision with a real choice (chance's outcomes included, so a changed die shows too)."""
    from games.bots import get_bot
    from games.engines import CHANCE, get_game

    seed = int(hashlib.sha256(f"{slug}/{players}/{bot_name}".encode()).hexdigest()[:15], 16)
    chance = random.Random(seed)
    rngs = [random.Random(seed + 1 + seat) for seat in range(players)]
    bot = get_bot(bot_name)
    state = get_game(slug).new_state(players)
    played: list[str] = []
    chosen = 0
    while not state.is_terminal() and chosen < decisions and len(played) < MAX_ACTIONS:
        player = state.current_player()
        if player == CHANCE:
            outcomes = state.chance_outcomes()
            action = chance.choices([a for a, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            chosen += len(state.legal_actions()) > 1
            action = bot.choose(state.clone(), player, rngs[player])
        state.apply(action)
        played.append(action)
    return played


def emit(bots: list[str]) -> dict[str, str]:
    """Every table's and level's opening, hashed: what one version prints for the other."""
    out = {}
    for slug, players in TABLES:
        for name in bots:
            actions = play_opening(slug, players, name, DECISIONS[name])
            out[f"{slug}/{players}/{name}"] = hashlib.sha256("\n".join(actions).encode()).hexdigest()[:16]
    return out


def _run_in(tree: Path, bots: list[str]) -> dict[str, str]:
    """``emit`` in a process of its own whose ``games`` package is ``tree``'s."""
    env = {**os.environ, "PYTHONPATH": str(tree), "PYTHONHASHSEED": "0"}
    code = (
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('play_check', {str(Path(__file__))!r})\n"
        "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module)\n"
        f"print(json.dumps(module.emit({bots!r})))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode:
        raise RuntimeError(f"the code in {tree} could not play:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def fingerprint_of(tree: Path) -> str:
    from bench.bots import code_fingerprint

    return code_fingerprint(tree)


def compare(rev: str, bots: list[str]) -> tuple[str, list[str]]:
    """(the fingerprint of the code at ``rev``, the tables and levels whose play differs)."""
    with tempfile.TemporaryDirectory(prefix="play-check-") as scratch:
        tree = Path(scratch) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(tree), rev], cwd=ROOT, check=True)
        try:
            old = _run_in(tree, bots)
            new = _run_in(ROOT, bots)
            return fingerprint_of(tree), sorted(key for key in new if old.get(key) != new[key])
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, check=False)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev", help="the older commit to compare with the code now")
    parser.add_argument("--bot", action="append", choices=sorted(DECISIONS), help="only this level (may repeat)")
    args = parser.parse_args(argv)
    bots = args.bot or list(DECISIONS)
    started = time.monotonic()
    fingerprint, differ = compare(args.rev, bots)
    print(f"Code at {args.rev}: fingerprint {fingerprint}; code now: {fingerprint_of(ROOT)}.")
    print(f"{len(TABLES) * len(bots)} openings played in each version in {time.monotonic() - started:.0f} s.")
    if differ:
        print("Played differently:\n" + "\n".join(f"  {key}" for key in differ))
        return 1
    print("Every level played the same at every table.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
