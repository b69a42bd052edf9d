# MediVisit — the two commands a newcomer needs: `make run` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test check install lint format chromium migrate clean bench

# Some containers set PYTHONDONTWRITEBYTECODE: then every test process, live server and command the tests start
# compiles the project's sources again (about half a second of CPU each, dozens of times a run).
unexport PYTHONDONTWRITEBYTECODE

# The tests start a real OpenID Connect provider (panva/oidc-provider) with Node.
OIDC_PROVIDER := tests/oidc/node_modules/.package-lock.json
$(OIDC_PROVIDER): tests/oidc/package.json tests/oidc/package-lock.json
	cd tests/oidc && npm ci --no-audit --no-fund --loglevel=error

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
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
# processes (every test has its own database and servers, so they run side by side). `make test` then runs
# the timing gates (tests/gates: load and login under attack, alone on the machine) and the browser tests.
# Work stealing: each process starts on its own half of the list (a file's module-scoped servers start once)
# and takes tests from the other's end when it runs dry, so both finish together. The browser tests go a file
# per process: their servers are module fixtures, which xdist's default chunks (a file split between both
# processes) started twice or more; the longest files first (tests/e2e/conftest.py's LONGEST_FIRST, kept in
# that order by --no-loadscope-reorder), so that the short ones even out the end.
FAST_TESTS := tests/unit tests/ui tests/api
FAST_XDIST := -n 2 --dist worksteal
E2E_XDIST := -n 2 --dist loadfile --no-loadscope-reorder
check: install $(OIDC_PROVIDER)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest $(FAST_XDIST) $(FAST_TESTS)

# Everything, as CI runs it.
test: install chromium $(OIDC_PROVIDER)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(PY) -m pytest $(FAST_XDIST) $(FAST_TESTS)
	$(PY) -m pytest tests/gates
	$(PY) -m pytest $(E2E_XDIST) tests/e2e

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

clean:
	rm -rf $(VENV) var tests/artifacts .pytest_cache .ruff_cache tests/oidc/node_modules
