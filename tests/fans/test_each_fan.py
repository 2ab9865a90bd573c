"""Every fan of the table: a positive case, a negative case and a case for what it excludes.

For each of the 82 entries (the 81 fans of docs/rules.md section 3.3 and the 明暗杠 extension) the
table below has at least

* ``pos``:  a hand that scores the fan;
* ``neg``:  a close hand that does not;
* ``excl``: the fan is present and the fans of its 不计 column that the hand would otherwise score
  are absent (listed in ``absent``), or, for a fan that excludes nothing, ``rel``: the fan together
  with a related fan that still counts.

Every case gives the complete expected fan list and total, verified with PyMahjongGB 1.4.0 (the
reference) when the table was written; the tests only call our calculator, so the table documents
the behaviour. Fans are listed in the order of the rules table.

Notation (mjenv.tiles compact form): digits then ``m`` (W, characters), ``s`` (T, bamboo),
``p`` (B, dots), ``z`` (honours: 1z-4z = E S W N, 5z = 白, 6z = 发, 7z = 中).
``hand`` is the concealed tiles without the winning tile ``win``. ``melds`` is a space-separated
list: ``123m`` chow, ``555p`` pung, ``5555p`` exposed kong, ``5555p+`` added kong,
``[5555p]`` concealed kong. ``flags`` are calculate()'s keyword arguments.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

import pytest

from mjenv.fans import FAN_BY_ZH, FANS, calculate
from mjenv.melds import Meld
from mjenv.tiles import parse_tiles

# (number, zh, en, points) as in the rules table; 82 is the 明暗杠 extension (section 4.9)
RULES_TABLE: tuple[tuple[int, str, str, int], ...] = (
    (1, "大四喜", "Big Four Winds", 88),
    (2, "大三元", "Big Three Dragons", 88),
    (3, "绿一色", "All Green", 88),
    (4, "九莲宝灯", "Nine Gates", 88),
    (5, "四杠", "Four Kongs", 88),
    (6, "连七对", "Seven Shifted Pairs", 88),
    (7, "十三幺", "Thirteen Orphans", 88),
    (8, "清幺九", "All Terminals", 64),
    (9, "小四喜", "Little Four Winds", 64),
    (10, "小三元", "Little Three Dragons", 64),
    (11, "字一色", "All Honours", 64),
    (12, "四暗刻", "Four Concealed Pungs", 64),
    (13, "一色双龙会", "Pure Terminal Chows", 64),
    (14, "一色四同顺", "Quadruple Chow", 48),
    (15, "一色四节高", "Four Pure Shifted Pungs", 48),
    (16, "一色四步高", "Four Pure Shifted Chows", 32),
    (17, "三杠", "Three Kongs", 32),
    (18, "混幺九", "All Terminals and Honours", 32),
    (19, "七对", "Seven Pairs", 24),
    (20, "七星不靠", "Greater Honours and Knitted Tiles", 24),
    (21, "全双刻", "All Even Pungs", 24),
    (22, "清一色", "Full Flush", 24),
    (23, "一色三同顺", "Pure Triple Chow", 24),
    (24, "一色三节高", "Pure Shifted Pungs", 24),
    (25, "全大", "Upper Tiles", 24),
    (26, "全中", "Middle Tiles", 24),
    (27, "全小", "Lower Tiles", 24),
    (28, "清龙", "Pure Straight", 16),
    (29, "三色双龙会", "Three-Suited Terminal Chows", 16),
    (30, "一色三步高", "Pure Shifted Chows", 16),
    (31, "全带五", "All Fives", 16),
    (32, "三同刻", "Triple Pung", 16),
    (33, "三暗刻", "Three Concealed Pungs", 16),
    (34, "全不靠", "Lesser Honours and Knitted Tiles", 12),
    (35, "组合龙", "Knitted Straight", 12),
    (36, "大于五", "Upper Four", 12),
    (37, "小于五", "Lower Four", 12),
    (38, "三风刻", "Big Three Winds", 12),
    (39, "花龙", "Mixed Straight", 8),
    (40, "推不倒", "Reversible Tiles", 8),
    (41, "三色三同顺", "Mixed Triple Chow", 8),
    (42, "三色三节高", "Mixed Shifted Pungs", 8),
    (43, "无番和", "Chicken Hand", 8),
    (44, "妙手回春", "Last Tile Draw", 8),
    (45, "海底捞月", "Last Tile Claim", 8),
    (46, "杠上开花", "Out with Replacement Tile", 8),
    (47, "抢杠和", "Robbing the Kong", 8),
    (48, "碰碰和", "All Pungs", 6),
    (49, "混一色", "Half Flush", 6),
    (50, "三色三步高", "Mixed Shifted Chows", 6),
    (51, "五门齐", "All Types", 6),
    (52, "全求人", "Melded Hand", 6),
    (53, "双暗杠", "Two Concealed Kongs", 6),
    (54, "双箭刻", "Two Dragon Pungs", 6),
    (55, "全带幺", "Outside Hand", 4),
    (56, "不求人", "Fully Concealed Hand", 4),
    (57, "双明杠", "Two Melded Kongs", 4),
    (58, "和绝张", "Last Tile", 4),
    (59, "箭刻", "Dragon Pung", 2),
    (60, "圈风刻", "Prevalent Wind", 2),
    (61, "门风刻", "Seat Wind", 2),
    (62, "门前清", "Concealed Hand", 2),
    (63, "平和", "All Chows", 2),
    (64, "四归一", "Tile Hog", 2),
    (65, "双同刻", "Double Pung", 2),
    (66, "双暗刻", "Two Concealed Pungs", 2),
    (67, "暗杠", "Concealed Kong", 2),
    (68, "断幺", "All Simples", 2),
    (69, "一般高", "Pure Double Chow", 1),
    (70, "喜相逢", "Mixed Double Chow", 1),
    (71, "连六", "Short Straight", 1),
    (72, "老少副", "Two Terminal Chows", 1),
    (73, "幺九刻", "Pung of Terminals or Honours", 1),
    (74, "明杠", "Melded Kong", 1),
    (75, "缺一门", "One Voided Suit", 1),
    (76, "无字", "No Honours", 1),
    (77, "边张", "Edge Wait", 1),
    (78, "坎张", "Closed Wait", 1),
    (79, "单钓将", "Single Wait", 1),
    (80, "自摸", "Self-Drawn", 1),
    (81, "花牌", "Flower Tiles", 1),
    (82, "明暗杠", "Concealed Kong and Melded Kong", 5),
)

# The 不计 column of the rules table (fans never counted together with the key fan).
NOT_COUNTED: dict[str, tuple[str, ...]] = {
    "大四喜": ("三风刻", "碰碰和", "圈风刻", "门风刻", "幺九刻",),
    "大三元": ("双箭刻", "箭刻",),
    "绿一色": ("混一色", "缺一门",),
    "九莲宝灯": ("清一色", "门前清", "不求人", "缺一门", "无字", "幺九刻",),
    "四杠": ("碰碰和", "单钓将", "三杠", "双明杠", "明杠", "双暗杠", "暗杠", "明暗杠",),
    "连七对": ("七对", "清一色", "门前清", "不求人", "单钓将", "缺一门", "无字",),
    "十三幺": ("五门齐", "门前清", "不求人", "单钓将", "混幺九",),
    "清幺九": ("混幺九", "碰碰和", "全带幺", "幺九刻", "无字", "双同刻",),
    "小四喜": ("三风刻", "幺九刻",),
    "小三元": ("双箭刻", "箭刻",),
    "字一色": ("碰碰和", "混幺九", "全带幺", "幺九刻", "缺一门",),
    "四暗刻": ("碰碰和", "门前清", "不求人", "三暗刻", "双暗刻",),
    "一色双龙会": ("平和", "七对", "清一色", "一般高", "老少副", "缺一门", "无字",),
    "一色四同顺": ("一色三同顺", "一色三节高", "一般高", "四归一",),
    "一色四节高": ("一色三节高", "一色三同顺", "碰碰和",),
    "一色四步高": ("一色三步高", "连六", "老少副",),
    "三杠": ("双明杠", "明杠", "双暗杠", "暗杠", "明暗杠",),
    "混幺九": ("碰碰和", "全带幺", "幺九刻",),
    "七对": ("门前清", "不求人", "单钓将",),
    "七星不靠": ("全不靠", "五门齐", "门前清", "不求人", "单钓将",),
    "全双刻": ("碰碰和", "断幺", "无字",),
    "清一色": ("缺一门", "无字",),
    "一色三同顺": ("一色三节高", "一般高",),
    "一色三节高": ("一色三同顺",),
    "全大": ("大于五", "无字",),
    "全中": ("断幺", "无字",),
    "全小": ("小于五", "无字",),
    "清龙": ("连六", "老少副",),
    "三色双龙会": ("喜相逢", "老少副", "平和", "无字",),
    "全带五": ("断幺", "无字",),
    "三同刻": ("双同刻",),
    "三暗刻": ("双暗刻",),
    "全不靠": ("五门齐", "门前清", "不求人", "单钓将",),
    "大于五": ("无字",),
    "小于五": ("无字",),
    "三风刻": ("幺九刻",),
    "推不倒": ("缺一门",),
    "三色三同顺": ("喜相逢",),
    "妙手回春": ("自摸",),
    "杠上开花": ("自摸",),
    "抢杠和": ("和绝张",),
    "混一色": ("缺一门",),
    "全求人": ("单钓将",),
    "双暗杠": ("暗杠", "双暗刻",),
    "双箭刻": ("箭刻",),
    "不求人": ("门前清", "自摸",),
    "双明杠": ("明杠",),
    "圈风刻": ("幺九刻",),
    "门风刻": ("幺九刻",),
    "平和": ("无字",),
    "断幺": ("无字",),
    "明暗杠": ("明杠", "暗杠",),
}
# Entries of the column that apply only to some of the sets (e.g. 九莲宝灯 absorbs *one* 幺九刻,
# 三风刻 the 幺九刻 of its three wind pungs, 清龙 the 连六/老少副 inside the straight).
PARTIAL: dict[str, tuple[str, ...]] = {
    "九莲宝灯": ("幺九刻",),
    "小四喜": ("幺九刻",),
    "清龙": ("连六", "老少副",),
    "三风刻": ("幺九刻",),
    "圈风刻": ("幺九刻",),
    "门风刻": ("幺九刻",),
}


@dataclass(frozen=True)
class Case:
    zh: str
    kind: str  # "pos" | "neg" | "excl" | "rel"
    hand: str
    win: str
    melds: str = ""
    flags: dict[str, Any] = field(default_factory=dict)
    expect: dict[str, int] = field(default_factory=dict)
    total: int = 0
    absent: tuple[str, ...] = ()
    note: str = ""


SELF = {"self_drawn": True}

CASES: tuple[Case, ...] = (
    # ---- 1 大四喜 Big Four Winds
    Case("大四喜", "pos", "111222333z5m", "5m", "444z",
         expect={"大四喜": 1, "三暗刻": 1, "混一色": 1, "单钓将": 1}, total=111, note="E1"),
    Case("大四喜", "neg", "111222333z4z123m", "4z",
         expect={"小四喜": 1, "三暗刻": 1, "混一色": 1, "全带幺": 1, "圈风刻": 1, "门风刻": 1,
                 "门前清": 1, "单钓将": 1},
         total=97, note="three wind pungs + wind pair: 小四喜"),
    Case("大四喜", "excl", "333444z5m", "5m", "111z 222z",
         flags=dict(seat_wind=1, prevalent_wind=2),
         expect={"大四喜": 1, "混一色": 1, "双暗刻": 1, "单钓将": 1}, total=97,
         absent=("三风刻", "碰碰和", "圈风刻", "门风刻", "幺九刻"),
         note="seat S / prevalent W pungs score no 圈风刻/门风刻; no 幺九刻, 碰碰和 or 三风刻"),
    # ---- 2 大三元 Big Three Dragons
    Case("大三元", "pos", "77766655z234m55p", "5z",
         expect={"大三元": 1, "门前清": 1, "双暗刻": 1, "缺一门": 1}, total=93,
         note="E2 (in compact notation)"),
    Case("大三元", "neg", "77766655z234m55p", "5p",
         expect={"小三元": 1, "门前清": 1, "双暗刻": 1, "缺一门": 1}, total=69,
         note="same wait, won on 5p: 小三元"),
    Case("大三元", "excl", "555z1239m", "9m", "777z 666z",
         expect={"大三元": 1, "混一色": 1, "全带幺": 1, "单钓将": 1}, total=99,
         absent=("双箭刻", "箭刻")),
    # ---- 3 绿一色 All Green
    Case("绿一色", "pos", "23423466688s66z", "8s",
         expect={"绿一色": 1, "门前清": 1, "一般高": 1}, total=91, note="E3"),
    Case("绿一色", "neg", "23423455588s66z", "8s",
         expect={"混一色": 1, "门前清": 1, "一般高": 1}, total=9, note="T5 is not green: 混一色"),
    Case("绿一色", "excl", "23488s66z", "6z", "234s 666s",
         expect={"绿一色": 1, "箭刻": 1, "一般高": 1}, total=91, absent=("混一色", "缺一门")),
    Case("绿一色", "rel", "2223334446668s", "8s",
         expect={"绿一色": 1, "四暗刻": 1, "清一色": 1, "一色三节高": 1, "断幺": 1}, total=202,
         note="without 发 the hand also scores 清一色 (which itself implies 缺一门/无字)"),
    # ---- 4 九莲宝灯 Nine Gates
    Case("九莲宝灯", "pos", "1112345678999m", "5m",
         expect={"九莲宝灯": 1, "双暗刻": 1, "幺九刻": 1}, total=91, note="discard: no 门前清"),
    Case("九莲宝灯", "neg", "2345678999m", "5m", "111m",
         expect={"清一色": 1, "幺九刻": 2}, total=26,
         note="the same 14 tiles with a melded pung: 清一色"),
    Case("九莲宝灯", "excl", "1112345678999m", "1m",
         flags=SELF, expect={"九莲宝灯": 1, "清龙": 1, "四归一": 1, "自摸": 1}, total=107,
         absent=("清一色", "门前清", "不求人", "缺一门", "无字", "幺九刻"),
         note="self-drawn scores 自摸, not 不求人; the W111(1) pung gives no 幺九刻"),
    Case("九莲宝灯", "excl", "1112345678999m", "5m",
         expect={"九莲宝灯": 1, "双暗刻": 1, "幺九刻": 1}, total=91,
         absent=("清一色", "门前清", "缺一门", "无字"),
         note="E4 discarded: of the two terminal pungs only one scores 幺九刻"),
    # ---- 5 四杠 Four Kongs
    Case("四杠", "pos", "1z", "1z", "1111m 2222p 3333s [7777z]",
         expect={"四杠": 1, "三色三节高": 1, "五门齐": 1, "箭刻": 1, "幺九刻": 1}, total=105,
         note="E5"),
    Case("四杠", "neg", "1z", "1z", "1111m 2222p 3333s 777z",
         expect={"三杠": 1, "三色三节高": 1, "碰碰和": 1, "五门齐": 1, "全求人": 1, "箭刻": 1,
                 "幺九刻": 1},
         total=61, note="three kongs and a pung: 三杠"),
    Case("四杠", "excl", "5p", "5p", "[2222m] [4444m] 6666p 8888s+",
         expect={"四杠": 1, "双暗刻": 1, "断幺": 1}, total=92,
         absent=("碰碰和", "单钓将", "三杠", "双明杠", "明杠", "双暗杠", "暗杠", "明暗杠"),
         note="two concealed kongs still give 双暗刻"),
    # ---- 6 连七对 Seven Shifted Pairs
    Case("连七对", "pos", "1122334455667s", "7s", expect={"连七对": 1}, total=88),
    Case("连七对", "neg", "1122334455668s", "8s",
         expect={"七对": 1, "清一色": 1}, total=48, note="a gap (no 7s): 七对 + 清一色"),
    Case("连七对", "excl", "2233445566778p", "8p",
         flags=SELF, expect={"连七对": 1, "断幺": 1, "自摸": 1}, total=91,
         absent=("七对", "清一色", "门前清", "不求人", "单钓将", "缺一门", "无字")),
    Case("连七对", "excl", "2233445566788p", "7p",
         expect={"连七对": 1, "断幺": 1}, total=90,
         absent=("七对", "清一色", "门前清", "单钓将", "缺一门", "无字"),
         note="won on a discard"),
    # ---- 7 十三幺 Thirteen Orphans
    Case("十三幺", "pos", "19m19s19p1234567z", "7z",
         expect={"十三幺": 1}, total=88, note="13-sided wait, discard"),
    Case("十三幺", "neg", "1199m1199s1155z7z", "7z",
         expect={"混幺九": 1, "七对": 1, "缺一门": 1}, total=57,
         note="terminals and honours in pairs: 七对 + 混幺九"),
    Case("十三幺", "excl", "119m19s19p123456z", "7z",
         flags=SELF, expect={"十三幺": 1, "自摸": 1}, total=89,
         absent=("五门齐", "不求人", "单钓将", "混幺九"),
         note="single wait on 中, self-drawn: 自摸 only"),
    Case("十三幺", "excl", "119m19s19p123456z", "7z",
         expect={"十三幺": 1}, total=88, absent=("五门齐", "门前清", "单钓将", "混幺九")),
    # ---- 8 清幺九 All Terminals
    Case("清幺九", "pos", "111p111s99m99p", "9p", "111m",
         expect={"清幺九": 1, "三同刻": 1, "双暗刻": 1}, total=82, note="E8: keeps 三同刻"),
    Case("清幺九", "neg", "111p111s99m11z", "1z", "111m",
         expect={"混幺九": 1, "三同刻": 1, "圈风刻": 1, "门风刻": 1, "双暗刻": 1}, total=54,
         note="an honour pair: 混幺九"),
    Case("清幺九", "excl", "111p999p1s", "1s", "111m 999m",
         expect={"清幺九": 1, "双暗刻": 1, "单钓将": 1}, total=67,
         absent=("混幺九", "碰碰和", "全带幺", "幺九刻", "无字", "双同刻"),
         note="W1/B1 and W9/B9 would be 双同刻 x2"),
    # ---- 9 小四喜 Little Four Winds
    Case("小四喜", "pos", "22233344z78p", "9p", "111z",
         expect={"小四喜": 1, "混一色": 1, "全带幺": 1, "圈风刻": 1, "门风刻": 1, "双暗刻": 1},
         total=80, note="E pung is seat and prevalent wind"),
    Case("小四喜", "neg", "22233355z78p", "9p", "111z",
         expect={"三风刻": 1, "混一色": 1, "全带幺": 1, "圈风刻": 1, "门风刻": 1, "双暗刻": 1},
         total=28, note="a dragon pair instead of N: 三风刻"),
    Case("小四喜", "excl", "111222333z4z123m", "4z",
         flags=dict(seat_wind=3, prevalent_wind=3),
         expect={"小四喜": 1, "三暗刻": 1, "混一色": 1, "全带幺": 1, "门前清": 1, "单钓将": 1},
         total=93, absent=("三风刻", "幺九刻"),
         note="no 幺九刻 for the wind pungs although none is seat/prevalent"),
    # ---- 10 小三元 Little Three Dragons
    Case("小三元", "pos", "66655z23467m", "8m", "777z",
         expect={"小三元": 1, "混一色": 1}, total=70, note="E10"),
    Case("小三元", "neg", "666z23467m55p", "8m", "777z",
         expect={"双箭刻": 1, "缺一门": 1}, total=7, note="no third dragon: 双箭刻"),
    Case("小三元", "excl", "77766655z123m99p", "9p",
         expect={"小三元": 1, "全带幺": 1, "门前清": 1, "双暗刻": 1, "幺九刻": 1, "缺一门": 1},
         total=74, absent=("双箭刻", "箭刻")),
    # ---- 11 字一色 All Honours
    Case("字一色", "pos", "2227774466z", "6z", "111z",
         expect={"字一色": 1, "双箭刻": 1, "圈风刻": 1, "门风刻": 1, "双暗刻": 1}, total=76,
         note="E11 without the flags"),
    Case("字一色", "neg", "22277744z11m", "1m", "111z",
         expect={"混幺九": 1, "混一色": 1, "箭刻": 1, "圈风刻": 1, "门风刻": 1, "双暗刻": 1},
         total=46, note="a W1 pair: 混幺九"),
    Case("字一色", "excl", "5556677z", "7z", "333z 444z",
         expect={"小三元": 1, "字一色": 1}, total=128,
         absent=("碰碰和", "混幺九", "全带幺", "幺九刻", "缺一门"),
         note="with 小三元; the W and N pungs (neither seat nor prevalent wind) give no 幺九刻"),
    Case("字一色", "rel", "1122334455667z", "7z",
         expect={"字一色": 1, "七对": 1}, total=88, note="seven pairs of honours"),
    # ---- 12 四暗刻 Four Concealed Pungs
    Case("四暗刻", "pos", "222m444p666s888s5z", "5z",
         expect={"四暗刻": 1, "单钓将": 1}, total=65, note="E12"),
    Case("四暗刻", "neg", "222m444p666s88s55z", "8s",
         expect={"三暗刻": 1, "碰碰和": 1, "门前清": 1}, total=24,
         note="two-pair wait won by discard: the completed pung is exposed -> 三暗刻 + 碰碰和"),
    Case("四暗刻", "excl", "222m444p666s88s55z", "8s",
         flags=SELF, expect={"四暗刻": 1, "自摸": 1}, total=65,
         absent=("碰碰和", "门前清", "不求人", "三暗刻", "双暗刻"),
         note="self-drawn: 自摸, not 不求人"),
    Case("四暗刻", "excl", "222m444p666s888s5z", "5z",
         expect={"四暗刻": 1, "单钓将": 1}, total=65,
         absent=("碰碰和", "门前清", "三暗刻", "双暗刻")),
    # ---- 13 一色双龙会 Pure Terminal Chows
    Case("一色双龙会", "pos", "1231237897895m", "5m",
         expect={"一色双龙会": 1, "门前清": 1, "单钓将": 1}, total=67,
         note="E13: beats 七对 + 清一色"),
    Case("一色双龙会", "neg", "123123789789m5p", "5p",
         expect={"七对": 1, "缺一门": 1, "无字": 1}, total=26, note="the 5 pair in another suit"),
    Case("一色双龙会", "excl", "1123377889955m", "2m",
         flags=SELF, expect={"一色双龙会": 1, "不求人": 1, "坎张": 1}, total=69,
         absent=("平和", "七对", "清一色", "一般高", "老少副", "缺一门", "无字")),
    # ---- 14 一色四同顺 Quadruple Chow
    Case("一色四同顺", "pos", "234234234p7z", "7z", "234p",
         expect={"一色四同顺": 1, "混一色": 1, "单钓将": 1}, total=55, note="E14"),
    Case("一色四同顺", "neg", "234p567s7z", "7z", "234p 234p",
         expect={"一色三同顺": 1, "缺一门": 1, "单钓将": 1}, total=26,
         note="three identical chows: 一色三同顺"),
    Case("一色四同顺", "excl", "234234234234p9s", "9s",
         expect={"一色四同顺": 1, "推不倒": 1, "门前清": 1, "平和": 1, "单钓将": 1}, total=61,
         absent=("一色三同顺", "一色三节高", "一般高", "四归一"),
         note="4 copies each of B2 B3 B4, no 四归一; the 222 333 444 + 234 reading is lower"),
    # ---- 15 一色四节高 Four Pure Shifted Pungs
    Case("一色四节高", "pos", "333444555s66s99p", "6s",
         expect={"一色四节高": 1, "三暗刻": 1, "门前清": 1, "缺一门": 1, "无字": 1}, total=68,
         note="E15"),
    Case("一色四节高", "neg", "333444555s88s99p", "8s",
         expect={"一色三节高": 1, "三暗刻": 1, "碰碰和": 1, "门前清": 1, "缺一门": 1, "无字": 1},
         total=50, note="three shifted pungs: 一色三节高"),
    Case("一色四节高", "excl", "55566s99p", "6s", "333s 444s",
         expect={"一色四节高": 1, "缺一门": 1, "无字": 1}, total=50,
         absent=("一色三节高", "一色三同顺", "碰碰和")),
    # ---- 16 一色四步高 Four Pure Shifted Chows
    Case("一色四步高", "pos", "34556778m11z", "9m", "123m",
         flags=dict(seat_wind=2, prevalent_wind=1), expect={"一色四步高": 1, "混一色": 1},
         total=38, note="E16, step 2"),
    Case("一色四步高", "neg", "345567m234p1z", "1z", "123m",
         expect={"一色三步高": 1, "缺一门": 1, "单钓将": 1}, total=18,
         note="three steps only: 一色三步高"),
    Case("一色四步高", "excl", "123234345456m9p", "9p",
         expect={"一色四步高": 1, "门前清": 1, "平和": 1, "缺一门": 1, "单钓将": 1}, total=38,
         absent=("一色三步高", "连六", "老少副"), note="step 1: 123+456 would be 连六"),
    Case("一色四步高", "excl", "123345567789m9p", "9p",
         expect={"一色四步高": 1, "门前清": 1, "平和": 1, "缺一门": 1, "单钓将": 1}, total=38,
         absent=("一色三步高", "老少副"), note="step 2: 123+789 would be 老少副"),
    # ---- 17 三杠 Three Kongs
    Case("三杠", "pos", "34p66z", "5p", "5555m 7777p [2222s]", expect={"三杠": 1}, total=32),
    Case("三杠", "neg", "34p66z", "5p", "5555m 777p [2222s]",
         expect={"明暗杠": 1}, total=5, note="two kongs and a pung: 明暗杠"),
    Case("三杠", "excl", "34p66z", "5p", "[5555m] [7777p] 2222s",
         expect={"三杠": 1, "双暗刻": 1}, total=34,
         absent=("双明杠", "明杠", "双暗杠", "暗杠", "明暗杠"),
         note="the two concealed kongs still give 双暗刻"),
    Case("三杠", "excl", "34p66z", "5p", "5555m 7777p+ 2222s",
         expect={"三杠": 1}, total=32, absent=("双明杠", "明杠")),
    # ---- 18 混幺九 All Terminals and Honours
    Case("混幺九", "pos", "111m999p77z11s", "1s", "333z",
         flags=dict(seat_wind=2, prevalent_wind=1),
         expect={"混幺九": 1, "五门齐": 1, "门风刻": 1, "双同刻": 1, "双暗刻": 1}, total=44,
         note="cf. E18"),
    Case("混幺九", "neg", "111m999p123s7z", "7z", "333z",
         expect={"五门齐": 1, "全带幺": 1, "双暗刻": 1, "幺九刻": 3, "单钓将": 1}, total=16,
         note="a chow 123s: 全带幺"),
    Case("混幺九", "excl", "111m999p22z11s", "1s", "999s",
         expect={"混幺九": 1, "双同刻": 2, "双暗刻": 1}, total=38,
         absent=("碰碰和", "全带幺", "幺九刻"),
         note="four terminal pungs and no 幺九刻; 双同刻 still counts"),
    Case("混幺九", "rel", "1199m1199p1155z7z", "7z",
         expect={"混幺九": 1, "七对": 1, "缺一门": 1}, total=57,
         note="seven pairs of terminals and honours"),
    # ---- 19 七对 Seven Pairs
    Case("七对", "pos", "1155m3377p22s22z5z", "5z",
         expect={"七对": 1, "五门齐": 1}, total=30, absent=("门前清", "单钓将"),
         note="E19 won on a discard"),
    Case("七对", "neg", "11122m334455p66s", "6s",
         expect={"门前清": 1, "一般高": 1, "幺九刻": 1, "无字": 1}, total=5,
         note="pairs and pungs, a regular hand"),
    Case("七对", "excl", "1155m3377p22s22z5z", "5z",
         flags=SELF, expect={"七对": 1, "五门齐": 1, "自摸": 1}, total=31,
         absent=("不求人", "门前清", "单钓将")),
    Case("七对", "rel", "2222m4466p6688s8p", "8p",
         flags=SELF, expect={"七对": 1, "四归一": 1, "断幺": 1, "自摸": 1}, total=29,
         note="E20: 四归一 with two identical pairs"),
    # ---- 20 七星不靠 Greater Honours and Knitted Tiles
    Case("七星不靠", "pos", "147m25p3s1234567z", "6s",
         expect={"七星不靠": 1}, total=24, note="E21"),
    Case("七星不靠", "neg", "147m258p3s123567z", "6s",
         expect={"全不靠": 1}, total=12, note="six honours: 全不靠"),
    Case("七星不靠", "excl", "147m25p3s1234567z", "6s",
         flags=SELF, expect={"七星不靠": 1, "自摸": 1}, total=25,
         absent=("全不靠", "五门齐", "不求人", "单钓将")),
    Case("七星不靠", "excl", "147m25p3s1234567z", "6s",
         expect={"七星不靠": 1}, total=24, absent=("全不靠", "五门齐", "门前清", "单钓将")),
    # ---- 21 全双刻 All Even Pungs
    Case("全双刻", "pos", "444p666s88m22p", "2p", "222m",
         expect={"全双刻": 1, "双同刻": 1, "双暗刻": 1}, total=28, note="E22"),
    Case("全双刻", "neg", "444p666s88m55p", "5p", "222m",
         expect={"碰碰和": 1, "双暗刻": 1, "断幺": 1}, total=10, note="a B5 pung: 碰碰和 + 断幺"),
    Case("全双刻", "excl", "222m444p666s88m22p", "2p",
         expect={"全双刻": 1, "三暗刻": 1, "门前清": 1, "双同刻": 1}, total=44,
         absent=("碰碰和", "断幺", "无字")),
    # ---- 22 清一色 Full Flush
    Case("清一色", "pos", "456567888p9p", "9p", "123p",
         expect={"清一色": 1, "连六": 1}, total=25, note="E23"),
    Case("清一色", "neg", "456567888p7z", "7z", "123p",
         expect={"混一色": 1, "连六": 1, "单钓将": 1}, total=8, note="an honour pair: 混一色"),
    Case("清一色", "excl", "1234567891155m", "5m",
         expect={"清一色": 1, "清龙": 1, "门前清": 1, "四归一": 1}, total=44,
         absent=("缺一门", "无字")),
    # ---- 23 一色三同顺 Pure Triple Chow
    Case("一色三同顺", "pos", "456456m222p1z", "1z", "456m",
         flags=dict(seat_wind=1, prevalent_wind=2),
         expect={"一色三同顺": 1, "缺一门": 1, "单钓将": 1}, total=26, note="E76"),
    Case("一色三同顺", "neg", "456456m222p1z", "1z", "567m",
         expect={"一般高": 1, "缺一门": 1, "单钓将": 1}, total=3,
         note="two identical chows: 一般高"),
    Case("一色三同顺", "excl", "456m123p5z", "5z", "456m 456m",
         expect={"一色三同顺": 1, "缺一门": 1, "单钓将": 1}, total=26,
         absent=("一色三节高", "一般高")),
    # ---- 24 一色三节高 Pure Shifted Pungs
    Case("一色三节高", "pos", "55m678p22z", "5m", "333m 444m",
         expect={"一色三节高": 1, "缺一门": 1}, total=25, note="E25"),
    Case("一色三节高", "neg", "55p678p22z", "5p", "333m 444s",
         expect={"三色三节高": 1}, total=8, note="pungs in three suits: 三色三节高"),
    Case("一色三节高", "excl", "456456456s789m6z", "6z",
         flags=SELF, expect={"一色三节高": 1, "三暗刻": 1, "不求人": 1, "缺一门": 1, "单钓将": 1},
         total=46, absent=("一色三同顺",), note="E24: the pung reading beats 456 x3"),
    # ---- 25 全大 Upper Tiles
    Case("全大", "pos", "789p777s99s88p", "8p", "789m",
         expect={"全大": 1, "四归一": 1, "双暗刻": 1, "喜相逢": 1}, total=29, note="E26"),
    Case("全大", "neg", "678p888s99s99p", "9p", "678m",
         expect={"大于五": 1, "喜相逢": 1, "幺九刻": 1}, total=14, note="sixes: 大于五 (E40)"),
    Case("全大", "excl", "778899m7788p99s9p", "9p",
         expect={"七对": 1, "全大": 1}, total=48, absent=("大于五", "无字"), note="seven pairs"),
    # ---- 26 全中 Middle Tiles
    Case("全中", "pos", "456m456p456s55p66s", "6s",
         flags=SELF, expect={"全中": 1, "三色三同顺": 1, "不求人": 1, "四归一": 1}, total=38,
         note="E27"),
    Case("全中", "neg", "456p345s55p66s", "6s", "456m",
         expect={"断幺": 1, "喜相逢": 1}, total=3, note="a 3: 断幺"),
    Case("全中", "excl", "456m6665s", "5s", "444m 555p",
         expect={"全中": 1, "三色三节高": 1, "四归一": 1}, total=34, absent=("断幺", "无字")),
    # ---- 27 全小 Lower Tiles
    Case("全小", "pos", "123m123s33p33m", "3m", "111p",
         expect={"全小": 1, "四归一": 1, "喜相逢": 1, "幺九刻": 1}, total=28, note="E28"),
    Case("全小", "neg", "123p234s44p33m", "3m", "111m",
         expect={"小于五": 1, "幺九刻": 1}, total=13, note="a 4: 小于五 (E41)"),
    Case("全小", "excl", "112233m1133p22s3s", "3s",
         expect={"七对": 1, "全小": 1}, total=48, absent=("小于五", "无字"), note="seven pairs"),
    # ---- 28 清龙 Pure Straight
    Case("清龙", "pos", "456789s222m1z", "1z", "123s",
         flags=dict(seat_wind=3, prevalent_wind=3), expect={"清龙": 1, "缺一门": 1, "单钓将": 1},
         total=18, note="E29"),
    Case("清龙", "neg", "456p789m222m1z", "1z", "123s",
         expect={"花龙": 1, "单钓将": 1}, total=9, note="one straight in three suits: 花龙"),
    Case("清龙", "excl", "123456789m789p5p", "5p",
         expect={"清龙": 1, "门前清": 1, "平和": 1, "喜相逢": 1, "缺一门": 1, "单钓将": 1},
         total=23, absent=("连六", "老少副"),
         note="no 连六/老少副 inside the straight; the 4th chow adds 喜相逢"),
    # ---- 29 三色双龙会 Three-Suited Terminal Chows
    Case("三色双龙会", "pos", "123789m123789s5p", "5p",
         expect={"三色双龙会": 1, "门前清": 1, "单钓将": 1}, total=19, note="E30"),
    Case("三色双龙会", "neg", "123789m123789s8p", "8p",
         expect={"门前清": 1, "平和": 1, "喜相逢": 2, "老少副": 1, "单钓将": 1}, total=8,
         note="an 8 pair: 喜相逢 x2 + 老少副"),
    Case("三色双龙会", "excl", "12378m123789s55p", "9m",
         flags=SELF, expect={"三色双龙会": 1, "不求人": 1}, total=20,
         absent=("喜相逢", "老少副", "平和", "无字")),
    # ---- 30 一色三步高 Pure Shifted Chows
    Case("一色三步高", "pos", "345456m999p1s", "1s", "234m",
         expect={"一色三步高": 1, "幺九刻": 1, "无字": 1, "单钓将": 1}, total=19, note="E31"),
    Case("一色三步高", "neg", "345p456s999p1s", "1s", "234m",
         expect={"三色三步高": 1, "幺九刻": 1, "无字": 1, "单钓将": 1}, total=9,
         note="steps in three suits: 三色三步高"),
    Case("一色三步高", "rel", "123234345678m5p", "5p",
         expect={"一色三步高": 1, "门前清": 1, "平和": 1, "连六": 1, "缺一门": 1, "单钓将": 1},
         total=23, note="the 4th chow adds 连六 (345+678)"),
    # ---- 31 全带五 All Fives
    Case("全带五", "pos", "345p555s567p5m", "5m", "456m",
         expect={"全带五": 1, "单钓将": 1}, total=17, note="E32"),
    Case("全带五", "neg", "345p555s678p5m", "5m", "456m",
         expect={"断幺": 1, "连六": 1, "单钓将": 1}, total=4, note="678 has no 5"),
    Case("全带五", "excl", "555345s5p", "5p", "555m 456p",
         expect={"全带五": 1, "四归一": 1, "双同刻": 1, "单钓将": 1}, total=21,
         absent=("断幺", "无字")),
    # ---- 32 三同刻 Triple Pung
    Case("三同刻", "pos", "333s789m7z", "7z", "333m 333p",
         expect={"三同刻": 1, "单钓将": 1}, total=17, note="E33"),
    Case("三同刻", "neg", "444s789m7z", "7z", "333m 333p",
         expect={"双同刻": 1, "单钓将": 1}, total=3, note="two pungs of a rank: 双同刻"),
    Case("三同刻", "excl", "333789m333p333s7z", "7z",
         flags=SELF, expect={"三同刻": 1, "三暗刻": 1, "不求人": 1, "单钓将": 1}, total=37,
         absent=("双同刻",)),
    # ---- 33 三暗刻 Three Concealed Pungs
    Case("三暗刻", "pos", "222m555p888s67m99p", "8m",
         expect={"三暗刻": 1, "门前清": 1, "无字": 1}, total=19, note="E34"),
    Case("三暗刻", "neg", "222m555p88s678m99p", "8s",
         expect={"门前清": 1, "双暗刻": 1, "无字": 1}, total=5,
         note="third pung completed by a discard: 双暗刻"),
    Case("三暗刻", "excl", "555p888s678m9p", "9p", "[2222m]",
         expect={"三暗刻": 1, "门前清": 1, "暗杠": 1, "无字": 1, "单钓将": 1}, total=22,
         absent=("双暗刻",)),
    # ---- 34 全不靠 Lesser Honours and Knitted Tiles
    Case("全不靠", "pos", "147m258p36s13567z", "4z", expect={"全不靠": 1}, total=12, note="E36"),
    Case("全不靠", "neg", "147m25p3s1234567z", "6s",
         expect={"七星不靠": 1}, total=24, note="all seven honours: 七星不靠"),
    Case("全不靠", "excl", "147m258p36s13567z", "4z",
         flags=SELF, expect={"全不靠": 1, "自摸": 1}, total=13,
         absent=("五门齐", "不求人", "单钓将")),
    Case("全不靠", "excl", "147m258p36s13567z", "4z",
         expect={"全不靠": 1}, total=12, absent=("五门齐", "门前清", "单钓将")),
    # ---- 35 组合龙 Knitted Straight
    Case("组合龙", "pos", "147m258p369s234m9p", "9p",
         expect={"组合龙": 1, "门前清": 1, "平和": 1, "单钓将": 1}, total=17, note="E38"),
    Case("组合龙", "neg", "147m258p36s13567z", "4z",
         expect={"全不靠": 1}, total=12, note="T9 missing: 全不靠 only (E36)"),
    Case("组合龙", "rel", "147m258p36s13567z", "9s",
         expect={"全不靠": 1, "组合龙": 1}, total=24, note="E37: 全不靠 + 组合龙"),
    Case("组合龙", "rel", "147m258p369s7z", "7z", "111z",
         flags=dict(seat_wind=0, prevalent_wind=1),
         expect={"组合龙": 1, "五门齐": 1, "门风刻": 1, "单钓将": 1}, total=21, note="E39"),
    # ---- 36 大于五 Upper Four
    Case("大于五", "pos", "678p888s99s99p", "9p", "678m",
         expect={"大于五": 1, "喜相逢": 1, "幺九刻": 1}, total=14, note="E40"),
    Case("大于五", "neg", "567p888s99s99p", "9p", "678m",
         expect={"幺九刻": 1, "无字": 1}, total=2, note="a 5"),
    Case("大于五", "excl", "66778899m6677p9s", "9s",
         expect={"七对": 1, "大于五": 1}, total=36, absent=("无字",), note="seven pairs"),
    # ---- 37 小于五 Lower Four
    Case("小于五", "pos", "123p234s44p33m", "3m", "111m",
         expect={"小于五": 1, "幺九刻": 1}, total=13, note="E41"),
    Case("小于五", "neg", "123p345s44p33m", "3m", "111m",
         expect={"幺九刻": 1, "无字": 1}, total=2, note="a 5"),
    Case("小于五", "excl", "11223344m1122p3p", "3p",
         expect={"七对": 1, "小于五": 1, "缺一门": 1}, total=37, absent=("无字",),
         note="seven pairs"),
    # ---- 38 三风刻 Big Three Winds
    Case("三风刻", "pos", "333z23m66p", "4m", "111z 222z",
         flags=dict(seat_wind=3, prevalent_wind=0),
         expect={"三风刻": 1, "圈风刻": 1, "缺一门": 1}, total=15, note="E42"),
    Case("三风刻", "neg", "77723m66p", "4m", "111z 222z",
         expect={"圈风刻": 1, "门风刻": 1, "幺九刻": 1, "缺一门": 1}, total=6,
         note="two wind pungs + a dragon pung"),
    Case("三风刻", "excl", "333z23m66p", "4m", "111z 222z",
         flags=dict(seat_wind=3, prevalent_wind=3), expect={"三风刻": 1, "缺一门": 1}, total=13,
         absent=("幺九刻",), note="no 幺九刻 for the three wind pungs"),
    Case("三风刻", "rel", "333z23m66p", "4m", "111z 222z",
         flags=dict(seat_wind=2, prevalent_wind=1),
         expect={"三风刻": 1, "圈风刻": 1, "门风刻": 1, "缺一门": 1}, total=17,
         note="圈风刻 and 门风刻 still count (A7)"),
    # ---- 39 花龙 Mixed Straight
    Case("花龙", "pos", "456p789s777z4z", "4z", "123m",
         expect={"花龙": 1, "五门齐": 1, "箭刻": 1, "单钓将": 1}, total=17, note="E43"),
    Case("花龙", "neg", "456p789p777z4z", "4z", "123m",
         expect={"箭刻": 1, "连六": 1, "缺一门": 1, "单钓将": 1}, total=5, note="two suits only"),
    Case("花龙", "rel", "123m456s789p123s5p", "5p",
         expect={"花龙": 1, "门前清": 1, "平和": 1, "喜相逢": 1, "单钓将": 1}, total=14,
         note="the 4th chow adds 喜相逢"),
    # ---- 40 推不倒 Reversible Tiles
    Case("推不倒", "pos", "123345p456s555z2s", "2s",
         expect={"推不倒": 1, "箭刻": 1, "门前清": 1, "单钓将": 1}, total=13, note="E44"),
    Case("推不倒", "neg", "123345p456p555z2s", "2s",
         expect={"箭刻": 1, "门前清": 1, "连六": 1, "缺一门": 1, "单钓将": 1}, total=7,
         note="B6 is not reversible"),
    Case("推不倒", "excl", "11224455p2244s5s", "5s",
         expect={"七对": 1, "推不倒": 1, "无字": 1}, total=33, absent=("缺一门",),
         note="seven pairs"),
    # ---- 41 三色三同顺 Mixed Triple Chow
    Case("三色三同顺", "pos", "456p456s222z7z", "7z", "456m",
         expect={"三色三同顺": 1, "五门齐": 1, "幺九刻": 1, "单钓将": 1}, total=16, note="E45"),
    Case("三色三同顺", "neg", "456p567s222z7z", "7z", "456m",
         expect={"五门齐": 1, "喜相逢": 1, "幺九刻": 1, "单钓将": 1}, total=9,
         note="third chow shifted: 喜相逢"),
    Case("三色三同顺", "excl", "456p456s456s5m", "5m", "456m",
         expect={"全中": 1, "全带五": 1, "三色三同顺": 1, "平和": 1, "一般高": 1, "单钓将": 1},
         total=52, absent=("喜相逢",), note="the 4th chow adds 一般高, not a further 喜相逢"),
    # ---- 42 三色三节高 Mixed Shifted Pungs
    Case("三色三节高", "pos", "333p444s678m6z", "6z", "222m",
         expect={"三色三节高": 1, "双暗刻": 1, "单钓将": 1}, total=11, note="cf. E46"),
    Case("三色三节高", "neg", "333p444p678m6z", "6z", "222m",
         expect={"双暗刻": 1, "缺一门": 1, "单钓将": 1}, total=4, note="two suits only"),
    Case("三色三节高", "rel", "333p444s222p7z", "7z", "222m",
         expect={"三暗刻": 1, "三色三节高": 1, "碰碰和": 1, "双同刻": 1, "单钓将": 1}, total=33,
         note="the 4th pung adds 双同刻"),
    # ---- 43 无番和 Chicken Hand
    Case("无番和", "pos", "56s678m33z", "7s", "234m 888p",
         expect={"无番和": 1}, total=8, note="E47"),
    Case("无番和", "neg", "56s678m33z", "7s", "234m 888p",
         flags=SELF, expect={"自摸": 1}, total=1, note="self-drawn: 自摸 1, below the minimum"),
    Case("无番和", "rel", "56s678m33z", "7s", "234m 888p",
         flags=dict(flowers=2), expect={"无番和": 1, "花牌": 2}, total=10,
         note="flowers do not prevent 无番和"),
    # ---- 44 妙手回春 Last Tile Draw
    Case("妙手回春", "pos", "567m234p45s11z", "6s", "234m",
         flags=dict(self_drawn=True, last_tile=True, seat_wind=1, prevalent_wind=2),
         expect={"妙手回春": 1, "喜相逢": 1, "连六": 1}, total=10, absent=("自摸",), note="E48"),
    Case("妙手回春", "neg", "567m234p45s11z", "6s", "234m",
         flags=dict(last_tile=True, seat_wind=1, prevalent_wind=2),
         expect={"海底捞月": 1, "喜相逢": 1, "连六": 1}, total=10,
         note="won on the last discard: 海底捞月"),
    Case("妙手回春", "excl", "234m567p33s88s", "8s", "9999m",
         flags=dict(self_drawn=True, last_tile=True, kong_win=True),
         expect={"妙手回春": 1, "杠上开花": 1, "幺九刻": 1, "明杠": 1, "无字": 1}, total=19,
         absent=("自摸",), note="E78: with 杠上开花"),
    # ---- 45 海底捞月 Last Tile Claim
    Case("海底捞月", "pos", "567m234p45s11z", "6s", "234m",
         flags=dict(last_tile=True, seat_wind=1, prevalent_wind=2),
         expect={"海底捞月": 1, "喜相逢": 1, "连六": 1}, total=10, note="E49"),
    Case("海底捞月", "neg", "567m234p45s11z", "6s", "234m",
         flags=dict(seat_wind=1, prevalent_wind=2), expect={"喜相逢": 1, "连六": 1}, total=2,
         note="an ordinary discard"),
    Case("海底捞月", "rel", "567m234p45s11z", "6s", "234m",
         flags=dict(last_tile=True, last_copy=True, seat_wind=1, prevalent_wind=2),
         expect={"海底捞月": 1, "和绝张": 1, "喜相逢": 1, "连六": 1}, total=14,
         note="with 和绝张"),
    # ---- 46 杠上开花 Out with Replacement Tile
    Case("杠上开花", "pos", "234m567p33s88s", "8s", "9999m",
         flags=dict(self_drawn=True, kong_win=True),
         expect={"杠上开花": 1, "幺九刻": 1, "明杠": 1, "无字": 1}, total=11, absent=("自摸",),
         note="E50"),
    Case("杠上开花", "neg", "234m567p33s88s", "8s", "9999m",
         flags=SELF, expect={"幺九刻": 1, "明杠": 1, "无字": 1, "自摸": 1}, total=4,
         note="a plain self-draw"),
    Case("杠上开花", "excl", "34p66z", "5p", "5555m 7777p [2222s]",
         flags=dict(self_drawn=True, kong_win=True), expect={"三杠": 1, "杠上开花": 1}, total=40,
         absent=("自摸",), note="E17 with 三杠"),
    # ---- 47 抢杠和 Robbing the Kong
    Case("抢杠和", "pos", "456m78p234s99s", "9p", "777z",
         flags=dict(kong_win=True), expect={"抢杠和": 1, "箭刻": 1}, total=10,
         note="E51 without the 和绝张 flag"),
    Case("抢杠和", "neg", "456m78p234s99s", "9p", "777z",
         flags=dict(last_copy=True), expect={"和绝张": 1, "箭刻": 1}, total=6,
         note="no robbing: 和绝张"),
    Case("抢杠和", "excl", "456m78p234s99s", "9p", "777z",
         flags=dict(kong_win=True, last_copy=True), expect={"抢杠和": 1, "箭刻": 1}, total=10,
         absent=("和绝张",), note="E51: 和绝张 never with 抢杠和"),
    # ---- 48 碰碰和 All Pungs
    Case("碰碰和", "pos", "777s22z66z", "6z", "222m 555p",
         expect={"碰碰和": 1, "五门齐": 1, "箭刻": 1}, total=14, note="E52"),
    Case("碰碰和", "neg", "777s22z66z", "6z", "234m 555p",
         expect={"五门齐": 1, "箭刻": 1}, total=8, note="one chow"),
    Case("碰碰和", "rel", "777s33z55z", "5z", "111m 111p",
         expect={"碰碰和": 1, "五门齐": 1, "箭刻": 1, "双同刻": 1, "幺九刻": 2}, total=18,
         note="with 双同刻, 幺九刻 and 箭刻"),
    # ---- 49 混一色 Half Flush
    Case("混一色", "pos", "456777p33z55z", "3z", "123p",
         flags=dict(seat_wind=2), expect={"混一色": 1, "门风刻": 1, "连六": 1}, total=9,
         note="E53"),
    Case("混一色", "neg", "456777p33z55z", "3z", "123m",
         flags=dict(seat_wind=2), expect={"门风刻": 1, "缺一门": 1}, total=3, note="two suits"),
    Case("混一色", "excl", "456777p33z55z", "3z", "123p",
         expect={"混一色": 1, "连六": 1, "幺九刻": 1}, total=8, absent=("缺一门",)),
    # ---- 50 三色三步高 Mixed Shifted Chows
    Case("三色三步高", "pos", "345p456s777z5z", "5z", "234m",
         expect={"三色三步高": 1, "箭刻": 1, "单钓将": 1}, total=9, note="E54"),
    Case("三色三步高", "neg", "345m456s777z5z", "5z", "234m",
         expect={"箭刻": 1, "缺一门": 1, "单钓将": 1}, total=4, note="W234 W345: two suits"),
    Case("三色三步高", "rel", "345p456s234p5z", "5z", "234m",
         expect={"三色三步高": 1, "喜相逢": 1, "单钓将": 1}, total=8,
         note="the 4th chow adds 喜相逢"),
    # ---- 51 五门齐 All Types
    Case("五门齐", "pos", "555p789s44z66z", "6z", "123m",
         expect={"五门齐": 1, "箭刻": 1}, total=8, note="E55"),
    Case("五门齐", "neg", "555p789s44z11z", "1z", "123m",
         expect={"圈风刻": 1, "门风刻": 1}, total=4, note="no dragon"),
    Case("五门齐", "rel", "1155m3377p22s22z5z", "5z",
         flags=SELF, expect={"七对": 1, "五门齐": 1, "自摸": 1}, total=31, note="E19: with 七对"),
    # ---- 52 全求人 Melded Hand
    Case("全求人", "pos", "3z", "3z", "123m 666p 456s 777z",
         expect={"五门齐": 1, "全求人": 1, "箭刻": 1}, total=14, note="E56"),
    Case("全求人", "neg", "3z", "3z", "123m 666p 456s 777z",
         flags=SELF, expect={"五门齐": 1, "箭刻": 1, "单钓将": 1, "自摸": 1}, total=10,
         note="self-drawn: 自摸 + 单钓将"),
    Case("全求人", "excl", "9p", "9p", "234m 456p 789s 111z",
         expect={"全求人": 1, "圈风刻": 1, "门风刻": 1}, total=10, absent=("单钓将",)),
    # ---- 53 双暗杠 Two Concealed Kongs
    Case("双暗杠", "pos", "234s678s1z", "1z", "[5555m] [7777p]",
         expect={"双暗杠": 1, "门前清": 1, "单钓将": 1}, total=9),
    Case("双暗杠", "neg", "234s678s1z", "1z", "[5555m] 7777p",
         expect={"单钓将": 1, "明暗杠": 1}, total=6, note="one concealed + one exposed: 明暗杠"),
    Case("双暗杠", "excl", "123m456s7z", "7z", "[1111z] [9999p]",
         expect={"五门齐": 1, "双暗杠": 1, "圈风刻": 1, "门风刻": 1, "门前清": 1, "幺九刻": 1,
                 "单钓将": 1},
         total=20, absent=("暗杠", "双暗刻")),
    Case("双暗杠", "rel", "234s666s1z", "1z", "[5555m] [7777p]",
         expect={"三暗刻": 1, "三色三节高": 1, "双暗杠": 1, "门前清": 1, "单钓将": 1}, total=33,
         note="E57: with a concealed pung, 三暗刻"),
    # ---- 54 双箭刻 Two Dragon Pungs
    Case("双箭刻", "pos", "12378m99p", "9m", "777z 666z",
         flags=SELF, expect={"双箭刻": 1, "全带幺": 1, "老少副": 1, "缺一门": 1, "自摸": 1},
         total=13, note="E58"),
    Case("双箭刻", "neg", "12378m99p", "9m", "777z 222z",
         flags=SELF,
         expect={"全带幺": 1, "箭刻": 1, "老少副": 1, "幺九刻": 1, "缺一门": 1, "自摸": 1},
         total=10, note="one dragon pung: 箭刻"),
    Case("双箭刻", "excl", "777666z123789m5p", "5p",
         expect={"双箭刻": 1, "门前清": 1, "双暗刻": 1, "老少副": 1, "缺一门": 1, "单钓将": 1},
         total=13, absent=("箭刻",), note="concealed dragon pungs"),
    # ---- 55 全带幺 Outside Hand
    Case("全带幺", "pos", "789p111s11z55z", "5z", "123m",
         flags=dict(seat_wind=1, prevalent_wind=1),
         expect={"五门齐": 1, "全带幺": 1, "箭刻": 1, "幺九刻": 1}, total=13, note="E59"),
    Case("全带幺", "neg", "678p111s11z55z", "5z", "123m",
         flags=dict(seat_wind=1, prevalent_wind=1), expect={"五门齐": 1, "箭刻": 1, "幺九刻": 1},
         total=9, note="678"),
    Case("全带幺", "rel", "12378m99p", "9m", "777z 666z",
         flags=SELF, expect={"双箭刻": 1, "全带幺": 1, "老少副": 1, "缺一门": 1, "自摸": 1},
         total=13, note="E58: with 老少副"),
    # ---- 56 不求人 Fully Concealed Hand
    Case("不求人", "pos", "234m345p678s88p67m", "8m",
         flags=SELF, expect={"不求人": 1, "平和": 1, "断幺": 1, "喜相逢": 1}, total=9,
         note="E60"),
    Case("不求人", "neg", "234m345p678s88p67m", "8m",
         expect={"门前清": 1, "平和": 1, "断幺": 1, "喜相逢": 1}, total=7,
         note="won on a discard: 门前清"),
    Case("不求人", "excl", "234567m345p67s88p", "8s",
         flags=SELF, expect={"不求人": 1, "平和": 1, "断幺": 1, "连六": 1}, total=9,
         absent=("门前清", "自摸"), note="E63"),
    Case("不求人", "rel", "57m234567p22z", "6m", "[5555s]",
         flags=SELF, expect={"不求人": 1, "暗杠": 1, "喜相逢": 1, "连六": 1, "坎张": 1}, total=9,
         note="E68: a concealed kong is allowed"),
    # ---- 57 双明杠 Two Melded Kongs
    Case("双明杠", "pos", "777z78s22z", "9s", "3333m 6666p",
         expect={"五门齐": 1, "双明杠": 1, "箭刻": 1}, total=12, note="E61"),
    Case("双明杠", "neg", "777z78s22z", "9s", "3333m 666p",
         expect={"五门齐": 1, "箭刻": 1, "明杠": 1}, total=9, note="one kong: 明杠"),
    Case("双明杠", "excl", "777z78s22z", "9s", "3333m+ 6666p",
         expect={"五门齐": 1, "双明杠": 1, "箭刻": 1}, total=12, absent=("明杠",),
         note="an added kong counts"),
    # ---- 58 和绝张 Last Tile
    Case("和绝张", "pos", "234m678p555z22z12s", "3s",
         flags=dict(last_copy=True),
         expect={"五门齐": 1, "和绝张": 1, "箭刻": 1, "门前清": 1, "边张": 1}, total=15,
         note="E74"),
    Case("和绝张", "neg", "234m678p555z22z12s", "3s",
         expect={"五门齐": 1, "箭刻": 1, "门前清": 1, "边张": 1}, total=11, note="flag not set"),
    Case("和绝张", "neg", "234m678p555z123s3s", "3s",
         flags=dict(last_copy=True), expect={"箭刻": 1, "门前清": 1, "边张": 1}, total=5,
         note="flag set but the winner holds a copy of T3: cleared"),
    Case("和绝张", "rel", "23p345m456s44z", "4p", "444p",
         expect={"三色三步高": 1, "和绝张": 1, "四归一": 1}, total=12,
         note="E62: forced by the own B4 pung"),
    # ---- 59 箭刻 Dragon Pung
    Case("箭刻", "pos", "555p789s44z66z", "6z", "123m",
         expect={"五门齐": 1, "箭刻": 1}, total=8, note="E55"),
    Case("箭刻", "neg", "555p789s66z44z", "4z", "123m",
         expect={"五门齐": 1, "幺九刻": 1}, total=7, note="only a 发 pair"),
    Case("箭刻", "rel", "555p789s44z66z", "6z", "111z",
         expect={"箭刻": 1, "圈风刻": 1, "门风刻": 1, "缺一门": 1}, total=7,
         note="with 圈风刻 + 门风刻"),
    # ---- 60 圈风刻 Prevalent Wind
    Case("圈风刻", "pos", "123m456p789s5s", "5s", "222z",
         flags=dict(seat_wind=0, prevalent_wind=1), expect={"花龙": 1, "圈风刻": 1, "单钓将": 1},
         total=11),
    Case("圈风刻", "neg", "123m456p789s5s", "5s", "222z",
         flags=dict(seat_wind=0, prevalent_wind=2), expect={"花龙": 1, "幺九刻": 1, "单钓将": 1},
         total=10, note="not the prevalent wind: 幺九刻"),
    Case("圈风刻", "excl", "123m456p789s222z5s", "5s",
         flags=dict(seat_wind=0, prevalent_wind=1),
         expect={"花龙": 1, "圈风刻": 1, "门前清": 1, "单钓将": 1}, total=13, absent=("幺九刻",),
         note="a concealed pung of the prevalent wind"),
    # ---- 61 门风刻 Seat Wind
    Case("门风刻", "pos", "123m456p789s5s", "5s", "222z",
         flags=dict(seat_wind=1, prevalent_wind=0), expect={"花龙": 1, "门风刻": 1, "单钓将": 1},
         total=11),
    Case("门风刻", "neg", "123m456p789s5s", "5s", "222z",
         flags=dict(seat_wind=2, prevalent_wind=0), expect={"花龙": 1, "幺九刻": 1, "单钓将": 1},
         total=10, note="not the seat wind: 幺九刻"),
    Case("门风刻", "excl", "123m456p789s222z5s", "5s",
         flags=dict(seat_wind=1, prevalent_wind=0),
         expect={"花龙": 1, "门风刻": 1, "门前清": 1, "单钓将": 1}, total=13, absent=("幺九刻",),
         note="a concealed pung of the seat wind"),
    Case("门风刻", "rel", "123m456p789s5s", "5s", "222z",
         flags=dict(seat_wind=1, prevalent_wind=1),
         expect={"花龙": 1, "圈风刻": 1, "门风刻": 1, "单钓将": 1}, total=13,
         note="seat = prevalent: 圈风刻 + 门风刻 (E73)"),
    # ---- 62 门前清 Concealed Hand
    Case("门前清", "pos", "222m555p888s67m99p", "8m",
         expect={"三暗刻": 1, "门前清": 1, "无字": 1}, total=19, note="E34"),
    Case("门前清", "neg", "222m555p888s67m99p", "8m",
         flags=SELF, expect={"三暗刻": 1, "不求人": 1, "无字": 1}, total=21,
         note="self-drawn: 不求人"),
    Case("门前清", "neg", "555p888s67m99p", "8m", "222m",
         expect={"双暗刻": 1, "无字": 1}, total=3, note="a melded pung"),
    Case("门前清", "rel", "555p888s67m99p", "8m", "[2222m]",
         expect={"三暗刻": 1, "门前清": 1, "暗杠": 1, "无字": 1}, total=21,
         note="a concealed kong keeps the hand concealed"),
    # ---- 63 平和 All Chows
    Case("平和", "pos", "234567s234567p5m", "5m",
         expect={"门前清": 1, "平和": 1, "断幺": 1, "喜相逢": 2, "连六": 1, "单钓将": 1},
         total=10, note="E65"),
    Case("平和", "neg", "123789s123789p1z", "1z",
         expect={"全带幺": 1, "门前清": 1, "喜相逢": 2, "老少副": 1, "缺一门": 1, "单钓将": 1},
         total=11, note="an honour pair (E66)"),
    Case("平和", "excl", "234m345p678s88p67m", "8m",
         expect={"门前清": 1, "平和": 1, "断幺": 1, "喜相逢": 1}, total=7, absent=("无字",),
         note="E60 won on a discard"),
    # ---- 64 四归一 Tile Hog
    Case("四归一", "pos", "111123m456p456s5z", "5z",
         expect={"门前清": 1, "四归一": 1, "喜相逢": 1, "幺九刻": 1, "单钓将": 1}, total=7,
         note="W111 + W123"),
    Case("四归一", "neg", "234m456p456s5z", "5z", "[1111m]",
         expect={"门前清": 1, "暗杠": 1, "喜相逢": 1, "幺九刻": 1, "单钓将": 1}, total=7,
         note="the four W1 form a kong"),
    Case("四归一", "rel", "111123m444456p5z", "5z",
         expect={"门前清": 1, "四归一": 2, "双暗刻": 1, "幺九刻": 1, "缺一门": 1, "单钓将": 1},
         total=11, note="W1 and B4 hogs: 四归一 x2"),
    # ---- 65 双同刻 Double Pung
    Case("双同刻", "pos", "222p789m444s7z", "7z", "222m",
         expect={"双同刻": 1, "双暗刻": 1, "单钓将": 1}, total=5),
    Case("双同刻", "neg", "222p789m7z", "7z", "222m 222s",
         expect={"三同刻": 1, "单钓将": 1}, total=17, note="three suits: 三同刻"),
    Case("双同刻", "rel", "333p555p7z", "7z", "333m 555s",
         expect={"碰碰和": 1, "双同刻": 2, "双暗刻": 1, "单钓将": 1}, total=13,
         note="two different ranks: 双同刻 x2"),
    # ---- 66 双暗刻 Two Concealed Pungs
    Case("双暗刻", "pos", "333p444s678m6z", "6z", "222m",
         expect={"三色三节高": 1, "双暗刻": 1, "单钓将": 1}, total=11, note="E46"),
    Case("双暗刻", "neg", "333p678m6z", "6z", "222m 444s",
         expect={"三色三节高": 1, "单钓将": 1}, total=9, note="one concealed pung"),
    Case("双暗刻", "rel", "333p678m6z", "6z", "222m [4444s]",
         expect={"三色三节高": 1, "双暗刻": 1, "暗杠": 1, "单钓将": 1}, total=13,
         note="a concealed kong counts as a concealed pung"),
    # ---- 67 暗杠 Concealed Kong
    Case("暗杠", "pos", "57m234567p66z", "6m", "[5555s]",
         flags=SELF, expect={"不求人": 1, "暗杠": 1, "喜相逢": 1, "连六": 1, "坎张": 1}, total=9,
         note="E68"),
    Case("暗杠", "neg", "57m234567p66z", "6m", "5555s",
         flags=SELF, expect={"喜相逢": 1, "连六": 1, "明杠": 1, "坎张": 1, "自摸": 1}, total=5,
         note="an exposed kong: 明杠"),
    Case("暗杠", "rel", "333p678m6z", "6z", "222m [4444s]",
         expect={"三色三节高": 1, "双暗刻": 1, "暗杠": 1, "单钓将": 1}, total=13,
         note="with 双暗刻"),
    # ---- 68 断幺 All Simples
    Case("断幺", "pos", "234m345p678s88p67m", "8m",
         flags=SELF, expect={"不求人": 1, "平和": 1, "断幺": 1, "喜相逢": 1}, total=9,
         note="E60"),
    Case("断幺", "neg", "234m345p789s88p67m", "8m",
         flags=SELF, expect={"不求人": 1, "平和": 1}, total=6, note="a 9"),
    Case("断幺", "excl", "224466m2244p66s8m", "8m",
         expect={"七对": 1, "断幺": 1}, total=26, absent=("无字",), note="seven pairs"),
    # ---- 69 一般高 Pure Double Chow
    Case("一般高", "pos", "234234p8p", "8p", "444z 789p",
         flags=dict(self_drawn=True, seat_wind=3),
         expect={"混一色": 1, "门风刻": 1, "一般高": 1, "单钓将": 1, "自摸": 1}, total=11,
         note="E75"),
    Case("一般高", "neg", "234345p8p", "8p", "444z 789p",
         flags=dict(self_drawn=True, seat_wind=3),
         expect={"混一色": 1, "门风刻": 1, "单钓将": 1, "自摸": 1}, total=10),
    Case("一般高", "rel", "234s234234567p2z", "2z",
         flags=SELF,
         expect={"不求人": 1, "一般高": 1, "喜相逢": 1, "连六": 1, "缺一门": 1, "单钓将": 1},
         total=9, note="E64: with 喜相逢 and 连六"),
    # ---- 70 喜相逢 Mixed Double Chow
    Case("喜相逢", "pos", "567m234p45s11z", "6s", "234m",
         expect={"喜相逢": 1, "连六": 1}, total=2, note="E48 without the flags"),
    Case("喜相逢", "neg", "567m345p45s11z", "6s", "234m",
         expect={"三色三步高": 1, "连六": 1}, total=7, note="W234 B345: different chows"),
    Case("喜相逢", "rel", "234567s234567p5m", "5m",
         expect={"门前清": 1, "平和": 1, "断幺": 1, "喜相逢": 2, "连六": 1, "单钓将": 1},
         total=10, note="E65: 喜相逢 x2 + 连六"),
    # ---- 71 连六 Short Straight
    Case("连六", "pos", "234567m345p67s88p", "8s",
         flags=SELF, expect={"不求人": 1, "平和": 1, "断幺": 1, "连六": 1}, total=9, note="E63"),
    Case("连六", "neg", "234678m345p67s88p", "8s",
         flags=SELF, expect={"不求人": 1, "平和": 1, "断幺": 1, "喜相逢": 1}, total=9,
         note="W234 + W678 are not six in a row"),
    Case("连六", "rel", "456567888p9p", "9p", "123p",
         expect={"清一色": 1, "连六": 1}, total=25, note="E23: with 清一色"),
    # ---- 72 老少副 Two Terminal Chows
    Case("老少副", "pos", "12378m99p", "9m", "777z 666z",
         flags=SELF, expect={"双箭刻": 1, "全带幺": 1, "老少副": 1, "缺一门": 1, "自摸": 1},
         total=13, note="E58"),
    Case("老少副", "neg", "12367m99p", "8m", "777z 666z",
         flags=SELF, expect={"双箭刻": 1, "缺一门": 1, "自摸": 1}, total=8, note="W123 + W678"),
    Case("老少副", "rel", "123789s123789p1z", "1z",
         expect={"全带幺": 1, "门前清": 1, "喜相逢": 2, "老少副": 1, "缺一门": 1, "单钓将": 1},
         total=11, note="E66: 喜相逢 x2 + 老少副"),
    # ---- 73 幺九刻 Pung of Terminals or Honours
    Case("幺九刻", "pos", "123m456p789s5s", "5s", "111p",
         expect={"花龙": 1, "幺九刻": 1, "无字": 1, "单钓将": 1}, total=11),
    Case("幺九刻", "neg", "123m456p789s5s", "5s", "777z",
         expect={"花龙": 1, "箭刻": 1, "单钓将": 1}, total=11, note="a dragon pung: 箭刻"),
    Case("幺九刻", "rel", "123m456p5s", "5s", "111p 333z",
         expect={"幺九刻": 2, "单钓将": 1}, total=3,
         note="a terminal and a non-seat wind: 幺九刻 x2"),
    # ---- 74 明杠 Melded Kong
    Case("明杠", "pos", "234m567p33s88s", "8s", "9999m",
         flags=SELF, expect={"幺九刻": 1, "明杠": 1, "无字": 1, "自摸": 1}, total=4,
         note="cf. E50"),
    Case("明杠", "neg", "234m567p33s88s", "8s", "999m",
         flags=SELF, expect={"幺九刻": 1, "无字": 1, "自摸": 1}, total=3, note="a pung"),
    Case("明杠", "rel", "234m567p33s88s", "8s", "9999m+",
         flags=SELF, expect={"幺九刻": 1, "明杠": 1, "无字": 1, "自摸": 1}, total=4,
         note="an added kong"),
    # ---- 75 缺一门 One Voided Suit
    Case("缺一门", "pos", "234m567m33p88p", "8p", "789p",
         expect={"四归一": 1, "连六": 1, "缺一门": 1, "无字": 1}, total=5),
    Case("缺一门", "neg", "234m567s33p88p", "8p", "789p",
         expect={"四归一": 1, "无字": 1}, total=3, note="all three suits"),
    Case("缺一门", "rel", "234m567m33p11z", "1z", "789p",
         expect={"圈风刻": 1, "门风刻": 1, "连六": 1, "缺一门": 1}, total=6, note="with honours"),
    # ---- 76 无字 No Honours
    Case("无字", "pos", "234m567m33p88p", "8p", "789s", expect={"连六": 1, "无字": 1}, total=2),
    Case("无字", "neg", "234m567m33p11z", "1z", "789s",
         expect={"圈风刻": 1, "门风刻": 1, "连六": 1}, total=5, note="an honour pair"),
    Case("无字", "rel", "234m567m33p88p", "8p", "789p",
         expect={"四归一": 1, "连六": 1, "缺一门": 1, "无字": 1}, total=5, note="with 缺一门"),
    # ---- 77 边张 Edge Wait
    Case("边张", "pos", "234m456p777s12p99s", "3p",
         expect={"门前清": 1, "连六": 1, "无字": 1, "边张": 1}, total=5,
         note="B12 waits only on B3"),
    Case("边张", "neg", "234m456p777s23p99s", "4p",
         expect={"门前清": 1, "喜相逢": 1, "无字": 1}, total=4, note="B23 waits on B1/B4"),
    Case("边张", "rel", "1233m456p678s777z", "3m",
         expect={"箭刻": 1, "门前清": 1, "边张": 1}, total=5,
         note="E67: unique W3 also fits the pair; one wait fan"),
    # ---- 78 坎张 Closed Wait
    Case("坎张", "pos", "234m456p777s13p99s", "2p",
         expect={"门前清": 1, "连六": 1, "无字": 1, "坎张": 1}, total=5,
         note="B13 waits only on B2"),
    Case("坎张", "neg", "234m456p777s1113p", "2p",
         expect={"门前清": 1, "连六": 1, "无字": 1}, total=4, note="B1113 waits on B2 and B3"),
    Case("坎张", "rel", "57m234567p66z", "6m", "[5555s]",
         flags=SELF, expect={"不求人": 1, "暗杠": 1, "喜相逢": 1, "连六": 1, "坎张": 1}, total=9,
         note="E68: with 暗杠"),
    # ---- 79 单钓将 Single Wait
    Case("单钓将", "pos", "234m456p777s789s9p", "9p",
         expect={"门前清": 1, "四归一": 1, "无字": 1, "单钓将": 1}, total=6),
    Case("单钓将", "neg", "234m456p777s6789s", "9s",
         expect={"门前清": 1, "四归一": 1, "无字": 1}, total=5, note="T6789 waits on T6 and T9"),
    Case("单钓将", "neg", "1111234m123567p", "4m",
         expect={"门前清": 1, "四归一": 1, "喜相逢": 1, "幺九刻": 1, "缺一门": 1, "无字": 1},
         total=8, note="E77: W1111 W234 waits on W4 and a 5th W1"),
    Case("单钓将", "rel", "222m444p666s888s5z", "5z",
         expect={"四暗刻": 1, "单钓将": 1}, total=65, note="E12: with 四暗刻"),
    # ---- 80 自摸 Self-Drawn
    Case("自摸", "pos", "12378m99p", "9m", "777z 666z",
         flags=SELF, expect={"双箭刻": 1, "全带幺": 1, "老少副": 1, "缺一门": 1, "自摸": 1},
         total=13, note="E58"),
    Case("自摸", "neg", "12378m99p", "9m", "777z 666z",
         expect={"双箭刻": 1, "全带幺": 1, "老少副": 1, "缺一门": 1}, total=12,
         note="won on a discard"),
    Case("自摸", "rel", "1155m3377p22s22z5z", "5z",
         flags=SELF, expect={"七对": 1, "五门齐": 1, "自摸": 1}, total=31, note="with 七对"),
    # ---- 81 花牌 Flower Tiles
    Case("花牌", "pos", "19m19s19p1234567z", "7z",
         flags=dict(flowers=2), expect={"十三幺": 1, "花牌": 2}, total=90, note="E7"),
    Case("花牌", "neg", "19m19s19p1234567z", "7z",
         expect={"十三幺": 1}, total=88, note="no flowers"),
    Case("花牌", "rel", "345777p33z55z", "3z", "123p",
         flags=dict(flowers=3), expect={"混一色": 1, "幺九刻": 1, "花牌": 3}, total=10,
         note="E70: 7 points + 3 flowers, below 8"),
    # ---- 82 明暗杠 Concealed Kong and Melded Kong
    Case("明暗杠", "pos", "234m67s66z", "8s", "[5555p] 9999p",
         expect={"幺九刻": 1, "明暗杠": 1}, total=6, note="E69"),
    Case("明暗杠", "neg", "234m67s66z", "8s", "[5555p] [9999p]",
         expect={"双暗杠": 1, "门前清": 1, "幺九刻": 1}, total=9,
         note="two concealed kongs: 双暗杠"),
    Case("明暗杠", "excl", "234m67s66z", "8s", "[5555p] 9999p+",
         expect={"幺九刻": 1, "明暗杠": 1}, total=6, absent=("明杠", "暗杠")),
)


def parse_melds(text: str) -> list[Meld]:
    """``123m`` chow, ``555p`` pung, ``5555p`` kong, ``5555p+`` added, ``[5555p]`` concealed."""
    melds = []
    for token in text.split():
        concealed = token.startswith("[") and token.endswith("]")
        added = token.endswith("+")
        tiles = parse_tiles(token.strip("[]+"))
        if concealed:
            assert len(tiles) == 4 and len(set(tiles)) == 1, token
            melds.append(Meld.concealed_kong(tiles[0]))
        elif len(tiles) == 4:
            assert len(set(tiles)) == 1, token
            melds.append(Meld.added_kong(tiles[0], 3) if added else Meld.kong(tiles[0], 3))
        elif len(set(tiles)) == 1:
            melds.append(Meld.pung(tiles[0], 3))
        else:
            melds.append(Meld.chow(min(tiles), claimed=min(tiles)))
    return melds


NUMBER = {zh: n for n, zh, _en, _pts in RULES_TABLE}


def _case_ids() -> list[str]:
    seen: dict[tuple[str, str], int] = defaultdict(int)
    ids = []
    for c in CASES:
        seen[c.zh, c.kind] += 1
        ids.append(f"{NUMBER[c.zh]:02d}-{c.kind}{seen[c.zh, c.kind]}")
    return ids


def score(case: Case) -> Any:
    return calculate(parse_tiles(case.hand), parse_melds(case.melds), parse_tiles(case.win)[0],
                     **case.flags)


@pytest.mark.parametrize("case", CASES, ids=_case_ids())
def test_fan_case(case: Case) -> None:
    result = score(case)
    got = result.counts()
    where = f"{case.zh} {case.kind}: {case.hand} + {case.win} [{case.melds}] {case.flags}"
    assert got == case.expect, where
    assert result.total == case.total, where
    if case.kind == "neg":
        assert case.zh not in got, where
    else:
        assert case.zh in got, where
    for name in case.absent:
        assert name not in got, f"{where}: {name} must not be counted with {case.zh}"


def test_every_entry_has_positive_negative_and_exclusion_cases() -> None:
    kinds: dict[str, set[str]] = defaultdict(set)
    for c in CASES:
        kinds[c.zh].add(c.kind)
    assert len(FANS) == 82
    for fan in FANS:
        have = kinds[fan.zh]
        assert {"pos", "neg"} <= have, f"{fan.zh}: {have}"
        if fan.zh in NOT_COUNTED:
            assert "excl" in have, f"{fan.zh} excludes fans but has no exclusion case"
        else:
            assert have & {"excl", "rel"}, f"{fan.zh}: {have}"


def test_exclusion_cases_cover_the_not_counted_column() -> None:
    """Every fan of every 不计 entry is shown absent by some case of that fan."""
    shown: dict[str, set[str]] = defaultdict(set)
    for c in CASES:
        shown[c.zh] |= set(c.absent)
    for zh, excluded in NOT_COUNTED.items():
        assert shown[zh] == set(excluded), zh
    for zh in set(shown) - set(NOT_COUNTED):
        assert not shown[zh], f"{zh} excludes nothing (rules table) but a case lists {shown[zh]}"


@pytest.mark.parametrize("case", CASES, ids=_case_ids())
def test_case_data_adds_up(case: Case) -> None:
    """The expected fans are known names and their points give the expected total."""
    assert set(case.expect) <= set(FAN_BY_ZH)
    assert sum(FAN_BY_ZH[zh].points * n for zh, n in case.expect.items()) == case.total


def test_fan_table_matches_rules_document() -> None:
    assert [(f.id, f.zh, f.en, f.points) for f in FANS] == list(RULES_TABLE)
    assert all(FAN_BY_ZH[f.zh] is f for f in FANS)


@pytest.mark.parametrize("zh", [zh for _n, zh, _en, _p in RULES_TABLE])
def test_implied_fans_match_not_counted_column(zh: str) -> None:
    fan = FAN_BY_ZH[zh]
    implied = {FANS[i - 1].zh for i in fan.implies}
    full = set(NOT_COUNTED.get(zh, ())) - set(PARTIAL.get(zh, ()))
    assert full <= implied <= set(NOT_COUNTED.get(zh, ())), (
        f"{zh}: implies {sorted(implied)}, rules column {NOT_COUNTED.get(zh, ())}")

