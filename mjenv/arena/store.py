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
``records/``       with ``records=...``: the record of every selected game
                   (mjenv.arena.records), each written whole before the game's rows, so that
                   a game in done.txt has its record; on resume, the records of games not in
                   done.txt (and half-written temporary files) are deleted: those games are
                   played again and write them again

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
from mjenv.arena.records import FOLDER, RecordSelection, key_of, record_name
from mjenv.inputs import parse_json

INT_FIELDS = {f for f in ROW_FIELDS if f not in ("agent", "fans", "error")}
FILES = ("manifest.json", "hands.csv", "done.txt", "results.json", "errors.log",
         "score_distribution.png", "fan_frequency.png", "running_score.png", FOLDER)
"""What a run writes in its folder."""


class RunFolder:
    """See the module docstring. :meth:`open` creates or resumes a folder."""

    def __init__(self, path: Path, config: ArenaConfig,
                 records: RecordSelection | None = None) -> None:
        self.path = path
        self.config = config
        self.records = records
        self.done: set[str] = set()
        self.rows: list[dict[str, Any]] = []

    @classmethod
    def open(cls, path: str | Path, config: ArenaConfig,
             records: RecordSelection | None = None) -> RunFolder:
        """Create the folder of a new run, or resume the run it holds. ``records`` is part of
        what a folder is (kept in the manifest, not in the configuration: it changes no
        result): a run is resumed with the selection it started with, so that every game of
        it is recorded by one rule."""
        folder = cls(Path(path), config, records)
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
                saved = parse_json(manifest.read_bytes())
                if not isinstance(saved, dict):
                    raise ValueError("not a JSON object")
                old = ArenaConfig.from_json(saved["config"])
            except (ValueError, KeyError, TypeError) as exc:
                raise ValueError(f"{manifest}: not an arena manifest ({exc})") from None
            if old != config:
                raise ValueError(
                    f"{folder.path} holds a different arena run ({json.dumps(old.to_json())}); "
                    "use another --out folder (results are never mixed)")
            was = saved.get("records") or ""
            if was != folder._records_text():
                raise ValueError(
                    f"{folder.path} holds a run played with "
                    + (f"--records {was}" if was else "no --records")
                    + "; resume it with the same records option (all the games of a run are "
                    "recorded by one rule), or use another --out folder")
            folder._load()
        else:  # the manifest first: a folder of ours always has one (written whole)
            data: dict[str, Any] = {"config": config.to_json(), "mjenv": _version()}
            if records is not None:
                data["records"] = folder._records_text()
            folder._write_atomic("manifest.json", json.dumps(data, indent=2) + "\n")
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
        self._drop_stale_records()

    def _records_text(self) -> str:
        return str(self.records) if self.records is not None else ""

    def _drop_stale_records(self) -> None:
        """Delete the records of games that are not done (a kill between a record and its
        rows) and half-written temporary files: the games are replayed and write them again,
        so the records folder holds exactly the done games' (a nondeterministic agent could
        play a replayed game otherwise, and the old record would then lie)."""
        folder = self.path / FOLDER
        if not folder.is_dir():
            return
        for path in folder.iterdir():
            key = key_of(path.name)
            stale = key is not None and key not in self.done
            if stale or (path.name.startswith(".") and path.name.endswith(".tmp")):
                path.unlink()

    def _rewrite(self) -> None:
        """hands.csv and done.txt with exactly the complete games (drops a torn tail)."""
        self._write_atomic("hands.csv", _csv_text(self.rows, header=True))
        self._write_atomic("done.txt", "".join(f"{k}\n" for k in sorted(self.done)))

    def _write_atomic(self, name: str, text: str) -> None:
        tmp = self.path / f".{name}.tmp"
        tmp.write_text(text)
        os.replace(tmp, self.path / name)

    def add(self, key: str, rows: list[dict[str, Any]], record: str | None = None) -> None:
        """Write one finished game's record (when it has one), append its rows, then mark it
        done (each flushed to disk before the next)."""
        if record is not None:
            deal, _, seating = key.partition(":")
            folder = self.path / FOLDER
            folder.mkdir(exist_ok=True)
            name = record_name(int(deal), int(seating))
            tmp = folder / f".{name}.tmp"
            with tmp.open("w", encoding="utf-8") as f:
                f.write(record)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, folder / name)
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
