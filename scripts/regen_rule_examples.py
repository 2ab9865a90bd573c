#!/usr/bin/env python3
"""Regenerate ``tests/golden/rule_examples.json`` from the worked examples of the rules document.

The examples of ``mcr-rules.md`` section 5 are kept as data in ``verify_rule_examples.py``
beside the rules (list ``EX``, in PyMahjongGB's input form). This script converts every example
into the project's JSON input form (the form ``mjenv fan --jsonl`` reads, issue #2 point 5),
feeds the *converted* hand back to PyMahjongGB to prove the conversion is faithful, and writes
the golden file that ``tests/fans/test_rule_examples.py`` checks our calculator against.

Conversions (PyMahjongGB -> ours):
  * ("PENG"/"GANG", t, offer), offer 1 = 上家 / 2 = 对家 / 3 = 下家  ->  pung / kong with
    ``from = 4 - offer`` (ours: 1 = 下家, 2 = 对家, 3 = 上家);
  * ("GANG", t, 0)  ->  concealed_kong (claimed and from null);
  * ("CHI", middle, k)  ->  chow middle-1 .. middle+1, claimed = its k-th tile, from 3;
  * wait-fan names: 独听・边张 -> 边张, 独听・嵌张 / 嵌张 -> 坎张, 独听・单钓 -> 单钓将.

Needs PyMahjongGB 1.4.0 (the test oracle, extra ``dev``)::

    python scripts/regen_rule_examples.py [--rules-dir ../shared/rules] [--check]

``--check`` compares with the existing file instead of writing it (exit status 1 on a difference).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "tests" / "golden" / "rule_examples.json"
DEFAULT_RULES_DIR = ROOT.parent / "shared" / "rules"

# PyMahjongGB's (and the verify script's) names -> the rules table's first names (ours)
NAME = {"独听・边张": "边张", "独听・嵌张": "坎张", "嵌张": "坎张", "独听・单钓": "单钓将"}


def _load_examples(rules_dir: Path) -> list[dict[str, Any]]:
    path = rules_dir / "verify_rule_examples.py"
    spec = importlib.util.spec_from_file_location("verify_rule_examples", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return list(module.EX)


def _shift(code: str, by: int) -> str:
    return f"{code[0]}{int(code[1]) + by}"


def convert_pack(pack: tuple[str, str, int]) -> dict[str, Any]:
    kind, tile, offer = pack
    if kind == "CHI":
        tiles = [_shift(tile, -1), tile, _shift(tile, 1)]
        if offer not in (1, 2, 3):
            raise ValueError(f"bad CHI claimed index in {pack}")
        return {"type": "chow", "tiles": tiles, "claimed": tiles[offer - 1], "from": 3}
    if kind == "PENG":
        if offer not in (1, 2, 3):
            raise ValueError(f"PENG needs offer 1..3: {pack}")
        return {"type": "pung", "tiles": [tile] * 3, "claimed": tile, "from": 4 - offer}
    if kind == "GANG":
        if offer == 0:
            return {"type": "concealed_kong", "tiles": [tile] * 4, "claimed": None, "from": None}
        return {"type": "kong", "tiles": [tile] * 4, "claimed": tile, "from": 4 - offer}
    raise ValueError(f"unknown pack {pack}")


def to_pymahjonggb(meld: dict[str, Any]) -> tuple[str, str, int]:
    """Our JSON meld -> PyMahjongGB pack (the inverse of :func:`convert_pack`)."""
    tiles = meld["tiles"]
    if meld["type"] == "chow":
        return ("CHI", tiles[1], tiles.index(meld["claimed"]) + 1 if meld["claimed"] else 1)
    if meld["type"] == "pung":
        return ("PENG", tiles[0], 4 - meld["from"])
    if meld["type"] == "concealed_kong":
        return ("GANG", tiles[0], 0)
    return ("GANG", tiles[0], 4 - meld["from"])


def convert(ex: dict[str, Any]) -> dict[str, Any]:
    expect = {NAME.get(k, k): v for k, v in ex["expect"].items() if v}
    flowers = ex["flowers"]
    total = ex["expect_total"]
    out: dict[str, Any] = {
        "id": f"E{ex['id']}",
        "title": ex["title"],
        "hand": list(ex["hand"]),
        "melds": [convert_pack(p) for p in ex["pack"]],
        "win_tile": ex["win"],
        "self_drawn": ex["self"],
        "last_copy": ex["last_copy"],
        "last_tile": ex["last_tile"],
        "kong_win": ex["kong"],
        "seat_wind": ex["seat"],
        "prevalent_wind": ex["prev"],
        "flowers": flowers,
        "expect": expect,
        "expect_total": total,
        "meets_minimum": total - flowers >= 8,
    }
    if ex.get("note"):
        out["note"] = ex["note"]
    return out


def oracle_check(example: dict[str, Any]) -> list[str]:
    """Run the converted example through PyMahjongGB; return a list of problems."""
    import MahjongGB  # the test oracle; never imported by mjenv/

    res = MahjongGB.MahjongFanCalculator(
        pack=tuple(to_pymahjonggb(m) for m in example["melds"]),
        hand=tuple(example["hand"]), winTile=example["win_tile"], flowerCount=example["flowers"],
        isSelfDrawn=example["self_drawn"], is4thTile=example["last_copy"],
        isAboutKong=example["kong_win"], isWallLast=example["last_tile"],
        seatWind=example["seat_wind"], prevalentWind=example["prevalent_wind"], verbose=True)
    got = {NAME.get(name, name): cnt for (_pt, cnt, name, _en) in res}
    total = sum(pt * cnt for (pt, cnt, _n, _e) in res)
    problems = []
    if got != example["expect"]:
        problems.append(f"{example['id']}: fans {got} != expected {example['expect']}")
    if total != example["expect_total"]:
        problems.append(f"{example['id']}: total {total} != expected {example['expect_total']}")
    return problems


def dump(examples: list[dict[str, Any]]) -> str:
    """One key per line, values compact: readable and diff-friendly."""
    blocks = []
    for ex in examples:
        lines = [f"    {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}"
                 for k, v in ex.items()]
        blocks.append("  {\n" + ",\n".join(lines) + "\n  }")
    return "[\n" + ",\n".join(blocks) + "\n]\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules-dir", type=Path, default=DEFAULT_RULES_DIR)
    parser.add_argument("--check", action="store_true", help="compare with the existing file")
    args = parser.parse_args()
    examples = [convert(ex) for ex in _load_examples(args.rules_dir)]
    problems = [p for ex in examples for p in oracle_check(ex)]
    for p in problems:
        print("ORACLE MISMATCH", p, file=sys.stderr)
    if problems:
        return 1
    text = dump(examples)
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT.relative_to(ROOT)}: {'up to date' if same else 'DIFFERS'}")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {len(examples)} examples to {OUT.relative_to(ROOT)} (all agree with PyMahjongGB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
