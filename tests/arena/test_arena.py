"""The arena: the schedule, the statistics, incremental output and resuming, failing agents,
the backends."""

from __future__ import annotations

import csv
import json
import multiprocessing
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from mjenv.arena import ArenaConfig, WorkerPool, run_arena, runner
from mjenv.arena.config import Task
from mjenv.arena.play import ROW_FIELDS, agent_for, play_task
from mjenv.arena.runner import print_table
from mjenv.arena.stats import difference, mean_ci, summarize

QUICK = ("random seed=1 win_first=True", "random seed=2")


def rows_of(path: Path) -> list[dict[str, str]]:
    with (path / "hands.csv").open(newline="") as f:
        return sorted(csv.DictReader(f), key=lambda r: (int(r["deal"]), int(r["seating"]),
                                                       int(r["hand"]), int(r["seat"])))


class Killed(Exception):
    """Stands for a run stopped from outside (Ctrl-C, a kill) after some of its games."""


def killed_run(config: ArenaConfig, out: Path, after: int) -> None:
    """Run ``config`` into ``out`` and stop it once ``after`` games are stored."""
    seen: list[str] = []

    def kill(key: str) -> None:
        seen.append(key)
        if len(seen) == after:
            raise Killed

    with pytest.raises(Killed):
        run_arena(config, out, progress=False, on_game=kill)


def assert_resumed_whole(config: ArenaConfig, out: Path, whole: Path) -> None:
    """Running ``config`` again in ``out`` finishes it with exactly the rows of ``whole``."""
    again = run_arena(config, out, progress=False)
    assert rows_of(out) == rows_of(whole)
    assert sorted((out / "done.txt").read_text().split()) == sorted(
        t.key for t in config.tasks())
    assert again["hands"] == config.deals * 4


# ---------------------------------------------------------------- configuration and schedule
def test_config_is_checked() -> None:
    with pytest.raises(ValueError, match="needs 2 agent specs"):
        ArenaConfig(agents=("random",))
    with pytest.raises(ValueError, match="needs 4"):
        ArenaConfig(agents=("random",) * 2, mode="four")
    with pytest.raises(ValueError, match="mode"):
        ArenaConfig(agents=("random",) * 2, mode="2v2")
    with pytest.raises(ValueError, match="deals"):
        ArenaConfig(agents=("random",) * 2, deals=0)
    with pytest.raises(ValueError, match="unknown agent spec"):
        ArenaConfig(agents=("random", "nonsense"))
    with pytest.raises(ValueError, match="rules"):
        ArenaConfig(agents=("random",) * 2, rules="riichi")
    c = ArenaConfig(agents=("random", "random"))
    assert c.names == ("random", "random#2")
    assert ArenaConfig.from_json(json.loads(json.dumps(c.to_json()))) == c


def test_seatings() -> None:
    one = ArenaConfig(agents=("a.b:C", "random")).seatings()
    assert one == [(0, 1, 1, 1), (1, 0, 1, 1), (1, 1, 0, 1), (1, 1, 1, 0)]
    cyc = ArenaConfig(agents=("random",) * 4, mode="four").seatings()
    assert len(cyc) == 4 and all(sorted(s) == [0, 1, 2, 3] for s in cyc)
    assert sorted(s[0] for s in cyc) == [0, 1, 2, 3]
    every = ArenaConfig(agents=("random",) * 4, mode="four", rotations="all").seatings()
    assert len(set(every)) == 24


def test_deal_seeds_depend_only_on_the_run_seed() -> None:
    a = ArenaConfig(agents=QUICK, deals=10, seed=3).deal_seeds()
    b = ArenaConfig(agents=QUICK, deals=20, seed=3).deal_seeds()
    assert a == b[:10] and len(set(b)) == 20
    assert a != ArenaConfig(agents=QUICK, deals=10, seed=4).deal_seeds()


# ---------------------------------------------------------------- statistics
def test_mean_ci() -> None:
    m = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m["mean"] == 2.5 and m["n"] == 4
    assert m["se"] == pytest.approx(np.std([1, 2, 3, 4], ddof=1) / 2)
    assert m["low"] == pytest.approx(2.5 - 1.96 * m["se"], abs=1e-3)
    assert mean_ci([])["n"] == 0 and mean_ci([5.0])["se"] == 0.0


def _row(deal: int, agent: str, score: int, **kw: Any) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(ROW_FIELDS, 0)
    row.update({"deal": deal, "agent": agent, "score": score, "fans": "", "error": "", **kw})
    return row


def test_statistics_are_clustered_by_deal() -> None:
    rows = [_row(0, "A", 10), _row(0, "A", 20), _row(0, "B", -5), _row(1, "A", 0),
            _row(1, "B", 4), _row(1, "B", 6), _row(2, "B", 1)]
    d = difference(rows, "A", "B")
    assert d["n"] == 2 and d["mean"] == pytest.approx(((15 + 5) + (0 - 5)) / 2)
    s = summarize(rows, ["A", "B"], "1v3")
    assert s["agents"]["A"]["mean_score"]["n"] == 2  # deals, not hands
    assert s["score_difference"] == d
    rows.append(_row(3, "A", 32, win=1, points=8, fans="平和;自摸x2"))
    s = summarize(rows, ["A", "B"], "1v3")
    assert s["agents"]["A"]["win_rate"] == pytest.approx(1 / 4)
    assert s["agents"]["A"]["fan_frequency"] == {"自摸": 2 / 4, "平和": 1 / 4}


# ---------------------------------------------------------------- running
def test_a_run_writes_everything(tmp_path: Path) -> None:
    config = ArenaConfig(agents=QUICK, deals=6, seed=1)
    results = run_arena(config, tmp_path, progress=False)
    rows = rows_of(tmp_path)
    assert len(rows) == 6 * 4 * 4 and list(rows[0]) == list(ROW_FIELDS)
    assert {p.name for p in tmp_path.iterdir()} >= {
        "manifest.json", "hands.csv", "done.txt", "results.json", "score_distribution.png",
        "fan_frequency.png", "running_score.png"}
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["config"] == config.to_json() and saved["hands"] == 6 * 4
    assert saved["score_difference"] == pytest.approx(results["score_difference"])
    for deal in range(6):  # every game of a deal is zero-sum
        for k in range(4):
            game = [int(r["score"]) for r in rows if int(r["deal"]) == deal
                    and int(r["seating"]) == k]
            assert len(game) == 4 and sum(game) == 0


def test_workers_do_not_change_results(tmp_path: Path) -> None:
    config = ArenaConfig(agents=("random seed=1 win_first=True", "random seed=9 win_first=True"),
                         deals=8, seed=5)
    run_arena(config, tmp_path / "one", progress=False)
    run_arena(config, tmp_path / "two", workers=2, progress=False, chunk_deals=1)
    assert rows_of(tmp_path / "one") == rows_of(tmp_path / "two")


def test_a_worker_pool_plays_run_after_run_on_the_same_workers(tmp_path: Path) -> None:
    first = ArenaConfig(agents=QUICK, deals=4, seed=5)
    second = ArenaConfig(agents=("random seed=3", "random seed=4 win_first=True"), deals=3)
    run_arena(first, tmp_path / "first", progress=False)
    run_arena(second, tmp_path / "second", progress=False)
    with WorkerPool(2) as pool:
        run_arena(first, tmp_path / "pooled-first", pool=pool, progress=False, chunk_deals=1)
        workers = {p.pid for p in multiprocessing.active_children()}
        run_arena(second, tmp_path / "pooled-second", pool=pool, progress=False, chunk_deals=1)
        assert len(workers) == 2 and {p.pid for p in multiprocessing.active_children()} == workers
    assert multiprocessing.active_children() == []
    assert rows_of(tmp_path / "pooled-first") == rows_of(tmp_path / "first")
    assert rows_of(tmp_path / "pooled-second") == rows_of(tmp_path / "second")


def test_an_interrupted_run_ends_the_pools_workers_and_the_next_run_starts_new_ones(
        tmp_path: Path) -> None:
    config = ArenaConfig(agents=QUICK, deals=5, seed=2)
    run_arena(config, tmp_path / "whole", progress=False)
    seen: list[str] = []

    def kill(key: str) -> None:
        seen.append(key)
        if len(seen) == 7:
            raise Killed

    with WorkerPool(2) as pool:
        with pytest.raises(Killed):
            run_arena(config, tmp_path / "killed", pool=pool, progress=False, on_game=kill)
        assert multiprocessing.active_children() == []
        run_arena(config, tmp_path / "killed", pool=pool, progress=False)
    assert rows_of(tmp_path / "killed") == rows_of(tmp_path / "whole")
    with pytest.raises(ValueError, match="positive integer"):
        WorkerPool(0)
    with pytest.raises(ValueError, match="process backend"):
        run_arena(config, tmp_path / "ray", pool=WorkerPool(1), backend="ray", progress=False)


def test_a_pooled_worker_builds_each_runs_agents_anew() -> None:
    config = ArenaConfig(agents=QUICK, deals=1)
    runner.play_run_chunk(-1, config, config.tasks()[:1])
    held = agent_for(QUICK[0])
    runner.play_run_chunk(-1, config, config.tasks()[1:2])
    assert agent_for(QUICK[0]) is held  # the same run keeps its agents
    runner.play_run_chunk(-2, config, config.tasks()[:1])
    assert agent_for(QUICK[0]) is not held  # a new run builds its own


def test_kill_and_resume_loses_nothing_and_counts_nothing_twice(tmp_path: Path) -> None:
    config = ArenaConfig(agents=QUICK, deals=5, seed=2)
    run_arena(config, tmp_path / "whole", progress=False)
    out = tmp_path / "killed"
    killed_run(config, out, after=7)
    assert len((out / "done.txt").read_text().split()) == 7
    with (out / "hands.csv").open("a") as f:  # a game torn in the middle of its rows
        f.write("4,3,0,0,random seed=1 win_first=True,0,0,0,0,1,0,,0,\n4,3,0,1,ran")
    assert_resumed_whole(config, out, tmp_path / "whole")


def test_a_different_configuration_is_refused(tmp_path: Path) -> None:
    run_arena(ArenaConfig(agents=QUICK, deals=2), tmp_path, progress=False)
    with pytest.raises(ValueError, match="different arena run"):
        run_arena(ArenaConfig(agents=QUICK, deals=3), tmp_path, progress=False)
    for broken in ("{not json", "[1, 2]", "[" * 5000, '{"config": 3}'):  # never a traceback
        (tmp_path / "manifest.json").write_text(broken)
        with pytest.raises(ValueError, match="not an arena manifest"):
            run_arena(ArenaConfig(agents=QUICK, deals=2), tmp_path, progress=False)


class Crashing:
    """Raises on its third decision."""

    def __init__(self) -> None:
        self.n = 0

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.n = 0

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.n += 1
        if self.n == 3:
            raise RuntimeError("boom")
        return int(np.flatnonzero(action_mask)[0])


class Cheating:
    """Answers an action outside its mask."""

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask == 0)[0])


@pytest.mark.parametrize(("spec", "message"), [
    ("tests.arena.test_arena:Crashing", "RuntimeError: boom"),
    ("tests.arena.test_arena:Cheating", "illegal action"),
])
def test_a_failing_agent_is_penalized_and_the_run_goes_on(spec: str, message: str) -> None:
    config = ArenaConfig(agents=(spec, "random"), deals=1)
    task = config.tasks()[0]
    rows = play_task(config, task)
    bad = [r for r in rows if r["penalized"]]
    assert len(bad) == 1 and bad[0]["agent"] == spec and message in bad[0]["error"]
    assert bad[0]["score"] == -30 and sum(r["score"] for r in rows) == 0


def test_match_episodes_give_a_row_per_hand_and_seat() -> None:
    config = ArenaConfig(agents=QUICK, deals=1, episode="match")
    rows = play_task(config, Task(0, 1, config.seatings()[1], config.deal_seeds()[0]))
    assert len(rows) == 16 * 4 and {r["hand"] for r in rows} == set(range(16))


def test_ray_backend_gives_the_same_results(tmp_path: Path) -> None:
    pytest.importorskip("ray")
    config = ArenaConfig(agents=QUICK, deals=4, seed=8)
    run_arena(config, tmp_path / "process", workers=2, progress=False)
    run_arena(config, tmp_path / "ray", workers=2, backend="ray", progress=False)
    assert rows_of(tmp_path / "process") == rows_of(tmp_path / "ray")


def test_penalties_are_reported_logged_and_counted(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    spec = "tests.arena.test_arena:Crashing"
    config = ArenaConfig(agents=(spec, "random"), deals=2)
    results = run_arena(config, tmp_path, progress=False)
    penalized = [r for r in rows_of(tmp_path) if r["penalized"] == "1"]
    assert penalized and all(r["agent"] == spec for r in penalized)
    warnings = [line for line in capsys.readouterr().err.splitlines()
                if line.startswith("penalty: ")]
    assert len(warnings) == len(penalized)
    assert f"deal {penalized[0]['deal']}, seating {penalized[0]['seating']}, seat " in warnings[0]
    assert f"({spec}): RuntimeError: boom" in warnings[0] and "errors.log" in warnings[0]
    log = (tmp_path / "errors.log").read_text()
    assert log.count("Traceback (most recent call last)") == len(penalized)
    assert "in act" in log and 'raise RuntimeError("boom")' in log
    assert results["agents"][spec]["penalties"] == len(penalized)
    assert json.loads((tmp_path / "results.json").read_text())["agents"][spec]["penalties"] \
        == len(penalized)
    table = print_table(results).splitlines()
    assert table[0].split()[-1] == "penalties"
    assert table[2].split()[-1] == str(len(penalized)) and table[3].split()[-1] == "0"


def test_the_progress_bar_counts_deals(tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    run_arena(ArenaConfig(agents=QUICK, deals=3), tmp_path, progress=True, chunk_deals=1)
    bar = capsys.readouterr().err.replace("\r", "\n").splitlines()
    last = [line for line in bar if line.strip()][-1]
    assert "3/3" in last and "deal" in last and "12/12 games" in last


def test_results_do_not_depend_on_the_order_of_the_rows() -> None:
    """Resumed and multi-worker runs append games in another order: the same results."""
    rows = [_row(d, agent, random.Random(f"{d}{agent}{k}").randint(-50, 50))
            for d in range(60) for agent in "AB" for k in range(3)]  # means in thirds
    assert summarize(rows, ["A", "B"], "1v3") == summarize(rows[::-1], ["A", "B"], "1v3")
