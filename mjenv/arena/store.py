"""The output folder of an arena run, written as the run goes so that nothing is lost.

``manifest.json``  the configuration (and the mjenv version); a re-run in the same folder
                   resumes it, and a different configuration is refused
``hands.csv``      one row per hand and seat (columns: mjenv.arena.play.ROW_FIELDS), appended
                   game by game
``done.txt``       the key (``deal:seating``) of every game whose rows are complete in
                   hands.csv, appended after them; on resume, rows of a game not listed here
                   (the run was killed while writing it) are dropped and the game is replayed
``results.json``   the summary (mjenv.arena.stats), rewritten at the end
``errors.log``     the traceback of every penalty (an agent that raised or chose an illegal
                   action), appended as games finish; only when there was one

A folder that holds any of these files without a manifest of ours is someone else's: it is
refused, never written over. A folder is only created once the run's agents are built
(mjenv.arena.runner), so a run that cannot start leaves nothing to refuse the next one.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import Any

from mjenv.arena.config import ArenaConfig
from mjenv.arena.play import ROW_FIELDS

INT_FIELDS = {f for f in ROW_FIELDS if f not in ("agent", "fans", "error")}
FILES = ("manifest.json", "hands.csv", "done.txt", "results.json", "errors.log",
         "score_distribution.png", "fan_frequency.png", "running_score.png")
"""What a run writes in its folder."""


class RunFolder:
    """See the module docstring. :meth:`open` creates or resumes a folder."""

    def __init__(self, path: Path, config: ArenaConfig) -> None:
        self.path = path
        self.config = config
        self.done: set[str] = set()
        self.rows: list[dict[str, Any]] = []

    @classmethod
    def open(cls, path: str | Path, config: ArenaConfig) -> RunFolder:
        folder = cls(Path(path), config)
        if folder.path.exists() and not folder.path.is_dir():
            raise ValueError(f"{folder.path} is a file, not a folder: give --out a folder")
        folder.path.mkdir(parents=True, exist_ok=True)
        manifest = folder.path / "manifest.json"
        if not manifest.exists():
            theirs = [name for name in FILES if (folder.path / name).exists()]
            if theirs:
                raise ValueError(f"{folder.path} holds {theirs[0]} but no arena manifest: not "
                                 "an arena run's folder; use another --out folder (nothing "
                                 "there is overwritten)")
        if manifest.exists():
            try:
                old = ArenaConfig.from_json(json.loads(manifest.read_text())["config"])
            except (ValueError, KeyError, json.JSONDecodeError) as exc:
                raise ValueError(f"{manifest}: not an arena manifest ({exc})") from None
            if old != config:
                raise ValueError(
                    f"{folder.path} holds a different arena run ({json.dumps(old.to_json())}); "
                    "use another --out folder (results are never mixed)")
            folder._load()
        else:  # the manifest first: a folder of ours always has one (written whole)
            folder._write_atomic("manifest.json", json.dumps(
                {"config": config.to_json(), "mjenv": _version()}, indent=2) + "\n")
            (folder.path / "hands.csv").write_text(",".join(ROW_FIELDS) + "\n")
            (folder.path / "done.txt").write_text("")
        return folder

    def _load(self) -> None:
        done_path = self.path / "done.txt"
        self.done = set(done_path.read_text().split()) if done_path.exists() else set()
        hands = self.path / "hands.csv"
        rows: list[dict[str, Any]] = []
        if hands.exists():
            with hands.open(newline="") as f:
                for row in csv.DictReader(f):
                    complete = all(row.get(k) is not None for k in ROW_FIELDS)
                    if complete and f"{row['deal']}:{row['seating']}" in self.done:
                        rows.append({k: int(v) if k in INT_FIELDS else v
                                     for k, v in row.items()})
        keys = {f"{r['deal']}:{r['seating']}" for r in rows}
        self.done &= keys  # a listed game whose rows are missing is replayed
        self.rows = rows
        self._rewrite()

    def _rewrite(self) -> None:
        """hands.csv and done.txt with exactly the complete games (drops a torn tail)."""
        self._write_atomic("hands.csv", _csv_text(self.rows, header=True))
        self._write_atomic("done.txt", "".join(f"{k}\n" for k in sorted(self.done)))

    def _write_atomic(self, name: str, text: str) -> None:
        tmp = self.path / f".{name}.tmp"
        tmp.write_text(text)
        os.replace(tmp, self.path / name)

    def add(self, key: str, rows: list[dict[str, Any]]) -> None:
        """Append one finished game's rows, then mark it done (both flushed to disk)."""
        with (self.path / "hands.csv").open("a", newline="") as f:
            f.write(_csv_text(rows, header=False))
            f.flush()
            os.fsync(f.fileno())
        with (self.path / "done.txt").open("a") as f:
            f.write(f"{key}\n")
            f.flush()
            os.fsync(f.fileno())
        self.done.add(key)
        self.rows.extend(rows)

    def log_errors(self, text: str) -> None:
        """Append ``text`` (tracebacks) to errors.log. A game replayed on resume (killed before
        it was done) may log its penalty twice; hands.csv counts it once."""
        with (self.path / "errors.log").open("a", encoding="utf-8") as f:
            f.write(text)

    def write_results(self, results: dict[str, Any]) -> None:
        self._write_atomic("results.json", json.dumps(results, indent=2, ensure_ascii=False)
                           + "\n")


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("mjenv")
    except PackageNotFoundError:
        return "unknown"


def _csv_text(rows: list[dict[str, Any]], header: bool) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=ROW_FIELDS, lineterminator="\n")
    if header:
        writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()
