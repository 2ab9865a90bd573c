"""The engine, the seat views, the events, the default encoder and the batch's games play the same
games from their plain Python sources as installed.

Installs compile these modules with mypyc when they can (setup.py); a machine without a
compiler, or ``MJENV_PURE_PYTHON=1``, runs the same files as plain Python. This test copies the
package's ``.py`` files (no compiled file) to a temporary folder and plays random hands through
``raw_env`` there and in the installed package, each in a fresh interpreter, and compares
everything the hands showed: every seat's observation and mask at every step, the rewards, the
events and the records; and batches of games (``mjenv.vector``, with each encoder, an illegal
action now and then) give the same arrays and infos. (Where the install is itself plain
Python, both sides are.)
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.fresh_python import run_json

ROOT = Path(__file__).resolve().parents[2]
COMPILED = ("mjenv.engine.events", "mjenv.engine.game", "mjenv.engine.legal",
            "mjenv.engine.seat_view", "mjenv.engine.wall", "mjenv.encoders.default",
            "mjenv.vector.slot", "mjenv.vector.shard")

SCRIPT = r"""
import hashlib, importlib, json, random, sys
import numpy as np
import mjenv
from mjenv.engine.record import record_of, to_json

compiled = [m for m in sys.argv[2:] if not importlib.import_module(m).__file__.endswith(".py")]
out = {"compiled": compiled}
for rules, false_win in (("mcr", "mask"), ("botzone", "mask"), ("mcr", "penalize")):
    digest = hashlib.sha256()
    env = mjenv.raw_env(rules=rules, false_win=false_win)
    pick = random.Random(int(sys.argv[1])).randrange
    for hand in range(12):
        env.reset(seed=hand)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            for a in env.possible_agents:
                o = env.observe(a)
                digest.update(o["observation"].tobytes() + o["action_mask"].tobytes())
            digest.update(repr((agent, reward, term, trunc, sorted(info.items()))).encode())
            if term or trunc:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[pick(len(legal))]))
        digest.update(repr(env.game.events).encode() + to_json(record_of(env.game)).encode())
    out[f"{rules}-{false_win}"] = digest.hexdigest()
from mjenv.vector import VectorMahjongEnv
for encoder in ("mjenv-v1", "mjenv-v1+shanten"):
    digest = hashlib.sha256()
    batch_env = VectorMahjongEnv(6, encoder=encoder, illegal="penalize")
    batch = batch_env.reset(seed=3)
    rng = np.random.default_rng(3)
    for step in range(150):
        actions = (rng.random(batch.action_mask.shape) * batch.action_mask).argmax(axis=1)
        if step % 50 == 49:
            actions[0] = 234 - actions[0]  # now and then an illegal one: the penalty
        batch = batch_env.step(actions)
        digest.update(batch.observation.tobytes() + batch.action_mask.tobytes()
                      + batch.reward.tobytes() + batch.terminated.tobytes()
                      + repr(sorted(batch.infos.items())).encode())
    out[f"vector-{encoder}"] = digest.hexdigest()
print(json.dumps(out))
"""


def _play(pythonpath: Path | None, cwd: Path) -> dict[str, object]:
    return run_json(SCRIPT, ["7", *COMPILED], pythonpath, cwd)


def test_pure_python_sources_play_the_same_games_as_the_install(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "mjenv", tmp_path / "mjenv",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    pure = _play(tmp_path, tmp_path)
    assert pure.pop("compiled") == []
    installed = _play(None, ROOT)
    installed.pop("compiled")  # whatever this install compiled
    assert pure == installed
