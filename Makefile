# proctor: `make run` runs the offline local tier; `make test` runs the tests.
VENV := .venv
BIN := $(VENV)/bin
PYTEST_ARGS ?=
# Python caches compiled modules (__pycache__, git-ignored) even where the environment
# turns that off: without it every process the tests start compiles proctor again.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test bench bench-load lint verify docs bootstrap clean model-engine model-server model-smoke

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

# A local model (docs/agents.md#a-local-model-offline). The engine, node-llama-cpp with its
# prebuilt CPU binaries (npm, about 85 MB, 17 s), is installed here and not by bootstrap:
# `make test` needs none of it.
model-engine:
	@scripts/local-model/install

# Serve a GGUF file of yours on loopback: make model-server MODEL=FILE.gguf [PORT=8080] [THREADS=N]
PORT = 8080
model-server: model-engine
	@test -n "$(MODEL)" || { echo "make model-server MODEL=FILE.gguf [PORT=8080] [THREADS=N]" >&2; exit 2; }
	exec node scripts/local-model/server.mjs --model "$(MODEL)" --port $(PORT) $(if $(THREADS),--threads $(THREADS))

# Only tests/agents/llm/test_local_model.py: one model scenario through the engine on a tiny
# random-weight model the test builds (and, with PROCTOR_LOCAL_MODEL_URL, through your server).
model-smoke: bootstrap model-engine
	@$(BIN)/python -c "import gguf" 2>/dev/null || $(BIN)/python -m pip install -q -e ".[local-model]"
	PROCTOR_MODEL_SMOKE=1 $(BIN)/python -m pytest tests/agents/llm/test_local_model.py -rs $(PYTEST_ARGS)

lint: bootstrap
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache scripts/local-model/node_modules
