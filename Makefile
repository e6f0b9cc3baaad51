# `make run` and `make test` bootstrap everything on a fresh machine: they find a
# Python >= 3.12, create .venv, install, migrate SQLite, then serve or test.
SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python

# Candidates in order: python3.13, python3.12, python3, then pyenv-installed 3.13/3.12.
# Each is run, not just found, because pyenv shims exist for versions that are not active.
FIND_PYTHON := for c in python3.13 python3.12 python3 \
	$$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.13*/bin/python 2>/dev/null) \
	$$(ls -d $${PYENV_ROOT:-$$HOME/.pyenv}/versions/3.12*/bin/python 2>/dev/null); do \
	  if "$$c" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then echo "$$c"; break; fi; \
	done

.PHONY: run table serve test test-postgres bench loadtest clean

$(VENV)/.base: pyproject.toml
	@py="$$($(FIND_PYTHON))"; \
	if [ -z "$$py" ]; then echo "gmtools needs Python >= 3.12 (python3.13, python3.12 or pyenv 3.12/3.13); none found." >&2; exit 1; fi; \
	echo "Using $$py ($$("$$py" --version))"; \
	[ -x $(PY) ] || "$$py" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.test: $(VENV)/.base
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

# An ASGI server (uvicorn): each open player view is a stream, held by a coroutine, not a thread.
# The GM's own laptop, loopback only: DEBUG asked for.
run: $(VENV)/.base
	DEBUG=1 $(PY) manage.py migrate --noinput
	DEBUG=1 $(PY) manage.py load_demo
	DEBUG=1 $(PY) -m gmtools.serve

# The same on the local network, for the players' phones: DEBUG off, the QR code carries the LAN address.
# No account keeps a password printed in the README there: the demo's are generated, printed once
# here, and any account that still has one gets a new one (serve --lan refuses to start otherwise).
table: $(VENV)/.base
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_demo --lan
	$(PY) -m gmtools.serve --lan

# A club's server behind a reverse proxy (README, "Production"): DEBUG off, SECRET_KEY and
# DATABASE_URL (PostgreSQL) from the environment, WORKERS processes on HOST:PORT. PROXY: the
# proxy's address, whose X-Forwarded-For names each client (PROXY= trusts no forwarded header).
WORKERS ?= 4
HOST ?= 127.0.0.1
PORT ?= 8000
PROXY ?= 127.0.0.1
serve: $(VENV)/.base
	$(PY) -m pip install --quiet -e '.[server]'
	$(PY) manage.py migrate --noinput
	$(PY) -m gmtools.serve --workers $(WORKERS) --host $(HOST) --port $(PORT) --proxy '$(PROXY)'

# Then the fifth game's tests (tests/fifth_game), with its settings: the shipped ones and its app.
test: $(VENV)/.test
	$(PY) manage.py migrate --noinput >/dev/null
	$(PY) -m pytest
	$(PY) -m pytest tests/fifth_game --ds=tests.fifth_game.settings

# What depends on the database, again on PostgreSQL (CI runs both): the server at 127.0.0.1:5432,
# database `test` (pytest makes test_test beside it). Override with POSTGRES_URL=postgres://user@host:port/name.
# Without the fuzz (tests/web/test_fuzz.py: ~8 min on PostgreSQL) and the browser tests (the pages
# they drive are the same on either database; the models, services, concurrency, live push and
# access tests beneath them run here): `make test` runs both.
POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/test
test-postgres: $(VENV)/.test
	DATABASE_URL=$(POSTGRES_URL) $(PY) -m pytest -m 'not fuzz and not browser'
	DATABASE_URL=$(POSTGRES_URL) $(PY) -m pytest tests/fifth_game --ds=tests.fifth_game.settings -m 'not browser'

bench: $(VENV)/.test
	$(PY) -m bench

$(VENV)/.load: $(VENV)/.base
	$(PY) -m pip install --quiet -e '.[load]'
	touch $@

# The GM's rolls (locust) and 50 player streams against `gmtools.serve --workers 2` on a throwaway
# PostgreSQL database (README, "Load"): latencies, throughput, errors; about a minute and a half.
# PostgreSQL as for test-postgres: 127.0.0.1:5432 as postgres, or the server of DATABASE_URL.
loadtest: $(VENV)/.load
	$(PY) -m bench.load

clean:
	rm -rf $(VENV) db.sqlite3
