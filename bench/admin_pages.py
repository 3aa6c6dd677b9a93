"""The admin's pages with 10,000 matches: each changelist and a change page, as staff see them.

Run from the project folder::

    python -m bench.admin_pages                      # writes its section of docs/BENCHMARKS.md
    python -m bench.admin_pages --matches 2000 --no-write

It needs PostgreSQL: DATABASE_URL, or the local server at postgres://postgres@127.0.0.1:5432
when unset. It builds its own throwaway database, ``portal_bench_admin`` (dropped at the end),
with 10,000 matches of two seats each among 500 people (a tenth open, a fifth being played,
the rest finished), 8 moves and 2 chat lines per match, 2,000 challenges, 100 tournaments of 8
entrants, 20,000 notifications and a moderation log of 500 entries. Then it signs in a
superuser with Django's test Client and times each page (the whole request: middleware, the
queries, the template), the median of ``--repeat`` requests after two warm-ups, and counts
the page's queries: a changelist's stays the same whatever the number of rows (no query per
row). The target is 200 ms a page.

It prints a table and replaces the text between ``<!-- admin-pages:start -->`` and
``<!-- admin-pages:end -->`` in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import statistics
import time
from pathlib import Path

from bench.databases import create_database, postgres_label, setup_django
from bench.report import machine, write_section

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "BENCHMARKS.md"
TARGET_MS = 200.0
PEOPLE = 500
BATCH = 5000


def populate(matches: int, seed: int = 2026) -> None:
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from challenges.models import Challenge
    from games.models import ChatMessage, Match, ModerationLog, Move, Seat
    from notifications.models import Notification
    from tournaments.models import Entrant, Tournament

    rng = random.Random(seed)
    User = get_user_model()
    people = User.objects.bulk_create(User(username=f"player{i:04d}", password="!") for i in range(PEOPLE))
    games = ["game-of-god", "territories", "dice-territory", "chit-territory"]
    now = timezone.now()
    made = 0
    while made < matches:
        batch = []
        for i in range(made, min(matches, made + BATCH)):
            share = i % 10
            status = Match.Status.OPEN if share == 0 else Match.Status.ACTIVE if share < 3 else Match.Status.FINISHED
            batch.append(
                Match(
                    game=rng.choice(games),
                    num_players=2,
                    status=status,
                    version=8,
                    creator=rng.choice(people),
                    started_at=None if status == Match.Status.OPEN else now,
                    finished_at=now if status == Match.Status.FINISHED else None,
                    end_reason="finished" if status == Match.Status.FINISHED else "",
                    to_move=0 if status == Match.Status.ACTIVE else None,
                )
            )
        with transaction.atomic():
            rows = Match.objects.bulk_create(batch)
            Seat.objects.bulk_create(
                Seat(match=m, index=s, user=rng.choice(people), place=s + 1 if m.finished_at else None)
                for m in rows
                for s in range(2)
            )
            Move.objects.bulk_create(
                Move(match=m, index=k, seat=k % 2, action=f"move:{k}") for m in rows for k in range(8)
            )
            ChatMessage.objects.bulk_create(
                ChatMessage(match=m, user=rng.choice(people), text=f"good game {k}") for m in rows for k in range(2)
            )
        made += len(batch)
    some = list(Match.objects.values_list("pk", flat=True)[:2000])
    Challenge.objects.bulk_create(
        Challenge(
            challenger=rng.choice(people),
            challenged=rng.choice(people),
            game="territories",
            num_players=2,
            speed=Match.Speed.LIVE,
            seconds_per_move=90,
            rated=True,
            expires_at=now,
            match_id=pk,
        )
        for pk in some
    )
    tournaments = Tournament.objects.bulk_create(
        Tournament(
            name=f"Cup {i}",
            game="territories",
            table_size=2,
            format=Tournament.Format.ROUND_ROBIN,
            seconds_per_move=90,
            creator=rng.choice(people),
            registration_opens_at=now,
            starts_at=now,
        )
        for i in range(100)
    )
    Entrant.objects.bulk_create(
        Entrant(tournament=t, user=people[(k * 37 + t.pk) % PEOPLE]) for t in tournaments for k in range(8)
    )
    Notification.objects.bulk_create(
        Notification(user=rng.choice(people), kind=Notification.Kind.YOUR_TURN, text=f"Your turn in match {i}")
        for i in range(20_000)
    )
    moderator = User.objects.create_superuser("moderator", "moderator@example.org", "!")
    ModerationLog.objects.bulk_create(
        ModerationLog(moderator=moderator, action=ModerationLog.Action.HIDE_CHAT, match_id=pk, detail="x: rude")
        for pk in some[:500]
    )


def pages() -> list[tuple[str, str]]:
    from django.urls import reverse

    from challenges.models import Challenge
    from games.models import ChatMessage, Match, Move
    from notifications.models import Notification
    from tournaments.models import Tournament

    def changelist(name: str, query: str = "") -> str:
        return reverse(f"admin:{name}_changelist") + query

    active = Match.objects.filter(status=Match.Status.ACTIVE).order_by("-pk").first()
    assert active is not None
    return [
        ("matches", changelist("games_match")),
        ("matches, filtered: being played", changelist("games_match", "?status__exact=active")),
        ("matches, searched by a player's name", changelist("games_match", "?q=player0042")),
        ("matches, searched by number", changelist("games_match", f"?q={active.pk}")),
        ("moves", changelist("games_move")),
        ("moves of one match", changelist("games_move", f"?match__id__exact={active.pk}")),
        ("chat", changelist("games_chatmessage")),
        ("chat, searched by words", changelist("games_chatmessage", "?q=good+game+1")),
        ("moderation log", changelist("games_moderationlog")),
        ("challenges", changelist("challenges_challenge")),
        ("tournaments", changelist("tournaments_tournament")),
        ("notifications", changelist("notifications_notification")),
        ("a match (change page)", reverse("admin:games_match_change", args=[active.pk])),
        ("a move (change page)", reverse("admin:games_move_change", args=[Move.objects.earliest("pk").pk])),
        (
            "a chat line (change page)",
            reverse("admin:games_chatmessage_change", args=[ChatMessage.objects.earliest("pk").pk]),
        ),
        (
            "a challenge (change page)",
            reverse("admin:challenges_challenge_change", args=[Challenge.objects.earliest("pk").pk]),
        ),
        (
            "a tournament (change page)",
            reverse("admin:tournaments_tournament_change", args=[Tournament.objects.earliest("pk").pk]),
        ),
        (
            "a notification (change page)",
            reverse("admin:notifications_notification_change", args=[Notification.objects.earliest("pk").pk]),
        ),
    ]


def measure(client, url: str, repeat: int) -> tuple[float, float, int]:
    """The page's median and worst time in ms, and its queries."""
    from django.db import connection

    for _ in range(2):
        response = client.get(url)
        if response.status_code != 200:
            raise RuntimeError(f"{url} answered {response.status_code}")
    queries = []

    def count(execute, sql, params, many, context):
        queries.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        client.get(url)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        client.get(url)
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), max(times), len(queries)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=15, help="requests per page (median)")
    parser.add_argument("--no-write", action="store_true", help="print only, leave the doc alone")
    args = parser.parse_args(argv)
    setup_django()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client

    from bench.rankings import analyze

    info = machine()
    load_start = os.getloadavg()[0]
    old_name, name = create_database("portal_bench_admin", "bench.admin_pages")
    database = postgres_label()
    print(f"{info['summary']}, {database}; database {name}")
    try:
        started = time.perf_counter()
        populate(args.matches)
        analyze()
        print(f"{args.matches:,} matches and the rest written in {time.perf_counter() - started:.0f} s")
        client = Client()
        client.force_login(get_user_model().objects.get(username="moderator"))
        rows = []
        for label, url in pages():
            p50, worst, queries = measure(client, url, args.repeat)
            rows.append((label, p50, worst, queries))
            print(f"{label:<42} p50 {p50:7.1f} ms  max {worst:7.1f} ms  {queries:3d} queries")
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)
    info["load"] = f"{load_start:.2f} and {os.getloadavg()[0]:.2f}"
    body = report(info, database, args.matches, args.repeat, rows)
    if not args.no_write:
        write_section(DOC, "admin-pages", "Admin pages with 10,000 matches", body)
        print(f"wrote {DOC}")
    return 0 if all(p50 <= TARGET_MS for _, p50, _, _ in rows) else 1


def report(info, database, matches, repeat, rows) -> str:
    over = [label for label, p50, _, _ in rows if p50 > TARGET_MS]
    lines = [
        f"Measured on {info['date']} by `python -m bench.admin_pages`: {info['summary']}, {database}; "
        f"load average {info['load']} at the start and end (the machine is shared).",
        "",
        f"{matches:,} matches (2 seats, 8 moves and 2 chat lines each) among {PEOPLE} people, 2,000 challenges, "
        "100 tournaments of 8, 20,000 notifications, 500 moderation log entries. Each page requested as a "
        f"superuser through Django's test Client, {repeat} times after two warm-ups: the median and the "
        "slowest, and the queries the page ran.",
        "",
        "| Page | p50 ms | max ms | Queries |",
        "|---|---:|---:|---:|",
    ]
    lines += [f"| {label} | {p50:.1f} | {worst:.1f} | {queries} |" for label, p50, worst, queries in rows]
    lines += [
        "",
        f"Target: every page's p50 under {TARGET_MS:.0f} ms: "
        + ("met." if not over else f"missed by {', '.join(over)}.")
        + f" Recorded {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())
