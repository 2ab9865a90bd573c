"""The shipped policy's Botzone upload: ``mjenv botzone-bot --agent pretrained --zip`` embeds the
packaged checkpoint, and the zip, run as Botzone runs it (``python bot.zip``, a real process
reached only through the bot protocol's text), plays whole games against our judge without an
illegal response. The judge: mjenv.botzone.judge, driven by the arena's Botzone-program seat
(mjenv.botzone.program_agent), which penalizes and logs any illegal, late or garbled answer."""

from __future__ import annotations

import ast
import re
import sys
import time
import zipfile
from pathlib import Path
from typing import Any

import pytest

from mjenv.arena.config import ArenaConfig
from mjenv.arena.play import play_task
from mjenv.cli import main

pytest.importorskip("torch")

from mjenv_agents import pretrained  # noqa: E402


def _zip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    out = tmp_path / "bot.zip"
    assert main(["botzone-bot", "--agent", "pretrained", "--keep-running", "--zip",
                 str(out)]) == 0
    assert "mjenv_agents.pretrained:PretrainedAgent" in capsys.readouterr().out
    return out


def test_the_zip_holds_the_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                      pretrained_registered: str) -> None:
    out = _zip(tmp_path, capsys)
    with zipfile.ZipFile(out) as archive:
        names = archive.namelist()
        assert archive.read("data/policy.pt") == pretrained.CHECKPOINT.read_bytes()
        main_py = archive.read("__main__.py").decode()
    assert "mjenv_agents/pretrained/__init__.py" in names
    assert "CHECKPOINT = 'data/policy.pt'" in main_py
    spec = ast.literal_eval(re.search(r"^SPEC = (.*)$", main_py, re.M).group(1))  # type: ignore[union-attr]
    assert spec == "mjenv_agents.pretrained:PretrainedAgent path='{checkpoint}'"


def test_without_the_file_the_zip_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str],
                                             pretrained_registered: str) -> None:
    monkeypatch.setattr(pretrained, "CHECKPOINT", tmp_path / "gone.pt")
    assert main(["botzone-bot", "--agent", "pretrained", "--zip", str(tmp_path / "b.zip")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "packaged checkpoint" in err[0] and "missing" in err[0]


def _games(out: Path, deals: int) -> list[dict[str, Any]]:
    """``deals`` duplicate deals, the zip bot (kept running: one process per game, as Botzone
    keeps a bot up between turns) against three ``greedy`` players: four games a deal."""
    spec = f'botzone:"{sys.executable} {out}" keep_running=True'
    config = ArenaConfig(agents=(spec, "greedy"), names=("zip", "greedy"), rules="botzone",
                         deals=deals, seed=11)
    rows = []
    for task in config.tasks():
        rows.extend(play_task(config, task))
    return rows


def _check(rows: list[dict[str, Any]], games: int) -> None:
    assert len(rows) == 4 * games
    mine = [r for r in rows if r["agent"] == "zip"]
    assert len(mine) == games
    assert not any(r["error"] or r["penalized"] for r in rows), [
        r["error"] for r in rows if r["error"]]


def test_the_zip_plays_through_the_protocol(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            pretrained_registered: str) -> None:
    """Four games (one deal, the bot in each seat); 20: the acceptance test below."""
    _check(_games(_zip(tmp_path, capsys), deals=1), games=4)


@pytest.mark.acceptance
@pytest.mark.slow
def test_acceptance_the_zip_plays_20_games(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           pretrained_registered: str) -> None:
    out = _zip(tmp_path, capsys)
    start = time.perf_counter()
    _check(_games(out, deals=5), games=20)
    print(f"20 games in {time.perf_counter() - start:.1f} s")
