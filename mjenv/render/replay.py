"""The text of ``mjenv replay``: a recorded hand event by event, then its result and hands."""

from __future__ import annotations

from mjenv.engine import events as E
from mjenv.engine.game import Game
from mjenv.engine.record import PENALIZE_NAME, rules_json
from mjenv.render.text import WIND_LETTERS
from mjenv.tiles import tile_code


def _tile(t: int) -> str:
    return "??" if t == E.HIDDEN else tile_code(t)


def _tiles(tiles: tuple[int, ...] | list[int]) -> str:
    return " ".join(_tile(t) for t in tiles)


def _ending_text(event: E.Win | E.DrawGame | E.Penalty) -> str:
    kongs = "; ".join(f"seat {s} {_tiles(ts)}" for s, ts in enumerate(event.revealed) if ts)
    shown = f"; concealed kongs revealed: {kongs}" if kongs else ""
    if isinstance(event, E.Win):
        how = ("self-drawn" if event.from_seat is None
               else f"robbing seat {event.from_seat}'s kong" if event.robbed
               else f"on seat {event.from_seat}'s discard")
        return f"wins on {_tile(event.tile)}, {how}: {event.fan_total} points{shown}"
    if isinstance(event, E.DrawGame):
        return f"ends the hand: the wall is exhausted (draw){shown}"
    return f"declared a false win: penalized{shown}"


def event_text(event: E.Event) -> str:
    """One event as words: ``draws W3``, ``pungs B5 from seat 2``, ``draws ??`` (hidden)."""
    if isinstance(event, E.Deal):
        return "is dealt " + _tiles(event.tiles) if event.tiles else "is dealt 13 tiles"
    if isinstance(event, E.Flower):
        return f"exposes flower {_tile(event.tile)}" + (" (initial)" if event.initial else "")
    if isinstance(event, E.Draw):
        return f"draws {_tile(event.tile)}" + (" from the tail" if event.replacement else "")
    if isinstance(event, E.Discard):
        return f"discards {_tile(event.tile)}"
    if isinstance(event, E.Chow):
        return (f"chows {_tiles(event.tiles)} (claims {_tile(event.claimed)} "
                f"from seat {event.from_seat})")
    if isinstance(event, E.Pung):
        return f"pungs {_tile(event.tile)} from seat {event.from_seat}"
    if isinstance(event, E.Kong):
        return f"kongs {_tile(event.tile)} from seat {event.from_seat}"
    if isinstance(event, E.AddedKong):
        return f"adds {_tile(event.tile)} to its pung (added kong)"
    if isinstance(event, E.ConcealedKong):
        return f"declares a concealed kong of {_tile(event.tile)}"
    if isinstance(event, E.Win | E.DrawGame | E.Penalty):
        return _ending_text(event)
    return repr(event)


def _result_lines(game: Game) -> list[str]:
    r = game.result
    if r is None:
        return ["result   the hand is not over"]
    if r.winner is not None:
        fans = ", ".join(f"{zh} x{n}" if n > 1 else zh for zh, n in r.fans)
        how = "self-drawn" if r.self_drawn else f"from seat {r.from_seat}"
        win = tile_code(r.win_tile) if r.win_tile is not None else "?"
        lines = [f"result   seat {r.winner} wins on {win} ({how}"
                 f"{', robbing a kong' if r.robbed else ''}): {r.fan_total} points",
                 f"fans     {fans}"]
    elif r.penalized is not None:
        lines = [f"result   seat {r.penalized} penalized for a false win"]
    else:
        lines = ["result   draw (wall exhausted)"]
    lines.append("payments " + "  ".join(f"seat {s} {p:+d}" for s, p in enumerate(r.payments)))
    lines.append("")
    lines.append("final hands")
    for s in range(4):
        melds = " ".join("[" + " ".join(tile_code(t) for t in m.tiles) + "]"
                         + ("c" if m.kind == "concealed_kong" else "")
                         for m in game.melds[s])
        flowers = " ".join(tile_code(t) for t in game.flowers[s])
        text = " ".join(tile_code(t) for t in game.hand_tiles(s))
        lines.append(f"  seat {s}  {text}" + (f"  melds {melds}" if melds else "")
                     + (f"  flowers {flowers}" if flowers else ""))
    return lines


def format_replay(game: Game, seat: int | None) -> str:
    """The readable move-by-move text of a replayed hand, all of it (``seat=None``) or as
    ``seat`` saw it (others' drawn tiles and concealed kongs hidden until the end)."""
    rules = ", ".join(f"{k} {v}" for k, v in rules_json(game.rules).items())
    seed = "none" if game.wall.seed is None else str(game.wall.seed)
    lines = [f"hand     rules: {rules}; dealer seat {game.dealer}; prevalent wind "
             f"{WIND_LETTERS[game.prevalent_wind]}; seed {seed} (informative)",
             f"actions  {len(game.actions)}"
             + (f" ({PENALIZE_NAME} included)" if any(a < 0 for _, a in game.actions) else ""),
             "view     " + ("everything" if seat is None else
                            f"seat {seat} (others' drawn tiles and concealed kongs hidden "
                            "until the end)"),
             ""]
    last = len(game.events) - 1
    for i, event in enumerate(game.events):
        shown = event if seat is None else E.view(event, seat, over=game.is_over and i == last)
        wind = WIND_LETTERS[game.seat_wind(event.seat)]
        lines.append(f"{i + 1:4}  seat {event.seat} ({wind})  {event_text(shown)}")
    lines.append("")
    lines.extend(_result_lines(game))
    return "\n".join(lines) + "\n"
