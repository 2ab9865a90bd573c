"""Game records of arena runs (``--records``): one per selected game, named by deal and
seating, replaying to the rows of hands.csv; resumed like the rest of the run; listed by
``mjenv view``'s index."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

from mjenv.arena import ArenaConfig, run_arena
from mjenv.arena.records import key_of, parse_records, record_name
from mjenv.cli import main
from mjenv.engine.record import load, load_record, replay_match

QUICK = ("random seed=1 win_first=True", "random seed=2")
SOMETIMES = "tests.arena.test_records:SometimesCrashing"


class SometimesCrashing:
    """Wins when it can, else the first legal action; raises on its third decision in the
    games whose reset seed is divisible by 3 (some games penalized, some won, some neither)."""

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.n = 0
        self.crash = seed is not None and seed % 3 == 0

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.n += 1
        if self.crash and self.n == 3:
            raise RuntimeError("boom")
        return 1 if action_mask[1] else int(np.flatnonzero(action_mask)[-1])


def rows_by_game(out: Path) -> dict[str, list[dict[str, str]]]:
    games: dict[str, list[dict[str, str]]] = {}
    with (out / "hands.csv").open(newline="") as f:
        for row in csv.DictReader(f):
            games.setdefault(f"{row['deal']}:{row['seating']}", []).append(row)
    return games


def record_files(out: Path) -> dict[str, bytes]:
    folder = out / "records"
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())} if folder.is_dir() else {}


def check_hand(game_rows: list[dict[str, str]], result: object) -> None:
    """The rows of one hand (four seats) say what the replayed hand's result says."""
    from mjenv.engine.result import HandResult

    assert isinstance(result, HandResult)
    rows = sorted(game_rows, key=lambda r: int(r["seat"]))
    assert [int(r["score"]) for r in rows] == list(result.payments)
    assert [int(r["win"]) for r in rows] == [int(result.winner == s) for s in range(4)]
    assert [int(r["penalized"]) for r in rows] == [int(result.penalized == s) for s in range(4)]
    if result.winner is not None:
        assert int(rows[result.winner]["points"]) == result.fan_total


def test_every_hand_has_a_record_that_replays_to_its_rows(tmp_path: Path) -> None:
    config = ArenaConfig(agents=QUICK, deals=3, seed=4)
    plain = run_arena(config, tmp_path / "plain", progress=False)
    out = tmp_path / "kept"
    results = run_arena(config, out, progress=False, records="all")
    assert results == plain  # records are an addition: the same results
    games = rows_by_game(out)
    files = record_files(out)
    assert sorted(files) == sorted(record_name(*map(int, k.split(":"))) for k in games)
    assert len(files) == 3 * 4
    for key, game_rows in games.items():
        deal, seating = map(int, key.split(":"))
        game = load(out / "records" / record_name(deal, seating))  # validates and replays
        check_hand(game_rows, game.result)
    # duplicate deals: the four seatings of a deal played the same wall
    for deal in range(3):
        walls = {json.dumps(load_record(out / "records" / record_name(deal, k))["wall"])
                 for k in range(4)}
        assert len(walls) == 1
    sizes = [len(b) for b in files.values()]
    assert min(sizes) > 2_000 and max(sizes) < 40_000  # "about 15 kB" in docs/arena.md
    assert json.loads((out / "manifest.json").read_text())["records"] == "all"
    assert "records" not in json.loads((tmp_path / "plain" / "manifest.json").read_text())

    # mjenv view lists them on an index page, one page per record
    index = out / "records" / "index.html"
    assert main(["view", str(out / "records"), "--out", str(index)]) == 0
    html = index.read_text(encoding="utf-8")
    for name in files:
        assert name in html and (out / "records" / name.replace(".json", ".html")).exists()


def test_a_match_run_keeps_match_records(tmp_path: Path) -> None:
    config = ArenaConfig(agents=QUICK, deals=1, episode="match", seed=3)
    run_arena(config, tmp_path, progress=False, records="sample:1")
    games = rows_by_game(tmp_path)
    assert len(record_files(tmp_path)) == 4
    for key, game_rows in games.items():
        deal, seating = map(int, key.split(":"))
        record = load_record(tmp_path / "records" / record_name(deal, seating))
        assert record["format"] == "mjenv-match"
        hands = replay_match(record)
        assert len(hands) == 16
        for h, game in enumerate(hands):
            check_hand([r for r in game_rows if int(r["hand"]) == h], game.result)


def test_the_selection(tmp_path: Path) -> None:
    config = ArenaConfig(agents=(SOMETIMES, "random seed=4 win_first=True"), deals=4, seed=1)
    runs = {which: tmp_path / which.replace(":", "_").replace(",", "+")
            for which in ("won", "penalized", "sample:2", "won,penalized")}
    for which, out in runs.items():
        run_arena(config, out, progress=False, records=which)
    games = rows_by_game(runs["won"])
    won = {k for k, rows in games.items() if any(r["win"] == "1" for r in rows)}
    penalized = {k for k, rows in games.items() if any(r["penalized"] == "1" for r in rows)}
    assert won and penalized and won | penalized != set(games)  # the test means something

    def kept(which: str) -> set[str]:
        return {key_of(name) for name in record_files(runs[which])}  # type: ignore[misc]

    assert kept("won") == won
    assert kept("penalized") == penalized
    assert kept("won,penalized") == won | penalized
    assert kept("sample:2") == {k for k in games if int(k.split(":")[0]) < 2}
    for name in record_files(runs["penalized"]):  # a penalty replays too
        result = load(runs["penalized"] / "records" / name).result
        assert result is not None and result.penalized is not None


@pytest.mark.parametrize("text", ["", "some", "sample", "sample:0", "sample:x", "all,nope"])
def test_bad_selections_are_refused(text: str) -> None:
    with pytest.raises(ValueError, match="records must be all, won, penalized or sample:N"):
        parse_records(text)


def test_selection_text_is_canonical() -> None:
    assert str(parse_records("penalized, won")) == "won,penalized"
    assert str(parse_records("sample:2,sample:5")) == "sample:5"
    assert key_of("deal-0012-seating-03.json") == "12:3" and key_of("index.html") is None
    assert record_name(12345, 23) == "deal-12345-seating-23.json"


def test_workers_write_the_same_records(tmp_path: Path) -> None:
    config = ArenaConfig(agents=QUICK, deals=3, seed=6)
    run_arena(config, tmp_path / "one", progress=False, records="all")
    run_arena(config, tmp_path / "two", progress=False, records="all", workers=2,
              chunk_deals=1)
    assert record_files(tmp_path / "one") == record_files(tmp_path / "two")


def test_a_killed_run_resumes_its_records(tmp_path: Path) -> None:
    config = ArenaConfig(agents=QUICK, deals=3, seed=2)
    run_arena(config, tmp_path / "whole", progress=False, records="all")

    class Killed(Exception):
        pass

    seen: list[str] = []

    def kill_after_five(key: str) -> None:
        seen.append(key)
        if len(seen) == 5:
            raise Killed

    out = tmp_path / "killed"
    with pytest.raises(Killed):
        run_arena(config, out, progress=False, records="all", on_game=kill_after_five)
    assert len(record_files(out)) == 5  # each record written before its rows
    # a record whose rows never came (killed between the two), a half-written file, and a
    # record that lies: all replaced by what the replayed games write
    undone = next(t for t in config.tasks() if t.key not in seen)
    (out / "records" / record_name(undone.deal, undone.seating)).write_text("{}")
    (out / "records" / ".deal-0002-seating-03.json.tmp").write_text("{\"form")
    run_arena(config, out, progress=False, records="all")
    assert record_files(out) == record_files(tmp_path / "whole")


def test_a_resume_needs_the_same_records_option(tmp_path: Path) -> None:
    config = ArenaConfig(agents=QUICK, deals=1)
    run_arena(config, tmp_path, progress=False, records="won")
    with pytest.raises(ValueError, match="played with --records won; resume it with the same"):
        run_arena(config, tmp_path, progress=False)
    with pytest.raises(ValueError, match="played with --records won"):
        run_arena(config, tmp_path, progress=False, records="all")
    run_arena(config, tmp_path, progress=False, records=" won ")  # the same selection
    plain = tmp_path / "plain"
    run_arena(config, plain, progress=False)
    with pytest.raises(ValueError, match="played with no --records"):
        run_arena(config, plain, progress=False, records="all")


def test_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert main(["arena", "--agents", *QUICK, "--deals", "1", "--out", str(out),
                 "--records", "sample:1", "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert f"4 game record(s) in {out / 'records'}" in text
    assert f"mjenv view {out / 'records'} --out {out / 'records' / 'index.html'}" in text
    with pytest.raises(SystemExit) as info:
        main(["arena", "--agents", *QUICK, "--out", str(tmp_path / "x"), "--records", "some"])
    assert info.value.code == 2
    assert "records must be all, won, penalized or sample:N" in capsys.readouterr().err
    assert not (tmp_path / "x").exists()
