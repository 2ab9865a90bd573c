"""The compiled baselines (``rule`` and the observation reader the baselines share) choose
exactly what their plain Python sources choose.

setup.py compiles these modules with mypyc (``COMPILED_AGENT_MODULES``); without a compiler, or
with ``MJENV_PURE_PYTHON=1``, the same files run as plain Python. This test copies the baselines'
``.py`` files (no compiled file) to a temporary folder as ``mjenv_agents`` and plays hands of
``rule``, ``greedy`` and two ``rule`` variants there and in the installed package, each in a
fresh interpreter, and compares every action taken and every decoded observation. (Where the
install is itself plain Python, both sides are.)
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.fresh_python import run_json
from tests.setup_lists import compiled_agent_modules

ROOT = Path(__file__).resolve().parents[2]
COMPILED = compiled_agent_modules()

SCRIPT = r"""
import hashlib, importlib, json, sys
import mjenv
from mjenv_agents.greedy import GreedyShantenAgent
from mjenv_agents.observation import read_observation
from mjenv_agents.rule_based import RuleBasedAgent

compiled = [m for m in sys.argv[1:] if not importlib.import_module(m).__file__.endswith(".py")]
out = {"compiled": compiled}
for rules in ("mcr", "botzone"):
    digest = hashlib.sha256()
    env = mjenv.raw_env(rules=rules)
    for hand in range(10):
        players = [RuleBasedAgent(), GreedyShantenAgent(), RuleBasedAgent(defence=2.0),
                   RuleBasedAgent(decay=0.25, claim_margin=1.5)]
        env.reset(seed=hand)
        for seat, player in enumerate(players):
            player.reset((seat + hand) % 4, seed=hand)
        for agent in env.agent_iter():
            obs, reward, term, trunc, info = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = env.agents.index(agent)
            facts = read_observation(obs["observation"], obs["action_mask"])
            action = players[(seat + hand) % 4].act(obs["observation"], obs["action_mask"])
            digest.update(repr((facts, action)).encode())
            env.step(action)
    out[rules] = digest.hexdigest()
print(json.dumps(out))
"""


def _play(pythonpath: Path | None) -> dict[str, object]:
    return run_json(SCRIPT, list(COMPILED), pythonpath, pythonpath or ROOT)


def test_pure_python_baselines_play_as_the_compiled_ones(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "agents", tmp_path / "mjenv_agents",
                    ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
    pure = _play(tmp_path)
    assert pure.pop("compiled") == []
    installed = _play(None)
    installed.pop("compiled")  # whatever this install compiled
    assert pure == installed


def test_the_compiled_baselines_can_be_subclassed_in_python() -> None:
    """Users tweak a baseline by overriding one method; mypyc allows that only for classes marked
    ``allow_interpreted_subclasses``, and then the compiled methods call the override."""
    import mjenv
    from mjenv.actions import DISCARD_BASE
    from mjenv_agents.greedy import GreedyShantenAgent
    from mjenv_agents.observation import Facts
    from mjenv_agents.rule_based import RuleBasedAgent

    class Fearful(RuleBasedAgent):
        """Sees danger everywhere but in the tile it likes least."""

        def __init__(self) -> None:
            super().__init__(defence=5.0)
            self.asked = 0

        def _threat(self, f: Facts) -> float:
            return 1.0

        def _danger(self, f: Facts, t: int) -> float:
            self.asked += 1
            return 0.0 if t == self.liked else 1e9

        liked = -1

    class Quiet(GreedyShantenAgent):
        pass

    env = mjenv.raw_env()
    env.reset(seed=4)
    obs, *_ = env.last()
    tiles = [t for t in range(34) if obs["action_mask"][DISCARD_BASE + t]]
    for liked in (tiles[0], tiles[-1]):
        agent = Fearful()
        agent.liked = liked
        agent.reset(0, seed=0)
        assert agent.act(obs["observation"], obs["action_mask"]) == DISCARD_BASE + liked
        assert agent.asked > 0
    quiet = Quiet()
    quiet.reset(0, seed=0)
    assert obs["action_mask"][quiet.act(obs["observation"], obs["action_mask"])]
