"""Evaluate the shipped ``pretrained`` policy (or any checkpoint) as its metadata reports it.

    python scripts/eval_pretrained.py [--checkpoint PATH] [--deals 1000] [--workers 2]
        [--opponents rule greedy random] [--seed 7] [--json OUT] [--write-docs [PATH]]
    make eval-pretrained                      # the same, with the defaults

The policy plays 1-vs-3 on duplicate deals against each opponent in the arena (mjenv.arena,
exactly as ``mjenv train``'s ``[evaluate]`` stage runs it: the policy greedy, each deal
played with the policy in every seat), with the arena's progress bar; the arena's table is
printed for each opponent, then the summary: score difference per hand with its 95% interval
clustered by deal, win rate and deal-in rate. Runs resume: the arena folders live in
``--out/<weights hash>-<path hash>/<opponent>/``, so a rerun completes an interrupted one and
another checkpoint never reuses them. ``--json OUT`` writes the summary (the table that
scripts/ship_pretrained.py ``--eval`` ships, with the weights' hash); ``--write-docs``
rewrites the marked section of docs/training.md (the shipped checkpoint only).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs" / "training.md"
BEGIN = "<!-- pretrained: begin"
END = "<!-- pretrained: end -->"
OPPONENTS = ("rule", "greedy", "random")


def evaluate(checkpoint: Path, opponents: list[str], deals: int, seed: int, rules: str,
             workers: int, out: Path, progress: bool = True) -> dict[str, Any]:
    """The arena runs; returns the summary (the pipeline's summary.json form plus
    ``weights_sha256``)."""
    import torch

    from mjenv.arena.config import ArenaConfig
    from mjenv.arena.runner import run_arena
    from mjenv.arena.stats import table
    from mjenv_agents.pretrained import weights_sha256

    digest = weights_sha256(torch.load(os.fspath(checkpoint), map_location="cpu",
                                       weights_only=True))
    where = hashlib.sha256(os.fspath(checkpoint.resolve()).encode()).hexdigest()
    run_key = f"{digest[:12]}-{where[:6]}"  # the arena's config names the file: both decide
    summary: dict[str, Any] = {"policy": os.fspath(checkpoint), "weights_sha256": digest,
                               "deals": deals, "seed": seed, "rules": rules, "against": {}}
    for opponent in opponents:
        config = ArenaConfig(agents=(f"policy:{os.fspath(checkpoint)!r}", opponent),
                             names=("pretrained", opponent), deals=deals, seed=seed,
                             rules=rules)
        folder = out / run_key / "".join(c if c.isalnum() or c in "-_." else "_"
                                             for c in opponent)[:80]
        print(f"\narena: pretrained vs 3x {opponent}, {deals} duplicate deals -> {folder}")
        results = run_arena(config, folder, workers=workers, progress=progress)
        print(table(results, config.names))
        me = results["agents"]["pretrained"]
        summary["against"][opponent] = {
            "score_difference": results["score_difference"], "win_rate": me["win_rate"],
            "deal_in_rate": me["deal_in_rate"], "penalties": me["penalties"],
            "folder": os.fspath(folder)}
    return summary


def docs_section(meta: dict[str, Any], size: int) -> str:
    """The marked section of docs/training.md for the shipped checkpoint's metadata."""
    from mjenv_agents.pretrained import evaluation_markdown, short_commit

    net = meta.get("policy_config") or {}
    ev = meta.get("evaluation") or {}
    deals = ev.get("deals", 1000)
    opponents = list(ev.get("against") or OPPONENTS)
    others = "" if opponents == list(OPPONENTS) else " --opponents " + " ".join(opponents)
    lines = [f"{BEGIN} (scripts/eval_pretrained.py --write-docs; do not edit by hand) -->",
             f"`agents/pretrained/policy.pt` ({size / 1024:.0f} KiB): trained with the config "
             f"`{meta.get('config_name', '?')}`",
             f"at commit `{short_commit(meta.get('commit', '?'))}`, shipped "
             f"{meta.get('date', '?')};",
             f"{net.get('channels', '?')} channels, {net.get('blocks', '?')} blocks, features "
             f"`{net.get('features', '?')}`; weights SHA-256 "
             f"`{str(meta.get('weights_sha256', '?'))[:16]}`.", "",
             evaluation_markdown(meta).rstrip("\n"), "",
             f"Reproduce: `make eval-pretrained EVAL_DEALS={deals}` (`python "
             f"scripts/eval_pretrained.py --deals {deals} --seed {ev.get('seed', 7)}{others}`).",
             END]
    return "\n".join(lines) + "\n"


def write_docs(path: Path, meta: dict[str, Any], size: int | None = None) -> None:
    """Rewrite the marked section of ``path`` (appended when the file has no markers)."""
    from benchkit import write_marked_section

    from mjenv_agents.pretrained import CHECKPOINT

    size = CHECKPOINT.stat().st_size if size is None else size
    write_marked_section(path, docs_section(meta, size), BEGIN, END)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--checkpoint", type=Path, default=None,
                   help="the checkpoint to evaluate (default: the shipped one)")
    p.add_argument("--deals", type=int, default=1000, help="duplicate deals per opponent")
    p.add_argument("--opponents", nargs="+", default=list(OPPONENTS), metavar="SPEC")
    p.add_argument("--seed", type=int, default=7, help="the arena's deal seed")
    p.add_argument("--rules", default="mcr", choices=["mcr", "botzone"])
    p.add_argument("--workers", type=int, default=2, help="arena worker processes")
    p.add_argument("--out", type=Path, default=Path("runs/eval-pretrained"),
                   help="the arena folders (resumable)")
    p.add_argument("--json", type=Path, default=None, metavar="OUT", help="write the summary")
    p.add_argument("--write-docs", nargs="?", const=str(DOCS), metavar="PATH",
                   help="rewrite the shipped policy's section of docs/training.md")
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    sys.path.insert(0, str(ROOT / "scripts"))
    from mjenv_agents.pretrained import checkpoint_path, metadata

    try:
        checkpoint = checkpoint_path() if args.checkpoint is None else args.checkpoint
        if not checkpoint.is_file():
            raise ValueError(f"no checkpoint at {checkpoint}")
        if args.deals < 1 or args.workers < 1 or args.seed < 0:
            raise ValueError("--deals and --workers must be >= 1, --seed >= 0")
        if args.write_docs and checkpoint.resolve() != checkpoint_path().resolve():
            raise ValueError("--write-docs describes the shipped checkpoint only "
                             "(ship it first: scripts/ship_pretrained.py --write-docs)")
        meta = metadata(checkpoint) if args.write_docs else None  # refused before playing
        summary = evaluate(checkpoint, args.opponents, args.deals, args.seed, args.rules,
                           args.workers, args.out, progress=not args.no_progress)
    except ValueError as exc:
        print(f"eval_pretrained: {exc}", file=sys.stderr)
        return 2
    from mjenv_agents.pretrained import evaluation_markdown

    print(f"\n{checkpoint}\n")
    print(evaluation_markdown({"evaluation": summary}))
    if args.json:
        args.json.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
        print(f"wrote {args.json}")
    if args.write_docs and meta is not None:
        write_docs(Path(args.write_docs), {**meta, "evaluation": summary},
                   checkpoint.stat().st_size)
        print(f"wrote the shipped policy's section of {args.write_docs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
