"""The shipped policy (spec ``pretrained``, agents/pretrained/policy.pt): packaged, playable
through its spec and ``mjenv play``, its metadata read from the file (no number is written
here: the file is replaced by every new training run), and the scripts that ship and
evaluate it. The Botzone zip: tests/botzone/test_pretrained_bot.py."""

from __future__ import annotations

import io
import json
import sys
import tomllib
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

torch = pytest.importorskip("torch")

from mjenv.agent import make_agent, parse_spec  # noqa: E402
from mjenv.cli import main  # noqa: E402
from mjenv_agents import pretrained  # noqa: E402
from mjenv_agents.policy import (  # noqa: E402
    PolicyAgent,
    PolicyConfig,
    PolicyNet,
    load_checkpoint,
    save_checkpoint,
)
from mjenv_agents.pretrained import PretrainedAgent  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
MAX_BYTES = 8 * 1024 * 1024
""""Small": the shipped file stays under 8 MiB (the wheel carries it)."""


def test_the_checkpoint_ships_in_the_package() -> None:
    setuptools = PYPROJECT["tool"]["setuptools"]
    assert "mjenv_agents.pretrained" in setuptools["packages"]
    assert "policy.pt" in setuptools["package-data"]["mjenv_agents.pretrained"]
    assert PYPROJECT["project"]["entry-points"]["mjenv.agents"]["pretrained"] == (
        "mjenv_agents.pretrained:PretrainedAgent")
    assert pretrained.CHECKPOINT == ROOT / "agents" / "pretrained" / "policy.pt"
    assert pretrained.CHECKPOINT.is_file()
    assert pretrained.CHECKPOINT.stat().st_size < MAX_BYTES
    net, extra = load_checkpoint(pretrained.CHECKPOINT)  # an ordinary policy checkpoint
    assert "optimizer" not in extra  # the training state is not shipped


def test_its_metadata_says_what_it_is() -> None:
    meta = pretrained.metadata()
    assert isinstance(meta["config_name"], str) and meta["config_name"]
    tomllib.loads(meta["config_text"])  # the training config, as TOML
    assert len(meta["commit"].removesuffix("+dirty")) >= 7
    assert meta["date"].endswith("Z")
    data = torch.load(pretrained.CHECKPOINT, map_location="cpu", weights_only=True)
    assert meta["weights_sha256"] == pretrained.weights_sha256(data)
    assert meta["policy_config"] == data["config"]
    against = meta["evaluation"]["against"]
    assert against, "an evaluation table"
    for row in against.values():
        d = row["score_difference"]
        assert d["low"] <= d["mean"] <= d["high"]
        assert 0 <= row["win_rate"] <= 1 and 0 <= row["deal_in_rate"] <= 1
    text = pretrained.describe(meta)
    assert meta["config_name"] in text and all(f"| {o} |" in text for o in against)


def test_the_docs_show_the_shipped_metadata() -> None:
    """docs/training.md's marked section is what eval_pretrained --write-docs writes for the
    shipped file, except the table, which may come from a longer evaluation."""
    meta = pretrained.metadata()
    docs = (ROOT / "docs" / "training.md").read_text(encoding="utf-8")
    section = docs.split("<!-- pretrained: begin")[1].split("<!-- pretrained: end -->")[0]
    assert f"`{meta['config_name']}`" in section and meta["commit"][:12] in section
    assert meta["weights_sha256"][:16] in section


def test_the_spec(pretrained_registered: str) -> None:
    assert parse_spec("pretrained") == (pretrained_registered, {})
    agent = make_agent("pretrained")
    assert isinstance(agent, PretrainedAgent) and isinstance(agent, PolicyAgent)
    assert Path(agent.path) == pretrained.CHECKPOINT and agent.greedy
    other = make_agent("pretrained greedy=False seed=3 device='cpu'")
    assert isinstance(other, PretrainedAgent) and not other.greedy and other.seed == 3
    with pytest.raises(ValueError, match="takes no ':' argument"):
        parse_spec("pretrained:x.pt")
    with pytest.raises(ValueError, match="unexpected keyword|nope"):
        make_agent("pretrained nope=1")


def test_it_plays_like_its_checkpoint_as_a_policy() -> None:
    from mjenv.arena.config import ArenaConfig
    from mjenv.arena.play import play_task

    rows = {}
    for spec in (f"policy:{pretrained.CHECKPOINT}", "mjenv_agents.pretrained:PretrainedAgent"):
        config = ArenaConfig(agents=(spec, "random"), names=("me", "random"), deals=1, seed=3)
        rows[spec] = [(r["seat"], r["score"]) for r in play_task(config, config.tasks()[0])]
    first, second = rows.values()
    assert first == second


def test_a_missing_or_broken_file_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                              pretrained_registered: str) -> None:
    monkeypatch.setattr(pretrained, "CHECKPOINT", tmp_path / "policy.pt")
    for call in (lambda: make_agent("pretrained"), pretrained.metadata,
                 pretrained.checkpoint_path):
        with pytest.raises(ValueError, match="packaged checkpoint .* is missing") as info:
            call()
        assert "\n" not in str(info.value)
    (tmp_path / "policy.pt").write_bytes(b"not a checkpoint")
    for call in (lambda: make_agent("pretrained"), pretrained.metadata):
        with pytest.raises(ValueError, match="not a readable") as info:
            call()
        assert "\n" not in str(info.value)
    save_checkpoint(tmp_path / "policy.pt", PolicyNet(PolicyConfig(channels=4, blocks=0)))
    with pytest.raises(ValueError, match="no shipping metadata"):
        pretrained.metadata()
    assert isinstance(make_agent("pretrained"), PretrainedAgent)  # plays all the same


def test_mjenv_play_against_it(monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str],
                               pretrained_registered: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 300 + "n\n"))
    assert main(["play", "--seed", "2", "--codes", "--opponents", "pretrained"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "seat 1 pretrained, seat 2 pretrained, seat 3 pretrained" in out
    assert "is over ===" in out


# ------------------------------------------------------------------ the scripts

def _trained(tmp_path: Path) -> Path:
    """A small training checkpoint, with an optimizer state as bc/ppo save it."""
    torch.manual_seed(1)
    net = PolicyNet(PolicyConfig(channels=4, blocks=1, features="shanten-v1"))
    optimizer = torch.optim.Adam(net.parameters())
    logits, value = net(torch.zeros(1, net.config.input_planes, 34), torch.ones(1, 235))
    (logits.sum() + value.sum()).backward()
    optimizer.step()
    path = tmp_path / "final.pt"
    save_checkpoint(path, net, {"step": 9, "optimizer": optimizer.state_dict(),
                                "args": {"hands": 3}, "stage": "bc"})
    return path


def _summary(tmp_path: Path, **extra: object) -> Path:
    row = {"score_difference": {"mean": 1.5, "low": -0.5, "high": 3.5, "se": 1.0, "n": 4},
           "win_rate": 0.25, "deal_in_rate": 0.1, "folder": "/somewhere/local"}
    path = tmp_path / "summary.json"
    path.write_text(json.dumps({"policy": "x", "deals": 4, "seed": 7, "rules": "mcr",
                                "against": {"rule": row}, **extra}))
    return path


def test_ship_keeps_the_weights_and_adds_the_metadata(
        tmp_path: Path, load_script: Callable[[str], ModuleType],
        capsys: pytest.CaptureFixture[str]) -> None:
    ship = load_script("ship_pretrained")
    src, out = _trained(tmp_path), tmp_path / "shipped" / "policy.pt"
    assert ship.main([str(src), "--config", "bc_smoke", "--eval", str(_summary(tmp_path)),
                      "--commit", "0123456789abcdef", "--out", str(out)]) == 0
    assert "shipped" in capsys.readouterr().out
    before = torch.load(src, weights_only=True)
    after = torch.load(out, weights_only=True)
    assert after["config"] == before["config"] and after["format"] == before["format"]
    assert list(after["model"]) == list(before["model"])
    for name, tensor in before["model"].items():
        assert after["model"][name].dtype == tensor.dtype
        assert torch.equal(after["model"][name], tensor)
    assert "optimizer" not in after["extra"] and after["extra"]["step"] == 9
    meta = pretrained.metadata(out)
    assert meta["config_name"] == "bc_smoke" and "hands" in meta["config_text"]
    assert meta["commit"] == "0123456789abcdef"
    assert meta["weights_sha256"] == pretrained.weights_sha256(before)
    assert meta["evaluation"]["deals"] == 4
    assert meta["evaluation"]["against"]["rule"]["score_difference"]["mean"] == 1.5
    assert "folder" not in meta["evaluation"]["against"]["rule"]  # no local paths ship
    agent = PretrainedAgent(path=str(out))
    assert agent.net.config == load_checkpoint(src)[0].config


@pytest.mark.parametrize(("change", "message"), [
    ({"src": "missing.pt"}, "no such checkpoint"),
    ({"src": "junk.pt"}, "not a readable torch checkpoint"),
    ({"config": "nosuchconfig"}, "no config 'nosuchconfig'"),
    ({"eval": "junk.json"}, "not a readable JSON"),
    ({"eval": "empty.json"}, "no 'against' table"),
    ({"eval": "other.json"}, "evaluated other weights"),
    ({"commit": "not-a-sha"}, "is not a git commit hash"),
])
def test_ship_refuses_bad_input_in_one_line(
        tmp_path: Path, load_script: Callable[[str], ModuleType],
        capsys: pytest.CaptureFixture[str], change: dict[str, str], message: str) -> None:
    ship = load_script("ship_pretrained")
    _trained(tmp_path)
    _summary(tmp_path)
    (tmp_path / "junk.pt").write_bytes(b"junk")
    (tmp_path / "junk.json").write_text("{")
    (tmp_path / "empty.json").write_text("{}")
    _summary(tmp_path, weights_sha256="0" * 64).rename(tmp_path / "other.json")
    _summary(tmp_path)
    words = {"src": "final.pt", "config": "bc_smoke", "eval": "summary.json",
             "commit": "0123456"} | change
    out = tmp_path / "out.pt"
    status = ship.main([str(tmp_path / words["src"]), "--config", words["config"],
                        "--eval", str(tmp_path / words["eval"]), "--commit", words["commit"],
                        "--out", str(out)])
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and message in err[0], err
    assert not out.exists()


def test_eval_smoke(tmp_path: Path, load_script: Callable[[str], ModuleType],
                    capsys: pytest.CaptureFixture[str]) -> None:
    """One deal against one opponent (the script's default is 1,000 deals against rule,
    greedy and random); its --json ships, and --write-docs rewrites only its section."""
    evaluate = load_script("eval_pretrained")
    src = _trained(tmp_path)
    assert evaluate.main(["--checkpoint", str(src), "--deals", "1", "--opponents", "random",
                          "--workers", "1", "--out", str(tmp_path / "runs"), "--no-progress",
                          "--json", str(tmp_path / "eval.json")]) == 0
    out = capsys.readouterr().out
    assert "| random |" in out and "score difference pretrained - random" in out
    summary = json.loads((tmp_path / "eval.json").read_text())
    assert summary["deals"] == 1 and set(summary["against"]) == {"random"}
    ship = load_script("ship_pretrained")
    shipped = tmp_path / "policy.pt"
    assert ship.main([str(src), "--config", "bc_smoke", "--eval", str(tmp_path / "eval.json"),
                      "--commit", "abcdef0", "--out", str(shipped)]) == 0
    docs = tmp_path / "training.md"
    docs.write_text("# T\n\n<!-- pretrained: begin -->\nold\n<!-- pretrained: end -->\n\nafter\n")
    evaluate.write_docs(docs, pretrained.metadata(shipped), shipped.stat().st_size)
    text = docs.read_text()
    assert "old" not in text and text.endswith("\nafter\n") and "| random |" in text
    assert "the config `bc_smoke`\nat commit `abcdef0`," in text
    assert evaluate.main(["--checkpoint", str(tmp_path / "nope.pt")]) == 2
    assert "no checkpoint at" in capsys.readouterr().err
    assert evaluate.main(["--checkpoint", str(src), "--write-docs", str(docs)]) == 2
    assert "the shipped checkpoint only" in capsys.readouterr().err
