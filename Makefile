# MediVisit — the two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml requirements.lock | sha1sum | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test check install lint format chromium migrate clean bench test-n8n screenshots test-week

# Some containers set PYTHONDONTWRITEBYTECODE: then every test process, live server and command the tests start
# compiles the project's sources again (about half a second of CPU each, dozens of times a run).
unexport PYTHONDONTWRITEBYTECODE

# The tests start a real OpenID Connect provider (panva/oidc-provider) with Node.
OIDC_PROVIDER := tests/oidc/node_modules/.package-lock.json
$(OIDC_PROVIDER): tests/oidc/package.json tests/oidc/package-lock.json
	cd tests/oidc && npm ci --no-audit --no-fund --loglevel=error

# The whole dependency set is locked (requirements.lock: its first lines say how to refresh it). uv installs it
# (the same packages and versions as pip, in about a third of the time: 40 s instead of 1:50 on a fresh clone of
# this 2-core machine, most of `make test`'s set-up); uv itself is pinned here.
UV_VERSION := 0.13.9
$(STAMP): pyproject.toml requirements.lock
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)
	$(VENV)/bin/uv pip install --quiet --python $(PY) -c requirements.lock -e ".[dev]"
	rm -f $(VENV)/.installed-* && touch $(STAMP)

install: $(STAMP)

run: install
	$(PY) -m medivisit migrate
	$(PY) -m medivisit seed --demo --if-empty || $(PY) -m medivisit seed --if-empty
	$(PY) -m medivisit serve --host $(HOST) --port $(PORT)

migrate: install
	$(PY) -m medivisit migrate

# Playwright cannot download browsers here: the tests drive Debian's Chromium, in its headless shell (about
# half the CPU of the full browser's headless mode; tests/e2e/conftest.py falls back to the full browser).
chromium:
	@test -x /usr/bin/chromium -a -x /usr/bin/chromium-headless-shell || { \
		echo "Installing Debian's chromium and its headless shell for the browser tests"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium chromium-headless-shell fonts-liberation >/dev/null; }

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

format: install
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# The fast lane: lint, the import contracts, and the unit, headless-UI and API tests (no browser), on two
# processes (every test has its own database and servers, so they run side by side). `make test` runs the
# timing gates first (tests/gates: load and login under attack, alone on a quiet machine: the fast lane drops
# its PostgreSQL databases in the background after it ends), then the fast lane, then the browser tests.
# Work stealing: each process starts on its own half of the list (a file's module-scoped servers start once)
# and takes tests from the other's end when it runs dry, so both finish together. The browser tests go a file
# per process: their servers are module fixtures, which xdist's default chunks (a file split between both
# processes) started twice or more; the longest files first (tests/e2e/conftest.py's LONGEST_FIRST, kept in
# that order by --no-loadscope-reorder), so that the short ones even out the end. Four browser processes on
# two cores: a browser test mostly waits (each step travels from the test to Playwright's driver, Chromium and
# the server and back, one after the other), so two kept the cores about a quarter busy (about 200 s of CPU
# over 400 s of a 2-core run); the fast lane keeps them busy with two.
FAST_TESTS := tests/unit tests/ui tests/api
FAST_XDIST := -n 2 --dist worksteal
E2E_XDIST := -n 4 --dist loadfile --no-loadscope-reorder
check: install $(OIDC_PROVIDER)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy
	$(PY) -m pytest $(FAST_XDIST) $(FAST_TESTS)

# Everything, as CI runs it.
test: install chromium $(OIDC_PROVIDER)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest tests/gates
	$(PY) -m pytest $(FAST_XDIST) --durations=15 $(FAST_TESTS)
	$(PY) -m pytest $(E2E_XDIST) --durations=25 tests/e2e

# The browser tests with their screenshots (tests/artifacts/*.png, desktop and phone, light and dark) for
# people to look at; `make test` skips taking them.
screenshots: install chromium $(OIDC_PROVIDER)
	SCREENSHOTS=1 $(PY) -m pytest $(E2E_XDIST) tests/e2e

# Not part of `make test`: the fast lane and the browser tests once for each day of the week, the clock moved
# by libfaketime (Debian's faketime, installed if missing); DAYS="3 4" runs only those days from today, HOUR the hour in New York. See
# tools/test_every_weekday.sh.
test-week: install chromium $(OIDC_PROVIDER)
	@command -v faketime >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq faketime >/dev/null; }
	tools/test_every_weekday.sh

# Not part of `make test`. Provider search: 10,000 sample providers in a temporary SQLite database, p50/p95
# over a mix of queries (BENCH_ARGS="--providers 2000 --queries 100"; on PostgreSQL at 1M:
# BENCH_ARGS="--providers 1000000 --database-url postgresql://…/bench", then --reuse). Booking throughput on
# PostgreSQL (BOOKING_ARGS, see tools/bench_booking.py), when a server answers on 127.0.0.1:5432. Pages:
# first paint, clicks, websocket bytes and server memory per tab next to a hello-world ReactPy app (PAGES_ARGS,
# see tools/bench_pages.py).
BOOKING_DATABASE ?= postgresql://postgres@127.0.0.1:5432/postgres
bench: install chromium
	$(PY) tools/bench_pages.py $(PAGES_ARGS)
	$(PY) tools/bench_search.py $(BENCH_ARGS)
	@if $(PY) -c "import socket; socket.create_connection(('127.0.0.1', 5432), timeout=2).close()" 2>/dev/null; then \
		$(PY) tools/bench_booking.py --server $(BOOKING_DATABASE) $(BOOKING_ARGS); \
	else echo "bench: no PostgreSQL on 127.0.0.1:5432, booking throughput skipped"; fi

# Not part of `make test` (opt-in): installs n8n from npm into tests/n8n (1.8 GB, 1,918 packages, about 17 minutes
# on two cores the first time: it compiles isolated-vm; n8n 1.123.x, the last line that runs on Node 20), imports
# the appointment-reminder template as the site serves it, activates it, and checks that a real booking
# delivered by the outbox starts an execution in n8n (about 25 s once installed).
N8N := tests/n8n/node_modules/.package-lock.json
$(N8N): tests/n8n/package.json tests/n8n/package-lock.json
	cd tests/n8n && npm ci --no-audit --no-fund --loglevel=error

test-n8n: install $(N8N)
	$(PY) -m pytest -p no:cacheprovider tests/n8n -s

clean:
	rm -rf $(VENV) var tests/artifacts .pytest_cache .ruff_cache tests/oidc/node_modules tests/n8n/node_modules
