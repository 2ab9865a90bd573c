#!/usr/bin/env python3
"""Golden playthroughs: seeded trajectories of the env, recorded step by step (issue 13).

In the manner of OpenSpiel's playthroughs: for every rule profile x encoder configuration a few
seeded hands are played through the public PettingZoo API (``mjenv.env(...)``, ``env.last()``,
``env.step``) by a seeded deterministic policy, and every step is written as one JSON line of
``tests/golden/playthroughs/<profile>.<encoder>.jsonl``:

* ``t`` (the step within the episode), ``agent`` (the agent selected to act);
* what ``env.last()`` returned: ``obs`` (sha256 of the observation's dtype, shape and bytes),
  ``fp`` (one character per channel: a short hash of that channel, so that a difference names
  the channels that changed), ``hand`` (the seat's hand decoded from the hand channels, tile
  codes), ``legal`` (the ids set in ``action_mask``), ``cum`` (the agent's cumulative reward),
  ``term`` / ``trunc`` (its termination and truncation), ``info`` (its info); with
  ``oracle=True`` also ``oracle`` / ``ofp`` (the same for the oracle observation) and
  ``hands`` (the four hands decoded from it, relative seats);
* ``act``: the action taken (``null`` for the step of a terminated agent);
* after the step: ``rewards``, ``terms``, ``truncs`` (every agent, in agent order; ``null``
  for an agent gone from the env after its last step) and ``infos``: the infos the step
  changed, by agent (``{"*": info}`` when all four changed to the same; ``null`` when the
  agent is gone), so that a hand's result is written where it appears, not on every line.

The first line of a file is its header (the env options, the seeds, the spaces); a line
``{"reset": seed}`` starts each episode. Every value is plain JSON (keys in a fixed order), one
step per line, so that ``git diff`` shows what moved.

The configurations (``CONFIGS`` x ``ENCODERS``): the ``mcr`` profile (single hands), the
``botzone`` profile, the ``botzone`` profile with the 8 flowers (a 144-tile per-seat wall, as
the Botzone judge plays a 144-tile ``walltiles``), and an ``mcr`` match (``episode="match"``)
cut after its first two hands (the recording stops there: the dealer rotation and the
per-hand rewards of a match are pinned without 16 hands of data); each with the default
encoder ``mjenv-v1``, ``ijcai-v1`` and ``oracle=True`` (``mjenv-v1`` plus ``oracle-v1``).

The policy (:func:`choose`) is seeded per episode and reads only the observation's hand and the
mask: Win whenever legal, kongs and pungs when offered, chows half of the time, and otherwise the
discard of the least connected tile (ties broken by the generator). It exists to reach wins,
claims, kongs and flowers with a few hands; the check does not run it: it replays the recorded
actions (as OpenSpiel's playthrough test does) and compares every other field.

Use::

    python scripts/regen_golden_playthroughs.py           # (re)write every golden file
    python scripts/regen_golden_playthroughs.py --check   # compare; exit status 1 on a difference

``tests/env/test_golden_playthroughs.py`` runs the same comparison in the test suite.

**When the check fails.** The goldens pin what an agent sees and gets: the wall drawn from a
seed, the legal actions, the observation tensors, the rewards and infos. A failure means one of
them changed. If the change is a bug, fix the code, not the goldens. A changed *meaning* of an
observation (a channel added, removed, moved or computed differently) needs a NEW encoder name
(``mjenv-v2``; the old name stays frozen, as ``mjenv/encoders`` promises) and a new
configuration here. Regenerate (the command without ``--check``) only for an intended change,
say why in the commit, and review the diff of the golden files: it should touch only what the
change explains.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
OUT_DIR = ROOT / "tests" / "golden" / "playthroughs"
FORMAT = 1

AGENTS = ("player_0", "player_1", "player_2", "player_3")
# the tile codes and the action layout, written out here (not imported) so that a change of
# either shows in the goldens instead of being followed silently
CODES = tuple(f"{s}{r}" for s in "WTB" for r in range(1, 10)) + (
    "F1", "F2", "F3", "F4", "J1", "J2", "J3")
WIN, DISCARD, CHOW, PUNG, KONG, CONCEALED_KONG, ADDED_KONG = 1, 2, 36, 99, 133, 167, 201
FP_ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_"


@dataclass(frozen=True)
class Profile:
    """A rule profile as played here: env options, the seeds, where a match recording stops."""

    options: dict[str, Any]
    seeds: tuple[int, ...]
    flowers: bool | None = None
    """``True``: the botzone profile with the 8 flowers (not an env option; see make_env)."""
    max_hands: int | None = None
    """Stop recording after this many hands of the episode (a match)."""


@dataclass(frozen=True)
class Config:
    profile: str
    encoder: str
    p: Profile = field(repr=False)
    env_options: dict[str, Any] = field(repr=False)

    @property
    def name(self) -> str:
        return f"{self.profile}.{self.encoder}"

    @property
    def path(self) -> Path:
        return OUT_DIR / f"{self.name}.jsonl"


# Seeds chosen once, by playing candidates with this policy, for what their hands show:
#   mcr-hand 15: a self-drawn win, an exposed, a concealed and an added kong; 16: a win on a
#     discard (49 points), kongs; 22: an exhaustive draw;
#   botzone-hand 17: a self-drawn win, a concealed and an added kong; 24: a win on a discard,
#     an exposed and a concealed kong; 18: an exhaustive draw;
#   botzone-flowers-hand 4: a self-drawn win, an exposed and a concealed kong; 13: a win on a
#     discard, kongs; 5: an exhaustive draw (flowers drawn in all three);
#   mcr-match 2: hand 0 a self-drawn win, hand 1 (the next dealer) a win robbing an added
#     kong (抢杠和).
PROFILES: dict[str, Profile] = {
    "mcr-hand": Profile({"rules": "mcr", "episode": "hand"}, seeds=(15, 16, 22)),
    "botzone-hand": Profile({"rules": "botzone", "episode": "hand"}, seeds=(17, 24, 18)),
    "botzone-flowers-hand": Profile({"rules": "botzone", "episode": "hand"}, seeds=(4, 13, 5),
                                    flowers=True),
    "mcr-match": Profile({"rules": "mcr", "episode": "match"}, seeds=(2,), max_hands=2),
}
ENCODERS: dict[str, dict[str, Any]] = {
    "mjenv-v1": {"encoder": "mjenv-v1"},
    "ijcai-v1": {"encoder": "ijcai-v1"},
    "oracle": {"encoder": "mjenv-v1", "oracle": True},
}
CONFIGS: tuple[Config, ...] = tuple(
    Config(pname, ename, p, {**p.options, **eopts, "reward": "score"})
    for pname, p in PROFILES.items() for ename, eopts in ENCODERS.items())


# ==================================================================== the env
def make_env(config: Config) -> Any:
    """The wrapped env of ``config`` (``mjenv.env``: the public entry point)."""
    import mjenv

    opts = dict(config.env_options)
    if not config.p.flowers:
        return mjenv.env(**opts)
    # botzone with flowers: the env takes a profile name; the 144-tile botzone wall is
    # ``dataclasses.replace(BOTZONE, flowers=True)`` (mjenv.engine.rules). Pass the RuleConfig
    # where the env accepts one, else set it on the unwrapped env before the first reset,
    # with the encoders built for it (they scale the wall counts by the wall size).
    from mjenv.engine.rules import PROFILES as RULES

    rules = dataclasses.replace(RULES[opts["rules"]], flowers=True)
    try:
        return mjenv.env(**{**opts, "rules": rules})
    except (TypeError, ValueError):
        pass
    from mjenv.encoders import make_encoder, make_oracle

    env = mjenv.env(**opts)
    raw = env.unwrapped
    raw.rules = dataclasses.replace(rules, false_win=raw.rules.false_win)
    raw.encoder = make_encoder(opts.get("encoder", "mjenv-v1"), raw.rules)
    if raw.oracle_encoder is not None:
        raw.oracle_encoder = make_oracle(raw.oracle_encoder.name, raw.rules)
    return env


# ==================================================================== facts
def digest(a: np.ndarray) -> str:
    """sha256 of an array's dtype, shape and bytes (C order)."""
    h = hashlib.sha256()
    h.update(f"{a.dtype.str}{tuple(a.shape)}".encode())
    h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def fingerprint(a: np.ndarray) -> str:
    """One character per channel (first axis): 6 bits of the sha256 of that channel."""
    return "".join(FP_ALPHABET[hashlib.sha256(np.ascontiguousarray(c).tobytes()).digest()[0] & 63]
                   for c in a)


def tiles_text(counts: np.ndarray) -> str:
    """Counts over the 34 kinds as codes, e.g. ``W1W1T5F2``."""
    return "".join(CODES[k] * int(round(float(c))) for k, c in enumerate(counts))


def hand_counts(obs: np.ndarray, encoder: str) -> np.ndarray:
    """The seat's hand (counts over the 34 kinds) decoded from the encoder's hand planes."""
    if encoder == "ijcai-v1":  # channels 2-5, each 4 x 9 cells: kinds 0..33, then 2 empty
        return obs[2:6].reshape(4, 36)[:, :34].sum(axis=0)
    return obs[0:4].sum(axis=0)  # mjenv-v1: channels 0-3, count planes


def observation_facts(obs: dict[str, np.ndarray], encoder: str) -> dict[str, Any]:
    o = obs["observation"]
    facts: dict[str, Any] = {"obs": digest(o), "fp": fingerprint(o),
                             "hand": tiles_text(hand_counts(o, encoder))}
    if "oracle" in obs:
        orc = obs["oracle"]
        facts["oracle"] = digest(orc)
        facts["ofp"] = fingerprint(orc)
        # oracle-v1: channels 4r..4r+3 are relative seat r's hand as count planes
        facts["hands"] = [tiles_text(orc[4 * r:4 * r + 4].sum(axis=0)) for r in range(4)]
    return facts


def normalise(value: Any) -> Any:
    """Plain JSON: dict keys as sorted strings, tuples as lists, numpy scalars as Python."""
    if isinstance(value, dict):
        return {str(k): normalise(value[k]) for k in sorted(value, key=str)}
    if isinstance(value, (list, tuple)):
        return [normalise(v) for v in value]
    if isinstance(value, np.ndarray):
        return normalise(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    return value


def _infos(env: Any) -> dict[str, Any]:
    """Every agent's info, normalised; None for an agent gone from the env. An end-of-hand
    info (flat numbers) is recorded with the hand's full result beside it, under ``result``
    (``hand_result``: the fans, names and payments the flat fields leave out)."""
    out: dict[str, Any] = {}
    for a in AGENTS:
        info = normalise(env.infos[a]) if a in env.infos else None
        if info:
            info["result"] = normalise(env.unwrapped.hand_result(info["hand"]))
        out[a] = info
    return out


def changed_infos(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The infos a step changed, by agent (``{"*": info}`` when all four changed to one)."""
    changed = {a: after[a] for a in AGENTS if after[a] != before[a]}
    if len(changed) == 4 and all(v == changed[AGENTS[0]] for v in changed.values()):
        return {"*": changed[AGENTS[0]]}
    return changed


# ==================================================================== the policy
def choose(rng: np.random.Generator, legal: list[int], hand: np.ndarray) -> int:
    """Win when legal; kongs and pungs when offered; chows half of the time; else discard the
    least connected tile (ties by ``rng``)."""
    if WIN in legal:
        return WIN
    kongs = [a for a in legal if a >= KONG]
    if kongs:
        return int(rng.choice(kongs))
    pungs = [a for a in legal if PUNG <= a < KONG]
    if pungs:
        return pungs[0]
    chows = [a for a in legal if CHOW <= a < PUNG]
    if chows and rng.random() < 0.5:
        return int(rng.choice(chows))
    discards = [a for a in legal if DISCARD <= a < CHOW]
    if not discards:
        return int(rng.choice(legal))
    counts = [int(round(float(c))) for c in hand]

    def connection(t: int) -> float:
        score = 3.0 * (counts[t] - 1)
        if t < 27:
            rank = t % 9
            for d, w in ((1, 2.0), (2, 1.0)):
                if rank - d >= 0 and counts[t - d]:
                    score += w
                if rank + d <= 8 and counts[t + d]:
                    score += w
        return score + float(rng.random()) * 0.5

    return min(discards, key=lambda a: connection(a - DISCARD))


# ==================================================================== playing
def play(config: Config, actions: Iterator[int | None] | None = None) -> Iterator[dict[str, Any]]:
    """The records of ``config``'s file, the header first. With ``actions`` the recorded
    actions are replayed (the check); without, :func:`choose` plays (the regeneration)."""
    env = make_env(config)
    raw = env.unwrapped
    header: dict[str, Any] = {
        "format": FORMAT,
        "config": config.name,
        "options": normalise(config.env_options),
        "flowers": config.p.flowers,
        "max_hands": config.p.max_hands,
        "seeds": list(config.p.seeds),
        "num_tiles": raw.rules.num_tiles,
        "spaces": {k: {"shape": list(s.shape), "dtype": str(s.dtype)}
                   for k, s in env.observation_space(AGENTS[0]).spaces.items()},
        "actions": int(env.action_space(AGENTS[0]).n),
    }
    yield header
    for seed in config.p.seeds:
        yield {"reset": seed}
        env.reset(seed=seed)
        rng = np.random.default_rng([seed, 13])
        for t, agent in enumerate(env.agent_iter()):
            obs, cum, term, trunc, info = env.last()
            facts = observation_facts(obs, config.encoder)
            legal = [int(a) for a in np.flatnonzero(obs["action_mask"])]
            if actions is not None:
                action = next(actions, "missing")
                if action == "missing":  # the golden ended: report the extra step
                    action = None
            elif term or trunc:
                action = None
            else:
                action = choose(rng, legal, hand_counts(obs["observation"], config.encoder))
            record: dict[str, Any] = {
                "t": t, "agent": agent, **facts, "legal": legal, "cum": float(cum),
                "term": bool(term), "trunc": bool(trunc), "info": normalise(info),
                "act": action,
            }
            before = _infos(env)
            env.step(action)
            # a terminated agent's step removes it from the dicts: null
            record["rewards"] = [_opt(float, env.rewards, a) for a in AGENTS]
            record["terms"] = [_opt(bool, env.terminations, a) for a in AGENTS]
            record["truncs"] = [_opt(bool, env.truncations, a) for a in AGENTS]
            record["infos"] = changed_infos(before, _infos(env))
            yield record
            hands = config.p.max_hands
            if hands is not None and any(i.get("hand") == hands - 1 for i in env.infos.values()):
                break  # the recording of a match stops when hand max_hands - 1 has ended


def _opt(kind: Any, values: dict[str, Any], agent: str) -> Any:
    return kind(values[agent]) if agent in values else None


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def write(config: Config) -> int:
    lines = [dumps(r) for r in play(config)]
    config.path.parent.mkdir(parents=True, exist_ok=True)
    config.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


# ==================================================================== the check
HOW_TO_FIX = (
    "The golden playthroughs pin what an agent sees and gets (wall from the seed, legal "
    "actions, observations, rewards, infos). If this change is a bug, fix the code. A changed "
    "meaning of an observation needs a NEW encoder name (e.g. mjenv-v2; a published name stays "
    "frozen) and a new golden configuration. Regenerate (python "
    "scripts/regen_golden_playthroughs.py) ONLY for an intended change, and review the diff.")


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def _field_diff(key: str, want: Any, got: Any) -> str:
    text = f"  {key}: golden {json.dumps(want, ensure_ascii=False)}\n" \
           f"  {' ' * len(key)}  now    {json.dumps(got, ensure_ascii=False)}"
    if key in ("fp", "ofp") and isinstance(want, str) and isinstance(got, str):
        if len(want) != len(got):
            text += f"\n  ({len(want)} channels in the golden, {len(got)} now)"
        else:
            changed = [i for i, (a, b) in enumerate(zip(want, got, strict=True)) if a != b]
            text += f"\n  channels that differ: {changed}"
    return text


def check(config: Config) -> str | None:
    """None when ``config`` replays exactly as its golden file, else a readable message
    naming the file, the line, the episode and step, and the first fields that differ."""
    path = config.path
    if not path.exists():
        return f"{path.relative_to(ROOT)}: missing (run scripts/regen_golden_playthroughs.py)"
    golden = _read(path)
    actions = iter([r["act"] for r in golden if "act" in r])
    where = "header"
    line = 0
    try:
        for line, got in enumerate(play(config, actions), start=1):
            if "reset" in got:
                where = f"episode seed {got['reset']}"
            if line > len(golden):
                return (f"{path.relative_to(ROOT)} line {line} ({where}): the env goes on after "
                        f"the golden ends: {dumps(got)[:300]}\n{HOW_TO_FIX}")
            want = golden[line - 1]
            if want != got:
                keys = list(dict.fromkeys([*want, *got]))
                diffs = [_field_diff(k, want.get(k), got.get(k)) for k in keys
                         if want.get(k) != got.get(k)]
                step = f", step t={want.get('t')} ({want.get('agent')})" if "t" in want else ""
                return (f"{path.relative_to(ROOT)} line {line} ({where}{step}): first "
                        f"difference in {[k for k in keys if want.get(k) != got.get(k)]}\n"
                        + "\n".join(diffs) + f"\n{HOW_TO_FIX}")
    except Exception as exc:  # a replayed action the env refuses, a missing attribute, ...
        return (f"{path.relative_to(ROOT)} after line {line} ({where}): replay failed with "
                f"{type(exc).__name__}: {exc}\n{HOW_TO_FIX}")
    if line < len(golden):
        return (f"{path.relative_to(ROOT)} line {line + 1} ({where}): the env stops before the "
                f"golden ends (golden has {len(golden)} lines)\n{HOW_TO_FIX}")
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="compare with the golden files instead of writing them")
    args = parser.parse_args(argv)
    import mjenv

    print(f"mjenv {mjenv.__version__} from {Path(mjenv.__file__).parent}", file=sys.stderr)
    failed = 0
    for config in CONFIGS:
        if args.check:
            problem = check(config)
            if problem:
                failed += 1
                print(f"FAIL {config.name}\n{problem}\n")
            else:
                print(f"ok   {config.name}")
        else:
            n = write(config)
            print(f"wrote {config.path.relative_to(ROOT)} ({n} lines, "
                  f"{config.path.stat().st_size} bytes)")
    if args.check and failed:
        print(f"{failed} of {len(CONFIGS)} golden playthroughs differ")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
