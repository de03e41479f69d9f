# Two commands for a fresh machine: `make run` (the app) and `make test` (the tests).
# Each creates .venv and installs requirements.txt first (models included; no hub needed).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup run test test-fast browser measure-app

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(PY) -m streamlit run app.py

# The browser test drives Debian's Chromium with Playwright; never a downloaded browser.
browser:
	@if [ ! -x /usr/bin/chromium ]; then \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium; \
	fi

test: $(STAMP) browser
	HF_HUB_OFFLINE=1 $(PY) -m pytest

test-fast: $(STAMP)
	HF_HUB_OFFLINE=1 $(PY) -m pytest -m "not slow" -x -q

# The app's peak memory with the local model, as a person uses it (minutes; by hand, not in CI).
measure-app: $(STAMP) browser
	HF_HUB_OFFLINE=1 $(PY) scripts/measure_app.py
