"""A complete bot for the portal: it accepts every challenge and plays any of the five games
with a random legal move, reading the event streams (no polling).

    BOT_TOKEN=<your bot account's token> python random_bot.py --url https://portal.example

Python 3.9 or later, the standard library and `requests` (`pip install requests`). Stop it
with Ctrl-C, or give --matches N to stop after N matches have ended. See docs/BOTS_API.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import threading

import requests


class Bot:
    def __init__(self, url: str, token: str) -> None:
        self.api = url.rstrip("/") + "/api"
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Token {token}"
        self.playing: set[int] = set()
        self.lock = threading.Lock()

    def lines(self, path: str, **params):
        """The JSON objects of a stream, one a line; blank lines only keep it alive."""
        with self.session.get(self.api + path, params=params, stream=True, timeout=(10, 120)) as answer:
            answer.raise_for_status()
            for line in answer.iter_lines():
                if line:
                    yield json.loads(line)

    def post(self, path: str, body: dict | None = None) -> requests.Response:
        return self.session.post(self.api + path, json=body or {}, timeout=30)

    def play(self, match_id: int) -> None:
        """Answer every position of the match that gives this bot legal actions, reading the
        match's stream again (from the last version seen) if the connection drops."""
        seen = None
        try:
            for _ in range(10):  # reconnections, at most
                try:
                    params: dict[str, int] = {} if seen is None else {"version": seen}
                    for frame in self.lines(f"/matches/{match_id}/stream/", **params):
                        if frame.get("type") != "snapshot":
                            continue  # chat, takeback requests
                        seen = frame["version"]
                        if frame["status"] in ("finished", "aborted"):
                            return
                        if frame.get("legal_actions"):
                            action = random.choice(frame["legal_actions"])["action"]
                            # A refusal (the position moved on meanwhile) needs nothing: the
                            # stream's next line is the position to answer.
                            self.post(f"/matches/{match_id}/actions/", {"action": action, "version": seen})
                    return  # the stream ended with the match
                except requests.RequestException as exc:
                    print(f"match {match_id}: {exc}; reading it again", flush=True)
        finally:
            with self.lock:
                self.playing.discard(match_id)

    def start(self, match_id: int) -> None:
        with self.lock:
            if match_id in self.playing:
                return
            self.playing.add(match_id)
        threading.Thread(target=self.play, args=(match_id,), daemon=True).start()

    def run(self, matches: int | None) -> None:
        ended = 0
        for event in self.lines("/stream/events/"):
            kind = event["type"]
            if kind == "challenge":
                challenge = event["challenge"]
                print(f"accepting {challenge['challenger']}'s challenge to {challenge['game_name']}", flush=True)
                self.post(f"/challenges/{challenge['id']}/accept/")
            elif kind == "matchStart" and event["status"] == "active":
                print(f"playing match {event['match']} ({event['game']}) in seat {event['seat']}", flush=True)
                self.start(event["match"])
            elif kind in ("matchFinish", "matchLeft"):
                ended += 1
                print(f"match {event['match']} is over ({event['status']})", flush=True)
                if matches is not None and ended >= matches:
                    return


def main() -> int:
    parser = argparse.ArgumentParser(description="A bot that plays random legal moves on the portal.")
    parser.add_argument("--url", required=True, help="the site, e.g. https://portal.example")
    parser.add_argument("--matches", type=int, help="stop after this many matches have ended")
    args = parser.parse_args()
    token = os.environ.get("BOT_TOKEN")
    if not token:
        print("Set BOT_TOKEN to your bot account's token.", file=sys.stderr)
        return 2
    Bot(args.url, token).run(args.matches)
    return 0


if __name__ == "__main__":
    sys.exit(main())
