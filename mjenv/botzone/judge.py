"""The judge side of Botzone's Mahjong game, on the engine's ``botzone`` profile.

>>> from mjenv.botzone import Judge
>>> judge = Judge(WALLTILES, quan=0)      # doctest: +SKIP
>>> while not judge.is_over:              # doctest: +SKIP
...     requests = judge.requests()       # the line each seat is sent this turn
...     judge.respond([bot(r) for r in requests])
>>> judge.finish                          # doctest: +SKIP
Finish(action='HU', player=3, scores=(-8, -17, -8, 33), ...)

The game is played by :class:`mjenv.engine.Game`; this module only translates. Each *turn* of
the judge sends one request to every seat and reads one response from every seat, in this order
(rules §1.8; checked against real judge transcripts, tests/golden/botzone_judge_logs.json.gz):

``INIT`` (``0 seat quan``), ``DEAL`` (``1 …``), then per event of the hand ``DRAW`` (``2 T`` to
the drawer, ``3 p DRAW`` to the others), ``BUHUA`` (a flower drawn), ``PLAY`` / ``PENG`` /
``CHI`` (a discard, after a claim or not), ``GANG`` (an exposed or a concealed kong) and
``BUGANG`` (an added kong, which may be robbed).

Responses are read the way the judge reads them; the first bad one it comes to ends the game
with the penalty (offender −30, the others +10) under the judge's name for it: the bot's own
verdict (``TLE``, ``RE``, …) when it did not answer properly, ``WH`` for a false win, ``WA`` for
anything else (a malformed line, an illegal move, a non-``PASS`` where only ``PASS`` is
allowed). A seat's verdict is read together with its answer, seat after seat, so when two seats
misbehave in one turn the order decides which one pays (``roundInput`` in ``judge/main.cpp``):

- ``INIT``, ``DEAL``, ``DRAW``, ``BUHUA``: seats 0, 1, 2, 3 (the drawer's move when its turn in
  that order comes; a winning ``HU`` ends the game before the later seats are read);
- after a discard (``PLAY``, ``PENG``, ``CHI``): the discarder first (it must ``PASS``), then the
  others counter-clockwise from it, each for a win (the first ``HU`` decides); then, in seat
  order, ``PENG`` / ``GANG`` and then ``CHI``, stopping at the first claim accepted: a later
  seat's malformed answer is then never read (see probes/ in the transcripts);
- after a kong (``GANG``, ``BUGANG``): its owner first, then the others counter-clockwise.

The rulings, with the wall conditions of kongs, are in docs/rules.md (the botzone profile).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass, replace

from mjenv import actions as A
from mjenv.botzone import protocol as P
from mjenv.botzone.turns import Turn, TurnWriter
from mjenv.engine.game import Game
from mjenv.engine.rules import BOTZONE, RuleConfig
from mjenv.fans.table import FAN_BY_ZH
from mjenv.tiles import NUM_KINDS


@dataclass(frozen=True, slots=True)
class Reply:
    """One bot's answer to a request: its response line and the platform's verdict on the run
    (``"OK"``, or ``"TLE"``, ``"RE"``, ``"MLE"``, … when the program misbehaved)."""

    response: str
    verdict: str = "OK"


@dataclass(frozen=True, slots=True)
class Finish:
    """How the game ended, as the judge's final output says it."""

    action: str
    """``"HU"``, ``"HUANG"`` (exhaustive draw), or the penalty's name (``"WA"``, ``"WH"``, a
    verdict such as ``"TLE"``)."""
    player: int | None
    """The winner, or the penalized seat; None for a draw."""
    scores: tuple[int, int, int, int]
    fans: tuple[tuple[str, int, int], ...] = ()
    """The winner's fans as ``(name, count, points each)``, flowers (花牌) included, with the
    judge's names (protocol.JUDGE_FAN_NAMES)."""
    fan_count: int | None = None
    """The winner's fan total (flowers included)."""


def _window_action(response: str, t: int) -> int:
    """The claim of ``t`` a window answer names (legal or not), or Pass."""
    words = P.tokens(response)
    middle = P.tile_of(words[1]) if len(words) == 3 else None
    if words == ["HU"]:
        return A.WIN
    if words == ["GANG"]:
        return A.kong(t)
    if len(words) == 2 and words[0] == "PENG":
        return A.pung(t)
    if words[0] == "CHI" and middle is not None and middle < NUM_KINDS:
        try:
            return A.chow(middle, t)
        except ValueError:
            return A.PASS
    return A.PASS


class _Replies:
    """The four replies of a turn, read the way the judge reads them: a seat's verdict together
    with its answer, when the judge comes to that seat (``checkInputPASS`` and its siblings in
    ``judge/main.cpp``), so of two seats that misbehave the one read first is penalized."""

    __slots__ = ("replies", "responses")

    def __init__(self, replies: Sequence[Reply]) -> None:
        self.replies = replies
        self.responses = [r.response for r in replies]

    def read(self, seat: int) -> str:
        """``seat``'s response; its penalty, named by its verdict, when that is not ``OK``."""
        reply = self.replies[seat]
        if reply.verdict != "OK":
            raise _Penalty(seat, reply.verdict)
        return reply.response


class _Penalty(Exception):
    """Raised inside a turn to end the game with the penalty of ``seat`` named ``code``."""

    def __init__(self, seat: int, code: str) -> None:
        super().__init__(f"seat {seat}: {code}")
        self.seat = seat
        self.code = code


class Judge:
    """Botzone's judge over one hand of the botzone profile. See the module docstring.

    ``walltiles``: the judge's wall (``initdata.walltiles``: codes separated by single spaces,
    or a list of codes), 136 tiles or 144 with flowers; ``quan``: the prevalent wind 0..3.
    ``rules`` defaults to the botzone profile, with flowers when the wall has 144 tiles.
    """

    def __init__(self, walltiles: str | Sequence[str], quan: int,
                 rules: RuleConfig | None = None) -> None:
        codes = walltiles.split(" ") if isinstance(walltiles, str) else list(walltiles)
        tiles: list[int] = []
        for i, code in enumerate(codes):
            t = P.tile_of(code) if isinstance(code, str) else None
            if t is None:
                raise ValueError(f"walltiles[{i}]: not a Botzone tile code: {code!r}")
            tiles.append(t)
        if isinstance(quan, bool) or not isinstance(quan, int) or not 0 <= quan <= 3:
            raise ValueError(f"quan must be 0..3, got {quan!r}")
        if rules is None:
            rules = BOTZONE if len(tiles) != 144 else replace(BOTZONE, flowers=True)
        self.quan = quan
        self.game = Game(rules, wall=tiles, dealer=0, prevalent_wind=quan)
        self.finish: Finish | None = None
        self.turns: list[Turn] = []
        """Every turn sent so far (the current one last)."""
        self._queue: deque[Turn] = deque()
        self._writer = TurnWriter(quan)
        self._seen = 0
        self._before_draw: Game | None = None  # see _step
        self._collect()
        self.turns.append(self._queue[0])

    # ================================================================ public surface
    @property
    def is_over(self) -> bool:
        return self.finish is not None

    def requests(self) -> tuple[str, str, str, str]:
        """The request line each seat is sent this turn (seat order)."""
        if self.finish is not None:
            raise ValueError("the game is over")
        return self._queue[0].requests

    def respond(self, replies: Sequence[Reply | str]) -> Finish | None:
        """Read the four seats' replies to this turn (a plain string is an ``"OK"`` reply) and
        play them; returns the finish once the game is over."""
        if self.finish is not None:
            raise ValueError("the game is over")
        if len(replies) != 4:
            raise ValueError(f"expected 4 replies (one per seat), got {len(replies)}")
        answers = [r if isinstance(r, Reply) else Reply(r) for r in replies]
        for a in answers:
            if not isinstance(a.response, str) or not isinstance(a.verdict, str):
                raise ValueError(f"a reply is a response string and a verdict string: {a!r}")
        turn = self._queue.popleft()
        live = not self._queue and not self.game.is_over
        try:
            self._play_turn(turn, _Replies(answers), live)
        except _Penalty as p:
            self._penalize(p.seat, p.code)
            return self.finish
        self._collect()
        if self._queue:
            self.turns.append(self._queue[0])
        else:
            self._finish_from_result()
        return self.finish

    # ================================================================ reading one turn
    def _play_turn(self, turn: Turn, said: _Replies, live: bool) -> None:
        kind = turn.kind
        if kind == "DRAW" and live:
            self._drawer_turn(turn.actor, said)
        elif kind == "PLAY":
            self._discard_turn(turn.actor, turn.tile, said, live)
        elif kind in ("GANG", "BUGANG"):
            self._kong_turn(turn.actor, kind == "BUGANG", said, live)
        else:  # INIT, DEAL, BUHUA: only PASS, read in seat order
            for s in range(4):
                if said.read(s) != "PASS":
                    raise _Penalty(s, "WA")

    def _drawer_turn(self, p: int, said: _Replies) -> None:
        """The drawer may HU, PLAY, GANG (concealed) or BUGANG; the others PASS. Read in seat
        order (``checkInputDRAW`` for the drawer, ``checkInputPASS`` for the others)."""
        chosen = -1
        for s in range(4):
            if s != p:
                if said.read(s) != "PASS":
                    raise _Penalty(s, "WA")
                continue
            words = P.tokens(said.read(s))
            legal = self.game.legal_actions(p)
            if words == ["HU"]:
                if A.WIN not in legal:
                    raise _Penalty(p, "WH")
                self._step(p, A.WIN)  # the judge stops reading here
                return
            make = {"PLAY": A.discard, "GANG": A.concealed_kong, "BUGANG": A.added_kong}
            if len(words) != 2 or words[0] not in make:
                raise _Penalty(p, "WA")
            chosen = self._tile_action(p, make[words[0]], words[1], legal)
        self._step(p, chosen)

    def _discard_turn(self, d: int, t: int, said: _Replies, live: bool) -> None:
        """After a discard (or the discard that follows a claim)."""
        game = self.game
        legal = {s: game.legal_actions(s) for s in range(4)} if live else {}
        for s in (d, (d + 1) % 4, (d + 2) % 4, (d + 3) % 4):  # 1: the discarder, then wins
            if s == d:
                if said.read(s) != "PASS":
                    raise _Penalty(s, "WA")
            elif said.read(s) == "HU":
                if A.WIN not in legal.get(s, ()):
                    raise _Penalty(s, "WH")
                self._claim_window(s, A.WIN, said.responses)
                return
        for s in range(4):  # 2: PENG / GANG, in seat order
            if s == d:
                continue
            words = P.tokens(said.read(s))
            if len(words) == 1:
                if words[0] == "PASS":
                    continue
                if words[0] != "GANG" or A.kong(t) not in legal.get(s, ()):
                    raise _Penalty(s, "WA")
                self._claim_window(s, A.kong(t), said.responses)
                return
            if len(words) == 2:
                if words[0] != "PENG" or A.pung(t) not in legal.get(s, ()):
                    raise _Penalty(s, "WA")
                self._claim_window(s, A.pung(t), said.responses)
                self._discard_after_claim(s, words[1])
                return
            if len(words) != 3:
                raise _Penalty(s, "WA")
        for s in range(4):  # 3: CHI, only by the discarder's next seat
            words = P.tokens(said.read(s))
            if s == d or len(words) != 3:
                continue
            middle = P.tile_of(words[1])
            if words[0] != "CHI" or s != (d + 1) % 4 or middle is None or middle >= NUM_KINDS:
                raise _Penalty(s, "WA")
            try:
                action = A.chow(middle, t)
            except ValueError:
                raise _Penalty(s, "WA") from None
            if action not in legal.get(s, ()):
                raise _Penalty(s, "WA")
            self._claim_window(s, action, said.responses)
            self._discard_after_claim(s, words[2])
            return
        if live:
            self._claim_window(-1, A.PASS)

    def _kong_turn(self, k: int, added: bool, said: _Replies, live: bool) -> None:
        """After a kong of ``k``, read from ``k`` on (``checkInputGANG``): every seat PASSes,
        except that another seat may rob an added kong (HU); robbing any other kong is WA."""
        robbing = added and live
        legal = {s: self.game.legal_actions(s) for s in range(4)} if robbing else {}
        for s in (k, (k + 1) % 4, (k + 2) % 4, (k + 3) % 4):
            response = said.read(s)
            if response == "PASS":
                continue
            if response != "HU" or s == k or not added:
                raise _Penalty(s, "WA")
            if A.WIN not in legal.get(s, ()):
                raise _Penalty(s, "WH")
            self._claim_window(s, A.WIN, said.responses)
            return
        if robbing:
            self._claim_window(-1, A.PASS)

    def _claim_window(self, seat: int, action: int, said: list[str] | None = None) -> None:
        """Answer the engine's open window: ``seat`` plays ``action`` (the judge has already
        decided who takes the tile); every other asked seat plays its own answer when that is a
        legal claim (the engine's priorities then pick the same seat, and the hand's record
        keeps what each seat said, mjenv.botzone.logs), else passes."""
        game = self.game
        for s in game.to_act():
            if s == seat:
                self._step(s, action)
            else:
                own = _window_action(said[s], game.claim_tile) if said is not None else A.PASS
                self._step(s, own if own in game.legal_actions(s) else A.PASS)

    def _discard_after_claim(self, s: int, code: str) -> None:
        action = self._tile_action(s, A.discard, code, self.game.legal_actions(s))
        self._step(s, action)

    def _step(self, seat: int, action: int) -> None:
        """Step the engine. A step that ends the hand in an exhaustive draw is taken on a copy
        kept beside the state before it: the judge still reads the replies to the turns that
        step produced (the final discard, a kong's flower) and a bad one is penalized there,
        so the penalty is applied to the state before the step."""
        before = self.game.clone()
        self.game.step(seat, action)
        result = self.game.result
        if result is not None and result.winner is None and result.penalized is None:
            self._before_draw = before

    @staticmethod
    def _tile_action(seat: int, make: object, code: str, legal: list[int]) -> int:
        t = P.tile_of(code)
        if t is None or t >= NUM_KINDS:
            raise _Penalty(seat, "WA")
        action = make(t)  # type: ignore[operator]
        if action not in legal:
            raise _Penalty(seat, "WA")
        return int(action)

    # ================================================================ turns from events
    def _collect(self) -> None:
        """Turn the engine's new events into judge turns (mjenv.botzone.turns)."""
        events = self.game.events
        self._queue.extend(self._writer.feed(events[self._seen:]))
        self._seen = len(events)

    # ================================================================ the end
    def _finish_from_result(self) -> None:
        r = self.game.result
        assert r is not None, "the judge ran out of turns before the hand ended"
        if r.winner is None:
            self.finish = Finish("HUANG", None, (0, 0, 0, 0))
            return
        fans = tuple((P.fan_name(name), count, FAN_BY_ZH[name].points) for name, count in r.fans)
        self.finish = Finish("HU", r.winner, r.payments, fans, r.fan_total)

    def _penalize(self, seat: int, code: str) -> None:
        rules = self.game.rules
        if self.game.is_over and self._before_draw is not None:
            self.game = self._before_draw  # see _step
        if not self.game.is_over:
            self.game.penalize(seat)
        scores = [rules.penalty_others] * 4
        scores[seat] = rules.penalty_offender
        self.finish = Finish(code, seat, (scores[0], scores[1], scores[2], scores[3]))
        self._queue.clear()

