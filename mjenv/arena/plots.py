"""The arena's PNG plots: score distribution, fan frequencies, the running score (difference)
with its 95% interval over deals. matplotlib (the ``plots`` extra) draws them off-screen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mjenv.arena.config import ArenaConfig
from mjenv.arena.stats import _per_deal, mean_ci, running_difference
from mjenv.fans.table import FAN_BY_ZH


def write_plots(rows: list[dict[str, Any]], config: ArenaConfig, results: dict[str, Any],
                out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = config.names
    written = []

    fig, ax = plt.subplots(figsize=(7, 4))
    for name in names:
        scores = [r["score"] for r in rows if r["agent"] == name]
        if scores:
            ax.hist(scores, bins=40, alpha=0.5, label=name)
    ax.set_xlabel("score per hand")
    ax.set_ylabel("hands")
    ax.set_yscale("log")
    ax.set_title("Score distribution")
    ax.legend()
    written.append(_save(fig, out / "score_distribution.png"))

    fig, ax = plt.subplots(figsize=(8, 5))
    fans: dict[str, dict[str, float]] = {n: results["agents"][n].get("fan_frequency", {})
                                         for n in names}
    top = sorted({f for d in fans.values() for f in d},
                 key=lambda f: -max(d.get(f, 0.0) for d in fans.values()))[:20]
    width = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        ax.barh([j + i * width for j in range(len(top))],
                [fans[name].get(f, 0.0) for f in top], height=width, label=name)
    labels = [f"{FAN_BY_ZH[f].en}" if f in FAN_BY_ZH else f for f in top]  # fonts lack CJK
    ax.set_yticks([j + 0.4 - width / 2 for j in range(len(top))], labels=labels)
    ax.invert_yaxis()
    ax.set_xlabel("per hand")
    ax.set_title("Fan frequency (20 most frequent)")
    ax.legend()
    written.append(_save(fig, out / "fan_frequency.png"))

    fig, ax = plt.subplots(figsize=(7, 4))
    if config.mode == "1v3":
        series = {f"{names[0]} - {names[1]}": running_difference(rows, names[0], names[1])}
    else:
        series = {}
        for name in names:
            per_deal = _per_deal(rows, name)
            values: list[float] = []
            running = []
            for d in sorted(per_deal):
                values.append(per_deal[d])
                running.append(mean_ci(values))
            series[name] = running
    for label, running in series.items():
        x = list(range(1, len(running) + 1))
        ax.plot(x, [p["mean"] for p in running], label=label)
        ax.fill_between(x, [p["low"] for p in running], [p["high"] for p in running], alpha=0.2)
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("deals")
    ax.set_ylabel("mean score per hand" if config.mode != "1v3" else "score difference per hand")
    ax.set_title("Running mean with its 95% interval")
    ax.legend()
    written.append(_save(fig, out / "running_score.png"))
    return written


def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
