# The two commands that matter: `make run` and `make test`.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

# Two locked sets (requirements/*.txt, every version pinned and hashed): base is what the site
# runs on, dev adds the tests, lint and benchmarks. Each has its stamp, so `make run` after
# `make test` (or the other way round) installs only what changed.
BASE_STAMP := $(VENV)/.installed-base
DEV_STAMP := $(VENV)/.installed-dev
PIP_VERSION := 26.3
PIP_INSTALL := $(PY) -m pip install --quiet --require-hashes

.PHONY: run test lint messages bench bench-bots bench-live-compare install install-dev lock migrate demo worker worker-analysis beat serve clean

$(VENV)/.created:
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet pip==$(PIP_VERSION)
	touch $@

$(BASE_STAMP): requirements/base.txt | $(VENV)/.created
	$(PIP_INSTALL) -r requirements/base.txt
	touch $@

# dev.txt holds base.txt's pins too, so installing it brings the base set up to date as well.
$(DEV_STAMP): requirements/dev.txt requirements/base.txt | $(VENV)/.created
	$(PIP_INSTALL) -r requirements/dev.txt
	touch $@ $(BASE_STAMP)

install: $(BASE_STAMP)

install-dev: $(DEV_STAMP)

# After a change to requirements/base.in or dev.in: compile both into the locked .txt files
# (the newest releases the .in pins allow, with hashes), then commit the four files.
# `make lock UPGRADE=--upgrade` also moves the unpinned transitive versions to their newest.
lock: install-dev
	$(VENV)/bin/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes --no-header \
		$(UPGRADE) requirements/base.in -o requirements/base.txt
	$(VENV)/bin/uv pip compile --quiet --universal --python-version 3.11 --generate-hashes --no-header \
		$(UPGRADE) requirements/dev.in -o requirements/dev.txt

migrate: install
	$(PY) manage.py migrate --noinput

demo: migrate
	$(PY) manage.py seed_demo

# Serve the site on the embedded defaults (or on PostgreSQL/Redis when their URLs are set),
# with the move clocks checked in the background.
# Links in e-mails (your turn, confirm your address) lead to this address unless SITE_URL says
# another.
run: export SITE_URL ?= http://$(HOST):$(PORT)
run: demo
	$(PY) manage.py run_clocks & trap 'kill $$! 2>/dev/null' EXIT INT TERM; \
	$(PY) manage.py runserver $(HOST):$(PORT)

# Several ASGI processes behind one address need REDIS_URL and DATABASE_URL; see the README.
serve: migrate
	$(PY) manage.py collectstatic --noinput -v0
	$(VENV)/bin/python -m portal.serve portal.asgi:application --host $(HOST) --port $(PORT) --workers $${WORKERS:-2} --no-proxy-headers

worker: install
	$(VENV)/bin/celery -A portal worker --loglevel=info --concurrency=$${CONCURRENCY:-2}

# The analyses of finished matches: their own queue, apart from the live bots' (README).
worker-analysis: install
	$(VENV)/bin/celery -A portal worker -Q analysis -n analysis@%h --loglevel=info --concurrency=$${CONCURRENCY:-1}

beat: install
	$(VENV)/bin/celery -A portal beat --loglevel=info

# Two processes by default, one per core (see tests/parallel.py); TEST_WORKERS=0 runs one.
TEST_WORKERS ?= 2
test: install-dev
	PORTAL_TESTING=1 $(PY) -m pytest -n $(TEST_WORKERS) $(PYTEST_ARGS)

# ruff, the formatting, mypy against mypy-baseline.txt and the import contracts (CONTRIBUTING.md).
lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) scripts/ruff_debt.py
	$(PY) scripts/mypy_ratchet.py
	$(VENV)/bin/lint-imports

# The catalogues of the three languages besides English (locale/<lang>/LC_MESSAGES): the
# messages of the templates and Python (django.po) and of the static scripts (djangojs.po)
# gathered anew, then compiled into the .mo files, which are committed so that `make run`
# needs no gettext (a test checks they match their .po). Needs Debian's gettext.
LANGS := de fr es
MESSAGES_IGNORE := --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench --ignore=test-artifacts --ignore=docs --ignore=deploy --ignore=scripts
messages: install
	$(PY) manage.py makemessages $(foreach l,$(LANGS),-l $(l)) -d django --no-obsolete --add-location=file $(MESSAGES_IGNORE)
	$(PY) manage.py makemessages $(foreach l,$(LANGS),-l $(l)) -d djangojs --no-obsolete --add-location=file $(MESSAGES_IGNORE)
	for po in locale/*/LC_MESSAGES/*.po; do msgfmt --check-format -o $${po%.po}.mo $$po || exit 1; done

# bench.live needs PostgreSQL and Redis on 127.0.0.1 (it owns the database portal_bench and
# Redis db 2) and takes about 12 minutes. bench.forum_search needs PostgreSQL too (its own
# database portal_bench_search, 100,000 posts; a few minutes). bench.admin_pages too (its own
# database portal_bench_admin, 10,000 matches; about a minute). bench.replay too (its own
# database portal_bench_replay, two long finished matches; under a minute). bench.bot_fairness needs both
# (the database portal_bench_bots, Redis db 4, a Celery worker of its own; about 6 minutes).
# bench.pages too (the database portal_bench_pages, Redis db 3; a few minutes; `--against main`
# adds main's portal). bench.streams too (the database portal_bench_streams, Redis db 3; 500 open
# NDJSON streams on one process while a match is played over sockets; about 2 minutes).
# bench.accept_spread needs neither (two servers of a tiny app; about a minute): how the web
# server's workers share connections opened together, uvicorn's own --workers against portal.serve.
# bench.bot_wait needs neither (the embedded default on a SQLite file of its own, and Chromium;
# at most 8 minutes): a person's wait for the bots in the browser.
# `make bench-live-compare REF=main` runs the move path of the portal at REF and of this
# working tree in the same run, interleaved (`python -m bench.live --against REF`; about 5
# minutes; CONFIGS=alone,n40 and PASSES=4 by default), refuses when their migrations differ, and
# writes bench/results/live-compare.json and its section of docs/BENCHMARKS.md.
# The bot tournament is long (MCTS Hard thinks up to 2 s a move): each run plays for
# BOT_MINUTES, appends every game to bench/results/bots.jsonl and goes on from there, stops
# each claim as soon as its SPRT decides, and rewrites docs/BOTS.md and games/bots/strength.json.
bench: install-dev
	$(PY) -m bench.engines
	$(PY) -m bench.rankings
	$(PY) -m bench.pairing
	$(PY) -m bench.forum_search
	$(PY) -m bench.admin_pages
	$(PY) -m bench.replay
	$(PY) -m bench.bot_fairness
	$(PY) -m bench.live
	$(PY) -m bench.pages
	$(PY) -m bench.accept_spread
	$(PY) -m bench.streams
	$(PY) -m bench.hard_think
	$(PY) -m bench.bot_wait
	$(PY) -m bench.analysis
	nice -n 10 $(PY) -m bench.bots --minutes $${BOT_MINUTES:-60} --results bench/results/bots.jsonl

REF ?= main
CONFIGS ?= alone,n40
PASSES ?= 4
bench-live-compare: install-dev
	$(PY) -m bench.live --against $(REF) --configs $(CONFIGS) --passes $(PASSES)

# The bot tournament alone (the last step of bench), e.g. `make bench-bots BOT_MINUTES=120`.
bench-bots: install-dev
	nice -n 10 $(PY) -m bench.bots --minutes $${BOT_MINUTES:-60} --results bench/results/bots.jsonl

clean:
	rm -rf $(VENV) staticfiles test-artifacts .mypy_cache .import_linter_cache .ruff_cache
