# Lexical: `make serve` to run it, `make test` to check it, `make bench` to measure it.
# All of them set up what they need.
PYTHON ?= python3
PORT ?= 8000
VENV := .venv
BIN := $(VENV)/bin
DEPS := $(VENV)/.installed
NODE_DEPS := node_modules/.installed

SYNC_HOST ?= 127.0.0.1
SYNC_PORT ?= 8765
SYNC_DATA ?= sync-data

.PHONY: sync-server serve test test-unit test-e2e lint vendor build dist chromium nginx node-deps clean bench bench-smoke

serve: vendor build
	$(PYTHON) scripts/serve.py --port $(PORT)

# The sync server (decision 041) on a data folder, loopback unless SYNC_HOST says otherwise; put a
# TLS proxy in front of it to reach it from other devices (README "Sync between devices").
sync-server: $(DEPS)
	$(BIN)/python scripts/sync_server.py --host $(SYNC_HOST) --port $(SYNC_PORT) --data $(SYNC_DATA)

test: lint test-unit test-e2e bench-smoke

# Properties get 20 examples each here, 100 under `make test` (tests/conftest.py).
test: HYPOTHESIS_PROFILE = thorough
HYPOTHESIS_PROFILE ?= quick
test-unit: $(DEPS) $(NODE_DEPS)
	HYPOTHESIS_PROFILE=$(HYPOTHESIS_PROFILE) $(BIN)/pytest tests

# A renderer that crashed (about one test in a hundred on a shared machine, with nothing of the app's
# pointing at it: scripts/chromium.py) runs that test again (twice at most); any other failure fails at once.
test-e2e: $(DEPS) $(NODE_DEPS) vendor build dist chromium nginx
	$(BIN)/pytest e2e -p no:cacheprovider --reruns 2 --only-rerun 'crashed'

# Startup, search, folders, edits and bulk paste at 100,000 words, in Chromium (a few minutes);
# writes bench/results.json and the table in docs/benchmarks.md. `make bench RUNS=9` for more runs.
bench: $(DEPS) $(NODE_DEPS) vendor build chromium
	$(BIN)/python -m bench $(if $(RUNS),--runs $(RUNS))

# One quick run of every figure on a small workload (part of `make test`, so the bench cannot
# rot); it checks that every figure is produced, never how fast.
bench-smoke: $(DEPS) $(NODE_DEPS) vendor build chromium
	$(BIN)/python -m bench --smoke

lint: $(DEPS) $(NODE_DEPS)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache --no-logo
	$(BIN)/python -m scripts.check_patterns

$(DEPS): requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

# Test-only npm tools (aimock provider emulator, axe-core), pinned by package-lock.json.
node-deps: $(NODE_DEPS)

$(NODE_DEPS): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Runtime files (PyScript, Pyodide, wheels): fetched through npm and pip, verified by sha256.
# The sync bundle (Yjs and y-websocket) is made by esbuild from node_modules (decision 041).
vendor: $(NODE_DEPS)
	$(PYTHON) scripts/vendor.py

# The app's zip (with bytecode compiled by the vendored Pyodide, hence vendor), the manifest
# icons (resvg, from the venv) and the service worker's precache list (from the runtime files).
build: $(DEPS) vendor
	$(BIN)/python scripts/build.py

# dist/: the folder any static https host serves, at its root or under a sub-path, with
# pre-compressed copies of the large files (scripts/dist.py; README "Put Lexical on the web").
# The first run takes about a minute (brotli at its best); later runs redo only what changed.
dist: $(DEPS) build
	$(BIN)/python -m scripts.dist

# Playwright drives Debian's Chromium (its own browser download cannot work offline).
chromium:
	@command -v chromium >/dev/null 2>&1 && command -v espeak-ng >/dev/null 2>&1 \
		&& command -v sox >/dev/null 2>&1 || { \
		echo "Installing Chromium (and espeak-ng, sox for the fake microphone) with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			chromium fonts-noto-color-emoji espeak-ng sox >/dev/null; }

# e2e/test_publish.py serves dist/ with Debian's nginx and its brotli_static module, as this
# user from a folder of its own (on a machine with systemd, installing the package also starts
# Debian's nginx service on port 80; the tests never use it).
nginx:
	@test -x /usr/sbin/nginx && test -e /usr/lib/nginx/modules/ngx_http_brotli_static_module.so || { \
		echo "Installing nginx (and its brotli_static module) with apt-get"; \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			nginx libnginx-mod-http-brotli-static >/dev/null; }

clean:
	rm -rf static/vendor static/build dist .cache $(VENV) node_modules e2e/artifacts
