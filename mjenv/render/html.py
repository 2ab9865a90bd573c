"""Game records as one self-contained HTML page: the table drawn step by step, for people.

>>> from mjenv.engine import Game
>>> game = Game(seed=3)
>>> while not game.is_over:
...     seat = game.to_act()[0]
...     _ = game.step(seat, game.legal_actions(seat)[0])
>>> data = hand_data(HandSource(game, "seed 3"))
>>> len(data["frames"]) == len(game.events), data["result"]["kind"]
(True, 'draw')
>>> page = page_html([HandSource(game, "seed 3")])
>>> page.startswith("<!DOCTYPE html>") and "http" not in page.split("<body")[1]
True

Why the work is split this way: Python computes the whole state of the table after every
event (every seat's hand, melds, flowers and river, the wall count, what to highlight, the log
line, the decisions' annotations and the result) from the engine's own fold,
:class:`~mjenv.engine.seat_view.SeatView`, and embeds it as JSON; the page's script
(``html_assets/viewer.js``) only draws the frame it is asked for. So the page shows exactly
what the engine says, the script has no mahjong logic to get wrong, and a frame can be checked
against the engine (tests/render/test_html_viewer.py does, in a real browser).

**Seat views.** With ``seat=N`` every frame is folded by seat N's ``SeatView`` alone, which
redacts the other seats' deals, draws and concealed kongs itself; the other hands are sent as
tile counts, the log lines are made from :func:`mjenv.engine.events.view` copies, and the page
carries no wall, seed or action list and only seat N's annotations. A hidden tile is therefore
not in the file at all. At the end the engine reveals the concealed kongs, and so does the page;
the other hands stay hidden (the engine reveals no more).

**Size.** An event changes the state of at most two seats, so the seat states are interned:
each frame names four entries of a shared table of seat states. A hand is 40-90 kB of data
besides the 50 kB of tiles, style and script; a 16-hand match is about 1 MB.

**Assets.** The CSS and the script are package data (``mjenv/render/html_assets/``), kept as
real ``.css`` / ``.js`` files so they read, diff and lint as what they are; the tile faces are
SVG symbols made here (:func:`tile_symbols`), drawn by our own code (a rounded tile, the suit's
numeral or character in the suit's colour), so the page needs no image, font or network.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

from mjenv import actions as A
from mjenv.engine import events as E
from mjenv.engine.game import PENALIZE, Game
from mjenv.engine.record import (
    FORMAT,
    MATCH_FORMAT,
    PENALIZE_NAME,
    check_annotations,
    load_record,
    replay,
    replay_match,
    rules_json,
)
from mjenv.engine.result import HandResult
from mjenv.engine.rules import RuleConfig
from mjenv.engine.seat_view import HIDDEN_KONG, SeatView
from mjenv.fans import FAN_BY_ZH
from mjenv.melds import CHOW, CONCEALED_KONG, PUNG, Meld
from mjenv.render.replay import event_text
from mjenv.tiles import CODES, NUM_KINDS

__all__ = [
    "HandSource",
    "IndexRow",
    "annotation",
    "hand_data",
    "hand_frames",
    "index_html",
    "index_row",
    "load_sources",
    "sources_of",
    "page_html",
    "tile_symbols",
    "write_index",
    "write_page",
]

WIND_CHARS = "東南西北"
TILE_W, TILE_H, TILE_D = 30, 40, 3
"""A tile's face (width, height) and the thickness drawn under it, in SVG units."""
_NUMERALS = "一二三四五六七八九"
# H1..H4 are the seasons, H5..H8 the plants, in the order of mjenv.tiles.GLYPHS
_FLOWER_CHARS = "春夏秋冬梅蘭竹菊"
_ASSETS = "html_assets"


# ================================================================ sources
@dataclass(frozen=True)
class HandSource:
    """One hand to show: the replayed ``game``, a ``label`` for the hand selector, the
    record's ``annotations`` (already checked by the record's replay), and for a hand of a
    match its place (``hand_index``) and the scores before it."""

    game: Game
    label: str
    annotations: tuple[Mapping[str, Any], ...] = ()
    hand_index: int | None = None
    scores_before: tuple[int, int, int, int] | None = None


def sources_of(record: Mapping[str, Any], name: str) -> list[HandSource]:
    """The hands of a record (a hand record, or a match record: one source per hand), each
    validated and replayed by :mod:`mjenv.engine.record`; ``name`` labels them."""
    if record.get("format") == MATCH_FORMAT:
        games = replay_match(dict(record))
        out = []
        scores = [0, 0, 0, 0]
        for h, (game, hand) in enumerate(zip(games, record["hands"], strict=True)):
            before = (scores[0], scores[1], scores[2], scores[3])
            out.append(HandSource(game, f"{name} · hand {h + 1}/{len(games)}",
                                  tuple(hand.get("annotations", ())), h, before))
            assert game.result is not None  # replay_match checks that every hand is over
            scores = [a + b for a, b in zip(scores, game.result.payments, strict=True)]
        return out
    if record.get("format") != FORMAT:
        raise ValueError(f"format: expected {FORMAT!r} or {MATCH_FORMAT!r}, got "
                         f"{record.get('format')!r}")
    return [HandSource(replay(dict(record)), name, tuple(record.get("annotations", ())))]


def load_sources(path: str | Path) -> list[HandSource]:
    """:func:`sources_of` the record at ``path``; ValueError names the file and the problem."""
    record = load_record(path)
    try:
        return sources_of(record, Path(path).name)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


# ================================================================ annotations
def annotation(step: int, seat: int, probabilities: Sequence[float],
               value: float | None = None, top: int = 5) -> dict[str, Any]:
    """One entry of a record's ``annotations`` from an agent's action probabilities (235, in
    the action layout of :mod:`mjenv.actions`): the ``top`` most likely actions with their
    probabilities (rounded to 4 places; zero-probability actions left out), and the value.

    >>> probs = [0.0] * 235
    >>> probs[2], probs[0] = 0.75, 0.25
    >>> annotation(12, 3, probs, value=1.23456)
    {'step': 12, 'seat': 3, 'top': [['Discard W1', 0.75], ['Pass', 0.25]], 'value': 1.2346}
    """
    if len(probabilities) != A.NUM_ACTIONS:
        raise ValueError(f"expected {A.NUM_ACTIONS} probabilities, got {len(probabilities)}")
    order = sorted(range(A.NUM_ACTIONS), key=lambda a: (-probabilities[a], a))
    best = [[A.action_to_string(a), round(float(probabilities[a]), 4)]
            for a in order[:top] if probabilities[a] > 0]
    return {"step": step, "seat": seat, "top": best,
            "value": None if value is None else round(float(value), 4)}


def _decision_frames(game: Game) -> list[int]:
    """For each of ``game``'s actions, the frame at which it was decided: the index of the
    last event before the action's own events (the state the deciding seat saw)."""
    again = Game(game.rules, seed=game.wall.seed, wall=list(game.wall.tiles),
                 dealer=game.dealer, prevalent_wind=game.prevalent_wind)
    frames = []
    for seat, a in game.actions:
        frames.append(len(again.events) - 1)
        if a == PENALIZE:
            again.penalize(seat)
        else:
            again.step(seat, a)
    return frames


def _notes(game: Game, annotations: Sequence[Mapping[str, Any]],
           seat: int | None) -> dict[str, list[dict[str, Any]]]:
    """The annotations by frame (JSON keys are strings), with the action each seat took; a
    seat view keeps only the viewer's own."""
    if not annotations:
        return {}
    check_annotations(list(annotations), game.actions)  # a source made by hand, too
    frames = _decision_frames(game)
    out: dict[str, list[dict[str, Any]]] = {}
    for note in annotations:
        step = int(note["step"])
        who, a = game.actions[step]
        if seat is not None and who != seat:
            continue
        chosen = PENALIZE_NAME if a == PENALIZE else A.action_to_string(a)
        out.setdefault(str(frames[step]), []).append({
            "seat": who, "step": step, "chosen": chosen,
            "top": [[str(n), float(p)] for n, p in note["top"]],
            "value": note.get("value"),
        })
    return out


# ================================================================ frames
def _codes(tiles: Iterable[int]) -> list[str]:
    return [CODES[t] for t in tiles]


def _meld_json(m: Meld, owner: int) -> dict[str, Any]:
    if m is HIDDEN_KONG:
        return {"kind": CONCEALED_KONG, "hidden": True}
    offset = 3 if m.kind == CHOW else m.from_offset
    return {"kind": m.kind, "tiles": _codes(m.tiles),
            "claimed": None if m.claimed is None or m.kind == CONCEALED_KONG
            else CODES[m.claimed],
            "from": None if offset is None else (owner + offset) % 4}


class _HandCounts:
    """How many tiles each seat holds standing (the drawn tile included): what a seat view
    draws as tile backs for another seat. Counted from public facts only (every event adds or
    removes a known number of tiles), so it is the same for every viewer."""

    def __init__(self) -> None:
        self.n = [0, 0, 0, 0]
        self.adding = -1  # the seat whose added kong waits for its replacement draw

    def apply(self, e: E.Event) -> None:
        s, n = e.seat, self.n
        if self.adding >= 0 and (isinstance(e, E.Draw) or isinstance(e, E.Flower)
                                 and not e.initial):
            if s == self.adding:  # not robbed: the fourth tile joins the pung
                n[s] -= 1
            self.adding = -1
        if isinstance(e, E.Deal):
            n[s] = 13
        elif isinstance(e, E.Flower):
            n[s] -= 1 if e.initial else 0  # a flower drawn in play never stood in the hand
        elif isinstance(e, E.Draw):
            n[s] += 1
        elif isinstance(e, E.Discard):
            n[s] -= 1
        elif isinstance(e, E.Chow | E.Pung):
            n[s] -= 2
        elif isinstance(e, E.Kong):
            n[s] -= 3
        elif isinstance(e, E.ConcealedKong):
            n[s] -= 4
        elif isinstance(e, E.AddedKong):
            self.adding = s
        elif isinstance(e, E.Win) and e.from_seat is not None:
            n[s] += 1
            if e.robbed:
                n[e.from_seat] -= 1


def _seat_state(view: SeatView, s: int, own: bool, count: int, event: E.Event,
                last: bool) -> dict[str, Any]:
    """Seat ``s`` as ``view`` shows it: its hand when ``own`` (else ``count`` backs), melds,
    flowers and river (each river tile with the seat that claimed it, or -1)."""
    state: dict[str, Any] = {
        "melds": [_meld_json(m, s) for m in view.melds[s]],
        "flowers": _codes(view.flowers[s]),
        "river": [[CODES[t], by] for t, by in zip(view.river[s], view.claimed_by[s],
                                                  strict=True)],
    }
    # the tile drawn beside the hand: the fresh draw (a back when hidden; a flower drawn in the
    # initial replacement until it is exposed), or the winning tile at the end
    apart: int | None = None
    if last and isinstance(event, E.Win) and event.seat == s:
        apart = event.tile
    elif isinstance(event, E.Draw) and event.seat == s:
        apart = event.tile if own else E.HIDDEN
    if own:
        hand = view.hand[:]
        if apart is not None and apart < NUM_KINDS:
            hand[apart] -= 1
        state["hand"] = [CODES[t] for t in range(NUM_KINDS) for _ in range(hand[t])]
    else:
        state["hidden"] = count - (0 if apart is None else 1)
    if apart is not None:
        state["drawn"] = None if apart == E.HIDDEN else CODES[apart]
    return state


def _highlights(view: SeatView, event: E.Event) -> list[list[Any]]:
    """What the latest event touched, as ``[seat, zone, index]`` (index -1: the whole zone; a
    tile code: the copies of that tile); the script outlines those tiles."""
    s = event.seat
    if isinstance(event, E.Deal):
        return [[s, "hand", -1]]
    if isinstance(event, E.Flower):
        return [[s, "flower", len(view.flowers[s]) - 1]]
    if isinstance(event, E.Draw):
        return [[s, "drawn", 0]]
    if isinstance(event, E.Discard):
        return [[s, "river", len(view.river[s]) - 1]]
    if isinstance(event, E.Chow | E.Pung | E.Kong):
        d = event.from_seat
        return [[s, "meld", len(view.melds[s]) - 1], [d, "river", len(view.river[d]) - 1]]
    if isinstance(event, E.ConcealedKong):
        return [[s, "meld", len(view.melds[s]) - 1]]
    if isinstance(event, E.AddedKong):
        at = next((i for i, m in enumerate(view.melds[s])
                   if m.kind == PUNG and m.first == event.tile), -1)
        return [[s, "meld", at], [s, "hand", CODES[event.tile]]]  # the tile being added
    if isinstance(event, E.Win):
        marks: list[list[Any]] = [[s, "drawn", 0]]
        if event.from_seat is not None and not event.robbed:
            marks.append([event.from_seat, "river", len(view.river[event.from_seat]) - 1])
        return marks
    return [[s, "seat", -1]]


def _result_json(r: HandResult | None) -> dict[str, Any] | None:
    if r is None:
        return None
    fans = []
    for zh, count in r.fans:
        fan = FAN_BY_ZH.get(zh)
        fans.append([zh, "" if fan is None else fan.en, None if fan is None else fan.points,
                     count])
    kind = "win" if r.winner is not None else "penalty" if r.penalized is not None else "draw"
    return {"kind": kind, "winner": r.winner, "from": r.from_seat, "self_drawn": r.self_drawn,
            "robbed": r.robbed, "tile": None if r.win_tile is None else CODES[r.win_tile],
            "total": r.fan_total, "fans": fans, "payments": list(r.payments),
            "penalized": r.penalized}


class _Interner:
    """A table of distinct JSON values: ``add`` returns the index of an equal value."""

    def __init__(self) -> None:
        self.items: list[Any] = []
        self._index: dict[str, int] = {}

    def add(self, value: Any) -> int:
        key = json.dumps(value, sort_keys=True, ensure_ascii=False)
        found = self._index.get(key)
        if found is None:
            found = self._index[key] = len(self.items)
            self.items.append(value)
        return found


def hand_frames(events: Sequence[E.Event], *, rules: RuleConfig, dealer: int,
                prevalent_wind: int, seat: int | None = None) -> dict[str, Any]:
    """The frames of a hand's ``events`` (one per event) as ``seat`` saw them (None: every
    hand face up): ``states`` (the interned seat states), ``frames`` and ``log`` (see
    :func:`hand_data`). For a seat view it reads nothing that seat could not see: given the
    events as :func:`mjenv.engine.events.view` redacts them for that seat, it returns the same.
    """
    viewers = range(4) if seat is None else (seat,)
    views = {v: SeatView(v, dealer=dealer, prevalent_wind=prevalent_wind,
                         num_tiles=rules.num_tiles) for v in viewers}
    counts = _HandCounts()
    states = _Interner()
    frames: list[dict[str, Any]] = []
    log: list[dict[str, Any]] = []
    per_seat = rules.wall_layout == "per_seat"
    n = len(events)
    for i, event in enumerate(events):
        last = i == n - 1
        for v in views.values():
            v.apply(event)  # a SeatView redacts the others' private events itself
        counts.apply(event)
        shown = event if seat is None else E.view(event, seat, over=last)
        row = []
        for s in range(4):
            view = views[s] if seat is None else views[seat]
            own = seat is None or s == seat
            row.append(states.add(_seat_state(view, s, own, counts.n[s], shown, last)))
        any_view = views[event.seat] if seat is None else views[seat]
        frame: dict[str, Any] = {"s": row, "left": any_view.tiles_left,
                                 "hl": _highlights(any_view, shown), "actor": event.seat}
        if per_seat:
            frame["parts"] = [any_view.seat_tiles_left(s) for s in range(4)]
        frames.append(frame)
        log.append({"seat": event.seat, "type": type(event).__name__,
                    "text": event_text(shown)})
    return {"states": states.items, "frames": frames, "log": log}


def hand_data(source: HandSource, seat: int | None = None) -> dict[str, Any]:
    """Everything the page needs to draw one hand, frame by frame (one frame per event).

    ``seat=None``: every hand face up; ``seat=N``: as seat N saw it (see the module
    docstring). Keys: ``label``, ``dealer``, ``wind``, ``rules`` (the record's rules),
    ``layout`` (the wall layout), ``hand_index`` and ``scores`` (before the hand, in a match),
    ``states`` (the interned seat states: ``hand`` or, hidden, ``hidden`` (a count), ``drawn``
    (the tile set apart; null: a back), ``melds``, ``flowers``, ``river`` (``[tile, claimed by
    or -1]``)), ``frames`` (``s``: four indices into ``states``, ``left``: tiles in the wall,
    ``parts``: per-seat wall parts, ``hl``: highlights, ``actor``), ``log`` (one line per
    event), ``notes`` (annotations by frame), ``result`` and, face up only, ``seed``.
    """
    game = source.game
    data: dict[str, Any] = {
        "label": source.label,
        "dealer": game.dealer,
        "wind": game.prevalent_wind,
        "rules": rules_json(game.rules),
        "layout": game.rules.wall_layout,
        "hand_index": source.hand_index,
        "scores": None if source.scores_before is None else list(source.scores_before),
        **hand_frames(game.events, rules=game.rules, dealer=game.dealer,
                      prevalent_wind=game.prevalent_wind, seat=seat),
        "notes": _notes(game, source.annotations, seat),
        "result": _result_json(game.result),
    }
    if seat is None:  # a seat view carries nothing that could rebuild the wall
        data["seed"] = game.wall.seed
    return data


# ================================================================ tiles
def _text(x: float, y: float, size: float, fill: str, text: str, extra: str = "") -> str:
    return (f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}" '
            f'text-anchor="middle"{extra}>{text}</text>')


_DIGIT_FONT = ' font-family="Georgia,\'DejaVu Serif\',serif" font-weight="bold"'
_INDEX_FONT = ' font-family="Arial,\'DejaVu Sans\',sans-serif" font-weight="bold"'


def _corner(text: str, fill: str) -> str:
    return _text(5, 8.5, 7, fill, text, _INDEX_FONT)


def _face(code: str) -> str:
    """The drawing on a tile's face (30 x 40 units): the rank and suit, in the suit colour."""
    suit, rank = code[0], int(code[1])
    if suit == "W":  # characters: the numeral over 萬
        return (_corner(str(rank), "#555") + _text(15, 17.5, 15, "#1b1b1b", _NUMERALS[rank - 1])
                + _text(15, 35.5, 15, "#c0392b", "萬"))
    if suit == "T":  # bamboo: the rank over three green sticks
        sticks = "".join(
            f'<rect x="{x}" y="24" width="3.4" height="12.5" rx="1.5" fill="#1e8f4a"/>'
            f'<rect x="{x}" y="29.6" width="3.4" height="1.1" fill="#0b5a2a"/>'
            for x in (8.3, 13.3, 18.3))
        return _text(15, 20.5, 19, "#17803d", str(rank), _DIGIT_FONT) + sticks
    if suit == "B":  # dots: the rank over a circle
        return (_text(15, 20.5, 19, "#1f4fa0", str(rank), _DIGIT_FONT)
                + '<circle cx="15" cy="30.5" r="6" fill="none" stroke="#1f4fa0" '
                'stroke-width="2"/><circle cx="15" cy="30.5" r="2.4" fill="#c0392b"/>')
    if suit == "F":  # winds
        return (_corner("ESWN"[rank - 1], "#1f4fa0")
                + _text(15, 28, 21, "#1d2b53", WIND_CHARS[rank - 1]))
    if suit == "J":  # dragons: 中 red, 發 green, 白 a blue frame
        if rank == 1:
            return _text(15, 28, 22, "#c0392b", "中")
        if rank == 2:
            return _text(15, 28, 22, "#17803d", "發")
        return ('<rect x="7.5" y="8" width="15" height="24" rx="2" fill="none" '
                'stroke="#2e5fa3" stroke-width="2.2"/>'
                '<rect x="10.5" y="11" width="9" height="18" rx="1" fill="none" '
                'stroke="#2e5fa3" stroke-width="0.8"/>')
    # flowers: the season (red) or plant (blue) character with its number
    colour = "#b03a2e" if rank <= 4 else "#1f618d"
    return (_corner(str(rank if rank <= 4 else rank - 4), colour)
            + _text(15, 26, 17, colour, _FLOWER_CHARS[rank - 1])
            + f'<circle cx="15" cy="33.5" r="2" fill="{colour}" opacity="0.6"/>')


def tile_symbols() -> str:
    """SVG ``<symbol>`` definitions of every tile face (``#t-W1`` ... ``#t-H8``) and of the
    back (``#t-back``), each ``30 x 43`` units: the face and, below it, the tile's thickness.

    >>> defs = tile_symbols()
    >>> defs.count("<symbol"), 'id="t-W5"' in defs, 'id="t-back"' in defs
    (43, True, True)
    """
    size = f'viewBox="0 0 {TILE_W} {TILE_H + TILE_D}"'
    edge = (f'<rect x="0" y="{TILE_D}" width="{TILE_W}" height="{TILE_H}" rx="4" '
            'fill="#b49a66"/>')
    face = (f'<rect x="0" y="0" width="{TILE_W}" height="{TILE_H}" rx="4" fill="url(#mj-face)" '
            'stroke="#8d7a55" stroke-width="0.7"/>')
    out = ['<linearGradient id="mj-face" x1="0" y1="0" x2="0" y2="1">'
           '<stop offset="0" stop-color="#fffef8"/><stop offset="1" stop-color="#f1e8d2"/>'
           '</linearGradient>']
    for code in CODES:
        out.append(f'<symbol id="t-{code}" {size}>{edge}{face}{_face(code)}</symbol>')
    out.append(f'<symbol id="t-back" {size}><rect x="0" y="{TILE_D}" width="{TILE_W}" '
               f'height="{TILE_H}" rx="4" fill="#0f4d3a"/><rect x="0" y="0" width="{TILE_W}" '
               f'height="{TILE_H}" rx="4" fill="#1f7a5c" stroke="#0f4d3a" stroke-width="0.7"/>'
               '<rect x="3.5" y="3.5" width="23" height="33" rx="3" fill="none" '
               'stroke="#7fd1b0" stroke-width="1" opacity="0.7"/></symbol>')
    return "".join(out)


# ================================================================ pages
def _asset(name: str) -> str:
    return resources.files("mjenv.render").joinpath(_ASSETS, name).read_text(encoding="utf-8")


def _script_json(value: Any) -> str:
    """JSON safe inside a ``<script>`` element (no ``<``, ``>`` or ``&`` left to parse)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_html(sources: Sequence[HandSource], *, seat: int | None = None,
              title: str | None = None, index_href: str | None = None) -> str:
    """The viewer page for ``sources`` (one hand each; several get a hand selector), every
    hand face up or as ``seat`` saw it; ``index_href`` adds a link back to an index page.
    One file: no network, no external asset."""
    if not sources:
        raise ValueError("nothing to show: no hands")
    if seat is not None and not (isinstance(seat, int) and 0 <= seat <= 3):
        raise ValueError(f"seat must be 0..3 or None, got {seat!r}")
    title = title or sources[0].label
    data = {"title": title, "seat": seat,
            "hands": [hand_data(source, seat) for source in sources]}
    return "".join([
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
        f"<title>{escape(title)} · mjenv</title>\n",
        f"<style>\n{_asset('viewer.css')}</style>\n</head>\n<body>\n",
        '<svg class="defs" width="0" height="0" aria-hidden="true"><defs>',
        tile_symbols(), "</defs></svg>\n",
        _body(escape(title), index_href),
        f'<script id="mjview-data" type="application/json">{_script_json(data)}</script>\n',
        f"<script>\n{_asset('viewer.js')}</script>\n</body>\n</html>\n",
    ])


def _body(title: str, index_href: str | None) -> str:
    back = "" if index_href is None else \
        f'<a id="to-index" href="{escape(index_href)}" title="all the records">&#x2190; index</a>'
    text = _BODY.replace("{title}", title).replace("{back}", back)
    for name, icon in _ICONS.items():
        text = text.replace("{icon_" + name + "}", icon)
    return text.replace("{icon_pause}", ICON_PAUSE)


_BODY = """<header>
  {back}<h1>{title}</h1>
  <label id="hand-pick">hand <select id="hand-select" title="choose a hand"></select></label>
  <span id="view-note"></span>
</header>
<main>
  <div id="board">
    <svg id="table" viewBox="0 0 1000 1000" role="img" aria-label="the mahjong table"></svg>
    <div id="result" hidden></div>
  </div>
  <aside id="side">
    <div id="controls">
      <button id="first" title="to the start (Home)" aria-label="start">{icon_first}</button>
      <button id="prev" title="one step back (&#x2190;)" aria-label="back">{icon_prev}</button>
      <button id="play" title="play / pause (space)" aria-label="play">{icon_play}</button>
      <button id="next" title="one step forward (&#x2192;)" aria-label="next">{icon_next}</button>
      <button id="last" title="to the end (End)" aria-label="end">{icon_last}</button>
      <select id="speed" title="steps per second">
        <option value="1">1/s</option><option value="3" selected>3/s</option>
        <option value="8">8/s</option><option value="20">20/s</option>
      </select>
    </div>
    <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
    <div id="step-label"></div>
    <div id="caption"></div>
    <div id="notes"></div>
    <ol id="log"></ol>
    <p class="keys">&#x2190; &#x2192; step · Home / End · space play · click a line to jump</p>
  </aside>
</main>
<template id="icon-play">{icon_play}</template><template id="icon-pause">{icon_pause}</template>
<noscript><p class="noscript">The viewer needs JavaScript to draw the table.</p></noscript>
"""


def _icon(path: str) -> str:
    """A control's icon as inline SVG (a font may lack the media-control characters)."""
    return (f'<svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">'
            f'<path d="{path}" fill="currentColor"/></svg>')


_ICONS = {
    "first": _icon("M2 2h2v12H2zM14 2v12L5 8z"),
    "prev": _icon("M12 2v12L3 8z"),
    "play": _icon("M4 2v12l10-6z"),
    "next": _icon("M4 2v12l9-6z"),
    "last": _icon("M12 2h2v12h-2zM2 2v12l9-6z"),
}
ICON_PAUSE = _icon("M3 2h4v12H3zM9 2h4v12H9z")


def write_page(sources: Sequence[HandSource], out: str | Path, *, seat: int | None = None,
               title: str | None = None, index_href: str | None = None) -> int:
    """Write :func:`page_html` to ``out`` (folders made as needed); returns its size in bytes."""
    text = page_html(sources, seat=seat, title=title, index_href=index_href)
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    path.write_bytes(data)
    return len(data)


# ================================================================ index
@dataclass(frozen=True)
class IndexRow:
    """One record on the index page: its name and page, and what the table sorts by."""

    name: str
    href: str
    kind: str
    rules: str
    hands: int
    winners: str
    wins: int
    fan_total: int
    fans: tuple[str, ...]
    penalties: int
    scores: tuple[int, int, int, int]
    steps: int


def index_row(name: str, href: str, sources: Sequence[HandSource], kind: str) -> IndexRow:
    """The index row of one record (``kind``: ``"hand"`` or ``"match"``): the winners with their
    points, the best fan total, the fans scored (by count), penalties, and the scores (a hand's
    payments, or a match's cumulative scores)."""
    winners: list[str] = []
    fans: list[str] = []
    best = penalties = wins = 0
    scores = [0, 0, 0, 0]
    for src in sources:
        r = src.game.result
        if r is None:
            continue
        scores = [a + b for a, b in zip(scores, r.payments, strict=True)]
        if r.winner is not None:
            wins += 1
            best = max(best, r.fan_total)
            winners.append(f"S{r.winner} {r.fan_total}")
            fans.extend(zh for zh, _ in r.fans)
        elif r.penalized is not None:
            penalties += 1
            winners.append(f"S{r.penalized} penalised")
    counted = sorted(set(fans), key=lambda zh: (-fans.count(zh), zh))
    rules = sources[0].game.rules
    extra = sorted(k for k in rules_json(rules) if k != "profile")
    return IndexRow(name=name, href=href, kind=kind,
                    rules=rules.profile + (f" ({', '.join(extra)})" if extra else ""),
                    hands=len(sources), winners=", ".join(winners) or "draw", wins=wins,
                    fan_total=best, fans=tuple(counted), penalties=penalties,
                    scores=(scores[0], scores[1], scores[2], scores[3]),
                    steps=sum(len(s.game.events) for s in sources))


def index_html(rows: Sequence[IndexRow], *, title: str = "mjenv records") -> str:
    """A page with one row per record, linking to each record's page; a click on a column
    header sorts by it (score, winner, fans, penalties, ...)."""
    head = [("record", "text"), ("kind", "text"), ("rules", "text"), ("hands", "num"),
            ("result", "text"), ("wins", "num"), ("best fans", "num"), ("fans", "text"),
            ("penalties", "num"), ("S0", "num"), ("S1", "num"), ("S2", "num"), ("S3", "num"),
            ("steps", "num")]
    out = ['<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n',
           '<meta name="viewport" content="width=device-width, initial-scale=1">\n',
           f"<title>{escape(title)}</title>\n<style>\n{_asset('index.css')}</style>\n",
           f"</head>\n<body>\n<h1>{escape(title)}</h1>\n",
           f'<p class="sub">{len(rows)} records · click a column to sort it</p>\n',
           '<table id="records">\n<thead><tr>']
    for i, (name, kind) in enumerate(head):
        out.append(f'<th data-col="{i}" data-type="{kind}" tabindex="0">{escape(name)}</th>')
    out.append("</tr></thead>\n<tbody>\n")
    for r in rows:
        fans = " ".join(r.fans[:8]) + (" …" if len(r.fans) > 8 else "")
        cells = [
            (r.name, f'<a href="{escape(r.href)}">{escape(r.name)}</a>'),
            (r.kind, escape(r.kind)), (r.rules, escape(r.rules)), (r.hands, str(r.hands)),
            (r.winners, escape(r.winners)), (r.wins, str(r.wins)),
            (r.fan_total, str(r.fan_total)), (fans, escape(fans)),
            (r.penalties, str(r.penalties)),
            *((v, f"{v:+d}") for v in r.scores),
            (r.steps, str(r.steps)),
        ]
        out.append("<tr>" + "".join(f'<td data-v="{escape(str(v))}">{html}</td>'
                                    for v, html in cells) + "</tr>\n")
    out.append(f"</tbody>\n</table>\n<script>\n{_asset('index.js')}</script>\n</body>\n</html>\n")
    return "".join(out)


def write_index(paths: Sequence[str | Path], out: str | Path, *, seat: int | None = None,
                title: str | None = None) -> list[Path]:
    """Write one viewer page per record beside the index ``out`` (named after the record:
    ``hand-3.json`` -> ``hand-3.html``) and the index itself; returns the pages written, the
    index last. Every record is validated before anything is written."""
    out = Path(out)
    loaded = []
    for p in paths:
        record = load_record(p)
        try:
            sources = sources_of(record, Path(p).name)
        except ValueError as exc:
            raise ValueError(f"{p}: {exc}") from None
        kind = "match" if record.get("format") == MATCH_FORMAT else "hand"
        loaded.append((Path(p), kind, sources))
    taken: set[str] = {out.name}
    rows, written = [], []
    for path, kind, sources in loaded:
        name, k = path.stem + ".html", 2
        while name in taken:
            name, k = f"{path.stem}-{k}.html", k + 1
        taken.add(name)
        write_page(sources, out.parent / name, seat=seat, title=path.name, index_href=out.name)
        written.append(out.parent / name)
        rows.append(index_row(path.name, name, sources, kind))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(index_html(rows, title=title or f"mjenv records ({out.parent.name or '.'})"),
                   encoding="utf-8")
    written.append(out)
    return written
