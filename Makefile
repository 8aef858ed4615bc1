# The two commands: `make run` (the app on SQLite with a demo session) and `make test`.
PYTHON := $(shell scripts/find-python)
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run lan test setup lint format demo system-deps test-postgres test-browsers bench soak clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q ".[dev]"
	touch $@

setup: $(VENV)/.installed

system-deps:
	scripts/system-deps

# scripts/host: one complete app host (the pages and the live pages' streams),
# here reloaded when the code changes.
run: setup
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py collectstatic --noinput -v0
	DEBUG=1 $(BIN)/python manage.py demo
	DEBUG=1 BIND_HOST=$(HOST) scripts/host $(PORT) --reload

# The same for the family's phones on this wifi: lets in this machine's private
# addresses, prints the address and its QR code, then serves scripts/host on
# every interface (docs/lan.md).
lan: setup
	DEBUG=1 $(BIN)/python manage.py migrate --noinput
	DEBUG=1 $(BIN)/python manage.py collectstatic --noinput -v0
	DEBUG=1 $(BIN)/python manage.py demo
	DEBUG=1 $(BIN)/python manage.py lan --port $(PORT)

# The whole suite on SQLite, in random order (pytest-randomly: its seed is in
# the header; SEED=N replays that order), then all but the browser tests (the
# same pages, four minutes more) in file order on a throwaway PostgreSQL
# cluster beside a throwaway Redis: there the two-host tests
# (tests/site/test_two_hosts.py: two scripts/host hosts on that PostgreSQL and Redis)
# run too. make test-postgres runs every test there.
SEED ?= default
test: system-deps lint
	DJANGO_ALLOW_ASYNC_UNSAFE=true $(BIN)/pytest -p randomly --randomly-seed=$(SEED) -m "not twohost"
	DJANGO_ALLOW_ASYNC_UNSAFE=true scripts/with-postgres scripts/with-redis $(BIN)/pytest -m "not browser"

# The browser tests alone, in random order, on another Chromium than Debian's:
# make test-browsers CHROMIUM=/path/to/chromium (an older one unpacked beside
# it, say; FONTCONFIG_FILE=... picks the fonts it shows). Without CHROMIUM, on
# the one apt installed. tests/browser/conftest.py reads the path.
CHROMIUM ?=
test-browsers: setup system-deps
	CHROMIUM=$(CHROMIUM) DJANGO_ALLOW_ASYNC_UNSAFE=true $(BIN)/pytest -p randomly --randomly-seed=$(SEED) -m browser

test-postgres: setup system-deps
	DJANGO_ALLOW_ASYNC_UNSAFE=true scripts/with-postgres scripts/with-redis $(BIN)/pytest

bench: setup system-deps
	$(BIN)/python benchmarks/run.py

soak: setup system-deps
	$(BIN)/python benchmarks/soak.py

# Lint: eslint and prettier (the JavaScript's rules and layout, both pinned in
# package.json; .prettierrc), ruff (code and format), djade
# (templates' format) and mypy (with django-stubs; settings in pyproject.toml).
# The service worker is a template: prettier reads it through
# scripts/template-js.mjs (eslint, through its config).
JS := static/js stats/static tests/js scripts/template-js.mjs eslint.config.mjs
TEMPLATE_JS := templates/scoring/offline/sw.js
TEMPLATES := $(shell find templates */templates -name '*.html' -not -path './.venv/*')
node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

lint: setup node_modules/.installed
	npx --no-install eslint $(JS) $(TEMPLATE_JS)
	npx --no-install prettier --check $(JS)
	node scripts/template-js.mjs --check $(TEMPLATE_JS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/djade --target-version 6.1 --check $(TEMPLATES)
	$(BIN)/mypy .

format: setup node_modules/.installed
	npx --no-install prettier --write $(JS)
	node scripts/template-js.mjs --write $(TEMPLATE_JS)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .
	$(BIN)/djade --target-version 6.1 $(TEMPLATES)

clean:
	rm -rf $(VENV) staticfiles node_modules
