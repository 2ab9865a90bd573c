"""The events each seat may see, delivered to agents that ask for them (``observe_events``).

Most agents decide from the observation alone; an agent that needs the hand's history as it
happens — a Botzone bot program must answer every turn, not only its seat's decisions
(mjenv.botzone.program_agent) — has ``observe_events(events, view)`` (mjenv.agent). The arena
calls :meth:`EventFeed.deliver` before every decision: each such agent gets the events of the
current hand its seat has not been shown yet, redacted as that seat sees them, and the seat's
view after them. A new hand (a match's next one) starts a new view.
"""

from __future__ import annotations

from collections.abc import Sequence

from mjenv.agent import Agent
from mjenv.engine.events import view as seat_event
from mjenv.engine.game import Game
from mjenv.engine.seat_view import SeatView


class EventFeed:
    """Delivers each hooked seat its new events (see the module docstring)."""

    def __init__(self, players: Sequence[Agent]) -> None:
        self.hooked = [s for s, p in enumerate(players) if hasattr(p, "observe_events")]
        self.players = players
        self._game: Game | None = None
        self._views: dict[int, SeatView] = {}

    def deliver(self, game: Game) -> list[tuple[int, Exception]]:
        """Deliver ``game``'s new events; returns the seats whose agent raised, with the
        error (those seats get nothing more this hand)."""
        if not self.hooked:
            return []
        if game is not self._game:
            self._game = game
            self._views = {s: SeatView(s, dealer=game.dealer, prevalent_wind=game.prevalent_wind,
                                       num_tiles=game.rules.num_tiles) for s in self.hooked}
        failed: list[tuple[int, Exception]] = []
        events = game.events
        for s, view in list(self._views.items()):
            new = [seat_event(e, s) for e in events[view.num_events:]]
            if not new:
                continue
            view.extend(new)
            try:
                self.players[s].observe_events(new, view)  # type: ignore[attr-defined]
            except Exception as exc:  # noqa: BLE001 - penalized by the arena
                del self._views[s]
                failed.append((s, exc))
        return failed
