"""The numbers of an arena run, from its rows (hands.csv): per-agent summaries with confidence
intervals clustered by deal, the pairwise table, and the 1-vs-3 score difference.

Why clustered by deal: the hands of one deal share its luck (that is the point of duplicate
deals), so they are not independent observations. Every statistic with an interval is first
averaged within each deal; the interval is then the mean over deals ± 1.96 standard errors of
those per-deal values (normal approximation; fine from a few dozen deals on).

Two challengers measured against one baseline (snapshots of a training run) can also be paired:
:func:`control_difference` takes, deal by deal, the challenger's score difference minus that of
a control agent that played the same deals and seats against the same baseline. What the two
runs share cancels; that narrows the interval only where their per-deal values correlate above
about 0.5, and in MCR one different decision changes who draws which tile from then on, so
measured correlations were 0.16 to 0.57 (docs/training.md, "Ranking snapshots").
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

Z95 = 1.959963984540054


def mean_ci(values: Sequence[float]) -> dict[str, float]:
    """Mean, standard error and 95% interval of per-deal values."""
    n = len(values)
    if n == 0:
        return {"mean": 0.0, "se": 0.0, "low": 0.0, "high": 0.0, "n": 0}
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
    se = math.sqrt(var / n)
    return {"mean": mean, "se": se, "low": mean - Z95 * se, "high": mean + Z95 * se, "n": n}


def _per_deal(rows: Iterable[dict[str, Any]], agent: str,
              value: str = "score") -> dict[int, float]:
    """The agent's mean ``value`` per hand in each deal, in deal order — not in the order of
    the rows, which depends on the workers and on resuming: floating-point sums over the deals
    must add in one order for the results to be the same whatever the run's history."""
    sums: dict[int, float] = defaultdict(float)
    counts: dict[int, int] = defaultdict(int)
    for r in rows:
        if r["agent"] == agent:
            sums[r["deal"]] += float(r[value])
            counts[r["deal"]] += 1
    return {d: sums[d] / counts[d] for d in sorted(sums)}


def agent_summary(rows: list[dict[str, Any]], agent: str) -> dict[str, Any]:
    mine = [r for r in rows if r["agent"] == agent]
    hands = len(mine)
    if hands == 0:
        return {"hands": 0}
    wins = [r for r in mine if r["win"]]
    fans: Counter[str] = Counter()
    for r in wins:
        for item in filter(None, str(r["fans"]).split(";")):
            name, _, count = item.partition("x")
            fans[name] += int(count) if count else 1
    return {
        "hands": hands,
        "mean_score": mean_ci(list(_per_deal(rows, agent).values())),
        "win_rate": len(wins) / hands,
        "self_drawn_rate": sum(r["self_drawn"] for r in mine) / hands,
        "deal_in_rate": sum(r["deal_in"] for r in mine) / hands,
        "draw_rate": sum(r["draw"] for r in mine) / hands,
        "penalty_rate": sum(r["penalized"] for r in mine) / hands,
        "penalties": sum(r["penalized"] for r in mine),
        "mean_win_points": sum(r["points"] for r in wins) / len(wins) if wins else 0.0,
        "fan_frequency": {name: n / hands for name, n in fans.most_common()},
    }


def difference(rows: list[dict[str, Any]], a: str, b: str) -> dict[str, float]:
    """Per deal, ``a``'s mean score per hand minus ``b``'s, over the deals both played."""
    da, db = _per_deal(rows, a), _per_deal(rows, b)
    common = sorted(set(da) & set(db))
    return mean_ci([da[d] - db[d] for d in common])


def per_deal_difference(rows: Iterable[dict[str, Any]], a: str, b: str) -> dict[int, float]:
    """Per deal, ``a``'s mean score per hand minus ``b``'s (the values whose mean
    :func:`difference` reports), for the deals both played, in deal order."""
    rows = list(rows)
    da, db = _per_deal(rows, a), _per_deal(rows, b)
    return {d: da[d] - db[d] for d in sorted(set(da) & set(db))}


def control_difference(rows: list[dict[str, Any]], names: Sequence[str],
                       control_rows: list[dict[str, Any]],
                       control_names: Sequence[str]) -> dict[str, float]:
    """The paired estimator: the 1-vs-3 score difference of ``names = (challenger,
    baseline)`` in ``rows`` minus that of ``control_names = (control, baseline)`` in
    ``control_rows``, computed per deal and then averaged over the deals both runs played,
    with a 95% interval clustered by deal (:func:`mean_ci`).

    Why: both runs play the same deals and seats against the same baseline with the same agent
    seeds (the arena's common random numbers), so whatever luck of a deal the two runs share
    cancels in the per-deal difference; the interval is narrower than the plain one where the
    two runs' per-deal values correlate above about 0.5. What it estimates is the challenger's
    margin over the control, not over the baseline; two challengers measured against one
    control on the same deals differ by exactly what their plain score differences differ by,
    so it ranks them the same way. With the baseline itself as the control it is the plain
    estimate: four copies of one agent score zero per deal in total, so that control's
    per-deal difference is zero and this equals :func:`difference`."""
    mine = per_deal_difference(rows, names[0], names[1])
    theirs = per_deal_difference(control_rows, control_names[0], control_names[1])
    return mean_ci([mine[d] - theirs[d] for d in sorted(set(mine) & set(theirs))])


def summarize(rows: list[dict[str, Any]], names: Sequence[str], mode: str) -> dict[str, Any]:
    """Everything results.json holds besides the configuration."""
    out: dict[str, Any] = {
        "agents": {name: agent_summary(rows, name) for name in names},
        "pairwise": {a: {b: difference(rows, a, b) for b in names if b != a} for a in names},
        "deals_played": len({r["deal"] for r in rows}),
        "hands": len(rows) // 4,
    }
    if mode == "1v3":
        out["score_difference"] = difference(rows, names[0], names[1])
    return out


def running_difference(rows: list[dict[str, Any]], a: str, b: str) -> list[dict[str, float]]:
    """The score difference's mean and CI after each deal (in deal order), for the plot."""
    da, db = _per_deal(rows, a), _per_deal(rows, b)
    values: list[float] = []
    out = []
    for d in sorted(set(da) & set(db)):
        values.append(da[d] - db[d])
        out.append(mean_ci(values))
    return out


def table(summary: dict[str, Any], names: Sequence[str]) -> str:
    """The printed table."""
    head = (f"{'agent':<24} {'hands':>7} {'score/hand':>11} {'95% CI':>17} {'win':>6} "
            f"{'tsumo':>6} {'deal-in':>7} {'draw':>6} {'pts/win':>7} {'penalties':>9}")
    lines = [head, "-" * len(head)]
    for name in names:
        s = summary["agents"][name]
        if not s.get("hands"):
            continue
        m = s["mean_score"]
        lines.append(f"{name[:24]:<24} {s['hands']:>7} {m['mean']:>11.2f} "
                     f"{'[' + format(m['low'], '.2f') + ', ' + format(m['high'], '.2f') + ']':>17} "
                     f"{s['win_rate']:>6.1%} {s['self_drawn_rate']:>6.1%} "
                     f"{s['deal_in_rate']:>7.1%} {s['draw_rate']:>6.1%} "
                     f"{s['mean_win_points']:>7.1f} "
                     f"{s['penalties']:>9}")
    pairwise = summary.get("pairwise", {})
    if len(names) > 2 and pairwise:
        lines += ["", "pairwise: row minus column, mean score per hand over common deals "
                  "(95% CI half-width)"]
        width = max(12, *(len(n[:16]) + 1 for n in names))
        lines.append(" " * 24 + "".join(f"{n[:16]:>{width}}" for n in names))
        for a in names:
            cells = []
            for b in names:
                d = pairwise.get(a, {}).get(b)
                text = "-" if d is None else f"{d['mean']:+.1f}±{d['high'] - d['mean']:.1f}"
                cells.append(f"{text:>{width}}")
            lines.append(f"{a[:24]:<24}" + "".join(cells))
    if "score_difference" in summary:
        d = summary["score_difference"]
        lines.append("")
        lines.append(f"score difference {names[0]} - {names[1]}: {d['mean']:+.2f} per hand, "
                     f"95% CI [{d['low']:+.2f}, {d['high']:+.2f}] over {d['n']} deals")
    return "\n".join(lines)
