# Smriti — one entry point for running, testing and measuring.
#   make run    set up everything on a fresh machine and serve on $PORT (default 8000)
#   make test   every check and test suite (what CI runs)

SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
STAMP  := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run
LOCAL_MODEL_VENV := .venv-llama
LOCAL_MODEL_STAMP := $(LOCAL_MODEL_VENV)/.installed
WEB_STAMP := frontend/node_modules/.installed

.PHONY: help
help:
	@echo "make run          install, build the web app, start the embedded database and serve on PORT=$(PORT)"
	@echo "make test         lint, type checks and all test suites (backend, web app unit and browser tests)"
	@echo "make lint         ruff (lint and format check)"
	@echo "make typecheck    mypy --strict"
	@echo "make test-backend backend tests only (real PostgreSQL, fake provider servers, a real local model, faults, fuzzing)"
	@echo "make local-model  llama-cpp-python's server and SmolLM2-135M for the contract tests (built once, cached)"
	@echo "make test-web     web app checks and browser tests only"
	@echo "make types        regenerate the web app's API types from the OpenAPI document"
	@echo "make bench        side-by-side benchmarks (see docs/performance.md)"
	@echo "make bench-instructions  instructions per request on the hot paths (valgrind)"
	@echo "make bench-pg     PostgreSQL's CPU time per statement on the hot paths, next to the floor's"
	@echo "make bench-pg-instructions  PostgreSQL's instructions per hot-path statement (valgrind)"
	@echo "make bench-delete time to delete a Space, by its size and the number of other Spaces"
	@echo "make bench-wal    WAL and PostgreSQL CPU per commit, random against time-ordered ids"
	@echo "make bench-draft  precision and recall of the offline drafting and review rules (tuning and held-out sets)"
	@echo "make bench-review CPU time of the offline review on the largest Checkpoints, and its growth with their size"
	@echo "make reliability  fault injection under load, with a table of what was lost (nothing)"
	@echo "make db-upgrade   apply migrations"

# `make run` installs what running needs; `make test` (and the other targets) add the dev tools.
$(RUN_STAMP): backend/pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing Smriti's Python packages into $(VENV) (a minute or two the first time)…"
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --progress-bar on -e backend
	@touch $(RUN_STAMP)

$(STAMP): backend/pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e "backend[dev]"
	@touch $(STAMP) $(RUN_STAMP)

$(WEB_STAMP): frontend/package-lock.json
	@echo "Installing the web app's packages (npm ci)…"
	cd frontend && npm ci --no-audit --no-fund
	@touch $(WEB_STAMP)

.PHONY: install
install: $(STAMP)

# A real model behind a real OpenAI-compatible server, for the backend's contract tests only.
$(LOCAL_MODEL_STAMP): backend/scripts/install-local-model.sh
	PYTHON=$(PYTHON) bash backend/scripts/install-local-model.sh $(LOCAL_MODEL_VENV)

.PHONY: local-model
local-model: $(LOCAL_MODEL_STAMP)

.PHONY: web
web: $(WEB_STAMP)
	cd frontend && npm run build

.PHONY: run
run: $(RUN_STAMP) web
	@echo "Starting Smriti: the embedded PostgreSQL, its migrations, then the server (it says when it is ready)…"
	$(BIN)/smriti serve --host $${HOST:-127.0.0.1} --port $(PORT)

.PHONY: db-upgrade
db-upgrade: $(RUN_STAMP)
	$(BIN)/smriti db upgrade

.PHONY: types
types: install $(WEB_STAMP)
	cd frontend && npm run types

.PHONY: lint
lint: install
	cd backend && ../$(BIN)/ruff check src tests ../bench
	cd backend && ../$(BIN)/ruff format --check src tests ../bench
	$(BIN)/typos
	cd backend && ../$(BIN)/lint-imports

.PHONY: typecheck
typecheck: install
	cd backend && ../$(BIN)/mypy

.PHONY: test-backend
test-backend: install local-model
	cd backend && SMRITI_LOCAL_MODEL_VENV=../$(LOCAL_MODEL_VENV) ../$(BIN)/python -m pytest -q

# Lint and format, strict TypeScript, stale generated types, Vitest, build, bundle budget;
# then the browser tests against a live backend in Debian's Chromium.
.PHONY: test-web
test-web: install $(WEB_STAMP)
	cd frontend && npm run check
	cd frontend && npm run e2e

.PHONY: test
test: lint typecheck test-backend test-web

.PHONY: bench
bench: install
	@command -v wrk >/dev/null || (apt-get update -qq && apt-get install -y -qq wrk)
	$(BIN)/python -m pip install --quiet -e "backend[dev,bench]"
	$(BIN)/python bench/run.py

# Instructions per request on the hot paths (valgrind): steady enough to compare two versions.
.PHONY: bench-instructions
bench-instructions: install
	@command -v valgrind >/dev/null || (apt-get update -qq && apt-get install -y -qq valgrind)
	$(BIN)/python bench/instructions.py

# PostgreSQL's own CPU time per statement on the hot paths, next to the floor's (µs).
.PHONY: bench-pg
bench-pg: install
	$(BIN)/python bench/pg_cpu.py

# PostgreSQL's instructions per statement on the hot paths (valgrind): steady where its CPU time is not.
.PHONY: bench-pg-instructions
bench-pg-instructions: install
	@command -v valgrind >/dev/null || (apt-get update -qq && apt-get install -y -qq valgrind)
	$(BIN)/python bench/pg_instructions.py

# Deleting a Space by its size and by the number of other Spaces (seconds).
.PHONY: bench-delete
bench-delete: install
	$(BIN)/python bench/space_delete.py

# What a commit writes to the WAL after a checkpoint, with random or time-ordered ids.
.PHONY: bench-wal
bench-wal: install
	$(BIN)/python bench/commit_wal.py

.PHONY: bench-draft
bench-draft: install
	$(BIN)/python bench/draft_quality.py

.PHONY: bench-review
bench-review: install
	$(BIN)/python bench/review_cost.py

.PHONY: reliability
reliability: install
	$(BIN)/python bench/reliability.py
