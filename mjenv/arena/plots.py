"""The arena's PNG plots: score distribution, fan frequencies, the running score (difference)
with its 95% interval over deals. matplotlib (the ``plots`` extra) draws them off-screen.

Made to be read by people comparing agents:

- Every agent's numbers are normalised by its own hands (percentages, rates per 100 hands):
  in 1-vs-3 the baseline plays three times the challenger's hands, and raw counts would
  hide the challenger behind it.
- The score histogram's bins are shared by the agents and centred on multiples of their
  width (a hand's score is an integer: -8, 0, +24 ... each fall in one bin, the same for
  every agent), drawn as outlines so that no agent covers another.
- Fan names are in English and Chinese when matplotlib has a font with Chinese glyphs
  (:func:`cjk_font`), else in English only: no missing-glyph warnings, no boxes.
"""

from __future__ import annotations

import functools
import math
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from mjenv.arena.config import ArenaConfig
from mjenv.arena.stats import _per_deal, mean_ci, running_difference
from mjenv.fans.table import FAN_BY_ZH

CJK_FONTS = ("WenQuanYi Micro Hei", "WenQuanYi Zen Hei", "Noto Sans CJK SC", "Noto Sans SC",
             "Source Han Sans SC", "Source Han Sans CN", "Microsoft YaHei", "SimHei",
             "PingFang SC", "Heiti SC", "Hiragino Sans GB", "Droid Sans Fallback",
             "AR PL UMing CN", "AR PL UKai CN")
"""Fonts with Chinese glyphs, tried in this order before asking fontconfig."""
BIN_WIDTHS = (1, 2, 4, 5, 8, 10, 16, 20, 25, 40, 50, 100, 200, 500)
TOP_FANS = 20


@functools.cache
def cjk_font() -> str | None:
    """The name of a font matplotlib can use for Chinese, or None: one of :data:`CJK_FONTS`
    that matplotlib knows, else the first family ``fc-list :lang=zh`` names that it knows."""
    from matplotlib import font_manager

    known = {f.name for f in font_manager.fontManager.ttflist}
    for name in CJK_FONTS:
        if name in known:
            return name
    try:
        listed = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True,
                                text=True, timeout=10, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    for line in listed.splitlines():
        for family in line.split(","):
            if family.strip() in known:
                return family.strip()
    return None


def fan_label(zh: str, chinese: bool) -> str:
    """``Self-Drawn 自摸`` (``Self-Drawn`` without ``chinese``); an unknown name as it is."""
    fan = FAN_BY_ZH.get(zh)
    if fan is None:
        return zh
    return f"{fan.en} {fan.zh}" if chinese else fan.en


def score_bins(scores: Sequence[int], target: int = 40) -> list[float]:
    """Shared bin edges for integer scores: a width from :data:`BIN_WIDTHS` giving about
    ``target`` bins, the bins centred on multiples of it (so 0 sits in the middle of one)."""
    low, high = min(scores, default=0), max(scores, default=0)
    width = next((w for w in BIN_WIDTHS if (high - low) / w <= target), BIN_WIDTHS[-1])
    first = math.floor(low / width) * width
    last = math.ceil(high / width) * width
    return [first - width / 2 + k * width for k in range((last - first) // width + 2)]


def write_plots(rows: list[dict[str, Any]], config: ArenaConfig, results: dict[str, Any],
                out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cjk = cjk_font()
    family = ["DejaVu Sans", cjk] if cjk else ["DejaVu Sans"]
    with plt.rc_context({"font.family": family, "axes.spines.top": False,
                         "axes.spines.right": False}):
        return [_score_distribution(plt, rows, config, out),
                _fan_frequency(plt, config, results, out, chinese=cjk is not None),
                _running_score(plt, rows, config, out)]


def score_histogram(rows: Sequence[dict[str, Any]], names: Sequence[str],
                    ) -> tuple[list[float], dict[str, list[float]]]:
    """Shared bin edges (:func:`score_bins`) and, per agent with hands, the percentage of its
    own hands in each bin (they add up to 100 for every agent)."""
    scores = {name: [int(r["score"]) for r in rows if r["agent"] == name] for name in names}
    bins = score_bins([s for v in scores.values() for s in v])
    width = bins[1] - bins[0]
    percents = {}
    for name, mine in scores.items():
        if mine:
            counts = [0] * (len(bins) - 1)
            for score in mine:
                counts[int((score - bins[0]) // width)] += 1
            percents[name] = [100 * c / len(mine) for c in counts]
    return bins, percents


def _score_distribution(plt: Any, rows: list[dict[str, Any]], config: ArenaConfig,
                        out: Path) -> Path:
    """Each agent's scores as a percentage of its own hands (log scale: the big wins are
    rare), with its mean as a dashed line."""
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bins, percents = score_histogram(rows, config.names)
    for i, name in enumerate(config.names):
        if name not in percents:
            continue
        mine = [int(r["score"]) for r in rows if r["agent"] == name]
        color = f"C{i}"
        mean = sum(mine) / len(mine)
        ax.stairs(percents[name], bins, linewidth=1.8, color=color,
                  label=f"{name}: {len(mine)} hands, mean {mean:+.1f}")
        ax.stairs(percents[name], bins, fill=True, alpha=0.12, color=color)
        ax.axvline(mean, color=color, linestyle="--", linewidth=1)
    ax.set_yscale("log")
    smallest = min((min(p for p in v if p > 0) for v in percents.values()), default=1.0)
    ax.set_ylim(bottom=10 ** math.floor(math.log10(smallest)))  # a labelled decade below
    ax.set_xlabel("score of a hand (payments: a win earns, a deal-in or another's win costs)")
    ax.set_ylabel("% of the agent's hands")
    ax.set_title("Score distribution per agent (each agent's hands = 100%)")
    ax.yaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:g}%"))
    ax.grid(axis="y", alpha=0.3)
    ax.legend(frameon=False, fontsize=9)
    return _save(fig, out / "score_distribution.png")


def _fan_frequency(plt: Any, config: ArenaConfig, results: dict[str, Any], out: Path,
                   chinese: bool) -> Path:
    """The most frequent fans, per 100 hands of each agent (a fan scored twice in a hand
    counts twice)."""
    names = config.names
    fans: dict[str, dict[str, float]] = {n: results["agents"][n].get("fan_frequency", {})
                                         for n in names}
    top = sorted({f for d in fans.values() for f in d},
                 key=lambda f: (-max(d.get(f, 0.0) for d in fans.values()), f))[:TOP_FANS]
    fig, ax = plt.subplots(figsize=(9, 1.4 + 0.32 * max(len(top), 3)))
    height = 0.8 / max(1, len(names))
    for i, name in enumerate(names):
        summary = results["agents"][name]
        wins = round(summary.get("win_rate", 0.0) * summary.get("hands", 0))
        ax.barh([j - 0.4 + height * (i + 0.5) for j in range(len(top))],
                [100 * fans[name].get(f, 0.0) for f in top], height=height, color=f"C{i}",
                label=f"{name}: {wins} wins in {summary.get('hands', 0)} hands")
    ax.set_yticks(range(len(top)), labels=[fan_label(f, chinese) for f in top])
    if top:
        ax.set_ylim(len(top) - 0.5, -0.5)  # the most frequent at the top
    ax.set_xlabel("times per 100 of the agent's hands")
    ax.set_title(f"Fans scored ({min(len(top), TOP_FANS)} most frequent)")
    ax.grid(axis="x", alpha=0.3)
    if not top:
        ax.text(0.5, 0.5, "no wins", ha="center", va="center", transform=ax.transAxes)
    ax.legend(frameon=False, loc="lower right")
    return _save(fig, out / "fan_frequency.png")


def _running_score(plt: Any, rows: list[dict[str, Any]], config: ArenaConfig,
                   out: Path) -> Path:
    """1-vs-3: the running score difference; four agents: each one's running mean."""
    names = config.names
    fig, ax = plt.subplots(figsize=(8, 4.5))
    if config.mode == "1v3":
        series = {f"{names[0]} − {names[1]}": running_difference(rows, names[0], names[1])}
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
    for i, (label, running) in enumerate(series.items()):
        x = list(range(1, len(running) + 1))
        last = running[-1] if running else None
        text = label if last is None else (
            f"{label}: {last['mean']:+.2f} [{last['low']:+.2f}, {last['high']:+.2f}]")
        ax.plot(x, [p["mean"] for p in running], label=text, color=f"C{i}")
        ax.fill_between(x, [p["low"] for p in running], [p["high"] for p in running],
                        alpha=0.2, color=f"C{i}")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("deals played")
    ax.set_ylabel("score difference per hand" if config.mode == "1v3"
                  else "mean score per hand")
    ax.set_title("Running mean with its 95% interval over deals")
    ax.grid(alpha=0.3)
    # below the axes: the lines and bands fill the plot, a legend inside would cover them
    ax.legend(frameon=False, loc="upper center", bbox_to_anchor=(0.5, -0.15),
              ncol=min(2, len(series)))
    return _save(fig, out / "running_score.png")


def _save(fig: Any, path: Path) -> Path:
    import matplotlib.pyplot as plt

    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
