# mjenv developer commands. Everything runs in .venv at the repository root, created on first use.
#   make demo        set up, train the CPU demo policy and evaluate it (the README's first command)
#   make fan-demo    set up and score a sample hand
#   make test        set up, then ruff, mypy and the default pytest suite (what CI runs)
#   make lint        ruff and mypy only
#   make wheel-smoke build the wheel, install it in a fresh venv outside the repo, use it (CI)
#   make acceptance  every acceptance check at full size; writes its numbers to docs/
#   make eval-pretrained  evaluate the shipped policy (spec pretrained) as docs/training.md reports it
#   make bench       the fan calculator, shanten, engine and baselines benchmarks (print; do not write docs/)
#   make fuzz        fuzz every entry point that reads outside input for FUZZ_SECONDS (CI)
#   make test-integrations  install the RL libraries' extras, test the adapters and examples (CI)

PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
# The install is redone when pyproject.toml, setup.py or a module of mjenv or agents changes: the modules
# that setup.py compiles with mypyc sit beside their sources and would otherwise shadow an edit.
STAMP := $(VENV)/.installed
SOURCES := $(wildcard mjenv/*.py mjenv/*/*.py) agents/observation.py agents/rule_based.py

.PHONY: install demo fan-demo test lint wheel-smoke acceptance bench fuzz test-integrations clean \
	eval-pretrained

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# torch first, pinned: 2.13.0 is the local CPU wheel; an unpinned torch pulls a multi-GB CUDA build.
# mypyc (from mypy) compiles the calculator at install; the build uses the venv's own tools.
$(STAMP): pyproject.toml setup.py $(SOURCES) | $(BIN)/python
	$(BIN)/python -m pip install torch==2.13.0
	$(BIN)/python -m pip install 'setuptools>=68' wheel 'mypy==2.4.1'
	$(BIN)/python -m pip install --no-build-isolation -e '.[dev,train,distributed]'
	@$(BIN)/python -c "import mjenv.decompose as d; d.__file__.endswith('.py') and print('mjenv: WARNING: the mypyc build failed, pure Python installed (slower); see setup.py')"
	touch $(STAMP)

install: $(STAMP)

# behaviour cloning, PPO self-play and the arena evaluation (the built-in config demo, configs/demo.toml; resumable)
demo: $(STAMP)
	$(BIN)/mjenv train --config demo

# the shipped checkpoint (agents/pretrained/policy.pt) 1-vs-3 against rule, greedy and random on
# EVAL_DEALS duplicate deals, as its section of docs/training.md reports (resumable; runs/)
EVAL_DEALS ?= 1000
eval-pretrained: $(STAMP)
	$(BIN)/python scripts/eval_pretrained.py --deals $(EVAL_DEALS) --workers 2

fan-demo: $(STAMP)
	$(BIN)/mjenv fan "1112345678999m" --win 5m --self-drawn

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

test: lint
	$(BIN)/pytest -q

# the wheel as a user installs it: env, fan, arena and the smoke training from a fresh venv
# outside the repository (dependencies from the registry; about 2 minutes)
wheel-smoke: $(STAMP)
	bash scripts/wheel_smoke.sh

# the peers the benchmarks compare with (the bench extra), installed on demand
BENCH_STAMP := $(VENV)/.bench-installed
$(BENCH_STAMP): $(STAMP)
	$(BIN)/python -m pip install --no-build-isolation -e '.[dev,train,distributed,bench]'
	touch $(BENCH_STAMP)

acceptance: $(STAMP) $(BENCH_STAMP)
	$(BIN)/pytest -q -m acceptance
	$(BIN)/python scripts/bench_fans.py --pure --write-docs
	$(BIN)/python scripts/bench_shanten.py --pure --write-docs
	$(BIN)/python scripts/bench_engine.py --write-docs
	$(BIN)/python scripts/bench_agents.py --rounds 9 --write-docs
	$(BIN)/python scripts/bench_env.py --pure --write-docs
	$(BIN)/python scripts/bench_vector.py --runs 3 --write-docs
	$(BIN)/python scripts/bench_batch_size.py --write-docs

bench: $(STAMP) $(BENCH_STAMP)
	$(BIN)/python scripts/bench_fans.py
	$(BIN)/python scripts/bench_shanten.py
	$(BIN)/python scripts/bench_engine.py
	$(BIN)/python scripts/bench_agents.py

# the RL libraries' adapters and examples (mjenv.integrations, examples/): their extras, then
# their tests, which fail (not skip) when a library is missing
INTEGRATIONS_STAMP := $(VENV)/.integrations-installed
$(INTEGRATIONS_STAMP): $(STAMP)
	$(BIN)/python -m pip install --no-build-isolation -e '.[dev,train,distributed,integrations]'
	touch $(INTEGRATIONS_STAMP)

test-integrations: $(INTEGRATIONS_STAMP)
	MJENV_REQUIRE_INTEGRATIONS=1 $(BIN)/pytest -q tests/integrations

# mutated records, logs, bot input, configs, specs, checkpoints, arguments and env calls,
# run in-process for a bounded time: exit 0 or 2, one line on stderr, never a traceback
# (docs/security.md). The table is printed; the report and failing inputs go to runs/fuzz/.
FUZZ_SECONDS ?= 180
fuzz: $(STAMP)
	$(BIN)/python scripts/fuzz_entry_points.py --seconds $(FUZZ_SECONDS)

clean:
	rm -rf build *.egg-info .mypy_cache .ruff_cache .pytest_cache $(STAMP) $(BENCH_STAMP) \
		$(INTEGRATIONS_STAMP)
	find . -name '*.so' -not -path './$(VENV)/*' -delete
	find . -name __pycache__ -not -path './$(VENV)/*' -prune -exec rm -rf {} +
