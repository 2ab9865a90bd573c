"""Differential test of the fan calculator against PyMahjongGB 1.4.0 (the reference).

Hands come from :func:`mjenv.testing.sample_hands` (random hands of every shape with 0-4
melds of every kind, flowers and every valid flag, plus hands targeted at each of the 82
entries). Comparison rule (issue 2, acceptance):

* totals must be identical, and so must ``meets_minimum`` (oracle total - flowers >= 8);
* fan lists must be identical, except where ``calculate_all`` shows several readings with the
  same best total and different fan lists (a *tie*, rules §4.4 / A17): then PyMahjongGB's fan
  list must equal one of our tied best readings. Ties must stay under 1% of the hands; they
  are shown (both readings) in the summary.

All mismatches are collected before failing; the failure message groups them by category
(the fans that differ) and prints the first ones in full, each hand in a reproducible form
(``describe()`` and the ``mjenv fan --jsonl`` input line).

The default suite runs 2,000 hands; ``pytest -m acceptance`` runs 10,000, asserts that every
one of the 82 entries appears in at least 20 of PyMahjongGB's results and writes
``docs/fan-differential.md``.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest

pytest.importorskip("MahjongGB")

from mjenv.fans import FANS, InvalidHandError, NotWinError, calculate, calculate_all  # noqa: E402
from mjenv.testing import FAN_NAMES, WinningHand, sample_hands, sample_non_winning  # noqa: E402

from .oracle import OracleError, OracleNotWin, OracleResult, oracle  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SUMMARY = ROOT / "docs" / "fan-differential.md"

DEFAULT_SEED, DEFAULT_N = 20240501, 2000
ACCEPTANCE_SEED, ACCEPTANCE_N = 2024, 10000
MIN_PER_FAN = 20
MAX_TIE_SHARE = 0.01
SHOW = 20


def _hand_block(i: int, h: WinningHand) -> str:
    origin = h.shape + (f", targeted {h.target}" if h.target else "")
    return f"#{i} [{origin}] {h.describe()}\n    json: {h.to_json()}"


@dataclass
class Report:
    hands: int = 0
    seconds: float = 0.0
    coverage: Counter[str] = field(default_factory=Counter)  # fan -> hands (oracle's output)
    mismatches: list[str] = field(default_factory=list)
    categories: Counter[str] = field(default_factory=Counter)
    ties: list[str] = field(default_factory=list)  # several best readings with different fans
    ties_other_choice: int = 0  # ties where PyMahjongGB's list is another of our tied readings

    def add_mismatch(self, category: str, text: str) -> None:
        self.categories[category] += 1
        self.mismatches.append(f"{category}\n  {text}")

    def failure_message(self) -> str:
        lines = [
            f"{len(self.mismatches)} of {self.hands} hands disagree with PyMahjongGB",
            "categories:",
        ]
        lines += [f"  {n:5d}  {cat}" for cat, n in self.categories.most_common()]
        lines.append(f"first {min(SHOW, len(self.mismatches))}:")
        lines += self.mismatches[:SHOW]
        return "\n".join(lines)


def _category(ours: dict[str, int], theirs: dict[str, int]) -> str:
    only_ours = sorted(f"{k}x{v}" for k, v in ours.items() if theirs.get(k) != v)
    only_theirs = sorted(f"{k}x{v}" for k, v in theirs.items() if ours.get(k) != v)
    return f"ours only: {' '.join(only_ours) or '-'} | oracle only: {' '.join(only_theirs) or '-'}"


def compare(hands: list[WinningHand]) -> Report:
    rep = Report()
    start = time.perf_counter()
    for i, h in enumerate(hands):
        rep.hands += 1
        block = _hand_block(i, h)
        try:
            o: OracleResult = oracle(h)
        except (OracleNotWin, OracleError) as exc:
            rep.add_mismatch(
                "generator: PyMahjongGB rejects the hand", f"{block}\n    oracle: {exc}"
            )
            continue
        rep.coverage.update(o.fans.keys())
        try:
            ours = calculate(*h.args(), **h.kwargs())
            readings = calculate_all(*h.args(), **h.kwargs())
        except (NotWinError, InvalidHandError, ValueError) as exc:
            rep.add_mismatch(
                f"calculate raised {type(exc).__name__}",
                f"{block}\n    ours  : {exc}\n    oracle: {o.describe()}",
            )
            continue
        best = [r for r in readings if r.total == readings[0].total]
        tie_text = "".join(f"\n    tied  : {r} [{r.shape}]" for r in best)
        if len(best) > 1:
            rep.ties.append(f"{block}{tie_text}\n    oracle: {o.describe()}")
        if readings[0].total != ours.total:
            rep.add_mismatch(
                "calculate and calculate_all disagree on the best total",
                f"{block}\n    ours  : {ours}\n    all[0]: {readings[0]}",
            )
            continue
        detail = f"{block}\n    ours  : {ours} [{ours.shape}]\n    oracle: {o.describe()}"
        if ours.total != o.total or ours.counts() != o.fans:
            if ours.total == o.total and any(r.counts() == o.fans for r in best):
                rep.ties_other_choice += 1
            else:
                cat = _category(ours.counts(), o.fans)
                if ours.total != o.total:
                    cat = f"total {ours.total - o.total:+d}: {cat}"
                rep.add_mismatch(cat, detail + (tie_text if len(best) > 1 else ""))
                continue
        if ours.meets_minimum != o.meets_minimum:
            rep.add_mismatch("meets_minimum differs", detail)
    rep.seconds = time.perf_counter() - start
    return rep


def _check(rep: Report) -> None:
    assert not rep.mismatches, rep.failure_message()
    share = len(rep.ties) / max(rep.hands, 1)
    assert share < MAX_TIE_SHARE, (
        f"{len(rep.ties)} tie cases in {rep.hands} hands ({share:.2%}):\n"
        + "\n".join(rep.ties[:SHOW])
    )


# --------------------------------------------------------------------------- default suite


def test_fan_names_match_the_table() -> None:
    assert tuple(f.zh for f in FANS) == FAN_NAMES


def test_differential_default() -> None:
    rep = compare(sample_hands(DEFAULT_SEED, DEFAULT_N))
    _check(rep)


def _oracle_not_win(h: WinningHand) -> bool:
    try:
        oracle(h)
    except OracleNotWin:
        return True
    return False


def _ours_not_win(h: WinningHand) -> bool:
    try:
        calculate(*h.args(), **h.kwargs())
    except NotWinError:
        return True
    return False


def test_not_win_exactly_when_pymahjonggb_says_so() -> None:
    """NotWinError is raised exactly for the hands PyMahjongGB answers ERROR_NOT_WIN."""
    hands = sample_non_winning(7, 600) + sample_hands(8, 300)
    wrong = []
    n_not_win = 0
    for i, h in enumerate(hands):
        theirs = _oracle_not_win(h)
        n_not_win += theirs
        try:
            ours = _ours_not_win(h)
        except InvalidHandError as exc:
            wrong.append(
                f"{_hand_block(i, h)}\n    ours: InvalidHandError {exc}; oracle not win: {theirs}"
            )
            continue
        if ours != theirs:
            wrong.append(f"{_hand_block(i, h)}\n    ours not win: {ours}; oracle not win: {theirs}")
    assert n_not_win == 600
    assert not wrong, f"{len(wrong)} disagreements:\n" + "\n".join(wrong[:SHOW])


# --------------------------------------------------------------------------- acceptance


def _write_summary(rep: Report, seed: int) -> None:
    rows = sorted(FAN_NAMES, key=lambda f: (rep.coverage[f], FAN_NAMES.index(f)))
    ids = {f.zh: f.id for f in FANS}
    lines = [
        "# Fan calculator: differential test against PyMahjongGB 1.4.0",
        "",
        "Written by `pytest -m acceptance tests/fans/test_differential.py`"
        " (part of `make acceptance`).",
        "",
        f"- hands: {rep.hands} (`mjenv.testing.sample_hands({seed}, {rep.hands})`: "
        "random hands of "
        "every shape with 0-4 melds of every kind, flowers and every valid flag, 30% targeted at "
        "each of the 82 entries in turn)",
        f"- mismatches: {len(rep.mismatches)}",
        f"- tie cases (several best readings with different fan lists): {len(rep.ties)} "
        f"({len(rep.ties) / max(rep.hands, 1):.2%}; limit 1%); in {rep.ties_other_choice} of them "
        "PyMahjongGB chose another of the tied readings than ours",
        f"- every entry appears in at least {MIN_PER_FAN} hands of PyMahjongGB's results: "
        f"{'yes' if all(rep.coverage[f] >= MIN_PER_FAN for f in FAN_NAMES) else 'NO'} "
        f"(rarest: {', '.join(f'{f} {rep.coverage[f]}' for f in rows[:5])})",
        f"- time (ours + oracle, calculate and calculate_all): {rep.seconds:.1f} s",
        "",
        "## Coverage (hands containing each entry, PyMahjongGB's output)",
        "",
        "| # | fan | hands |",
        "|---|---|---|",
    ]
    lines += [f"| {ids.get(f, '?')} | {f} | {rep.coverage[f]} |" for f in FAN_NAMES]
    lines += ["", "## Tie cases", ""]
    if rep.ties:
        lines.append("Each: the hand, our tied best readings, and PyMahjongGB's choice.")
        lines.append("")
        lines.append("```")
        lines += rep.ties
        lines.append("```")
    else:
        lines.append("None.")
    if rep.mismatches:
        lines += ["", "## Mismatches", "", "```", rep.failure_message(), "```"]
    SUMMARY.parent.mkdir(parents=True, exist_ok=True)
    SUMMARY.write_text("\n".join(lines) + "\n", encoding="utf-8")


@pytest.mark.slow
@pytest.mark.acceptance
def test_differential_acceptance() -> None:
    hands = sample_hands(ACCEPTANCE_SEED, ACCEPTANCE_N)
    rep = compare(hands)
    _write_summary(rep, ACCEPTANCE_SEED)
    rare = {f: rep.coverage[f] for f in FAN_NAMES if rep.coverage[f] < MIN_PER_FAN}
    assert not rare, f"entries seen in fewer than {MIN_PER_FAN} hands: {rare}"
    _check(rep)
