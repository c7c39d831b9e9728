# partyhost — two commands on a fresh machine: `make run` and `make test`.
PY ?= $(shell command -v python3.11 || command -v python3)
VENV ?= .venv
BIN := $(VENV)/bin
ARGS ?=

.PHONY: run run-threading test test-fast e2e engines engine-browsers bench screenshots chromium install install-test clean

# Installs are quiet: pip's output goes to $(VENV)/pip.log and is shown only when pip fails.
# On a pipe that closes early (`make run | head`) pip's progress lines made it stop with
# "ERROR: Pipe to stdout was broken" and make gave up before the host started (issue 27).
# make's own lines go to stderr, so stdout carries the host's banner only.
PIP_LOG = >$(VENV)/pip.log 2>&1 || { cat $(VENV)/pip.log >&2; exit 1; }

$(BIN)/python:
	@echo "partyhost: creating $(VENV) with $(PY)" >&2
	@$(PY) -m venv $(VENV)
	@$(BIN)/python -m pip install --upgrade pip $(PIP_LOG)

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	@echo "partyhost: installing partyhost and its libraries into $(VENV) (log: $(VENV)/pip.log)" >&2
	@$(BIN)/python -m pip install -e . $(PIP_LOG)
	@touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	@echo "partyhost: installing partyhost and the test libraries into $(VENV) (log: $(VENV)/pip.log)" >&2
	@$(BIN)/python -m pip install -e '.[test]' $(PIP_LOG)
	@touch $(VENV)/.installed $@

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

## Start the host: prints the join URL and QR code, opens the TV page.
run: install
	@$(BIN)/partyhost $(ARGS)

run-threading: install
	@$(BIN)/partyhost --async-mode threading $(ARGS)

## Debian's Chromium for the browser tests (Playwright drives /usr/bin/chromium; never `playwright install`),
## with a Japanese font so the pages' kana render in screenshots.
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
chromium:
	@{ [ -x /usr/bin/chromium ] && fc-list 2>/dev/null | grep -qi "Noto Sans CJK"; } || { \
	  $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium fonts-noto-cjk; }

## The other engines' browsers for the `engines` lane, from Debian's packages (never a driver
## download): WebKitGTK's WebDriver under Xvfb (every iPhone browser is WebKit) and Firefox ESR,
## driven over WebDriver BiDi without geckodriver.
engine-browsers:
	@{ [ -x /usr/bin/WebKitWebDriver ] && [ -x /usr/bin/Xvfb ] && command -v xauth >/dev/null && [ -x /usr/bin/firefox-esr ] \
	   && dpkg -s gstreamer1.0-libav >/dev/null 2>&1; } || { \
	  $(SUDO) apt-get update && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
	    webkit2gtk-driver xvfb xauth firefox-esr gstreamer1.0-libav; }

## Every test, browser tests (Chromium, WebKit, Firefox) included.
test: install-test chromium engine-browsers
	$(BIN)/python -m pytest -q

## The WebKit and Firefox lanes only (one lane: make engines ARGS="-k webkit").
engines: install-test chromium engine-browsers
	$(BIN)/python -m pytest -q -m engines $(ARGS)

## Unit and transport tests only (no real server, no browser, no wheel lane).
test-fast: install-test
	$(BIN)/python -m pytest -q -m "not e2e and not server and not wheel"

e2e: install-test chromium
	$(BIN)/python -m pytest -q -m e2e

## Refresh the screenshots in docs/screenshots/ from a real seeded game.
screenshots: install-test chromium
	PARTYHOST_SHOTS=docs $(BIN)/python -m pytest -q tests/test_e2e_*.py

## Every benchmark in bench/: real server + simulated phones over loopback (latency, throughput,
## memory; bench_fanout.py: server CPU per action at N = 5/9/17/33 with permessage-deflate clients,
## as browsers connect, against a bare Flask-SocketIO floor; bench_startup.py: start to first accepted
## connection and idle RSS), word-list load time, lookups and memory; bench_fair_first.py: who wins a
## Word Basket race from a 5 ms and an 80±20 ms phone (issue 26; `--lab` in the network lab, as root).
bench: install-test
	@set -e; for b in bench/bench_*.py; do echo "== $$b"; $(BIN)/python $$b; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
