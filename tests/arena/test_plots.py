"""The arena's plots: per-agent normalisation, shared bins, fan names in both languages when a
Chinese font exists and in English without one, and no warnings either way."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("matplotlib")

from mjenv.arena import ArenaConfig, plots  # noqa: E402
from mjenv.arena.play import ROW_FIELDS  # noqa: E402
from mjenv.arena.stats import summarize  # noqa: E402


def _rows() -> list[dict[str, Any]]:
    """1-vs-3 rows: the baseline has three times the challenger's hands."""
    rows = []
    for deal in range(5):
        for seat in range(4):
            challenger = seat == deal % 4
            win = challenger and deal % 2 == 0
            row: dict[str, Any] = dict.fromkeys(ROW_FIELDS, 0)
            row.update({"deal": deal, "seat": seat, "agent": "A" if challenger else "B",
                        "score": 48 if win else -16 if deal % 2 == 0 else 0,
                        "win": int(win), "points": 24 if win else 0,
                        "fans": "自摸;平和x2" if win else "", "error": ""})
            rows.append(row)
    return rows


def test_score_bins_are_centred_on_multiples_of_their_width() -> None:
    bins = plots.score_bins([-8, 0, 24, 333])
    width = bins[1] - bins[0]
    assert width in plots.BIN_WIDTHS and len(bins) - 1 <= 42
    assert all(b2 - b1 == width for b1, b2 in zip(bins, bins[1:], strict=False))
    assert all((b + width / 2) % width == 0 for b in bins)  # centres at multiples
    assert bins[0] < -8 and bins[-1] > 333
    assert plots.score_bins([]) == [-0.5, 0.5]


def test_every_agent_is_a_hundred_percent_of_its_own_hands() -> None:
    rows = _rows()
    bins, percents = plots.score_histogram(rows, ["A", "B"])
    assert sum(r["agent"] == "B" for r in rows) == 3 * sum(r["agent"] == "A" for r in rows)
    for name in ("A", "B"):
        assert sum(percents[name]) == pytest.approx(100)
    width = bins[1] - bins[0]
    win_bin = int((48 - bins[0]) // width)
    assert percents["A"][win_bin] == pytest.approx(60)  # 3 of A's 5 hands
    assert percents["B"][win_bin] == 0
    assert list(percents) == ["A", "B"]
    assert plots.score_histogram(rows, ["A", "B", "C"])[1].keys() == {"A", "B"}


def test_fan_labels() -> None:
    assert plots.fan_label("自摸", chinese=True) == "Self-Drawn 自摸"
    assert plots.fan_label("自摸", chinese=False) == "Self-Drawn"
    assert plots.fan_label("not a fan", chinese=False) == "not a fan"


@pytest.mark.parametrize("font", ["found", None])
def test_plots_are_written_without_warnings(font: str | None, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    chinese = font is not None
    if chinese:
        if plots.cjk_font() is None:
            pytest.skip("no font with Chinese glyphs (fonts-wqy-microhei, fonts-noto-cjk)")
    else:
        monkeypatch.setattr(plots, "cjk_font", lambda: None)
    labels: dict[str, list[str]] = {}
    save = plots._save

    def keep_labels(fig: Any, path: Path) -> Path:
        labels[path.name] = [t.get_text() for t in fig.axes[0].get_yticklabels()]
        return save(fig, path)

    monkeypatch.setattr(plots, "_save", keep_labels)
    rows = _rows()
    config = ArenaConfig(agents=("random", "greedy"), names=("A", "B"), deals=5)
    results = summarize(rows, config.names, config.mode)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a missing glyph warns: none may
        written = plots.write_plots(rows, config, results, tmp_path)
    assert [p.name for p in written] == ["score_distribution.png", "fan_frequency.png",
                                         "running_score.png"]
    assert all(p.stat().st_size > 10_000 for p in written)
    fans = labels["fan_frequency.png"]
    assert fans == (["All Chows 平和", "Self-Drawn 自摸"] if chinese
                    else ["All Chows", "Self-Drawn"])


def test_a_run_without_wins_still_plots(tmp_path: Path) -> None:
    rows = [r | {"win": 0, "fans": "", "points": 0, "score": 0} for r in _rows()]
    config = ArenaConfig(agents=("random", "greedy"), names=("A", "B"), deals=5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        plots.write_plots(rows, config, summarize(rows, config.names, "1v3"), tmp_path)
    assert (tmp_path / "fan_frequency.png").exists()
