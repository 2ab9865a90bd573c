"""Ship a trained checkpoint as the package's ``pretrained`` policy (agents/pretrained/policy.pt).

    python scripts/ship_pretrained.py runs/long/ppo/final.pt --config long \\
        --eval runs/long/eval-1000.json [--commit SHA] [--out PATH] [--write-docs]

Copies ``SRC`` with its network config and weights unchanged, bit for bit, and its ``extra``
without the optimizer state (which would triple the file), adding ``extra["shipped"]``: the
training config's name and text (``--config``: a built-in name or a file), the git commit of the
training code (``--commit``; default this repository's HEAD, marked ``+dirty`` when tracked
files differ from it), the date, the source file, the weights' SHA-256 and the evaluation table
(``--eval``: the ``--json`` output of scripts/eval_pretrained.py, or a training run's
``summary.json``). An evaluation that records the weights it played must have played these.
``--name`` names a config file in the metadata (default: the built-in name, or the path as given).
``--write-docs`` then rewrites the section of docs/training.md that describes the shipped
policy. Bad input is refused with one line on stderr (exit 2); nothing is written then.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "agents" / "pretrained" / "policy.pt"
DROPPED = ("optimizer",)
"""Keys of the training checkpoint's ``extra`` left out of the shipped file."""


class Refused(Exception):
    """Bad input: one line for stderr."""


def _commit(given: str | None) -> str:
    if given is not None:
        if not re.fullmatch(r"[0-9a-f]{7,40}(\+dirty)?", given):
            raise Refused(f"--commit {given!r} is not a git commit hash")
        return given
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=ROOT, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        raise Refused("cannot read the git commit here: give --commit SHA") from None
    return head + ("+dirty" if dirty else "")


def _config(name_or_path: str) -> tuple[str, str]:
    """(name, TOML text) of the training config."""
    from mjenv_agents.train.configs import builtin_configs, resolve_config

    try:
        path = resolve_config(name_or_path)
        text = path.read_text(encoding="utf-8")
    except (ValueError, OSError) as exc:
        raise Refused(f"--config: {exc}") from None
    import tomllib

    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise Refused(f"--config {path}: not TOML ({exc})") from None
    name = path.stem if path.stem in builtin_configs() and not Path(name_or_path).is_file() \
        else os.fspath(name_or_path)
    return name, text


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def evaluation(path: Path) -> dict[str, Any]:
    """The evaluation table of an eval_pretrained ``--json`` or a pipeline ``summary.json``,
    reduced to what ships (no local folders); Refused when it does not hold one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise Refused(f"--eval {path}: not a readable JSON file ({exc})") from None
    against = data.get("against") if isinstance(data, dict) else None
    if not isinstance(against, dict) or not against:
        raise Refused(f"--eval {path}: no 'against' table (write it with "
                      "scripts/eval_pretrained.py --json, or give a run's summary.json)")
    table: dict[str, Any] = {}
    for opponent, row in against.items():
        d = row.get("score_difference") if isinstance(row, dict) else None
        if (not isinstance(d, dict) or not all(_number(d.get(k)) for k in ("mean", "low", "high"))
                or not _number(row.get("win_rate")) or not _number(row.get("deal_in_rate"))):
            raise Refused(f"--eval {path}: the row {opponent!r} lacks score_difference "
                          "mean/low/high, win_rate or deal_in_rate")
        table[str(opponent)] = {
            "score_difference": {k: float(v) for k, v in d.items() if _number(v)},
            "win_rate": float(row["win_rate"]), "deal_in_rate": float(row["deal_in_rate"])}
    out: dict[str, Any] = {"against": table}
    for key in ("deals", "seed", "rules", "weights_sha256"):
        if isinstance(data.get(key), (int, str)) and not isinstance(data.get(key), bool):
            out[key] = data[key]
    return out


def ship(src: Path, config: str, eval_json: Path, out: Path, commit: str | None,
         name: str | None = None) -> dict[str, Any]:
    """Write ``out``; returns its shipping metadata. Refused on bad input (nothing written)."""
    import torch

    from mjenv_agents.policy import _check_plain, load_checkpoint
    from mjenv_agents.pretrained import SHIPPED_KEY, weights_sha256

    if not src.is_file():
        raise Refused(f"{src}: no such checkpoint")
    try:
        load_checkpoint(src)  # a valid policy checkpoint: format, config and weights agree
    except Exception as exc:  # noqa: BLE001 - torch's loader raises many kinds on a bad file
        text = (str(exc).strip().splitlines() or [""])[0][:200]
        raise Refused(text if isinstance(exc, ValueError) else
                      f"{src}: not a readable torch checkpoint ({type(exc).__name__}: {text})"
                      ) from None
    data = torch.load(os.fspath(src), map_location="cpu", weights_only=True)
    digest = weights_sha256(data)
    found, text = _config(config)
    name = found if name is None else name
    table = evaluation(eval_json)
    played = table.pop("weights_sha256", None)
    if played is not None and played != digest:
        raise Refused(f"--eval {eval_json} evaluated other weights ({str(played)[:12]}) than "
                      f"{src} ({digest[:12]})")
    extra = {k: v for k, v in data["extra"].items() if k not in DROPPED and k != SHIPPED_KEY}
    shipped = {"config_name": name, "config_text": text, "commit": _commit(commit),
               "date": dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "source": os.fspath(src), "weights_sha256": digest, "evaluation": table}
    extra[SHIPPED_KEY] = shipped
    try:
        _check_plain(extra, "extra")
    except ValueError as exc:
        raise Refused(str(exc)) from None
    payload = {"format": data["format"], "version": data["version"], "config": data["config"],
               "model": data["model"], "extra": extra}
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f"{out.name}.tmp{os.getpid()}")
    try:
        torch.save(payload, tmp)
        os.replace(tmp, out)
    finally:
        if tmp.exists():
            tmp.unlink()
    return shipped


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("src", type=Path, help="the trained checkpoint (e.g. runs/long/ppo/final.pt)")
    p.add_argument("--config", required=True, metavar="PATH_OR_NAME",
                   help="the training config it came from (a built-in name or a TOML file)")
    p.add_argument("--eval", required=True, type=Path, metavar="SUMMARY.json", dest="eval_json",
                   help="its evaluation: scripts/eval_pretrained.py --json, or summary.json")
    p.add_argument("--name", default=None,
                   help="the config's name in the metadata (default: the built-in name or path)")
    p.add_argument("--commit", default=None, help="the training code's commit (default: HEAD)")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="where to write it")
    p.add_argument("--write-docs", nargs="?", const=str(ROOT / "docs" / "training.md"),
                   metavar="PATH", help="rewrite the shipped policy's section of the docs")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        shipped = ship(args.src, args.config, args.eval_json, args.out, args.commit,
                       args.name)
    except Refused as exc:
        print(f"ship_pretrained: {exc}", file=sys.stderr)
        return 2
    from mjenv_agents.pretrained import short_commit

    size = args.out.stat().st_size
    print(f"shipped {args.src} -> {args.out} ({size / 1024:.0f} KiB; config "
          f"{shipped['config_name']}, commit {short_commit(shipped['commit'])}, "
          f"weights {shipped['weights_sha256'][:12]})")
    if args.write_docs:
        from eval_pretrained import write_docs

        from mjenv_agents.pretrained import metadata

        write_docs(Path(args.write_docs), metadata(args.out))
        print(f"wrote the shipped policy's section of {args.write_docs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
