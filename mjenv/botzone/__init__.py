"""Botzone's "Chinese-Standard-Mahjong" protocol (the IJCAI competitions) over our engine.

``judge``: the judge side — sends each seat the requests the real judge would send, reads the
bots' responses as the judge does, plays them on the engine's ``botzone`` profile and ends the
game the way the judge does (scores, fans, ``WA`` / ``WH`` / ``TLE`` penalties). ``protocol``:
the request and response syntax. Rules: shared/rules/mcr-rules.md §1.8.
"""

from mjenv.botzone.judge import Finish, Judge, Reply

__all__ = ["Finish", "Judge", "Reply"]
