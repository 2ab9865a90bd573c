"""What a fresh-process ``mjenv botzone-bot`` loads to answer a turn: a bot started every turn
pays for every import each turn (scripts/bench_botzone_bot.py measures it), so a non-policy
agent must not load torch, nor the env's PettingZoo / Gymnasium, nor plotting, nor the arena."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

HEAVY = ("torch", "gymnasium", "pettingzoo", "matplotlib", "scipy", "pandas", "mjenv.arena",
         "mjenv.mahjong_env", "mjenv.single_agent", "mjenv_agents.policy")
DEAL = "1 0 0 0 0 W1 W2 W3 W4 W5 W6 W7 W8 W9 T1 T2 T3 T4"
RUN = """
import sys
from mjenv.cli import main
status = main(sys.argv[1:])
sys.stderr.write("MODULES " + " ".join(sorted(sys.modules)) + "\\n")
sys.exit(status)
"""


@pytest.mark.parametrize("agent", ["random", "greedy", "rule"])
def test_a_bot_turn_loads_only_what_the_agent_needs(agent: str) -> None:
    turn = json.dumps({"requests": ["0 1 0", DEAL, "2 B1"], "responses": ["PASS", "PASS"]})
    done = subprocess.run([sys.executable, "-c", RUN, "botzone-bot", "--agent", agent],
                          input=turn + "\n", capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["response"].startswith("PLAY ")
    line = next(x for x in done.stderr.splitlines() if x.startswith("MODULES "))
    loaded = set(line.split()[1:])
    assert {"numpy", "mjenv.botzone.bot"} <= loaded  # the probe sees the imports
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY or m in HEAVY
                   or any(m.startswith(h + ".") for h in HEAVY))
    assert heavy == [], heavy
