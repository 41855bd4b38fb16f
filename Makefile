# Lanterloo. On a fresh clone: `make run` serves the site, `make test` runs what CI runs.
# Nothing here relies on anything installed by hand: the virtualenv, the Python packages and
# (as root) Debian's chromium and PostgreSQL server are installed by the targets below.

SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
# The test steps run in order and stop at the first failure, even under make -j.
.NOTPARALLEL:

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Re-install whenever pyproject.toml changes.
INSTALLED := $(VENV)/.installed

HOST ?= 127.0.0.1
PORT ?= 8000

# `make run` serves in production mode (DEBUG off, manifest static files through WhiteNoise)
# over plain HTTP on the loopback interface, so HTTPS redirects and secure-only cookies are
# off. Every value can be overridden from the environment.
RUN_ENV = DJANGO_DEBUG=$${DJANGO_DEBUG:-0} \
	DJANGO_SECRET_KEY="$${DJANGO_SECRET_KEY:-$$(cat .secret_key)}" \
	DJANGO_SECURE_SSL_REDIRECT=$${DJANGO_SECURE_SSL_REDIRECT:-0} \
	DJANGO_SECURE_COOKIES=$${DJANGO_SECURE_COOKIES:-0} \
	DJANGO_HSTS_SECONDS=$${DJANGO_HSTS_SECONDS:-0}

# A production deployment, for the deploy check: DEBUG off, a real key, the secure defaults.
PROD_ENV = DJANGO_DEBUG=0 \
	DJANGO_SECRET_KEY="$$($(BIN)/python -c 'import secrets; print(secrets.token_urlsafe(50))')" \
	DJANGO_ALLOWED_HOSTS=lanterloo.example

PG_INITDB = $(firstword $(wildcard /usr/lib/postgresql/*/bin/initdb))

# JavaScript the tests inject into pages (axe-core), pinned in package-lock.json; npm ci
# writes node_modules/.package-lock.json, so it runs again only when the lock file changes.
NODE_INSTALLED := node_modules/.package-lock.json

.PHONY: help venv run test lint typecheck migrations-check deploy-check pytest pytest-postgres \
	pytest-both \
	system-packages node-packages clean

help:
	@echo "make run    serve the site at http://$(HOST):$(PORT) (gunicorn + uvicorn + WhiteNoise, SQLite)"
	@echo "make test   install what the tests need, then run every check CI runs"

venv: $(INSTALLED)

$(INSTALLED): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@

# A local secret key for `make run`, made once and never committed.
.secret_key:
	umask 077 && $(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(50))' > $@

run: $(INSTALLED) .secret_key
	@echo "manage.py migrate"
	@$(RUN_ENV) $(BIN)/python manage.py migrate --noinput
	@echo "manage.py createcachetable"
	@$(RUN_ENV) $(BIN)/python manage.py createcachetable
	@# Load the site's content once a loadcontent command exists (lessons will add it).
	@if $(RUN_ENV) $(BIN)/python manage.py help --commands | grep -x loadcontent >/dev/null; then \
		echo "manage.py loadcontent"; \
		$(RUN_ENV) $(BIN)/python manage.py loadcontent; \
	else echo "No content to load yet (no loadcontent command)."; fi
	@echo "manage.py collectstatic"
	@$(RUN_ENV) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	@echo "Serving Lanterloo at http://$(HOST):$(PORT)/ (gunicorn, 2 ASGI workers; Ctrl-C stops it)"
	@# ASGI (uvicorn's worker), so that a table's live stream holds no worker; the live bus
	@# polls the database unless REDIS_URL is set (games/live/bus.py).
	@$(RUN_ENV) exec $(BIN)/gunicorn loo_site.asgi --worker-class uvicorn_worker.UvicornWorker \
		--bind $(HOST):$(PORT) --workers 2 --access-logfile -

# Each phase's wall time is printed at the end (scripts/phases.sh), the two test lanes' too.
test:
	@scripts/phases.sh venv system-packages node-packages lint typecheck migrations-check \
		deploy-check pytest-both

# Debian packages the tests need; installed only when missing, and only as root.
system-packages:
	@missing=""; \
	test -x /usr/bin/chromium || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	test -x /usr/bin/redis-server || missing="$$missing redis-server"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" != 0 ]; then \
		echo "Not root, so not installing:$$missing (browser, PostgreSQL or deploy tests will fail)"; \
		exit 0; \
	fi; \
	echo "Installing:$$missing"; \
	export DEBIAN_FRONTEND=noninteractive; \
	apt-get -o DPkg::Lock::Timeout=600 update -qq; \
	apt-get -o DPkg::Lock::Timeout=600 install -y -qq $$missing >/dev/null

node-packages: $(NODE_INSTALLED)

$(NODE_INSTALLED): package.json package-lock.json
	npm ci --no-audit --no-fund

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports

typecheck: $(INSTALLED)
	@if compgen -G 'games/loo/*.py' >/dev/null; then \
		echo "mypy --strict games/loo"; $(BIN)/mypy --strict games/loo; \
	else echo "games/loo has no Python files yet: nothing to type-check."; fi
	@# The Django layer, with django-stubs (mypy-django.ini; its settings need DEBUG or a key).
	DJANGO_DEBUG=1 $(BIN)/mypy --config-file mypy-django.ini

# A development check: DEBUG on, so no secret key is needed (the settings default to off).
migrations-check: $(INSTALLED)
	DJANGO_DEBUG=1 $(BIN)/python manage.py makemigrations --check --dry-run

deploy-check: $(INSTALLED)
	$(PROD_ENV) $(BIN)/python manage.py collectstatic --noinput --verbosity 0
	$(PROD_ENV) $(BIN)/python manage.py check --deploy --fail-level WARNING

# The tests run in two lanes at once, one a core (pytest-both):
# - the SQLite lane: the pure engine (tests/engine), the second model of the rules that checks
#   it (tests/reference, but for its two sweeps of whole hands), the benchmarks' smoke tests (tests/bench: the scripts serve from
#   SQLite files of their own whatever the database), the sweeps marked db_agnostic
#   (they use the database, but check what the engine and the templates show),
#   and every other test that uses the database;
# - the PostgreSQL lane, on a throwaway cluster: those other database tests again, the
#   browser tests (tests/browser: a person's clicks; the database under the live server does
#   not change what they check), the second model's sweeps of whole hands and the deploy tests (tests/deploy: two gunicorn servers that
#   share the PostgreSQL database and a Redis server).
# pytest turns DEBUG on itself (pytest-env, in pyproject.toml).
# The second model's two sweeps through whole hands run in the PostgreSQL lane, whose browser
# tests leave a core half idle while pages load; the rest of tests/reference with the engine.
REFERENCE_IN_PG := tests/reference/test_differential_hands.py \
	tests/reference/test_settlement_questions.py
ONLY_SQLITE := tests/engine tests/bench \
	$(filter-out $(REFERENCE_IN_PG),$(wildcard tests/reference/test_*.py))
ONLY_POSTGRES := tests/browser tests/deploy $(REFERENCE_IN_PG)
# Each lane ends with its 25 slowest tests: where the next minute of CI is to be found.
SQLITE_PYTEST = $(BIN)/pytest --durations=25 $(addprefix --ignore=,$(ONLY_POSTGRES))
PG_PYTEST = $(BIN)/pytest --durations=25 $(addprefix --ignore=,$(ONLY_SQLITE)) -m "not db_agnostic"

pytest: $(INSTALLED) $(NODE_INSTALLED)
	$(SQLITE_PYTEST)

pytest-postgres: $(INSTALLED) $(NODE_INSTALLED)
	@if [ -z "$(PG_INITDB)" ]; then \
		echo "PostgreSQL server not installed: the PostgreSQL lane is SKIPPED;"; \
		echo "the browser tests run on SQLite instead (the deploy tests need PostgreSQL)."; \
		$(BIN)/pytest tests/browser $(REFERENCE_IN_PG); \
	else \
		echo "scripts/with_postgres.sh $(PG_PYTEST)"; \
		scripts/with_postgres.sh $(PG_PYTEST); \
	fi

# Both lanes at once, one a core: the PostgreSQL lane's output is kept in a file and shown
# after the SQLite lane's; the target fails if either failed. Each lane's wall time goes to
# $(PHASE_TIMES) when scripts/phases.sh runs it.
PG_LOG := .pytest-postgres.log
pytest-both: $(INSTALLED) $(NODE_INSTALLED)
	@times=$${PHASE_TIMES:-/dev/null}; \
	( start=$$(date +%s); postgres=0; \
	  $(MAKE) --no-print-directory pytest-postgres > $(PG_LOG) 2>&1 || postgres=$$?; \
	  printf '%-32s %5ss\n' "  pytest, PostgreSQL lane" $$(($$(date +%s) - start)) >> $$times; \
	  exit $$postgres ) & pg=$$!; \
	trap 'kill $$pg 2>/dev/null' INT TERM; \
	start=$$(date +%s); sqlite=0; $(MAKE) --no-print-directory pytest || sqlite=$$?; \
	printf '%-32s %5ss\n' "  pytest, SQLite lane" $$(($$(date +%s) - start)) >> $$times; \
	postgres=0; wait $$pg || postgres=$$?; \
	echo; echo "==== The PostgreSQL lane ===="; cat $(PG_LOG); \
	echo "SQLite lane: exit $$sqlite; PostgreSQL lane: exit $$postgres"; \
	test $$sqlite = 0 && test $$postgres = 0

clean:
	rm -rf $(VENV) node_modules staticfiles .pytest_cache .mypy_cache .ruff_cache
