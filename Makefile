# `make run` serves the API on the embedded default; `make test` runs every check.
# Both set themselves up from nothing: a virtualenv in .venv with the pinned stack.

PYTHON ?= $(shell for p in python3.11 python3.12 python3.13 python3; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
	&& echo $$p && break; done)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
PORT ?= 8000
export PORT

.PHONY: run test lint bench openapi clean

$(STAMP): pyproject.toml constraints.txt
	@test -n "$(PYTHON)" || { echo "Python 3.11 or newer is needed"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/skyline serve --port $(PORT)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 --dist loadgroup

lint: $(STAMP)
	$(BIN)/ruff check .

openapi: $(STAMP)
	$(BIN)/skyline openapi > openapi.yaml

bench: $(STAMP)
	$(BIN)/python bench/engine_speed.py
	$(BIN)/python bench/http_load.py

clean:
	rm -rf $(VENV) var .pytest_cache .hypothesis .schemathesis
