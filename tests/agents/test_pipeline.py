"""``mjenv train`` (mjenv_agents.train.pipeline): staged configs, overrides, the smoke run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")

from mjenv.cli import main as mjenv_main  # noqa: E402
from mjenv_agents.train import pipeline  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "configs"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "c.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_shipped_configs_parse() -> None:
    for name in ("smoke", "demo", "long"):
        p = pipeline.load(CONFIGS / f"{name}.toml")
        assert p.bc is not None and p.ppo is not None and p.evaluate is not None
        assert p.ppo.init == str(p.out / "bc" / "final.pt")
        assert p.bc.out == str(p.out / "bc") and p.ppo.out == str(p.out / "ppo")
    strong = pipeline.load(CONFIGS / "strong.toml")  # the shipped policy: cloning, evaluation
    assert strong.bc is not None and strong.ppo is None and strong.evaluate is not None
    assert strong.bc.features == "shanten-v1+lookahead" and strong.evaluate.deals == 1000
    assert strong.bc.teacher == "lookahead"


def test_shared_keys_and_overrides(tmp_path: Path) -> None:
    path = _write(tmp_path, 'out = "x"\nseed = 9\nthreads = 1\n[bc]\nhands = 3\n'
                            '[ppo]\nupdates = 4\n[evaluate]\nopponents = ["random"]\n')
    p = pipeline.load(path, ["ppo.updates=7", "seed=11", "evaluate.deals=5"], out="y")
    assert p.out == Path("y") and p.bc is not None and p.ppo is not None
    assert p.bc.seed == 11 and p.ppo.seed == 11 and p.bc.threads == 1
    assert p.ppo.updates == 7 and p.evaluate is not None and p.evaluate.deals == 5
    assert pipeline.trained_policy(p) == Path("y/ppo/final.pt")


@pytest.mark.parametrize(("text", "overrides", "message"), [
    ('out = "x"\n[bc]\nhands = 3\n[sft]\nx = 1\n', [], "unknown tables"),
    ('out = "x"\nlr = 1\n[bc]\nhands = 3\n', [], "top-level keys"),
    ('[bc]\nhands = 3\n', [], "needs out"),
    ('out = "x"\n', [], "no stage table"),
    ('out = "x"\n[bc]\nhands = 3\n', ["bc.handz=3"], "unknown keys"),
    ('out = "x"\n[bc]\nhands = 3\n', ["rl.updates=3"], "unknown stage"),
    ('out = "x"\n[bc]\nhands = 3\n', ["hands"], "not key=value"),
    ('out = "x"\n[bc]\nhands = "many"\n', [], "must be a int"),
    ('out = "x"\n[ppo]\nupdates = 1\n[evaluate]\nopponents = ["bc"]\n', [], "needs a \\[bc\\]"),
    ('out = "x"\n[evaluate]\ndeals = 3\n', [], "needs a \\[bc\\] or \\[ppo\\]"),
    ('out = "x"\n[bc\nhands = 3\n', [], "not valid TOML"),
    ('out = "x"\n[bc]\nhands = 3\n[evaluate]\nrecords = "some"\n', [],
     "EvaluateArgs.records must be all, won, penalized, sample:N"),
    ('out = "x"\n[ppo]\nupdates = 1\n', ["ppo.eval_records=sample:0"],
     "Args.eval_records must be all, won"),
])
def test_bad_configs_are_refused(tmp_path: Path, text: str, overrides: list[str],
                                 message: str) -> None:
    with pytest.raises(ValueError, match=message):
        pipeline.load(_write(tmp_path, text), overrides)


def test_smoke_config_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    out = tmp_path / "smoke"
    argv = ["train", "--config", str(CONFIGS / "smoke.toml"), "--out", str(out),
            "--no-progress", "evaluate.records=sample:1", "ppo.eval_records=won,sample:1"]
    assert mjenv_main(argv) == 0
    for name in ("bc/final.pt", "ppo/final.pt", "ppo/metrics.csv", "eval/random/results.json",
                 "eval/bc/results.json", "summary.json", "summary.md"):
        assert (out / name).exists(), name
    # the evaluations' records: every seating of the first deal, passed through to the arena
    for folder in (out / "eval" / "random", out / "eval" / "bc", out / "ppo" / "eval" / "update_2"):
        names = sorted(p.name for p in (folder / "records").glob("*.json"))
        assert names[:4] == [f"deal-0000-seating-{k:02d}.json" for k in range(4)], folder
        manifest = json.loads((folder / "manifest.json").read_text())
        assert manifest["records"] == ("won,sample:1" if "ppo" in str(folder) else "sample:1")
    assert len(list((out / "eval" / "random" / "records").glob("*.json"))) == 4
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["against"]) == {"random", "bc"}
    assert summary["against"]["random"]["records"] == str(out / "eval" / "random" / "records")
    assert "score difference" in capsys.readouterr().out
    assert mjenv_main(argv) == 0  # finished: every stage resumes as a no-op
    assert "resuming" in capsys.readouterr().out
    assert mjenv_main(["train", "--config", str(tmp_path / "none.toml")]) == 2


def test_the_strong_recipe_at_smoke_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                         ) -> None:
    """configs/strong.toml with tiny budgets: the lookahead player's hands and hint planes go
    through cloning (label smoothing) and the evaluation plays the clone."""
    out = tmp_path / "strong"
    argv = ["train", "--config", str(CONFIGS / "strong.toml"), "--out", str(out),
            "--no-progress", "bc.hands=3", f"bc.data={out / 'lookahead3.npz'}", "bc.workers=1",
            "bc.epochs=1", "evaluate.deals=1", "evaluate.workers=1",
            'evaluate.opponents=["rule"]']
    assert mjenv_main(argv) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert set(summary["against"]) == {"rule"}
    from mjenv_agents.policy import load_checkpoint

    net, _ = load_checkpoint(out / "bc" / "final.pt")
    assert net.config.features == "shanten-v1+lookahead" and net.config.input_planes == 86 + 21
    assert net.config.hint_bias
    assert "score difference" in capsys.readouterr().out
