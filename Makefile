# `make run` and `make test` do all set-up on a fresh machine.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
APT    := DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: run test lint bench cairo browser services clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

# Debian packages: cairo draws the board pictures; Chromium runs the browser tests.
cairo:
	@dpkg -s libcairo2 >/dev/null 2>&1 || { echo "installing Debian package libcairo2"; \
	  $(APT) update -qq && $(APT) install -y -qq libcairo2 >/dev/null; } \
	  || { echo "MISSING: Debian package libcairo2 could not be installed" >&2; exit 1; }

browser:
	@command -v chromium >/dev/null || { echo "installing Debian package chromium"; \
	  $(APT) update -qq && $(APT) install -y -qq chromium >/dev/null; } \
	  || { echo "MISSING: Debian package chromium could not be installed" >&2; exit 1; }

# The local PostgreSQL and Redis the tests talk to: start them if they are down.
services:
	@pg_isready -q -h 127.0.0.1 -p 5432 || pg_ctlcluster --skip-systemctl-redirect $$(ls /etc/postgresql) main start \
	  || { echo "MISSING: PostgreSQL on 127.0.0.1:5432 is not running and could not be started" >&2; exit 1; }
	@redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
	  || { echo "MISSING: Redis on 127.0.0.1:6379 is not running and could not be started" >&2; exit 1; }

run: $(STAMP) cairo
	TURNPOST_DEV=1 $(VENV)/bin/turnpost serve

# ruff checks the whole tree; mypy the folders pyproject.toml lists (the rules, tests, benchmarks).
LINTED := .

lint: $(STAMP)
	$(VENV)/bin/ruff check $(LINTED)
	$(VENV)/bin/mypy

test: $(STAMP) cairo browser services lint
	$(PY) -m pytest -n auto -p no:cacheprovider

bench: $(STAMP)
	$(PY) bench/engine.py

# The Postfix and OpenDKIM recipe of docs/email.md, run with a real Postfix on loopback (as root).
.PHONY: postfix-recipe
postfix-recipe: $(STAMP)
	@{ command -v postfix >/dev/null && command -v opendkim >/dev/null; } || { \
	  echo "installing Debian packages postfix opendkim"; \
	  echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections; \
	  $(APT) update -qq && $(APT) install -y -qq postfix opendkim >/dev/null; } \
	  || { echo "MISSING: Debian packages postfix and opendkim could not be installed" >&2; exit 1; }
	$(PY) docs/postfix/check_recipe.py

clean:
	rm -rf $(VENV) build *.egg-info
