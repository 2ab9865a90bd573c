"""The baselines' cost per decision: ``random``, ``greedy`` and ``rule`` as installed (compiled by
mypyc where the build could) and from their plain Python sources, on the same decisions.

    python scripts/bench_agents.py [--hands 40] [--rounds 5] [--write-docs [PATH]]

The decisions are recorded once: every decision of every seat in ``--hands`` hands of four
``rule`` players (mcr, seeds 0..hands-1), observation and mask. Each build then times
``agent.act`` over all of them, agent after agent, ``--rounds`` times, in a fresh interpreter
of its own: the installed package, and a copy of the baselines' ``.py`` files (no compiled
file) put first on the import path (the env stays as installed; only the agents differ). The
figure is the median over rounds of the mean microseconds per decision. The agents' answers
are the same in both builds (tests/agents/test_pure_python_agents.py checks it).
``--write-docs`` rewrites the section between the bench_agents markers of docs/benchmarks.md
(or of PATH).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import benchkit
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "benchmarks.md"
BEGIN = "<!-- bench_agents.py: begin (written by scripts/bench_agents.py --write-docs) -->"
END = "<!-- bench_agents.py: end -->"
AGENTS = ("random", "greedy", "rule")


def record(hands: int, path: Path) -> int:
    """Every decision of ``hands`` hands of four ``rule`` players, saved to ``path`` (npz)."""
    import mjenv
    from mjenv_agents.rule_based import RuleBasedAgent

    env = mjenv.raw_env()
    observations, masks = [], []
    for hand in range(hands):
        env.reset(seed=hand)
        players = [RuleBasedAgent() for _ in range(4)]
        for seat, player in enumerate(players):
            player.reset(seat, seed=hand)
        for seat, obs in benchkit.live_turns(env):
            observations.append(obs["observation"])
            masks.append(obs["action_mask"])
            env.step(players[seat].act(obs["observation"], obs["action_mask"]))
    np.savez(path, observation=np.stack(observations), action_mask=np.stack(masks))
    return len(masks)


def time_agents(data: Path, rounds: int) -> dict[str, object]:
    """Median over rounds of the mean µs per decision of each agent; the files measured."""
    import importlib

    from mjenv.agent import make_agent

    arrays = np.load(data)
    decisions = list(zip(arrays["observation"], arrays["action_mask"], strict=True))
    samples: dict[str, list[float]] = {name: [] for name in AGENTS}
    for _ in range(rounds):
        for name in AGENTS:
            agent = make_agent(name)
            agent.reset(0, seed=0)
            start = time.perf_counter()
            for obs, mask in decisions:
                agent.act(obs, mask)
            samples[name].append((time.perf_counter() - start) / len(decisions) * 1e6)
    files = {m: str(importlib.import_module(f"mjenv_agents.{m}").__file__)
             for m in ("observation", "greedy", "rule_based")}
    return {"us": {n: statistics.median(s) for n, s in samples.items()}, "files": files}


def run_build(data: Path, rounds: int, pythonpath: str | None) -> dict[str, object]:
    """:func:`time_agents` in a fresh interpreter (``pythonpath`` first on its path)."""
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)
    if pythonpath is not None:
        env["PYTHONPATH"] = pythonpath
    code = (f"import sys, json; sys.path.insert(0, {str(ROOT / 'scripts')!r}); "
            f"import bench_agents; from pathlib import Path; "
            f"print(json.dumps(bench_agents.time_agents(Path({str(data)!r}), {rounds})))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True, cwd=pythonpath or ROOT)
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def section(hands: int, decisions: int, rounds: int, compiled: dict[str, float],
            pure: dict[str, float], built: str) -> str:
    m = benchkit.machine()
    lines = [BEGIN, "", "## The baselines' cost per decision", "",
             f"`python scripts/bench_agents.py --hands {hands} --rounds {rounds} --write-docs`: "
             f"{decisions:,} decisions recorded from {hands} hands of four `rule` players, each "
             "agent's `act` timed on all of them; median of the rounds' mean microseconds per "
             "decision. Compiled: the installed package (mypyc, setup.py's "
             "`COMPILED_AGENT_MODULES`); plain Python: the same sources with nothing compiled "
             "(the env compiled in both). `greedy` is not compiled: its row is a control.", "",
             f"Machine: {m['nproc']} cores, {m['cpu']}; Python {m['python']}; mjenv "
             f"{m['mjenv']} ({m['source']}); {time.strftime('%Y-%m-%d')}. Compiled build: "
             f"{built}.", "",
             "| agent | compiled µs / decision | plain Python µs / decision | speed-up |",
             "|---|---:|---:|---:|"]
    for name in AGENTS:
        lines.append(f"| `{name}` | {compiled[name]:,.0f} | {pure[name]:,.0f} | "
                     f"{pure[name] / compiled[name]:.2f}× |")
    return "\n".join([*lines, "", END, ""])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--hands", type=int, default=40, help="hands of rule play to record")
    p.add_argument("--rounds", type=int, default=5, help="timing rounds per build")
    p.add_argument("--write-docs", nargs="?", const=str(DOCS), default=None, metavar="PATH",
                   help="rewrite this script's section of PATH (default docs/benchmarks.md)")
    args = p.parse_args(argv)
    if args.hands < 1 or args.rounds < 1:
        p.error("--hands and --rounds must be positive")
    with tempfile.TemporaryDirectory(prefix="bench-agents-") as tmp:
        data = Path(tmp) / "decisions.npz"
        decisions = record(args.hands, data)
        pure_root = Path(tmp) / "pure"
        shutil.copytree(ROOT / "agents", pure_root / "mjenv_agents",
                        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"))
        compiled = run_build(data, args.rounds, None)
        pure = run_build(data, args.rounds, str(pure_root))
    files = compiled["files"]
    assert isinstance(files, dict)
    built = ", ".join(sorted(Path(f).name for f in files.values()))
    c_us, p_us = compiled["us"], pure["us"]
    assert isinstance(c_us, dict) and isinstance(p_us, dict)
    for name in AGENTS:
        print(f"{name:7s} compiled {c_us[name]:8.0f} µs   plain Python {p_us[name]:8.0f} µs   "
              f"{p_us[name] / c_us[name]:.2f}×")
    if args.write_docs:
        out = Path(args.write_docs)
        benchkit.write_marked_section(out, section(args.hands, decisions, args.rounds, c_us,
                                                   p_us, built), BEGIN, END)
        print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
