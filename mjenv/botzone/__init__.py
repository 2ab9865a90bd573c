"""Botzone's "Chinese-Standard-Mahjong" protocol (the IJCAI competitions) over our engine.

``judge``: the judge side — sends each seat the requests the real judge would send, reads the
bots' responses as the judge does, plays them on the engine's ``botzone`` profile and ends the
game the way the judge does (scores, fans, ``WA`` / ``WH`` / ``TLE`` penalties). ``protocol``:
the request and response syntax; ``turns``: the request lines written from a hand's events.
The bridge (docs/botzone.md): ``seat`` rebuilds one seat from its requests (``seat_legal``:
its facts for the engine's legality rules), ``bot`` answers them with an mjenv agent (``mjenv
botzone-bot``; ``package`` writes the upload zip), ``program_agent`` and ``process`` run a bot
program as an mjenv agent, ``logs`` converts judge logs to and from hand records,
``sample_bot`` is a random legal bot. Rules: docs/rules.md §1.8.
"""

from mjenv.botzone.judge import Finish, Judge, Reply

__all__ = ["Finish", "Judge", "Reply"]
