"""A tiny Botzone bot without mjenv (it starts in milliseconds): it discards every tile it
draws and passes otherwise, which is always legal; ``MODE`` makes it misbehave at its third
own draw, for the tests of BotzoneProgramAgent.

    python dumb.py [ok|crash|hang|garbage|illegal|flood|false-win|late-crash] [--keep-running]

It reads JSON (``{"requests": [...]}``) or simple input, and in keep-running mode each later
request as one line (simple) or ``{"requests": "..."}`` (JSON).
"""

import json
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"
KEEP = "--keep-running" in sys.argv
draws = 0


def answer(request: str, history: int) -> str:
    """The answer to ``request``, the ``history``-th request of the game."""
    global draws
    words = request.split()
    if MODE == "late-crash" and history > 30:
        sys.exit(3)  # on whatever turn comes, most likely one where the seat has no decision
    if words[0] != "2":
        return "PASS"
    draws += 1
    if draws >= 3:
        if MODE == "crash":
            sys.exit(1)
        if MODE == "hang":
            time.sleep(3600)
        if MODE == "garbage":
            return "HELLO WORLD"
        if MODE == "illegal":
            return "PLAY " + ("J3" if words[1] != "J3" else "J2")  # most likely not in hand
        if MODE == "flood":
            return "PASS " * 100000
        if MODE == "false-win":
            return "HU"
    return "PLAY " + words[1]


def emit(text: str, as_json: bool) -> None:
    print(json.dumps({"response": text}) if as_json else text)
    if KEEP:
        print(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<")
    sys.stdout.flush()


first = sys.stdin.readline()
as_json = first.lstrip().startswith("{")
if as_json:
    requests = json.loads(first)["requests"]
else:
    n = int(first)
    lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)]
    requests = lines[0::2]
draws = sum(1 for r in requests[:-1] if r.startswith("2 "))
emit(answer(requests[-1], len(requests)), as_json)
while KEEP:
    line = sys.stdin.readline()
    if not line:
        break
    request = json.loads(line)["requests"] if as_json else line.rstrip("\n")
    requests.append(request)
    emit(answer(request, len(requests)), as_json)
