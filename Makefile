# proctor: `make run` runs the offline local tier; `make test` runs the tests.
VENV := .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=
# Python caches compiled modules (__pycache__, git-ignored) even where the environment
# turns that off: without it every process the tests start compiles proctor again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test bench bench-load lint verify docs bootstrap clean

bootstrap:
	@scripts/bootstrap

run: bootstrap
	$(BIN)/proctor run --tier local

# The slowest tests are listed at the end: where the suite's time goes, run by run.
test: bootstrap
	$(BIN)/python -m pytest -n 4 --dist worksteal --durations=30 $(PYTEST_ARGS)

verify: bootstrap
	$(BIN)/proctor verify --tier local

# The generated reference pages (docs/reference/); tests/test_reference_docs.py holds them.
docs: bootstrap
	$(BIN)/python -m proctor.cli._reference

bench: bootstrap
	$(BIN)/python -m bench

bench-load: bootstrap
	$(BIN)/python -m bench.load

lint: bootstrap
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
