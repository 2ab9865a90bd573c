"""What one turn of ``mjenv botzone-bot`` costs in CPU time: fresh-process and keep-running.

    python scripts/bench_botzone_bot.py [--agent greedy] [--turns 20] [--runs 5] [--json]
    PYTHONPATH=/tmp/mjc python scripts/bench_botzone_bot.py     # another build (mypyc)

Why CPU time: on Botzone a bot's time limit covers its whole run, start-up included, and a
fresh-process bot starts every turn, so what a turn costs is what the interpreter, the imports,
the tables built at import and the turn itself cost. CPU time (user + system) is steadier than
wall time on a busy machine.

What it measures, on turns of a real game (the script plays one with our Judge and four
in-process bots of ``--agent``, seed ``--seed``):

fresh process
    ``--turns`` turns where a seat has just drawn (a real decision: the agent is asked), spread
    over the game; each is one run of ``python -m mjenv botzone-bot --agent AGENT`` given the
    JSON history and end of file, timed by ``resource.getrusage(RUSAGE_CHILDREN)`` around it
    (the child's whole life: start-up, imports, the turn, exit). Its answer is checked against
    the in-process bot's (a deterministic agent gives the same).
keep-running
    ``--runs`` games' openings with ``--keep-running``: the CPU time the process has used when
    its first answer arrives (the first turn: start-up, imports, building the agent), when its
    answer to the seat's first draw arrives (the first decision: whatever is built on first use),
    and the median of the later turns. Read from ``/proc/PID/task/*/schedstat`` (nanoseconds,
    every thread) while the process runs.

By default the children write and reuse bytecode in a temporary folder
(``PYTHONPYCACHEPREFIX``, after a warm-up run), as an installed package does;
``--bytecode inherit`` keeps the environment as it is (with ``PYTHONDONTWRITEBYTECODE=1`` and
no ``__pycache__`` in the tree, every run compiles mjenv's sources again). For reference it also
times ``python -c pass`` and ``python -c "import numpy"`` the same way.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mjenv.agent import make_agent
from mjenv.botzone import Judge
from mjenv.botzone.bot import KEEP_RUNNING, Bot
from mjenv.tiles import CODES


def play_game(agent: str, seed: int) -> tuple[list[list[str]], list[list[str]]]:
    """Every seat's requests and responses of one game of four in-process bots of ``agent``."""
    tiles = [CODES[t] for t in range(34) for _ in range(4)]
    random.Random(seed).shuffle(tiles)
    judge = Judge(" ".join(tiles), quan=seed % 4)
    bots = [Bot(make_agent(agent), seed=seed * 10 + s) for s in range(4)]
    requests: list[list[str]] = [[] for _ in range(4)]
    responses: list[list[str]] = [[] for _ in range(4)]
    while not judge.is_over:
        turn = judge.requests()
        answers = []
        for s in range(4):
            requests[s].append(turn[s])
            answers.append(bots[s].respond(turn[s]))
            responses[s].append(answers[-1])
        judge.respond(answers)
    return requests, responses


def child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def running_cpu(pid: int) -> float:
    """CPU seconds used so far by every thread of the running process ``pid``."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        total += int((task / "schedstat").read_text().split()[0])
    return total / 1e9


def run_once(argv: Sequence[str], text: str, env: dict[str, str]) -> tuple[float, float, str]:
    """(CPU seconds, wall seconds, stdout) of one child run fed ``text`` and end of file."""
    before, t0 = child_cpu(), time.perf_counter()
    done = subprocess.run(argv, input=text, capture_output=True, text=True, env=env,
                          timeout=120, check=False)
    wall, cpu = time.perf_counter() - t0, child_cpu() - before
    if done.returncode != 0:
        raise SystemExit(f"{shlex.join(argv)} failed ({done.returncode}): {done.stderr[-500:]}")
    return cpu, wall, done.stdout


def fresh_turns(requests: list[list[str]], responses: list[list[str]],
                count: int) -> list[tuple[str, str]]:
    """``count`` draw turns spread over the game: (JSON input, the in-process answer)."""
    draws = sorted((i, s) for s in range(4) for i, r in enumerate(requests[s])
                   if r.startswith("2 "))
    step = max(len(draws) / count, 1.0)
    picked = [draws[int(k * step)] for k in range(min(count, len(draws)))]
    return [(json.dumps({"requests": requests[s][:i + 1], "responses": responses[s][:i]}),
             responses[s][i]) for i, s in picked]


def keep_running(argv: Sequence[str], requests: list[str], env: dict[str, str]) -> dict[str, Any]:
    """CPU at the first answer, at the answer to the first draw, and per later turn."""
    proc = subprocess.Popen([*argv, "--keep-running"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    out: dict[str, Any] = {"later": []}
    try:
        first_draw = next(i for i, r in enumerate(requests) if r.startswith("2 "))
        for i, request in enumerate(requests):
            line = (json.dumps({"requests": [request], "responses": []}) if i == 0
                    else json.dumps({"requests": request}))
            before = running_cpu(proc.pid)
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            answer = proc.stdout.readline()
            marker = proc.stdout.readline().strip()
            if not answer or marker != KEEP_RUNNING:
                raise SystemExit(f"keep-running bot stopped at turn {i}: {answer!r} {marker!r}")
            now = running_cpu(proc.pid)
            if i == 0:
                out["first_turn"] = now
            elif i == first_draw:
                out["first_decision"] = now
            else:
                out["later"].append(now - before)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    return out


def median_ms(values: Sequence[float]) -> str:
    return f"{1000 * statistics.median(values):.0f} ms" if values else "-"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--agent", default="greedy", help="the agent spec of the bot")
    parser.add_argument("--turns", type=int, default=20, help="fresh-process turns timed")
    parser.add_argument("--runs", type=int, default=5, help="keep-running openings timed")
    parser.add_argument("--seed", type=int, default=7, help="the game's seed")
    parser.add_argument("--bytecode", choices=["cached", "inherit"], default="cached",
                        help="cached: children reuse bytecode in a temporary folder; inherit: "
                        "the environment as it is")
    parser.add_argument("--json", action="store_true", help="print the results as JSON too")
    args = parser.parse_args(argv)

    env = dict(os.environ)
    cache = tempfile.TemporaryDirectory(prefix="bench-botzone-pyc-")
    if args.bytecode == "cached":
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = cache.name
    command = [sys.executable, "-m", "mjenv", "botzone-bot", "--agent", args.agent]

    requests, responses = play_game(args.agent, args.seed)
    turns = fresh_turns(requests, responses, args.turns)
    run_once(command, turns[0][0] + "\n", env)  # warm-up: bytecode written, page cache filled

    results: dict[str, Any] = {"command": shlex.join(command[1:]), "bytecode": args.bytecode,
                               "python": sys.version.split()[0]}
    for name, code in (("python -c pass", "pass"), ("import numpy", "import numpy")):
        results[name] = [run_once([sys.executable, "-c", code], "", env)[0] for _ in range(5)]

    cpu, wall, same = [], [], 0
    for text, expected in turns:
        c, w, out = run_once(command, text + "\n", env)
        cpu.append(c)
        wall.append(w)
        same += json.loads(out)["response"] == expected
    results["fresh"] = {"cpu": cpu, "wall": wall, "same_answer": same}

    kept = [keep_running(command, requests[s % 4], env) for s in range(args.runs)]
    results["keep"] = {key: [k[key] for k in kept] for key in ("first_turn", "first_decision")}
    results["keep"]["later"] = [x for k in kept for x in k["later"]]
    cache.cleanup()

    print(f"{results['command']} (Python {results['python']}, bytecode {args.bytecode})")
    print(f"  python -c pass                 {median_ms(results['python -c pass'])} CPU")
    print(f"  python -c 'import numpy'       {median_ms(results['import numpy'])} CPU")
    print(f"  fresh process, {len(cpu)} draw turns   {median_ms(cpu)} CPU median "
          f"(min {min(cpu) * 1000:.0f}, max {max(cpu) * 1000:.0f}), {median_ms(wall)} wall; "
          f"{same}/{len(cpu)} answers as in-process")
    keep = results["keep"]
    print(f"  keep-running, {args.runs} games        first turn {median_ms(keep['first_turn'])} "
          f"CPU, first decision {median_ms(keep['first_decision'])} (cumulative), later turns "
          f"{1000 * statistics.median(keep['later']):.2f} ms each")
    if args.json:  # medians, in seconds
        print(json.dumps({
            "command": results["command"], "bytecode": args.bytecode,
            "python": results["python"],
            "python_start": statistics.median(results["python -c pass"]),
            "import_numpy": statistics.median(results["import numpy"]),
            "fresh_turn": statistics.median(cpu), "fresh_wall": statistics.median(wall),
            "fresh_same_answer": same, "keep_first_turn": statistics.median(keep["first_turn"]),
            "keep_first_decision": statistics.median(keep["first_decision"]),
            "keep_later_turn": statistics.median(keep["later"])}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
