"""``mjenv train``: behaviour cloning, then PPO, then an arena evaluation, from one config.

A staged config is a TOML file with shared top-level keys and one table per stage::

    out = "runs/demo"        # the run folder; each stage works in a sub-folder
    seed = 1                 # shared keys, copied into every stage that has them:
    threads = 2              #   seed, threads, device, rules
    rules = "mcr"

    [bc]                     # mjenv_agents.train.bc.Args fields    -> out/bc/
    hands = 600

    [ppo]                    # mjenv_agents.train.ppo.Args fields   -> out/ppo/
    updates = 40             #   init defaults to out/bc/final.pt

    [evaluate]               # arena runs of the result             -> out/eval/<opponent>/
    deals = 200
    opponents = ["random", "greedy", "bc"]   # agent specs; "bc" is the cloned policy
    workers = 2
    seed = 7                 #   the arena's deal seed
    records = "won"          #   keep game records (the arena's --records; default: none)
    control = "bc"           #   also play it in the policy's place (paired; docs/training.md)

Any table may be left out (a config with only ``[bc]`` clones; without ``[evaluate]`` nothing is
played). Overrides are ``stage.key=value`` words (``ppo.updates=5``, ``evaluate.deals=50``) or
``key=value`` for a shared key. Every stage resumes: running the same command again continues
where it stopped (finished stages are skipped, a partial arena run is completed), and a stage
folder holding another config is refused.

The evaluation plays the trained policy (PPO's ``final.pt``, else BC's) 1-vs-3 against each
opponent on duplicate deals and prints the arena's table; ``out/summary.json`` and
``out/summary.md`` collect the score differences with their 95% intervals, and each arena
folder holds its plots (and, with ``records``, its games' records in ``records/``, for
``mjenv view``). With ``control``, the control agent (``bc``: the cloned policy) also plays
1-vs-3 against each opponent on the same deals (``out/eval/control-<opponent>/``), and the
summary adds the policy's score difference minus the control's, paired deal by deal
(mjenv.arena.stats.control_difference): the gain over the control, with a narrower interval
than the difference of the two plain ones.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import bc, common, ppo

if TYPE_CHECKING:
    from mjenv.arena.config import ArenaConfig
from .configs import builtin_configs, resolve_config

SHARED = ("seed", "threads", "device", "rules")
STAGES = ("bc", "ppo", "evaluate")
BC_ALIAS = "bc"
"""In ``[evaluate] opponents``: the behaviour-cloned policy of this run."""


@dataclass
class EvaluateArgs:
    """The ``[evaluate]`` table: arena runs of the trained policy (1-vs-3, duplicate deals)."""

    deals: int = 200
    opponents: tuple[str, ...] = ("random", "greedy")
    workers: int = 1
    seed: int = 7
    rules: str = "mcr"
    records: str = ""
    """the games whose records each arena run keeps in its ``records/`` (the arena's
    ``--records``: all, won, penalized, sample:N or a comma-separated union; empty: none)"""
    control: str = ""
    """an agent spec (``bc``: the cloned policy) that also plays against each opponent on the
    same deals, for the paired estimate of the policy's gain over it (empty: none)"""

    def __post_init__(self) -> None:
        common.check_types(self)
        if self.control and self.control != BC_ALIAS:
            from mjenv.agent import parse_spec

            parse_spec(self.control)  # a malformed spec fails now
        common.require(self, self.deals >= 1, "deals", ">= 1")
        common.require(self, ppo.records_ok(self.records), "records", ppo.RECORDS)
        common.require(self, self.workers >= 1, "workers", ">= 1")
        common.require(self, self.seed >= 0, "seed", ">= 0")
        common.require(self, len(self.opponents) >= 1, "opponents", "a non-empty list")


@dataclass
class Pipeline:
    """A parsed staged config: the run folder and each present stage's settings."""

    out: Path
    bc: bc.Args | None = None
    ppo: ppo.Args | None = None
    evaluate: EvaluateArgs | None = None


def _split_overrides(words: Sequence[str]) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    shared: dict[str, Any] = {}
    staged: dict[str, dict[str, Any]] = {}
    for word in words:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise ValueError(f"override {word!r} is not key=value")
        stage, dot, name = key.partition(".")
        if dot:
            if stage not in STAGES:
                raise ValueError(f"override {word!r}: unknown stage {stage!r} "
                                 f"(stages: {', '.join(STAGES)})")
            staged.setdefault(stage, {})[name] = common.override_value(value)
        else:
            shared[key] = common.override_value(value)
    return shared, staged


def load(config: str | Path, overrides: Sequence[str] = (), out: str | None = None) -> Pipeline:
    """Parse a staged config (plus overrides); ValueError naming anything wrong."""
    data = common.read_toml(config)
    shared_over, staged_over = _split_overrides(overrides)
    data.update(shared_over)
    for stage, values in staged_over.items():
        table = data.setdefault(stage, {})
        if not isinstance(table, dict):
            raise ValueError(f"{config}: {stage} = {table!r} is not a table ([{stage}]), so "
                             f"{stage}.KEY=VALUE cannot override it")
        table.update(values)
    if out is not None:
        data["out"] = out
    tables = {k: v for k, v in data.items() if isinstance(v, dict)}
    top = {k: v for k, v in data.items() if not isinstance(v, dict)}
    unknown_tables = sorted(set(tables) - set(STAGES))
    unknown_keys = sorted(set(top) - {"out", *SHARED})
    if unknown_tables or unknown_keys:
        raise ValueError(f"{config}: unknown tables {unknown_tables} / top-level keys "
                         f"{unknown_keys} (tables: {', '.join(STAGES)}; keys: out, "
                         f"{', '.join(SHARED)})")
    if not tables:
        raise ValueError(f"{config}: no stage table ([bc], [ppo] or [evaluate])")
    if "out" not in top or not isinstance(top["out"], str):
        raise ValueError(f"{config}: needs out = \"FOLDER\" (or --out)")
    root = Path(top["out"])
    pipeline = Pipeline(out=root)
    if "bc" in tables:
        pipeline.bc = common.args_from_dict(
            bc.Args, {**_shared(top, bc.Args), **tables["bc"], "out": str(root / "bc")},
            f"{config} [bc]")
    if "ppo" in tables:
        values = {**_shared(top, ppo.Args), **tables["ppo"], "out": str(root / "ppo")}
        if "init" not in tables["ppo"] and pipeline.bc is not None:
            values["init"] = str(root / "bc" / "final.pt")
        pipeline.ppo = common.args_from_dict(ppo.Args, values, f"{config} [ppo]")
    if "evaluate" in tables:
        values = {k: top[k] for k in ("rules",) if k in top}
        pipeline.evaluate = common.args_from_dict(
            EvaluateArgs, {**values, **tables["evaluate"]}, f"{config} [evaluate]")
        if BC_ALIAS in (*pipeline.evaluate.opponents, pipeline.evaluate.control) \
                and pipeline.bc is None:
            raise ValueError(f"{config} [evaluate]: opponent or control 'bc' needs a [bc] stage")
        if pipeline.bc is None and pipeline.ppo is None:
            raise ValueError(f"{config}: [evaluate] needs a [bc] or [ppo] stage to evaluate")
    return pipeline


def _shared(top: Mapping[str, Any], cls: type) -> dict[str, Any]:
    names = {f.name for f in fields(cls)}
    return {k: top[k] for k in SHARED if k in top and k in names}


def trained_policy(pipeline: Pipeline) -> Path:
    """The checkpoint the run produces: PPO's ``final.pt``, else BC's."""
    stage = "ppo" if pipeline.ppo is not None else "bc"
    return pipeline.out / stage / "final.pt"


def _spec(pipeline: Pipeline, agent: str) -> str:
    """The agent spec of an ``[evaluate]`` opponent or control (``bc``: the cloned policy)."""
    return f"policy:{pipeline.out / 'bc' / 'final.pt'}" if agent == BC_ALIAS else agent


def evaluate(pipeline: Pipeline, progress: bool = True) -> dict[str, Any]:
    """Arena runs of the trained policy against each opponent (and of the control, when there
    is one); writes summary.json/.md."""
    from mjenv.arena.config import ArenaConfig
    from mjenv.arena.runner import run_arena
    from mjenv.arena.stats import table

    ev = pipeline.evaluate
    assert ev is not None
    policy = trained_policy(pipeline)
    name = "ppo" if pipeline.ppo is not None else "bc"
    summary: dict[str, Any] = {"policy": str(policy), "deals": ev.deals, "seed": ev.seed,
                               "rules": ev.rules, "against": {}}
    if ev.control:
        summary["control"] = ev.control
    for opponent in ev.opponents:
        spec = _spec(pipeline, opponent)
        if opponent == BC_ALIAS and name == "bc":
            continue
        config = ArenaConfig(agents=(f"policy:{policy}", spec), names=(name, opponent),
                             deals=ev.deals, seed=ev.seed, rules=ev.rules)
        folder = pipeline.out / "eval" / _folder_name(opponent)
        print(f"\narena: {name} vs 3x {opponent}, {ev.deals} duplicate deals -> {folder}")
        results = run_arena(config, folder, workers=ev.workers, progress=progress,
                            records=ev.records or None)
        print(table(results, config.names))
        diff = results["score_difference"]
        me = results["agents"][name]
        summary["against"][opponent] = {
            "score_difference": diff, "win_rate": me["win_rate"],
            "deal_in_rate": me["deal_in_rate"], "folder": str(folder)}
        if ev.records:  # where to point mjenv view
            summary["against"][opponent]["records"] = str(folder / "records")
        if ev.control and not (ev.control == BC_ALIAS and name == "bc"):
            paired = _control_run(pipeline, config, folder, opponent, progress)
            summary["against"][opponent]["control_difference"] = paired
            print(f"minus control {ev.control}: {paired['mean']:+.2f} per hand, 95% CI "
                  f"[{paired['low']:+.2f}, {paired['high']:+.2f}] (paired by deal)")
    (pipeline.out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n",
                                                encoding="utf-8")
    (pipeline.out / "summary.md").write_text(summary_markdown(summary, name), encoding="utf-8")
    return summary


def _control_run(pipeline: Pipeline, config: ArenaConfig, folder: Path, opponent: str,
                 progress: bool) -> dict[str, float]:
    """The control's arena run against ``opponent`` on the deals of ``config`` (in
    ``out/eval/control-<opponent>/``, resumable) and the policy's paired difference from it.
    A control that is the opponent itself plays four copies of one agent, whose per-deal
    difference is zero (mjenv.arena.stats.control_difference): nothing to play."""
    from dataclasses import replace as replace_config

    from mjenv.arena.runner import run_arena
    from mjenv.arena.stats import control_difference, difference

    from .ppo import arena_rows

    ev = pipeline.evaluate
    assert ev is not None
    names = tuple(config.names)
    rows = arena_rows(folder)
    if ev.control == opponent:
        return difference(rows, names[0], names[1])
    control = replace_config(config, agents=(_spec(pipeline, ev.control), config.agents[1]),
                             names=("control", opponent))
    where = pipeline.out / "eval" / _folder_name(f"control-{opponent}")
    print(f"arena: control {ev.control} vs 3x {opponent}, {ev.deals} duplicate deals -> {where}")
    run_arena(control, where, workers=ev.workers, progress=progress)
    return control_difference(rows, names, arena_rows(where), ("control", opponent))


def _folder_name(label: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in label)[:80]


def summary_markdown(summary: Mapping[str, Any], name: str) -> str:
    control = summary.get("control")
    lines = [f"# {name}: {summary['policy']}", "",
             f"1-vs-3 on {summary['deals']} duplicate deals (seed {summary['seed']}, "
             f"{summary['rules']}); score difference per hand with its 95% interval."
             + (f" Minus control: the score difference minus that of `{control}` on the same "
                "deals and seats, paired by deal." if control else ""), "",
             "| opponent | score difference | 95% CI | win rate | deal-in rate |"
             + (" minus control | 95% CI |" if control else ""),
             "|---|---:|---|---:|---:|" + ("---:|---|" if control else "")]
    for opponent, row in summary["against"].items():
        d = row["score_difference"]
        line = (f"| {opponent} | {d['mean']:+.2f} | [{d['low']:+.2f}, {d['high']:+.2f}] | "
                f"{row['win_rate']:.1%} | {row['deal_in_rate']:.1%} |")
        if control:
            c = row.get("control_difference")
            line += (f" {c['mean']:+.2f} | [{c['low']:+.2f}, {c['high']:+.2f}] |" if c
                     else " - | - |")
        lines.append(line)
    return "\n".join(lines) + "\n"


def run(pipeline: Pipeline, progress: bool = True) -> Path:
    """Every stage in order (each resumes); returns the trained checkpoint."""
    pipeline.out.mkdir(parents=True, exist_ok=True)
    if pipeline.bc is not None:
        print(f"== behaviour cloning -> {pipeline.bc.out}")
        bc.train(pipeline.bc)
    if pipeline.ppo is not None:
        print(f"== PPO self-play -> {pipeline.ppo.out}")
        if pipeline.ppo.init and not Path(pipeline.ppo.init).exists():
            raise ValueError(f"[ppo] init {pipeline.ppo.init} does not exist")
        ppo.train(pipeline.ppo)
    if pipeline.evaluate is not None:
        print("== evaluation in the arena")
        evaluate(pipeline, progress)
    return trained_policy(pipeline)


def _builtin_names() -> list[str]:
    try:
        return list(builtin_configs())
    except ValueError:  # not installed: --help still works
        return []


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="mjenv train", description="Train a policy: behaviour cloning, PPO self-play, "
        "arena evaluation (stages from a TOML config; see configs/README.md).")
    parser.add_argument("--config", required=True, metavar="NAME|PATH",
                        help="a staged TOML config: a file, or a built-in name "
                        f"({', '.join(_builtin_names())})")
    parser.add_argument("--out", help="the run folder (overrides the config's out)")
    parser.add_argument("--no-progress", action="store_true", help="no progress bars")
    parser.add_argument("overrides", nargs="*", metavar="[stage.]key=value")
    ns = parser.parse_args(argv)
    try:
        pipeline = load(resolve_config(ns.config), ns.overrides, ns.out)
        final = run(pipeline, progress=not ns.no_progress)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"\ntrained policy: {final} (agent spec 'policy:{final}')")
    return 0


__all__ = ["EvaluateArgs", "Pipeline", "evaluate", "load", "main", "run", "trained_policy"]


if __name__ == "__main__":
    raise SystemExit(main())
