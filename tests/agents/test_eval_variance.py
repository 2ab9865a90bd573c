"""The paired (control) estimator of the learning curve and of ``[evaluate]``:
mjenv.arena.stats.control_difference, PPO's ``eval_control`` and the pipeline's ``control``."""

from __future__ import annotations

import csv
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from mjenv.arena import ArenaConfig, run_arena
from mjenv.arena.stats import control_difference, difference, mean_ci, per_deal_difference

torch = pytest.importorskip("torch")

from mjenv_agents.policy import PolicyConfig, PolicyNet, save_checkpoint  # noqa: E402
from mjenv_agents.train import pipeline, ppo  # noqa: E402


def _row(deal: int, seating: int, seat: int, agent: str, score: int) -> dict[str, Any]:
    return {"deal": deal, "seating": seating, "hand": 0, "seat": seat, "agent": agent,
            "score": score}


def _game(deal: int, seating: int, scores: list[int], challenger: str,
          baseline: str) -> list[dict[str, Any]]:
    return [_row(deal, seating, s, challenger if s == seating else baseline, scores[s])
            for s in range(4)]


def test_control_difference_pairs_deal_by_deal() -> None:
    """Two deals, one seating each (enough for the arithmetic): the per-deal differences of
    the challenger's run minus those of the control's run."""
    rows = _game(0, 0, [12, -4, -4, -4], "a", "b") + _game(1, 1, [8, -24, 8, 8], "a", "b")
    control = _game(0, 0, [9, -3, -3, -3], "c", "b") + _game(1, 1, [5, -21, 8, 8], "c", "b")
    assert per_deal_difference(rows, "a", "b") == {0: 16.0, 1: -32.0}
    assert per_deal_difference(control, "c", "b") == {0: 12.0, 1: -28.0}
    assert control_difference(rows, ("a", "b"), control, ("c", "b")) == mean_ci([4.0, -4.0])
    # only the deals both runs played count
    assert control_difference(rows, ("a", "b"), control[:4], ("c", "b")) == mean_ci([4.0])


def test_the_baseline_as_its_own_control_changes_nothing(tmp_path: Path) -> None:
    """Four copies of the baseline play one game per deal whatever the seating (common
    random numbers), and its scores sum to zero: that control's per-deal difference is zero,
    so the paired estimate is the plain one, interval included."""
    plain = ArenaConfig(agents=("random seed=3", "greedy"), names=("a", "greedy"), deals=3,
                        seed=5)
    itself = replace(plain, agents=("greedy", "greedy"), names=("control", "greedy"))
    run_arena(plain, tmp_path / "plain", progress=False)
    run_arena(itself, tmp_path / "itself", progress=False)
    rows, control = ppo.arena_rows(tmp_path / "plain"), ppo.arena_rows(tmp_path / "itself")
    assert set(per_deal_difference(control, "control", "greedy").values()) == {0.0}
    assert control_difference(rows, ("a", "greedy"), control, ("control", "greedy")) == \
        difference(rows, "a", "greedy")


def _ppo_args(out: Path, **changes: Any) -> ppo.Args:
    base = ppo.Args(seed=4, out=str(out), threads=1, checkpoint_interval=1, updates=1,
                    games=4, decisions_per_update=48, minibatch_size=16, epochs=1,
                    channels=8, blocks=1, opponents=("self",), opponent_weights=(1.0,),
                    eval_interval=1, eval_deals=2, eval_opponent="random",
                    learning_rate=1e-3, eval_control="init")
    return replace(base, **changes)


def test_the_learning_curve_carries_the_paired_estimate(tmp_path: Path) -> None:
    """``eval_control = "init"``: the control (the fresh network, saved as update 0) plays the
    evaluation deals once; every point logs its paired difference, which is exactly zero with
    a zero-width interval at update 0 (the control itself); the plot gets its second panel."""
    ppo.train(_ppo_args(tmp_path))
    with open(tmp_path / "metrics.csv", newline="") as fh:
        points = [r for r in csv.DictReader(fh) if r["eval/score_diff"]]
    assert [r["step"] for r in points] == ["0", "1"]
    first = points[0]
    assert [float(first[f"eval/control_diff{k}"]) for k in ("", "_low", "_high")] == [0, 0, 0]
    for r in points:
        low, mean, high = (float(r[f"eval/control_diff{k}"]) for k in ("_low", "", "_high"))
        assert low <= mean <= high
    manifest = json.loads((tmp_path / "eval" / "control" / "manifest.json").read_text())
    assert manifest["config"]["agents"][0] == f"policy:{tmp_path / 'snapshots' / 'update_0.pt'}"
    assert (tmp_path / "learning_curve.png").exists()
    assert ppo.control_spec(_ppo_args(tmp_path, init="x.pt")) == "policy:x.pt"
    with pytest.raises(ValueError):
        ppo.Args(eval_control="no.such.module:Agent x=(")


def test_evaluate_reports_the_gain_over_a_control(tmp_path: Path) -> None:
    """``[evaluate] control = "bc"``: the cloned policy plays each opponent on the same deals
    and the summary (JSON and Markdown) adds the paired difference; against ``bc`` itself
    the control would be four copies of the opponent, so the plain difference is reported."""
    for stage, seed in (("bc", 1), ("ppo", 2)):
        torch.manual_seed(seed)
        (tmp_path / stage).mkdir()
        net = PolicyNet(PolicyConfig(channels=8, blocks=1))
        save_checkpoint(tmp_path / stage / "final.pt", net)
    config = tmp_path / "c.toml"
    config.write_text(f'out = "{tmp_path}"\n[bc]\nhands = 1\n[ppo]\nupdates = 1\n'
                      '[evaluate]\ndeals = 2\nopponents = ["random", "bc"]\ncontrol = "bc"\n')
    loaded = pipeline.load(config)
    summary = pipeline.evaluate(loaded, progress=False)
    random_row, bc_row = summary["against"]["random"], summary["against"]["bc"]
    assert summary["control"] == "bc"
    assert (tmp_path / "eval" / "control-random" / "results.json").exists()
    assert not (tmp_path / "eval" / "control-bc").exists()
    assert bc_row["control_difference"] == bc_row["score_difference"]
    paired = random_row["control_difference"]
    assert paired["low"] <= paired["mean"] <= paired["high"] and paired["n"] == 2
    assert "minus control" in (tmp_path / "summary.md").read_text()
    with pytest.raises(ValueError, match="needs a \\[bc\\] stage"):
        config.write_text(f'out = "{tmp_path}"\n[ppo]\nupdates = 1\n'
                          '[evaluate]\ncontrol = "bc"\n')
        pipeline.load(config)
