"""What ``bench_fans.py`` and ``bench_shanten.py`` share: timing against PyMahjongGB and reporting.

Both scripts measure some mjenv calls next to PyMahjongGB 1.4.0 the same way:

* every input is built (and checked, untimed) before timing; a *round* times each pass of
  ``round_`` in turn on the same inputs, a pass named ``*.cold`` right after the script's
  ``clear_tables()``, with ``gc.collect()`` before every pass (:func:`run_rounds`);
* a table row gives the median and min–max rate over the rounds and, against a reference row,
  the ratio taken round by round with an optional acceptance target (:class:`Row`,
  :func:`rate_cells`, :func:`ratio_cells`);
* ``--pure`` runs the script again in a subprocess over a copy of the package's ``.py`` files
  only, so no compiled module can load (:func:`copy_pure_package`, :func:`measure_pure`);
* the command line, the printed report and ``--write-docs`` are the same (:func:`main`).

Not a package: the scripts import it as ``benchkit`` from their own directory, which Python
puts first on ``sys.path`` when it runs a script.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from importlib.metadata import version
from pathlib import Path
from time import perf_counter
from typing import Any, TypeVar

import mjenv
from mjenv.melds import CHOW, CONCEALED_KONG, PUNG, Meld
from mjenv.tiles import tile_code

ROOT = Path(__file__).resolve().parents[1]
ACCEPT_HANDS = 10_000  # the issues' acceptance sizes; smaller runs are marked as smoke runs
ACCEPT_RUNS = 5

Inputs = TypeVar("Inputs")
Result = dict[str, Any]  # one measured build: files, stale, checks, seconds (+ script extras)

# ---------------------------------------------------------------- PyMahjongGB's input form


def gb_pack(m: Meld) -> tuple[str, str, int]:
    """A meld as PyMahjongGB's pack: offer = 4 - from; a chow names its middle tile and the
    position (1..3) of the claimed tile; a concealed kong has offer 0."""
    if m.kind == CHOW:
        claimed = m.claimed if m.claimed is not None else m.tiles[1]
        return ("CHI", tile_code(m.tiles[1]), claimed - m.tiles[0] + 1)
    if m.kind == CONCEALED_KONG:
        return ("GANG", tile_code(m.tiles[0]), 0)
    offer = 4 - (m.from_offset if m.from_offset is not None else 3)
    return ("PENG" if m.kind == PUNG else "GANG", tile_code(m.tiles[0]), offer)


# ---------------------------------------------------------------- timing


def run_rounds(inp: Inputs, runs: int, round_: Sequence[tuple[str, Callable[[Inputs], float]]],
               clear_tables: Callable[[], None]) -> dict[str, list[float]]:
    """Seconds of every pass of ``round_`` (name, timed function), ``runs`` rounds each."""
    seconds: dict[str, list[float]] = {name: [] for name, _ in round_}
    for r in range(runs):
        t0 = perf_counter()
        for name, timed in round_:
            if name.endswith(".cold"):
                clear_tables()
            gc.collect()
            seconds[name].append(timed(inp))
        print(f"  round {r + 1}/{runs}: {perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return seconds


def measure(files: dict[str, str], prepare: Callable[[], tuple[Inputs, dict[str, Any]]],
            round_: Sequence[tuple[str, Callable[[Inputs], float]]],
            clear_tables: Callable[[], None], runs: int) -> Result:
    """Measure the build that ``files`` (module name -> file) come from: ``prepare()`` builds
    and checks the inputs, then ``runs`` rounds are timed."""
    print(f"mjenv from {Path(mjenv.__file__ or '?').parent}: {build_of(files)}", file=sys.stderr)
    stale = stale_modules(files)
    if stale:
        print(f"WARNING: stale compiled modules (older than their source): {stale}",
              file=sys.stderr)
    t0 = perf_counter()
    inp, checks = prepare()
    print(f"  inputs built and checked: {perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return {"files": files, "stale": stale, "checks": checks,
            "seconds": run_rounds(inp, runs, round_, clear_tables)}


# ---------------------------------------------------------------- builds


def build_of(files: dict[str, str]) -> str:
    """"pure Python", "compiled (mypyc)" or "mixed", from the measured modules' files."""
    kinds = {Path(f).suffix == ".py" for f in files.values()}
    if kinds == {True}:
        return "pure Python"
    if kinds == {False}:
        return "compiled (mypyc)"
    return "mixed"


def stale_modules(files: dict[str, str]) -> list[str]:
    """Compiled modules older than their source (they would measure old code)."""
    out = []
    for f in map(Path, files.values()):
        stem = f.name.split(".")[0]
        sources = [f.with_name(stem + ".py"), f.with_name(stem + ".c")]
        if f.suffix != ".py" and any(s.exists() and s.stat().st_mtime > f.stat().st_mtime
                                     for s in sources):
            out.append(f.name)
    return out


def copy_pure_package(tmp: str) -> None:
    """Copy the mjenv package's .py files (nothing compiled) into ``tmp``."""
    shutil.copytree(Path(mjenv.__file__ or "").parent, Path(tmp) / "mjenv",
                    ignore=lambda d, names: [x for x in names if x == "__pycache__" or (
                        (Path(d) / x).is_file() and not x.endswith(".py"))])


def measure_pure(script: str, tmp: str, hands: int, runs: int, seed: int) -> Result:
    """The same measurement: ``script`` run in a subprocess importing the .py-only copy in
    ``tmp`` (see :func:`copy_pure_package`), its result passed back as JSON."""
    out = Path(tmp) / "result.json"
    cmd = [sys.executable, script, "--hands", str(hands), "--runs", str(runs),
           "--seed", str(seed), "--emit-json", str(out)]
    with subprocess.Popen(cmd, env={**os.environ, "PYTHONPATH": tmp}, text=True,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT) as proc:
        assert proc.stdout is not None
        for line in proc.stdout:  # its progress, passed on as it comes
            print(f"  [pure] {line}", end="", file=sys.stderr, flush=True)
    if proc.returncode:
        raise RuntimeError(f"the pure-Python run failed (exit status {proc.returncode})")
    res: Result = json.loads(out.read_text())
    if not all(f.startswith(tmp) for f in res["files"].values()):
        raise RuntimeError(f"the pure-Python run imported {res['files']}, not the copy")
    return res


# ---------------------------------------------------------------- machine


def machine(**extra: str) -> dict[str, str]:
    """Cores, CPU model, Python, platform, PyMahjongGB and mjenv versions, the source revision,
    and ``extra`` (e.g. other libraries' versions)."""
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": str(os.cpu_count()), "cpu": cpu, "python": platform.python_version(),
            "platform": platform.platform(), **extra, "PyMahjongGB": version("PyMahjongGB"),
            "mjenv": mjenv.__version__, "source": source_revision()}


def source_revision() -> str:
    """The git commit measured, and whether mjenv/ had uncommitted changes."""
    try:
        git = ["git", "-C", str(ROOT)]
        head = subprocess.run([*git, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run([*git, "status", "--porcelain", "--", "mjenv"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return f"commit {head}" + (" with uncommitted changes in mjenv/" if dirty else "")


# ---------------------------------------------------------------- tables


@dataclass(frozen=True)
class Row:
    """One table row: the pass ``key`` measured, labelled ``system``."""

    key: str
    system: str
    ref: str | None = None  # ratio against this row's key, round by round
    target: float | None = None  # acceptance: median ratio at least this


def num(x: float) -> str:
    """A rate: thousands separated from 100 up, three significant digits below."""
    return f"{x:,.0f}" if x >= 100 else f"{x:.3g}"


def ratio(x: float) -> str:
    return f"{x:.2f}" if x < 10 else f"{x:.1f}"


def rate_cells(rates: list[float]) -> tuple[str, str, str]:
    """Median, min–max and µs per call of one row's per-round rates (calls per second)."""
    med = statistics.median(rates)
    return num(med), f"{num(min(rates))}–{num(max(rates))}", f"{1e6 / med:.2f}"


def ratio_cells(row: Row, rates: dict[str, list[float]]) -> tuple[str, str, str]:
    """Ratio (median, min–max of rounds), target and result of ``row``: "—" where none."""
    ratio_ = target = result = "—"
    if row.ref is not None:
        per_round = [a / b for a, b in zip(rates[row.key], rates[row.ref], strict=True)]
        m = statistics.median(per_round)
        ratio_ = f"{ratio(m)} ({ratio(min(per_round))}–{ratio(max(per_round))})"
        if row.target is not None:
            target = f"≥ 1/{round(1 / row.target)}"
            result = "pass" if m >= row.target else "**FAIL**"
    return ratio_, target, result


def build_line(res: Result) -> str:
    """The "Build measured: ..." line heading one build's tables."""
    files = ", ".join(f"`{Path(f).name}`" for f in res["files"].values())
    stale = ", ".join(res["stale"])
    stale = f" — **STALE, older than the source: {stale}**" if stale else ""
    return f"Build measured: **{build_of(res['files'])}** ({files}){stale}"


# ---------------------------------------------------------------- command line


def main(argv: Sequence[str] | None, *, script: str, description: str, seed: int,
         hands_help: str, docs_path: Path, docs_help: str,
         measure: Callable[[int, int, int], Result], render: Callable[[Result], str], heading: str,
         docs: Callable[[list[str], list[Result], str, str], str]) -> int:
    """The scripts' shared command line: measure (and with ``--pure`` the pure-Python build),
    print the smoke-run note and ``render`` of each build under ``heading``, and with
    ``--write-docs`` write ``docs(argv, results, note, body)``.

    ``measure(hands, runs, seed)`` measures the build imported; ``script`` is rerun for
    ``--pure`` (its hidden ``--emit-json`` only measures and writes the result)."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--hands", type=int, default=ACCEPT_HANDS, help=hands_help)
    p.add_argument("--runs", type=int, default=ACCEPT_RUNS, help="interleaved rounds")
    p.add_argument("--seed", type=int, default=seed, help="sample seed")
    p.add_argument("--pure", action="store_true", help="also measure the pure-Python build")
    p.add_argument("--write-docs", nargs="?", const=str(docs_path), metavar="PATH",
                   help=f"{docs_help} (default {docs_path.relative_to(ROOT)})")
    p.add_argument("--emit-json", help=argparse.SUPPRESS)  # used by --pure's subprocess
    args = p.parse_args(argv)
    if args.hands < 1 or args.runs < 1:
        p.error("--hands and --runs must be positive")
    argv_used = list(sys.argv[1:] if argv is None else argv)

    with tempfile.TemporaryDirectory(prefix="mjenv-pure-") as tmp:
        if args.pure and not args.emit_json:
            copy_pure_package(tmp)  # now, so both builds measure the same sources
        results = [measure(args.hands, args.runs, args.seed)]
        if args.emit_json:
            Path(args.emit_json).write_text(json.dumps(results[0]))
            return 0
        if args.pure:
            if build_of(results[0]["files"]) == "pure Python":
                print("--pure: the main run already measured pure Python", file=sys.stderr)
            else:
                results.append(measure_pure(script, tmp, args.hands, args.runs, args.seed))

    smoke = args.hands < ACCEPT_HANDS or args.runs < ACCEPT_RUNS
    note = (f"**Smoke run, not an acceptance measurement** (acceptance needs --hands ≥ "
            f"{ACCEPT_HANDS:,} and --runs ≥ {ACCEPT_RUNS}).\n\n" if smoke else "")
    body = "\n".join(render(res) for res in results)
    print(f"\n{heading}, {args.runs} interleaved rounds, seed {args.seed}\n")
    print(note + body)
    if args.write_docs:
        path = Path(args.write_docs)
        text = docs(argv_used, results, note, body)
        path.write_text(text + kept_sections(path), encoding="utf-8")
        print(f"wrote {path}")
    return 0


def write_marked_section(path: Path, text: str, begin: str, end: str) -> None:
    """Replace the section of ``path`` between the ``begin`` and ``end`` markers with ``text``
    (which carries both markers), or append it if the file has none; the rest is kept."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if begin in old and end in old:
        head, rest = old.split(begin, 1)
        tail = rest.split(end, 1)[1].lstrip("\n")
        new = head + text + ("\n" + tail if tail else "")
    elif begin in old or end in old:
        raise SystemExit(f"{path}: only one of the markers {begin!r} / {end!r} is present; "
                         "fix the file by hand")
    else:
        new = old.rstrip("\n") + ("\n\n" if old.strip() else "") + text
    path.write_text(new, encoding="utf-8")


def kept_sections(path: Path) -> str:
    """The sections other scripts own in ``path`` (between ``<!-- NAME: begin`` and
    ``<!-- NAME: end -->`` markers), kept when this script rewrites the file."""
    if not path.exists():
        return ""
    old = path.read_text(encoding="utf-8")
    kept = []
    for match in re.finditer(r"<!-- (\S+): begin.*?<!-- \1: end -->\n?", old, re.S):
        kept.append(match.group(0))
    return "".join("\n" + k for k in kept)


def live_turns(env: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    """The AEC loop of one hand of ``env`` (a ``raw_env``, reset by the caller): yields (seat,
    observation dict) for each seat to act, which the caller answers with ``env.step(action)``
    before asking for the next; a finished seat's ``None`` step is taken here."""
    for agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        yield env.agents.index(agent), obs
