"""The CleanRL-style PPO example (examples/cleanrl_ppo.py): its smoke run trains, saves, and
plays the arena; its agent loads the checkpoint. torch only (the ``train`` extra)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

from tests.integrations.smoke import ROOT, run_example  # noqa: E402


def test_cleanrl_smoke(tmp_path: Path) -> None:
    stdout = run_example("cleanrl_ppo.py", tmp_path, timeout=300, cwd=tmp_path)
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["decisions"] >= 4096 and set(report["arena"]) == {"random", "greedy"}
    assert "learner vs three random" in stdout
    # the checkpoint as an agent spec, the way the arena loads it
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "import mjenv\nfrom mjenv.agent import make_agent\n"
            "agent = make_agent(f\"cleanrl_ppo:CleanRLAgent path='{sys.argv[2]}'\")\n"
            "env = mjenv.raw_env(); env.reset(seed=0)\n"
            "obs = env.observe(env.agent_selection)\n"
            "print(obs['action_mask'][agent.act(obs['observation'], obs['action_mask'])])\n")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "examples"),
                          str(tmp_path / "agent.pt")], capture_output=True, text=True,
                         check=True, cwd=tmp_path).stdout
    assert out.strip() == "1"
