# `make run` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/turnpost simulate --players 3 --seed 1

test: $(STAMP)
	$(PY) -m pytest -n auto -p no:cacheprovider

bench: $(STAMP)
	$(PY) bench/engine.py

clean:
	rm -rf $(VENV) build *.egg-info
