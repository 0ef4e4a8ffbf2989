# graphmem — the two commands a newcomer needs: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# The local Neo4j keeps its jars' build, data and logs here (see graphmem/local/server.py).
export GRAPHMEM_HOME ?= $(CURDIR)/.graphmem

.PHONY: install demo test test-thorough typecheck unit server-start server-stop eval clean

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[dev]'
	@# bytecode for the editable package, so a CLI call does not compile graphmem's sources each
	@# time where Python may not write it (PYTHONDONTWRITEBYTECODE): ~0.2 s of every call here
	$(BIN)/python -m compileall -q graphmem
	touch $@

server-start: install
	$(BIN)/graphmem server start

server-stop: install
	$(BIN)/graphmem server stop

# The main job end to end: install, start Neo4j, load the address/port story, print answers.
DEMO_TENANT ?= demo
demo: install
	@if [ -z "$$NEO4J_URI" ]; then $(BIN)/graphmem server start; fi
	$(BIN)/graphmem demo --tenant $(DEMO_TENANT)

# Install, type-check, start Neo4j (unless NEO4J_URI points elsewhere), run every test, stop what we started.
test: install typecheck
	@started=0; \
	if [ -z "$$NEO4J_URI" ] && ! $(BIN)/graphmem server status --json | grep -q '"running": true'; then \
	  $(BIN)/graphmem server start || exit 1; started=1; \
	fi; \
	$(BIN)/pytest --durations=25 tests; rc=$$?; \
	if [ $$started = 1 ]; then $(BIN)/graphmem server stop; fi; \
	exit $$rc

# The same suite with the database-backed property tests at their full example counts
# (tests/examples_budget.py): before a release, or after a change to the rules, isolation or writes.
test-thorough:
	GRAPHMEM_THOROUGH=1 $(MAKE) test

# mypy in strict mode over the package ([tool.mypy] in pyproject.toml); make test runs it first.
typecheck: install
	$(BIN)/mypy

unit: install
	$(BIN)/pytest tests/unit

# The example scenario files shipped with graphmem (graphmem/examples; format: docs/format.md).
eval: install
	$(BIN)/graphmem eval --examples

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
