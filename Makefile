# Two commands for a fresh machine: `make run` (the app) and `make test` (the tests).
# Each creates .venv and installs the locks first (models included; no hub needed):
# requirements.txt (the app, what Streamlit Community Cloud installs) and requirements-dev.txt
# (tests, linters, the lock tool), both compiled by `make lock` from the hand-edited *.in files.
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
# Where `make lock` finds the CPU build of torch (pip finds it there through its own config).
TORCH_WHEELS ?= /opt/wheels
LOCK := $(VENV)/bin/uv pip compile --quiet --upgrade --python-version 3.11 --find-links $(TORCH_WHEELS) \
	--no-emit-find-links --custom-compile-command "make lock"
# The lock names torch by its public version: 2.13.0 matches the local CPU build (2.13.0+cpu).
PUBLIC_TORCH := sed -i 's/^torch==\([0-9.]*\)+cpu$$/torch==\1/'

.PHONY: setup run lint test test-fast lock browser measure-app

# --no-cache-dir: a cached copy of every wheel (torch among them) would only add to the disk a fresh
# machine needs (a CI run ran out of space while installing).
$(STAMP): requirements.txt requirements-dev.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --no-cache-dir -r requirements.txt -r requirements-dev.txt
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(PY) -m streamlit run app.py

# Recompile both locks from requirements.in and requirements-dev.in (newest versions that fit),
# then install them; run `make test` after it and commit the locks with what the suite said.
lock: $(STAMP)
	$(LOCK) requirements.in -o requirements.txt && $(PUBLIC_TORCH) requirements.txt
	$(LOCK) requirements-dev.in -o requirements-dev.txt && $(PUBLIC_TORCH) requirements-dev.txt
	$(PY) -m pip install --quiet --no-cache-dir -r requirements.txt -r requirements-dev.txt
	touch $(STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

# The browser tests drive Debian's Chromium with Playwright (never a downloaded browser); the
# privacy test watches every network call with strace. Both from Debian's packages, when missing.
browser:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	command -v strace >/dev/null || missing="$$missing strace"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

test: $(STAMP) browser lint
	HF_HUB_OFFLINE=1 $(PY) -m pytest

test-fast: $(STAMP)
	HF_HUB_OFFLINE=1 $(PY) -m pytest -m "not slow" -x -q

# The app's peak memory with the local model, as a person uses it (minutes; by hand, not in CI).
measure-app: $(STAMP) browser
	HF_HUB_OFFLINE=1 $(PY) scripts/measure_app.py
