"""``PretrainedAgent`` (spec ``pretrained``): the trained policy that ships inside the package.

The checkpoint is package data, ``mjenv_agents/pretrained/policy.pt`` (the folder
``agents/pretrained/`` of the repository), an ordinary :mod:`mjenv_agents.policy` checkpoint
whose ``extra`` holds, under ``"shipped"``, what it is (written by
``scripts/ship_pretrained.py``; :func:`metadata` reads it back)::

    {"config_name": "long", "config_text": "<the training config, TOML>",
     "commit": "<git commit of the training code>", "date": "2026-12-01T18:00:00Z",
     "source": "runs/long/ppo/final.pt",
     "evaluation": {"deals": 1000, "seed": 7, "rules": "mcr",
                    "against": {"rule": {"score_difference": {"mean": ..., "low": ...,
                                                              "high": ...},
                                         "win_rate": ..., "deal_in_rate": ...}, ...}}}

Nothing here knows the numbers: a new checkpoint replaces the file and brings its own.

``pretrained`` is a :class:`~mjenv_agents.policy.PolicyAgent` on that file with the same options
(``device``, ``greedy`` (default True), ``seed``); ``path`` points it at another copy of the
checkpoint (the Botzone zip unpacks it elsewhere: :mod:`mjenv.botzone.package` reads
:meth:`PretrainedAgent.packaged_checkpoint` to embed it). A missing or unreadable file is a
one-line ValueError.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any, ClassVar

import torch

from ..policy import CHECKPOINT_FORMAT, PolicyAgent

CHECKPOINT = Path(__file__).resolve().parent / "policy.pt"
"""The packaged checkpoint."""

SHIPPED_KEY = "shipped"
"""The key of ``extra`` that holds the shipping metadata."""

def checkpoint_path() -> Path:
    """The packaged checkpoint's path; ValueError (one line) when the file is missing."""
    if not CHECKPOINT.is_file():
        raise ValueError(f"the packaged checkpoint {CHECKPOINT} is missing (reinstall mjenv, "
                         "or ship one with scripts/ship_pretrained.py)")
    return CHECKPOINT


def _load_extra(path: Path) -> dict[str, Any]:
    try:
        data = torch.load(os.fspath(path), map_location="cpu", weights_only=True)
    except Exception as exc:  # noqa: BLE001 - torch's loader raises many kinds on a bad file
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise ValueError(f"{path}: not a readable checkpoint ({type(exc).__name__}: "
                         f"{first[:200]})") from None
    if not isinstance(data, dict) or data.get("format") != CHECKPOINT_FORMAT:
        raise ValueError(f"{path}: not an {CHECKPOINT_FORMAT!r} checkpoint")
    extra = data.get("extra")
    if not isinstance(extra, dict):
        raise ValueError(f"{path}: checkpoint 'extra' is not a dict")
    return {**extra, "_policy_config": data.get("config")}


def weights_sha256(data: dict[str, Any]) -> str:
    """SHA-256 of a loaded checkpoint's network: its config and every tensor of its weights
    (name, dtype, shape, bytes), independent of ``extra`` and of how the file was pickled."""
    digest = hashlib.sha256(json.dumps(data["config"], sort_keys=True).encode())
    for name in sorted(data["model"]):
        tensor = data["model"][name].detach().cpu().contiguous()
        digest.update(f"{name}|{tensor.dtype}|{tuple(tensor.shape)}|".encode())
        digest.update(tensor.reshape(-1).view(torch.uint8).numpy().tobytes())
    return digest.hexdigest()


def metadata(path: str | os.PathLike[str] | None = None) -> dict[str, Any]:
    """What the shipped checkpoint (or the one at ``path``) says about itself: its
    ``extra["shipped"]`` (training config name and text, commit, date, source, evaluation) plus
    ``policy_config`` (the network's shape). ValueError (one line) when the file is missing,
    unreadable or was not written by ``scripts/ship_pretrained.py``."""
    where = checkpoint_path() if path is None else Path(path)
    if not where.is_file():
        raise ValueError(f"no checkpoint at {where}")
    extra = _load_extra(where)
    shipped = extra.get(SHIPPED_KEY)
    if not isinstance(shipped, dict):
        raise ValueError(f"{where}: no shipping metadata (extra[{SHIPPED_KEY!r}]); write it "
                         "with scripts/ship_pretrained.py")
    return {**shipped, "policy_config": extra["_policy_config"]}


def evaluation_markdown(meta: dict[str, Any]) -> str:
    """The evaluation of :func:`metadata` as a Markdown table (one row per opponent)."""
    ev = meta.get("evaluation") or {}
    against = ev.get("against") or {}
    if not against:
        return "(no evaluation recorded)\n"
    lines = [f"1-vs-3 on {ev.get('deals', '?')} duplicate deals (seed {ev.get('seed', '?')}, "
             f"{ev.get('rules', '?')} rules);",
             "score difference per hand with its 95% interval clustered by deal.", "",
             "| pretrained vs 3× | score difference | 95% CI | win rate | deal-in rate |",
             "|---|---:|---|---:|---:|"]
    for opponent, row in against.items():
        d = row["score_difference"]
        lines.append(f"| {opponent} | {d['mean']:+.2f} | [{d['low']:+.2f}, {d['high']:+.2f}] "
                     f"| {row['win_rate']:.1%} | {row['deal_in_rate']:.1%} |")
    return "\n".join(lines) + "\n"


def short_commit(commit: object) -> str:
    """A commit as the docs show it: 12 digits, ``+dirty`` kept."""
    text = str(commit)
    return text[:12] + ("+dirty" if text.endswith("+dirty") else "")


def describe(meta: dict[str, Any]) -> str:
    """A few lines on the shipped policy: config, network, commit, date, evaluation."""
    net = meta.get("policy_config") or {}
    return "\n".join([
        f"pretrained: trained with config {meta.get('config_name', '?')!s}, commit "
        f"{short_commit(meta.get('commit', '?'))}, shipped {meta.get('date', '?')}",
        f"network: {net.get('channels', '?')} channels, {net.get('blocks', '?')} blocks, "
        f"features {net.get('features', '?')}",
        "", evaluation_markdown(meta).rstrip("\n")]) + "\n"


class PretrainedAgent(PolicyAgent):
    """The shipped policy (spec ``pretrained``; options ``device``, ``greedy``, ``seed``, and
    ``path`` for a copy of the checkpoint elsewhere). Takes no ``:`` argument."""

    spec_argument: ClassVar[str] = ""
    """No ``pretrained:ARG`` (an empty name: mjenv.agent.spec_argument reads it as none)."""

    def __init__(self, device: str = "cpu", greedy: bool = True, seed: int | None = None,
                 path: str | None = None) -> None:
        where = checkpoint_path() if path is None else Path(path)
        if not where.is_file():
            raise ValueError(f"no checkpoint at {where}")
        super().__init__(os.fspath(where), device=device, greedy=greedy, seed=seed)

    @staticmethod
    def packaged_checkpoint() -> Path:
        """The file a Botzone zip embeds for this agent (mjenv.botzone.package)."""
        return checkpoint_path()


__all__ = ["CHECKPOINT", "SHIPPED_KEY", "PretrainedAgent", "checkpoint_path", "describe",
           "evaluation_markdown", "metadata", "short_commit", "weights_sha256"]
