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

.PHONY: help venv run test test-full test-under-load test-durations lint typecheck migrations-check deploy-check pytest pytest-postgres \
	pytest-both \
	system-packages node-packages clean

help:
	@echo "make run    serve the site at http://$(HOST):$(PORT) (gunicorn + uvicorn + WhiteNoise, SQLite)"
	@echo "make test   install what the tests need, then run every check CI runs"
	@echo "make test-full  make test, with every database test on both databases and the"
	@echo "            sweeps at their thorough sizes (docs/testing.md)"

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
	@# polls the database unless REDIS_URL is set (games/live/bus.py). gunicorn.conf.py sets
	@# each worker's connection limit and time-outs (docs/deploying.md, "Workers").
	@$(RUN_ENV) exec $(BIN)/gunicorn --config gunicorn.conf.py loo_site.asgi \
		--worker-class uvicorn_worker.UvicornWorker \
		--bind $(HOST):$(PORT) --workers 2 --access-logfile -

# Each phase's wall time is printed at the end (scripts/phases.sh), the two test lanes' too.
test:
	@scripts/phases.sh venv system-packages node-packages lint typecheck migrations-check \
		deploy-check pytest-both

# The whole matrix, before resolving an issue that touches storage, concurrency or the sweeps:
# every database test on both databases, the sweeps and properties at their thorough sizes
# (LOO_TEST_PROFILE=thorough, tests/profile.py), the benchmarks' smoke tests at full size.
test-full:
	@LOO_TEST_PROFILE=thorough LANE_ARGS=--lane-full scripts/phases.sh venv system-packages \
		node-packages lint typecheck migrations-check deploy-check pytest-both

# make test three times in a row beside a CPU hog (one busy loop a core): what a busy CI does to
# the tests' timing; any failure stops it.
test-under-load:
	@for run in 1 2 3; do \
		echo "==== make test beside a CPU hog: run $$run of 3 ===="; \
		scripts/under_load.sh $(MAKE) --no-print-directory test; \
	done

# Measure again the seconds each test file takes in each lane (tests/durations.json), from
# which make test balances its two lanes; commit the file it writes.
test-durations: $(INSTALLED) $(NODE_INSTALLED)
	@$(MAKE) --no-print-directory pytest-both \
		PYTEST_ARGS="--lane-record=.durations-{lane}.json" || true
	$(BIN)/python scripts/durations.py .durations-*.json > tests/durations.json
	rm -f .durations-*.json

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

# The tests run in two lanes at once, one a core (pytest-both), and each test runs once: both
# lanes collect the whole suite and split it the same way (tests/lanes.py): the tests whose
# result can differ by database (marked both_databases, in a transaction of their own, or
# pinning a number of queries) run in both; tests/browser and tests/deploy on PostgreSQL; every
# other file whole in one lane, balanced by the seconds it last took (tests/durations.json,
# `make test-durations` measures them again). pytest turns DEBUG on itself (pytest-env, in
# pyproject.toml). Each lane ends with its 25 slowest tests: where the next minute of CI is.
# LANE_ARGS: --lane-full in make test-full (every database test in both lanes).
LANE_ARGS ?=
PYTEST_ARGS ?=
SQLITE_PYTEST = $(BIN)/pytest --durations=25 --lane=sqlite $(LANE_ARGS) $(PYTEST_ARGS)
PG_PYTEST = $(BIN)/pytest --durations=25 --lane=postgres $(LANE_ARGS) $(PYTEST_ARGS)

pytest: $(INSTALLED) $(NODE_INSTALLED)
	$(SQLITE_PYTEST)

pytest-postgres: $(INSTALLED) $(NODE_INSTALLED)
	@if [ -z "$(PG_INITDB)" ]; then \
		echo "PostgreSQL server not installed: the PostgreSQL lane runs on SQLite instead"; \
		echo "(its deploy tests need PostgreSQL and fail)."; \
		$(PG_PYTEST); \
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
