"""Game records of an arena run: which games keep one (``--records``), what the file is called,
and the record itself.

A run started with ``records=WHICH`` keeps the record (mjenv.engine.record) of every selected
game in ``OUT/records/``: a hand record per game in ``hand`` episodes, a match record (its
hands inside) in ``match`` episodes. ``WHICH`` is one of, or a comma-separated union of:

``all``          every game
``won``          games with a win (in a match: a hand of it was won)
``penalized``    games in which an agent was penalized (raised, or chose an illegal action)
``sample:N``     every seating of the first N deals: N random deals (the deals are random),
                 each played by every seating, to compare how the agents played the same tiles

A game's record is named after its key, ``deal-DDDD-seating-SS.json`` (:func:`record_name`;
zero-padded so that a folder listing is in schedule order), so a row of hands.csv (``deal``,
``seating``, then ``hand`` and ``seat`` inside the record) names its file without a column of
its own: old runs' hands.csv keep their columns, and resume them unchanged.

The record is made where the game is played (a worker, possibly on another machine with Ray)
and sent back as JSON text; the run's folder writes it before the game's rows
(mjenv.arena.store), so every game in ``done.txt`` that was selected has its record.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from mjenv.mahjong_env import MahjongEnv

KINDS = ("all", "won", "penalized")
NAME = re.compile(r"^deal-(\d+)-seating-(\d+)\.json$")
FOLDER = "records"
"""The sub-folder of a run's folder that holds its records."""


@dataclass(frozen=True)
class RecordSelection:
    """Which games keep a record (see the module docstring); :func:`parse_records` makes one."""

    kinds: frozenset[str] = frozenset()
    sample: int = 0
    """``sample:N``: the first N deals (0: none)."""

    def __str__(self) -> str:
        words = [k for k in KINDS if k in self.kinds]
        if self.sample:
            words.append(f"sample:{self.sample}")
        return ",".join(words)

    def wants(self, deal: int, won: bool, penalized: bool) -> bool:
        """Whether a game of ``deal`` that had a win / a penalty keeps its record."""
        return ("all" in self.kinds or (won and "won" in self.kinds)
                or (penalized and "penalized" in self.kinds) or deal < self.sample)


def parse_records(text: str) -> RecordSelection:
    """``"all"``, ``"won"``, ``"penalized"``, ``"sample:N"`` or a comma-separated union of them
    (spaces ignored); ValueError saying what is accepted otherwise.

    >>> str(parse_records(" won, sample:3 "))
    'won,sample:3'
    """
    kinds: set[str] = set()
    sample = 0
    words = [w.strip() for w in str(text).split(",")]
    for word in words:
        name, colon, count = word.partition(":")
        if name == "sample" and colon and count.isdigit() and int(count) >= 1:
            sample = max(sample, int(count))
        elif word in KINDS:
            kinds.add(word)
        else:
            raise ValueError(f"records must be all, won, penalized or sample:N (N >= 1), or a "
                             f"comma-separated list of them; got {text!r}")
    return RecordSelection(frozenset(kinds), sample)


def record_name(deal: int, seating: int) -> str:
    """The file name of the record of game ``deal:seating``.

    >>> record_name(3, 1)
    'deal-0003-seating-01.json'
    """
    return f"deal-{deal:04d}-seating-{seating:02d}.json"


def key_of(name: str) -> str | None:
    """The game key (``deal:seating``) a record file name stands for, or None for another
    file."""
    m = NAME.match(name)
    return None if m is None else f"{int(m[1])}:{int(m[2])}"


def game_record(env: MahjongEnv) -> str:
    """The record of the episode ``env`` just played, as JSON text: the match record in a
    match, else the hand's."""
    from mjenv.engine.record import match_record, record_of, to_json

    if env.match is not None:
        return to_json(match_record(env.match))
    assert env.game is not None
    return to_json(record_of(env.game))
