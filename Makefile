# Quick start: `make run` (the table service, simulated camera) and `make test` (the whole suite,
# then its timing tests).
# Both create .venv if missing and install the project into it.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-run
TEST_STAMP := $(VENV)/.installed-test
# On a Raspberry Pi, apt's python3-picamera2 must be visible inside the venv.
IS_PI := $(shell grep -qs "Raspberry Pi" /proc/device-tree/model && echo 1)
VENV_FLAGS := $(if $(IS_PI),--system-site-packages,)

.PHONY: run test venv clean install-pi uninstall-pi

$(BIN)/python:
	$(PY) -m venv $(VENV_FLAGS) $(VENV)

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(STAMP)

$(TEST_STAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e ".[test]"
	touch $(TEST_STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(BIN)/arena-table run $(ARGS)

# Two steps: the suite, then the tests that assert wall-clock time (marked perf), alone so a busy
# machine's slowness shows as what it is.
test: $(TEST_STAMP)
	bash scripts/test-deps.sh
	$(BIN)/python -m pytest -m "not perf" $(PYTEST_ARGS)
	@echo "== timing tests (-m perf): wall-clock budgets and silences, run on their own =="
	$(BIN)/python -m pytest -m perf tests $(PYTEST_ARGS)

# On a Raspberry Pi: the service, its venv, user, data folder and config (scripts/install-pi.sh).
install-pi:
	DESTDIR="$(DESTDIR)" bash scripts/install-pi.sh

uninstall-pi:
	DESTDIR="$(DESTDIR)" bash scripts/uninstall-pi.sh

clean:
	rm -rf $(VENV) build *.egg-info
