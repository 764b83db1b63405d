# `make run` serves the API on the embedded default; `make test` runs every check; `make check` is the
# developer's fast loop (lint, types, the engines and the service in process, under 5 minutes).
# Both set themselves up from nothing: a virtualenv in .venv with the pinned stack, and for the
# deployment checks a second one, .venv-tools (hadolint, Helm SDK, kubernetes-validate: ~350 MB),
# kept apart so that neither the app's virtualenv nor the image carries them.

PYTHON ?= $(shell for p in python3.11 python3.12 python3.13 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	&& echo $$p && break; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
TOOLS := .venv-tools
TOOLS_STAMP := $(TOOLS)/.installed-stamp
TS := tests/contract/ts
TS_STAMP := $(TS)/node_modules/.installed-stamp
IMAGE ?= skyline:dev
PORT ?= 8000
export PORT

.PHONY: run test check lint bench openapi tools deploy-check image clean

$(STAMP): pyproject.toml constraints.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev,embedded]'
	@touch $(STAMP)

$(TOOLS_STAMP): requirements-tools.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed"; exit 1; }
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/python -m pip install --quiet --upgrade pip
	$(TOOLS)/bin/python -m pip install --quiet -r requirements-tools.txt
	@touch $(TOOLS_STAMP)

tools: $(TOOLS_STAMP)

$(TS_STAMP): $(TS)/package.json $(TS)/package-lock.json
	cd $(TS) && npm ci --no-audit --no-fund
	@touch $(TS_STAMP)

run: $(STAMP)
	$(BIN)/skyline serve --port $(PORT)

# System packages (chromium, redis-server) and the TypeScript checker's npm packages: a fresh
# machine gets them here, not only in CI.
test: $(STAMP) $(TOOLS_STAMP) $(TS_STAMP)
	tools/system-packages.sh
	$(BIN)/ruff check .
	SKYLINE_REQUIRE_TOOLS=1 $(BIN)/python -m pytest -n 3 --dist loadgroup --no-loadscope-reorder --durations=40

# The fast loop: no browser, no cluster, no schemathesis, no server started in a process of its own
# (the tests marked `live`); `make test` runs those too.
check: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 --dist loadgroup --no-loadscope-reorder --durations=10 -m "not live and not slow" \
		tests/test_types.py tests/engines tests/service tests/players tests/worker

# Only the Dockerfile and Helm chart checks (hadolint, lint, render, kubernetes-validate --strict).
deploy-check: $(STAMP) $(TOOLS_STAMP)
	SKYLINE_REQUIRE_TOOLS=1 $(BIN)/python -m pytest -q tests/deploy

# Needs a Docker daemon (there is none on the development machines; the tests lint it instead).
image:
	docker build -t $(IMAGE) .

lint: $(STAMP)
	$(BIN)/ruff check .

openapi: $(STAMP)
	$(BIN)/skyline openapi > openapi.yaml

bench: $(STAMP)
	$(BIN)/python bench/engine_speed.py
	$(BIN)/python bench/http_load.py

clean:
	rm -rf $(VENV) $(TOOLS) var .pytest_cache .hypothesis .schemathesis
