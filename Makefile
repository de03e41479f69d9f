# Two commands for a fresh machine: `make run` (the app) and `make test` (the tests).
# Each creates .venv and installs requirements.txt first (models included; no hub needed).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: setup run test test-fast

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(PY) -m streamlit run app.py

test: $(STAMP)
	HF_HUB_OFFLINE=1 $(PY) -m pytest

test-fast: $(STAMP)
	HF_HUB_OFFLINE=1 $(PY) -m pytest -m "not slow" -x -q
