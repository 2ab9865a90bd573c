"""The fan table as data: the 81 fans of Chinese Official Mahjong plus the 明暗杠 extension.

Each entry has its number (table order, rules §3.3), Chinese and English names, points per
unit and the fans it implies (不计: not counted when this fan is scored). Partial exclusions
that depend on individual pungs (幺九刻 of wind pungs under 三风刻 / 小四喜, one 幺九刻 under
九莲宝灯) cannot be written as whole-fan lists; the calculator handles them in named
functions and ``PARTIAL_EXCLUSIONS`` documents them here.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Fan:
    id: int
    zh: str
    en: str
    points: int
    implies: tuple[int, ...] = ()


# (id, zh, en, points, implied zh names)
_ROWS: tuple[tuple[int, str, str, int, tuple[str, ...]], ...] = (
    (1, "大四喜", "Big Four Winds", 88, ("三风刻", "碰碰和", "圈风刻", "门风刻", "幺九刻")),
    (2, "大三元", "Big Three Dragons", 88, ("双箭刻", "箭刻")),
    (3, "绿一色", "All Green", 88, ("混一色", "缺一门")),
    (4, "九莲宝灯", "Nine Gates", 88, ("清一色", "门前清", "不求人", "缺一门", "无字")),
    (5, "四杠", "Four Kongs", 88,
     ("碰碰和", "单钓将", "三杠", "双明杠", "明杠", "双暗杠", "暗杠", "明暗杠")),
    (6, "连七对", "Seven Shifted Pairs", 88,
     ("七对", "清一色", "门前清", "不求人", "单钓将", "缺一门", "无字")),
    (7, "十三幺", "Thirteen Orphans", 88, ("五门齐", "门前清", "不求人", "单钓将", "混幺九")),
    (8, "清幺九", "All Terminals", 64, ("混幺九", "碰碰和", "全带幺", "幺九刻", "无字", "双同刻")),
    (9, "小四喜", "Little Four Winds", 64, ("三风刻",)),
    (10, "小三元", "Little Three Dragons", 64, ("双箭刻", "箭刻")),
    (11, "字一色", "All Honours", 64, ("碰碰和", "混幺九", "全带幺", "幺九刻", "缺一门")),
    (12, "四暗刻", "Four Concealed Pungs", 64, ("碰碰和", "门前清", "不求人", "三暗刻", "双暗刻")),
    (13, "一色双龙会", "Pure Terminal Chows", 64,
     ("平和", "七对", "清一色", "一般高", "老少副", "缺一门", "无字")),
    (14, "一色四同顺", "Quadruple Chow", 48, ("一色三同顺", "一色三节高", "一般高", "四归一")),
    (15, "一色四节高", "Four Pure Shifted Pungs", 48, ("一色三节高", "一色三同顺", "碰碰和")),
    (16, "一色四步高", "Four Pure Shifted Chows", 32, ("一色三步高", "连六", "老少副")),
    (17, "三杠", "Three Kongs", 32, ("双明杠", "明杠", "双暗杠", "暗杠", "明暗杠")),
    (18, "混幺九", "All Terminals and Honours", 32, ("碰碰和", "全带幺", "幺九刻")),
    (19, "七对", "Seven Pairs", 24, ("门前清", "不求人", "单钓将")),
    (20, "七星不靠", "Greater Honours and Knitted Tiles", 24,
     ("全不靠", "五门齐", "门前清", "不求人", "单钓将")),
    (21, "全双刻", "All Even Pungs", 24, ("碰碰和", "断幺", "无字")),
    (22, "清一色", "Full Flush", 24, ("缺一门", "无字")),
    (23, "一色三同顺", "Pure Triple Chow", 24, ("一色三节高", "一般高")),
    (24, "一色三节高", "Pure Shifted Pungs", 24, ("一色三同顺",)),
    (25, "全大", "Upper Tiles", 24, ("大于五", "无字")),
    (26, "全中", "Middle Tiles", 24, ("断幺", "无字")),
    (27, "全小", "Lower Tiles", 24, ("小于五", "无字")),
    (28, "清龙", "Pure Straight", 16, ("连六", "老少副")),
    (29, "三色双龙会", "Three-Suited Terminal Chows", 16, ("喜相逢", "老少副", "平和", "无字")),
    (30, "一色三步高", "Pure Shifted Chows", 16, ()),
    (31, "全带五", "All Fives", 16, ("断幺", "无字")),
    (32, "三同刻", "Triple Pung", 16, ("双同刻",)),
    (33, "三暗刻", "Three Concealed Pungs", 16, ("双暗刻",)),
    (34, "全不靠", "Lesser Honours and Knitted Tiles", 12,
     ("五门齐", "门前清", "不求人", "单钓将")),
    (35, "组合龙", "Knitted Straight", 12, ()),
    (36, "大于五", "Upper Four", 12, ("无字",)),
    (37, "小于五", "Lower Four", 12, ("无字",)),
    (38, "三风刻", "Big Three Winds", 12, ()),
    (39, "花龙", "Mixed Straight", 8, ()),
    (40, "推不倒", "Reversible Tiles", 8, ("缺一门",)),
    (41, "三色三同顺", "Mixed Triple Chow", 8, ("喜相逢",)),
    (42, "三色三节高", "Mixed Shifted Pungs", 8, ()),
    (43, "无番和", "Chicken Hand", 8, ()),
    (44, "妙手回春", "Last Tile Draw", 8, ("自摸",)),
    (45, "海底捞月", "Last Tile Claim", 8, ()),
    (46, "杠上开花", "Out with Replacement Tile", 8, ("自摸",)),
    (47, "抢杠和", "Robbing the Kong", 8, ("和绝张",)),
    (48, "碰碰和", "All Pungs", 6, ()),
    (49, "混一色", "Half Flush", 6, ("缺一门",)),
    (50, "三色三步高", "Mixed Shifted Chows", 6, ()),
    (51, "五门齐", "All Types", 6, ()),
    (52, "全求人", "Melded Hand", 6, ("单钓将",)),
    (53, "双暗杠", "Two Concealed Kongs", 6, ("暗杠", "双暗刻")),
    (54, "双箭刻", "Two Dragon Pungs", 6, ("箭刻",)),
    (55, "全带幺", "Outside Hand", 4, ()),
    (56, "不求人", "Fully Concealed Hand", 4, ("门前清", "自摸")),
    (57, "双明杠", "Two Melded Kongs", 4, ("明杠",)),
    (58, "和绝张", "Last Tile", 4, ()),
    (59, "箭刻", "Dragon Pung", 2, ()),
    (60, "圈风刻", "Prevalent Wind", 2, ()),
    (61, "门风刻", "Seat Wind", 2, ()),
    (62, "门前清", "Concealed Hand", 2, ()),
    (63, "平和", "All Chows", 2, ("无字",)),
    (64, "四归一", "Tile Hog", 2, ()),
    (65, "双同刻", "Double Pung", 2, ()),
    (66, "双暗刻", "Two Concealed Pungs", 2, ()),
    (67, "暗杠", "Concealed Kong", 2, ()),
    (68, "断幺", "All Simples", 2, ("无字",)),
    (69, "一般高", "Pure Double Chow", 1, ()),
    (70, "喜相逢", "Mixed Double Chow", 1, ()),
    (71, "连六", "Short Straight", 1, ()),
    (72, "老少副", "Two Terminal Chows", 1, ()),
    (73, "幺九刻", "Pung of Terminals or Honours", 1, ()),
    (74, "明杠", "Melded Kong", 1, ()),
    (75, "缺一门", "One Voided Suit", 1, ()),
    (76, "无字", "No Honours", 1, ()),
    (77, "边张", "Edge Wait", 1, ()),
    (78, "坎张", "Closed Wait", 1, ()),
    (79, "单钓将", "Single Wait", 1, ()),
    (80, "自摸", "Self-Drawn", 1, ()),
    (81, "花牌", "Flower Tiles", 1, ()),
    (82, "明暗杠", "Concealed Kong and Melded Kong", 5, ("明杠", "暗杠")),
)

_ID_BY_ZH = {zh: fan_id for fan_id, zh, _en, _pts, _impl in _ROWS}

FANS: tuple[Fan, ...] = tuple(
    Fan(fan_id, zh, en, points, tuple(_ID_BY_ZH[name] for name in implied))
    for fan_id, zh, en, points, implied in _ROWS
)
"""All 82 entries; ``FANS[i].id == i + 1``."""

FAN_BY_ZH: dict[str, Fan] = {fan.zh: fan for fan in FANS}
FAN_BY_EN: dict[str, Fan] = {fan.en: fan for fan in FANS}

PARTIAL_EXCLUSIONS: dict[str, str] = {
    "九莲宝灯": "one 幺九刻 (the terminal pung inside 1112345678999)",
    "小四喜": "幺九刻 of the three wind pungs",
    "三风刻": "幺九刻 of the three wind pungs",
    "圈风刻": "幺九刻 of that wind pung",
    "门风刻": "幺九刻 of that wind pung",
}

# Fan ids by name, for the calculator's readability.
BIG_FOUR_WINDS, BIG_THREE_DRAGONS, ALL_GREEN, NINE_GATES, FOUR_KONGS = 1, 2, 3, 4, 5
SEVEN_SHIFTED_PAIRS, THIRTEEN_ORPHANS, ALL_TERMINALS, LITTLE_FOUR_WINDS = 6, 7, 8, 9
LITTLE_THREE_DRAGONS, ALL_HONORS, FOUR_CONCEALED_PUNGS, PURE_TERMINAL_CHOWS = 10, 11, 12, 13
QUADRUPLE_CHOW, FOUR_PURE_SHIFTED_PUNGS, FOUR_PURE_SHIFTED_CHOWS, THREE_KONGS = 14, 15, 16, 17
ALL_TERMINALS_AND_HONORS, SEVEN_PAIRS, GREATER_HONORS_KNITTED, ALL_EVEN_PUNGS = 18, 19, 20, 21
FULL_FLUSH, PURE_TRIPLE_CHOW, PURE_SHIFTED_PUNGS, UPPER_TILES, MIDDLE_TILES = 22, 23, 24, 25, 26
LOWER_TILES, PURE_STRAIGHT, THREE_SUITED_TERMINAL_CHOWS, PURE_SHIFTED_CHOWS = 27, 28, 29, 30
ALL_FIVES, TRIPLE_PUNG, THREE_CONCEALED_PUNGS, LESSER_HONORS_KNITTED = 31, 32, 33, 34
KNITTED_STRAIGHT, UPPER_FOUR, LOWER_FOUR, BIG_THREE_WINDS, MIXED_STRAIGHT = 35, 36, 37, 38, 39
REVERSIBLE_TILES, MIXED_TRIPLE_CHOW, MIXED_SHIFTED_PUNGS, CHICKEN_HAND = 40, 41, 42, 43
LAST_TILE_DRAW, LAST_TILE_CLAIM, OUT_WITH_REPLACEMENT, ROBBING_THE_KONG = 44, 45, 46, 47
ALL_PUNGS, HALF_FLUSH, MIXED_SHIFTED_CHOWS, ALL_TYPES, MELDED_HAND = 48, 49, 50, 51, 52
TWO_CONCEALED_KONGS, TWO_DRAGON_PUNGS, OUTSIDE_HAND, FULLY_CONCEALED = 53, 54, 55, 56
TWO_MELDED_KONGS, LAST_TILE, DRAGON_PUNG, PREVALENT_WIND, SEAT_WIND = 57, 58, 59, 60, 61
CONCEALED_HAND, ALL_CHOWS, TILE_HOG, DOUBLE_PUNG, TWO_CONCEALED_PUNGS = 62, 63, 64, 65, 66
CONCEALED_KONG, ALL_SIMPLES, PURE_DOUBLE_CHOW, MIXED_DOUBLE_CHOW = 67, 68, 69, 70
SHORT_STRAIGHT, TWO_TERMINAL_CHOWS, PUNG_OF_TERMINALS, MELDED_KONG = 71, 72, 73, 74
ONE_VOIDED_SUIT, NO_HONORS, EDGE_WAIT, CLOSED_WAIT, SINGLE_WAIT = 75, 76, 77, 78, 79
SELF_DRAWN, FLOWER_TILES, CONCEALED_AND_MELDED_KONG = 80, 81, 82
