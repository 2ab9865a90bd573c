"""A stand-in for Botzone's C++ sample bot of Chinese-Standard-Mahjong (sample.cpp), with no
mjenv: it does the I/O the way that program does, so the tests meet what it makes mjenv meet.

* JSON (the default, the sample's ``SIMPLEIO 0``): it reads its whole input to end of file
  (jsoncpp's ``cin >> value`` does), and prints its answer pretty-printed over several lines,
  as jsoncpp's ``cout << value`` does: ``{``, then a tab and ``"response" : "PASS"``, then
  ``}``, each on a line of its own.

* ``--simple`` (the sample's ``SIMPLEIO 1``): it reads the turn number and the ``2n - 1`` lines
  line by line, and prints the response line.
* ``--keep-running`` (the sample has no such mode; this is how a bot that uses jsoncpp's reader
  would do it): the first input is read as one JSON value whatever its line breaks, not to end
  of file, which never comes; after each answer it prints ``>>>BOTZONE_REQUEST_KEEP_RUNNING<<<``
  and reads the next request as one JSON value (``"<request>"``, ``{"requests": "<request>"}``
  or ``{"requests": [..., "<request>"]}``).

It plays as the sample does: ``PASS``, except after its own draw, when it discards a random tile
of its hand (the hand is the deal plus its draws minus its discards: it never claims).

    python cpp_sample.py [--simple] [--keep-running] [--seed N]
"""

import json
import random
import sys

SIMPLE = "--simple" in sys.argv
KEEP = "--keep-running" in sys.argv
SEED = int(sys.argv[sys.argv.index("--seed") + 1]) if "--seed" in sys.argv else None
rng = random.Random(SEED)
hand: list[str] = []


def answer(request: str, turn: int) -> str:
    """The answer to the ``turn``-th request (0-based), updating ``hand``."""
    words = request.split()
    if turn == 1:
        hand.extend(words[5:18])
    if turn < 2 or words[0] != "2":
        return "PASS"
    hand.append(words[1])
    tile = hand.pop(rng.randrange(len(hand)))
    return "PLAY " + tile


def replay(request: str, response: str, turn: int) -> None:
    """Fold a past turn (a fresh process is given the history)."""
    words = request.split()
    if turn == 1:
        hand.extend(words[5:18])
    elif turn >= 2 and words[0] == "2":
        hand.append(words[1])
        hand.remove(response.split()[1])


def emit(response: str) -> None:
    if SIMPLE:
        sys.stdout.write(response + "\n")
    else:
        sys.stdout.write("{\n\t\"response\" : " + json.dumps(response) + "\n}\n")
    if KEEP:
        sys.stdout.write(">>>BOTZONE_REQUEST_KEEP_RUNNING<<<\n")
    sys.stdout.flush()


def read_value() -> object:
    """One JSON value from stdin, read line by line until it is complete (None at EOF)."""
    text = ""
    while True:
        line = sys.stdin.readline()
        if not line:
            return None
        text += line
        if not text.strip():
            continue
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            continue  # incomplete: read on


def first_turn() -> tuple[list[str], list[str]]:
    if SIMPLE:
        n = int(sys.stdin.readline())
        lines = [sys.stdin.readline().rstrip("\n") for _ in range(2 * n - 1)]
        return lines[0::2], lines[1::2]
    data = read_value() if KEEP else json.loads(sys.stdin.read())  # the sample: to EOF
    assert isinstance(data, dict), data
    return list(data["requests"]), list(data["responses"])


def next_request() -> str | None:
    if SIMPLE:
        line = sys.stdin.readline()
        return line.rstrip("\n") if line else None
    data = read_value()
    if isinstance(data, dict):
        data = data["requests"]
    if isinstance(data, list):
        data = data[-1]
    return data if isinstance(data, str) else None


requests, responses = first_turn()
for k, (request, response) in enumerate(zip(requests, responses, strict=False)):
    replay(request, response, k)
turn = len(requests) - 1
emit(answer(requests[-1], turn))
while KEEP:
    following = next_request()
    if following is None:
        break
    turn += 1
    emit(answer(following, turn))
