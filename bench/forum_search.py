"""Forum search at scale: 100,000 posts on PostgreSQL, searched through the real page.

Run from the project folder::

    python -m bench.forum_search                       # writes its section of docs/BENCHMARKS.md
    python -m bench.forum_search --posts 10000 --no-write

It needs PostgreSQL (full-text search and its GIN index exist only there): DATABASE_URL, or
the local server at postgres://postgres@127.0.0.1:5432 when unset. It builds its own
throwaway database, ``portal_bench_search``, with Django's test-database machinery (dropped
at the end), fills it with topics and long posts written from the words of the rules pages
(a few words in nearly every post, most in few), and measures the server time of
``/forum/search/?q=...`` through Django's test Client (the whole view: the throttle, the
count, one page of results, the template): the median of several requests after warm-ups,
for rare, common and nearly universal words, several words, a phrase, an excluded word,
no match, and a deep page. For comparison it times the query the search used before the
index (the vectors computed for every row) once on a rare word.

Then the same searches from ``--searchers`` (8) threads at once, each with its own client
and database connection from the pool: through the page as served (the per-process bound
``FORUM_SEARCHES_AT_ONCE`` and its wait included), p50 and p99 and how many were refused;
and the search's reads alone (the count and the first page), the way the search read them
before 2026-11-26 (the candidates' ids, then ranking them again for the page and counting
them in two more statements) against today's (one statement), in ABBA order, for the ratio.

It prints a table and replaces the text between ``<!-- forum-search:start -->`` and
``<!-- forum-search:end -->`` in docs/BENCHMARKS.md.
"""

from __future__ import annotations

import argparse
import datetime
import os
import random
import re
import statistics
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

from bench.databases import create_database, postgres_label, setup_django
from bench.rankings import analyze, median_ms
from bench.report import machine, write_section

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "BENCHMARKS.md"
TARGET_MS = 100.0
POSTS_PER_TOPIC = 40
BATCH = 2000
BEFORE_TIMEOUT_S = 60
SEARCHERS = 8


def vocabulary(seed: int) -> list[str]:
    """The words of the rules pages, in a shuffled order of frequency (Zipf: the first is
    in nearly every post, the last in few)."""
    words = set()
    for path in sorted((ROOT / "games" / "rules").glob("*.md")):
        words.update(w.lower() for w in re.findall(r"[A-Za-z]{4,}", path.read_text()))
    ordered = sorted(words)
    random.Random(seed).shuffle(ordered)
    return ordered


def populate(posts: int, words: list[str], seed: int = 2026) -> None:
    """``posts`` posts of 60 to 240 words in topics of POSTS_PER_TOPIC, spread over the forums."""
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.utils import timezone

    from forums.models import Forum, Post, Topic

    rng = random.Random(seed)
    weights = [1 / (rank + 1) for rank in range(len(words))]
    User = get_user_model()
    authors = User.objects.bulk_create(User(username=f"writer{i:04d}", password="!") for i in range(500))
    forums = list(Forum.objects.all())
    start = timezone.now() - datetime.timedelta(days=30)
    topics_needed = -(-posts // POSTS_PER_TOPIC)
    with transaction.atomic():
        topics = Topic.objects.bulk_create(
            Topic(
                forum=forums[i % len(forums)],
                title=" ".join(rng.choices(words, weights, k=rng.randint(3, 7))).capitalize(),
                author=rng.choice(authors),
                last_activity_at=start,
            )
            for i in range(topics_needed)
        )
    made = 0
    while made < posts:
        batch = []
        for i in range(made, min(posts, made + BATCH)):
            body = " ".join(rng.choices(words, weights, k=rng.randint(60, 240)))
            batch.append(
                Post(topic=topics[i // POSTS_PER_TOPIC], author=rng.choice(authors), body=body, body_html=body)
            )
        with transaction.atomic():
            Post.objects.bulk_create(batch)  # the database fills each search vector (a trigger)
        made += len(batch)


def document_frequencies(words: list[str]) -> dict[str, float]:
    """The share of posts holding each word (a sample of 2,000 posts)."""
    from forums.models import Post

    bodies = list(Post.objects.order_by("?").values_list("body", flat=True)[:2000])
    sets = [set(body.split()) for body in bodies]
    return {w: sum(w in s for s in sets) / len(sets) for w in words}


def stop_words(words: list[str]) -> set[str]:
    """The words PostgreSQL's English configuration leaves out of every search ("such", "would")."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT w FROM unnest(%s::text[]) AS w WHERE numnode(plainto_tsquery('english'::regconfig, w)) = 0",
            [words],
        )
        return {row[0] for row in cursor.fetchall()}


def pick_queries(words: list[str], share: dict[str, float]) -> list[tuple[str, str]]:
    """Searches with a known share of posts matching (of the words a search looks for)."""
    ignored = stop_words(words)
    words = [w for w in words if w not in ignored]

    def near(target: float) -> str:
        return min(words, key=lambda w: abs(share[w] - target))

    universal, common, rare = near(0.9), near(0.3), near(0.002)
    other = near(0.1)
    return [
        (f"a rare word ({share[rare]:.1%} of posts)", rare),
        (f"a common word ({share[common]:.0%} of posts)", common),
        (f"a word in nearly every post ({share[universal]:.0%})", universal),
        ("two words", f"{common} {other}"),
        ("a quoted phrase", f'"{common} {other}"'),
        ("a common word less an excluded one", f"{common} -{other}"),
        ("no match", "xylophone"),
    ]


def former_query_ms(word: str) -> float | None:
    """The search as it was before the index: the vector computed for every post, once;
    None when it takes longer than BEFORE_TIMEOUT_S."""
    from django.contrib.postgres.search import SearchQuery, SearchRank, SearchVector
    from django.db import OperationalError, connection, transaction

    from forums.models import Post
    from forums.selectors import VISIBLE_POST

    vector = SearchVector("topic__title", weight="A", config="english") + SearchVector(
        "body", weight="B", config="english"
    )
    search = SearchQuery(word, search_type="websearch", config="english")
    posts = (
        Post.objects.filter(VISIBLE_POST)
        .annotate(search=vector, rank=SearchRank(vector, search))
        .filter(search=search)
        .order_by("-rank", "-created_at", "-id")
    )
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"SET LOCAL statement_timeout = '{BEFORE_TIMEOUT_S}s'")
            started = time.perf_counter()
            posts.count()
            list(posts[:20])
            return (time.perf_counter() - started) * 1000
    except OperationalError:
        return None


def concurrently(work, items: list[str], searchers: int, each: int) -> tuple[list[float], Counter]:
    """``work(item)`` ``each`` times from each of ``searchers`` threads started together (thread n
    begins at item n and goes round): every call's time in ms, and how many gave each outcome."""
    from django.db import connection

    start = threading.Barrier(searchers)

    def searcher(n: int) -> tuple[list[float], Counter]:
        times: list[float] = []
        outcomes: Counter[object] = Counter()
        try:
            start.wait()
            for i in range(each):
                started = time.perf_counter()
                outcomes[work(items[(n + i) % len(items)])] += 1
                times.append((time.perf_counter() - started) * 1000)
        finally:
            connection.close()  # the thread's connection goes back to the pool
        return times, outcomes

    with ThreadPoolExecutor(searchers) as pool:
        results = list(pool.map(searcher, range(searchers)))
    return [t for times, _ in results for t in times], sum((o for _, o in results), Counter())


def p50_p99(times: list[float]) -> tuple[float, float]:
    return statistics.median(times), statistics.quantiles(times, n=100, method="inclusive")[98]


def page_search(url_query: str) -> int:
    """One search through the page, from this thread's own client: its status. The connection
    goes back to the pool after it, as at the end of a request served (the test client keeps it)."""
    from django.db import connection
    from django.test import Client

    local = page_search.__dict__.setdefault("local", threading.local())
    if not hasattr(local, "client"):
        local.client = Client()
    try:
        return local.client.get(f"/forum/search/?{urlencode({'q': url_query})}").status_code
    finally:
        connection.close()


def search_reads(query: str) -> str:
    """Today's search: the ranked ids in one statement, then the first page's posts."""
    from forums.selectors import POSTS_PER_PAGE, search_results

    results = search_results(query)
    results.count()
    list(results[:POSTS_PER_PAGE])
    return "done"


def former_search_reads(query: str) -> str:
    """The search as it read before 2026-11-26 (same results): the newest matches' ids (the
    newest SEARCH_RECENT posts tested in full, else every match from the index), then a count
    and the first page, each of which ranked or read the candidates again."""
    from datetime import timedelta

    from django.contrib.postgres.search import SearchQuery, SearchRank
    from django.db.models import DateTimeField, ExpressionWrapper, F

    from forums.models import Post
    from forums.selectors import POSTS_PER_PAGE, SEARCH_CANDIDATES, SEARCH_RECENT, VISIBLE_POST

    search = SearchQuery(query, search_type="websearch", config="english")
    matching = Post.objects.filter(VISIBLE_POST, search_vector=search)
    newest = ("-created_at", "-id")
    recent = Post.objects.order_by(*newest).values("id")[:SEARCH_RECENT]
    ids = list(matching.filter(id__in=recent).order_by(*newest).values_list("id", flat=True)[:SEARCH_CANDIDATES])
    if len(ids) < SEARCH_CANDIDATES:
        by_date = ExpressionWrapper(F("created_at") + timedelta(0), output_field=DateTimeField())
        ids = list(matching.order_by(by_date.desc(), F("id").desc()).values_list("id", flat=True)[:SEARCH_CANDIDATES])
    posts = (
        Post.objects.filter(VISIBLE_POST, id__in=ids)
        .select_related("topic", "topic__forum", "author")
        .annotate(rank=SearchRank(F("search_vector"), search))
        .order_by("-rank", "-created_at", "-id")
    )
    posts.count()
    list(posts[:POSTS_PER_PAGE])
    return "done"


def measure_concurrency(queries: list[str], searchers: int, each: int) -> dict:
    """The page under ``searchers`` at once, then the reads before and after (ABBA)."""
    from django.conf import settings

    times, outcomes = concurrently(page_search, queries, searchers, each)
    p50, p99 = p50_p99(times)
    page = {"p50": p50, "p99": p99, "outcomes": outcomes, "n": len(times), "bound": settings.FORUM_SEARCHES_AT_ONCE}
    print(f"page, {searchers} at once (bound {page['bound']}): p50 {p50:.0f} ms, p99 {p99:.0f} ms, {dict(outcomes)}")
    reads: dict[str, list[float]] = {"before": [], "after": []}
    for which in ("before", "after", "after", "before"):
        work = former_search_reads if which == "before" else search_reads
        reads[which] += concurrently(work, queries, searchers, each)[0]
    summary = {which: p50_p99(times) for which, times in reads.items()}
    for which, (p50, p99) in summary.items():
        print(f"reads {which}, {searchers} at once: p50 {p50:.0f} ms, p99 {p99:.0f} ms ({len(reads[which])} searches)")
    return {"page": page, "reads": summary, "reads_n": len(reads["after"])}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--posts", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=7, help="requests per search (median)")
    parser.add_argument("--searchers", type=int, default=SEARCHERS, help="searches at once (threads)")
    parser.add_argument("--each", type=int, default=25, help="searches per searcher in each concurrent run")
    parser.add_argument("--no-write", action="store_true", help="print only, leave the doc alone")
    args = parser.parse_args(argv)

    setup_django()
    from django.db import connection
    from django.test import Client

    from forums import ratelimits

    # Measured here: the search itself. The throttle's cache round trip still runs.
    ratelimits.SEARCH_RATE = "1000000/m"
    info = machine()
    load_start = os.getloadavg()[0]
    old_name, name = create_database("portal_bench_search", "bench.forum_search")
    database = postgres_label()
    print(f"{info['summary']}, {database}; database {name}")
    try:
        words = vocabulary(seed=7)
        started = time.perf_counter()
        populate(args.posts, words)
        seeded_s = time.perf_counter() - started
        analyze()
        print(f"{args.posts:,} posts ({len(words):,} distinct words) written and indexed in {seeded_s:.0f} s")

        client = Client()
        share = document_frequencies(words)
        queries = pick_queries(words, share)
        rows = []
        for label, query in queries:
            ms = median_ms(client, f"/forum/search/?{urlencode({'q': query})}", args.repeat)
            rows.append((label, query, ms))
            print(f"{label:<48} {query!r:<32} {ms:8.1f} ms")
        common = queries[1][1]
        deep = f"/forum/search/?{urlencode({'q': common, 'page': 50})}"
        rows.append(("page 50 of the common word", common, median_ms(client, deep, args.repeat)))
        print(f"{rows[-1][0]:<48} {common!r:<32} {rows[-1][2]:8.1f} ms")
        before = former_query_ms(queries[0][1])
        print(f"the former query (no index), rare word: {before if before is None else round(before)} ms")
        concurrency = measure_concurrency([query for _, query in queries], args.searchers, args.each)
    finally:
        connection.close()
        connection.creation.destroy_test_db(old_name, verbosity=0)

    info["load"] = f"{load_start:.2f} and {os.getloadavg()[0]:.2f}"
    body = report(info, database, args.posts, len(words), seeded_s, rows, before, concurrency, args.searchers)
    if not args.no_write:
        write_section(DOC, "forum-search", "Forum search", body)
        print(f"wrote {DOC}")
    return 0


def report(info, database, posts, words, seeded_s, rows, before, concurrency, searchers) -> str:
    lines = [
        f"Measured on {info['date']} by `python -m bench.forum_search`: {info['summary']}, {database}.",
        "",
        f"Data: {posts:,} posts of 60 to 240 words ({words:,} distinct words from the rules pages, Zipf-distributed) "
        f"in topics of {POSTS_PER_TOPIC}, written and indexed in {seeded_s:.0f} s (the search vectors are filled "
        "by the database's trigger). Times are server times of `/forum/search/?q=...` through Django's test Client "
        "(throttle, count, one page of 20 results, template; no network): the median of several requests after "
        f"two warm-ups. Target: under {TARGET_MS:.0f} ms.",
        "",
        "| Search | Query | Time | Target |",
        "|---|---|---:|---|",
    ]
    for label, query, ms in rows:
        verdict = "met" if ms <= TARGET_MS else f"missed ({TARGET_MS:.0f} ms)"
        lines.append(f"| {label} | `{query}` | {ms:.1f} ms | {verdict} |")
    former = f"over {BEFORE_TIMEOUT_S} s (stopped)" if before is None else f"{before:,.0f} ms"
    lines += ["", f"Before the index, the same page's query on the rare word took {former}."]
    missed = [label for label, _, ms in rows if ms > TARGET_MS]
    lines += ["", "Every target is met." if not missed else f"Missed: {', '.join(missed)}."]
    page, reads = concurrency["page"], concurrency["reads"]
    answered = ", ".join(f"{count} answered {status}" for status, count in sorted(page["outcomes"].items()))
    (before_p50, before_p99), (after_p50, after_p99) = reads["before"], reads["after"]
    lines += [
        "",
        f"**{searchers} searchers at once** (threads, each with its own client and pooled connection, the searches "
        "above in turn):",
        "",
        "| Run | Searches | p50 | p99 |",
        "|---|---:|---:|---:|",
        f"| the page, at most {page['bound']} running at once (`FORUM_SEARCHES_AT_ONCE`), the rest waiting | "
        f"{page['n']} | {page['p50']:.0f} ms | {page['p99']:.0f} ms |",
        f"| the search's reads (count, first page) as before 2026-11-26 | {concurrency['reads_n']} | "
        f"{before_p50:.0f} ms | {before_p99:.0f} ms |",
        f"| the search's reads today (one ranking statement) | {concurrency['reads_n']} | "
        f"{after_p50:.0f} ms | {after_p99:.0f} ms |",
        "",
        f"Pages: {answered}. Reads today against before: p50 {after_p50 / before_p50:.2f}, "
        f"p99 {after_p99 / before_p99:.2f} of the former times (the two interleaved, before-after-after-before).",
        "",
        f"Load average (1 minute) at the start and the end of the run: {info['load']}.",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
