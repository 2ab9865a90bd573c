#!/usr/bin/env bash
# The wheel as a user gets it: build it, install it into a fresh venv outside the repository
# (dependencies from the package registry, nothing from the checkout or .venv), and use it from
# a folder that holds no sources. The tests run against the editable install of the checkout,
# where a module, a config or an entry point missing from the wheel goes unnoticed; this does
# not. `make wheel-smoke` runs it (CI too, after `make test`).
#
#   scripts/wheel_smoke.sh            2-3 minutes on 2 cores (most of it installing torch)
#   KEEP=1 scripts/wheel_smoke.sh     keep the temporary folder (its path is printed)
#
# PYTHON builds the wheel (default .venv/bin/python: it has setuptools and mypy); BASE_PYTHON
# makes the fresh venv (default python3.11). The wheel is built pure Python (MJENV_PURE_PYTHON=1)
# from a copy of the files git knows (tracked and untracked-but-not-ignored), so a stale build/
# folder or an ignored file in the checkout cannot leak into it. Every file of mjenv/, agents/
# and configs/ in that copy must be in the wheel, under its installed name (agents/ ->
# mjenv_agents/, configs/ -> mjenv_agents/configs/), with the typed markers and every entry point.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-$ROOT/.venv/bin/python}"
BASE_PYTHON="${BASE_PYTHON:-python3.11}"
TORCH="torch==2.13.0"  # the CPU build; an unpinned torch pulls a multi-GB CUDA build
WORK="$(mktemp -d "${TMPDIR:-/tmp}/mjenv-wheel-smoke.XXXXXX")"
if [[ "${KEEP:-0}" == 1 ]]; then
    echo "wheel smoke: keeping $WORK"
else
    trap 'rm -rf "$WORK"' EXIT
fi
unset PYTHONPATH PYTHONHOME
SECONDS=0
step() { printf '\n== [%3ds] %s\n' "$SECONDS" "$*"; }

step "copy the sources and build the wheel"
"$PYTHON" - "$ROOT" "$WORK/src" <<'EOF'
import shutil
import subprocess
import sys
from pathlib import Path

root, dest = Path(sys.argv[1]), Path(sys.argv[2])
listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                        cwd=root, check=True, capture_output=True).stdout.decode().split("\0")
for name in filter(None, listed):
    source = root / name
    if source.is_file():  # a file deleted in the work tree but still in the index is skipped
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, dest / name)
EOF
MJENV_PURE_PYTHON=1 "$PYTHON" -m pip wheel --quiet --no-deps --no-build-isolation \
    -w "$WORK/dist" "$WORK/src"
WHEEL="$(ls "$WORK"/dist/mjenv-*.whl)"
echo "built $(basename "$WHEEL")"

step "check what the wheel holds"
"$PYTHON" - "$WHEEL" "$WORK/src" <<'EOF'
import configparser
import sys
import zipfile
from pathlib import Path

wheel, src = sys.argv[1], Path(sys.argv[2])
names = set(zipfile.ZipFile(wheel).namelist())
problems = []
# every file of the source folders, where the package mapping puts it (configs/ before
# agents/: it installs inside mjenv_agents); then the ones that matter most, by name
required = {f"mjenv_agents/configs/{p.relative_to(src / 'configs').as_posix()}"
            for p in (src / "configs").rglob("*") if p.is_file()}
required |= {f"mjenv_agents/{p.relative_to(src / 'agents').as_posix()}"
             for p in (src / "agents").rglob("*") if p.is_file()}
# (a C source builds into a .so, and a pure wheel ships neither)
required |= {p.relative_to(src).as_posix() for p in (src / "mjenv").rglob("*")
             if p.is_file() and p.suffix != ".c"}
required |= {"mjenv/py.typed", "mjenv_agents/py.typed", "mjenv/plugins.py",
             "mjenv_agents/train/pipeline.py", "mjenv_agents/configs/smoke.toml"}
problems += [f"missing from the wheel: {n}" for n in sorted(required - names)]
tops = sorted({n.split("/")[0] for n in names if not n.split("/")[0].endswith(".dist-info")})
if tops != ["mjenv", "mjenv_agents"]:
    problems.append(f"top-level names in the wheel: {tops} (want mjenv, mjenv_agents)")
problems += [f"compiled file in the pure wheel: {n}" for n in names if n.endswith(".so")]
info = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
points = configparser.ConfigParser(delimiters=("=",))
points.optionxform = str  # keep the names' case
points.read_string(zipfile.ZipFile(wheel).read(info).decode())
expected = {"console_scripts": {"mjenv"},
            "mjenv.agents": {"random", "greedy", "rule", "policy", "botzone"},
            "mjenv.train": {"main", "builtin_configs", "resolve_config"}}
for group, wanted in expected.items():
    have = set(points[group]) if points.has_section(group) else set()
    problems += [f"entry point missing from the wheel: {group}: {n}" for n in sorted(wanted - have)]
if problems:
    sys.exit("wheel smoke: FAILED\n  " + "\n  ".join(problems))
print(f"{len(names)} files; top-level {tops}; entry points "
      + "; ".join(f"{g}: {', '.join(sorted(points[g]))}" for g in expected))
EOF

step "a fresh venv outside the repository; the base install (no extras)"
"$BASE_PYTHON" -m venv "$WORK/venv"
VENV="$WORK/venv/bin"
"$VENV/python" -m pip install --quiet "$WHEEL"
mkdir "$WORK/run"
cd "$WORK/run"

step "import mjenv; the PettingZoo env; one full hand with raw_env"
"$VENV/python" - "$WORK/venv" <<'EOF'
import sys

import numpy as np

import mjenv

assert mjenv.__file__.startswith(sys.argv[1]), f"mjenv imported from {mjenv.__file__}"
env = mjenv.env()
env.reset(seed=0)
obs, *_ = env.last()
assert obs["observation"].shape == (86, 34) and obs["action_mask"].shape == (235,)

raw = mjenv.raw_env(rules="mcr")
raw.reset(seed=42)
rng = np.random.default_rng(0)
decisions = 0
for agent in raw.agent_iter():
    obs, reward, termination, truncation, info = raw.last()
    if termination or truncation:
        raw.step(None)
        continue
    mask = obs["action_mask"]
    raw.step(1 if mask[1] else int(rng.choice(np.flatnonzero(mask))))
    decisions += 1
print(f"mjenv {mjenv.__version__} from {mjenv.__file__}")
print(f"one hand: {decisions} decisions, score {info['score']}, "
      f"payments {raw.hand_result()['payments']}")
EOF

step "mjenv fan"
"$VENV/mjenv" --version
"$VENV/mjenv" fan "1112345678999m" --win 5m --self-drawn | tee fan.txt
grep -Eq "^total +92$" fan.txt

step "mjenv arena (base install: no matplotlib, so no plots)"
"$VENV/mjenv" arena --agents greedy random --deals 4 --out arena --no-progress 2>&1 | tee arena.txt
test -s arena/results.json
grep -q "pip install 'mjenv\[plots\]'" arena.txt

step "mjenv configs: the built-in configs, through the entry points (no torch)"
"$VENV/mjenv" configs | tee configs.txt
grep -q "^smoke " configs.txt
"$VENV/mjenv" configs --show smoke | grep -q "^\[ppo\]"

step "the train extra: $TORCH first, then the wheel with [train]"
"$VENV/python" -m pip install --quiet "$TORCH"
"$VENV/python" -m pip install --quiet "$WHEEL[train]"

step "mjenv train --config smoke (a built-in config, by name)"
"$VENV/mjenv" train --config smoke --out train --no-progress 2>&1 | tail -n 25
test -s train/summary.md
test -s train/ppo/final.pt
ls train/eval/random/*.png >/dev/null  # matplotlib came with [train]: the arena plots

step "a policy checkpoint plays in the arena"
"$VENV/mjenv" arena --agents policy:train/ppo/final.pt random --deals 2 --out arena-policy \
    --no-progress | tail -n 6
test -s arena-policy/results.json

step "the shipped policy: the spec pretrained (package data), its metadata, its Botzone zip"
"$VENV/mjenv" arena --agents pretrained random --deals 1 --out arena-pretrained --no-progress \
    | tail -n 4
test -s arena-pretrained/results.json
"$VENV/python" -c "from mjenv_agents import pretrained as p; print(p.describe(p.metadata()))"
"$VENV/mjenv" botzone-bot --agent pretrained --zip pretrained.zip
echo '{"requests": ["0 1 0"], "responses": []}' | "$VENV/python" pretrained.zip \
    | grep -q '"PASS"'

step "done"
echo "wheel smoke: OK in ${SECONDS}s ($(basename "$WHEEL"))"
