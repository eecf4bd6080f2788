# Quick start: `make run` and `make test`. Both create .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint serve bench long-runs clean

$(STAMP): pyproject.toml
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[hardware,kiosk,dev]'
	touch $(STAMP)

# `@`: the kiosk's own one line (where the window and the service are) is all a start prints.
run: $(STAMP)
	@$(BIN)/companion run --sim

serve: $(STAMP)
	$(BIN)/companion serve --sim

# Two pytest workers (pytest-xdist), each test file whole on one of them (module fixtures stay shared):
# a kiosk test keeps about one core busy with its Kivy process and leaves the other mostly idle, so
# two files at a time fill both cores. `make test TEST_WORKERS=0` runs it all in one process.
TEST_WORKERS ?= 2

test: $(STAMP)
	$(BIN)/ruff check companion hardware kiosk table tests benchmarks
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --dist loadfile

# Issue 15's measures against their bare baselines; writes docs/performance.md (takes a few minutes).
bench: $(STAMP)
	$(BIN)/python -m benchmarks

# The long versions of make test's kiosk walks and whole games (every size, every difficulty; ~13 min).
long-runs: $(STAMP)
	$(BIN)/python -m benchmarks.long_runs

lint: $(STAMP)
	$(BIN)/ruff check companion hardware kiosk table tests benchmarks

clean:
	rm -rf $(VENV)
