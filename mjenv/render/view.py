"""The table as text, drawn from one seat's view (so a rendering never shows a hidden tile).

>>> from mjenv.engine import Game, SeatView
>>> print(render_view(SeatView.of_game(Game(seed=1), 0), glyphs=False))  # doctest: +ELLIPSIS
East round · seat 0 (E, dealer) · ... tiles left
...

Each seat gets a line with its wind, flowers, melds and pool (oldest first; claimed discards in
brackets), then the viewer's own hand with the drawn tile set apart, then the decision at hand.
Glyphs (🀇…) by default, codes (``W1``…) with ``glyphs=False``.
"""

from __future__ import annotations

from mjenv import actions as A
from mjenv.engine.events import HIDDEN
from mjenv.engine.seat_view import SeatView
from mjenv.melds import CONCEALED_KONG, Meld
from mjenv.tiles import CODES, GLYPHS

WINDS = "ESWN"
WIND_NAMES = ("East", "South", "West", "North")
RELATIVE = ("you", "next (下家)", "opposite (对家)", "previous (上家)")


def _tile(t: int, glyphs: bool) -> str:
    if t == HIDDEN:
        return "🀫" if glyphs else "??"
    return GLYPHS[t] if glyphs else CODES[t]


def _tiles(ts: list[int] | tuple[int, ...], glyphs: bool) -> str:
    return ("" if glyphs else " ").join(_tile(t, glyphs) for t in ts)


def _meld(m: Meld, glyphs: bool) -> str:
    text = _tiles(m.tiles, glyphs)
    return f"[{text}]c" if m.kind == CONCEALED_KONG else f"[{text}]"


def render_view(view: SeatView, *, glyphs: bool = True, legal: list[int] | None = None) -> str:
    """The table as ``view``'s seat sees it; ``legal`` (action ids) adds the moves on offer."""
    lines = [f"{WIND_NAMES[view.prevalent_wind]} round · seat {view.seat} "
             f"({WINDS[view.seat_wind]}{', dealer' if view.dealer == view.seat else ''}) · "
             f"{view.tiles_left} tiles left"]
    for i in range(4):
        s = (view.seat + i) % 4
        wind = WINDS[(s - view.dealer) % 4]
        melds = " ".join(_meld(m, glyphs) for m in view.melds[s]) or "-"
        pool = []
        for t, by in zip(view.river[s], view.claimed_by[s], strict=True):
            pool.append(f"({_tile(t, glyphs)})" if by >= 0 else _tile(t, glyphs))
        flowers = _tiles(view.flowers[s], glyphs) if view.flowers[s] else "-"
        lines.append(f"  seat {s} {wind} {RELATIVE[i]:<16} flowers {flowers}  melds {melds}")
        lines.append(f"      pool {' '.join(pool) if pool else '-'}")
    hand = view.hand[:]
    drawn = view.drawn
    if drawn >= 0:
        hand[drawn] -= 1
    standing = [t for t in range(len(hand)) for _ in range(hand[t])]
    mine = _tiles(standing, glyphs)
    if drawn >= 0:
        mine += "  + " + _tile(drawn, glyphs)
    lines.append(f"  your hand {mine}")
    if view.over and view.result is not None:
        r = view.result
        if r.winner is not None:
            how = "self-drawn" if r.self_drawn else f"on seat {r.from_seat}'s tile"
            lines.append(f"  seat {r.winner} wins {how}: {r.fan_total} points "
                         f"({', '.join(f'{zh}×{n}' if n > 1 else zh for zh, n in r.fans)})")
        elif r.penalized is not None:
            lines.append(f"  seat {r.penalized} is penalized")
        else:
            lines.append("  exhaustive draw")
        lines.append("  payments " + "  ".join(f"seat {s} {p:+d}" for s, p in
                                                enumerate(r.payments)))
    elif view.claim_tile >= 0 and view.claim_from != view.seat:
        what = "adds a kong with (robbable)" if view.claim_rob else "discarded"
        lines.append(f"  seat {view.claim_from} {what} {_tile(view.claim_tile, glyphs)}")
    if legal:
        lines.append("  legal: " + ", ".join(f"{a} {A.action_to_string(a)}" for a in legal))
    return "\n".join(lines)
