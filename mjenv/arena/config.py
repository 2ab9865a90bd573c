"""What an arena run is: its configuration, and the games it plays (the schedule).

Duplicate deals: every deal (a wall with its dealer and wind, from the run seed) is played once
per *seating* — an assignment of agents to the four seats — so every agent meets the same luck
from every seat, and most of the luck cancels out of the comparison. Modes:

``1v3``
    ``agents = (challenger, baseline)``: four seatings per deal, the challenger in seat 0, 1, 2
    and 3 in turn, three copies of the baseline in the other seats.
``four``
    four distinct agents: all 24 seat permutations per deal (``rotations="all"``), or the 4
    cyclic rotations (``rotations="cyclic"``).

Per-deal seeds come from ``numpy.random.SeedSequence(seed).spawn(deals)``: the same deal gets the
same seed whatever the number of workers or the backend, so results are reproducible.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from mjenv.agent import parse_spec

MODES = ("1v3", "four")
ROTATIONS = ("all", "cyclic")
RULES = ("mcr", "botzone")
EPISODES = ("hand", "match")


@dataclass(frozen=True)
class ArenaConfig:
    """One arena run (everything that decides its results; not the workers or the backend)."""

    agents: tuple[str, ...]
    """Agent specs: (challenger, baseline) in ``1v3``, four in ``four``."""
    mode: str = "1v3"
    deals: int = 100
    seed: int = 0
    rules: str = "mcr"
    episode: str = "hand"
    rotations: str = "cyclic"
    """``four`` mode only: ``all`` 24 permutations or ``cyclic`` 4 rotations per deal."""
    names: tuple[str, ...] = field(default=())
    """Display names (default: the specs; a repeated spec gets #2, #3 ...)."""

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {list(MODES)}, got {self.mode!r}")
        want = 2 if self.mode == "1v3" else 4
        if len(self.agents) != want:
            raise ValueError(f"mode {self.mode} needs {want} agent specs, got "
                             f"{len(self.agents)}: {list(self.agents)}")
        for spec in self.agents:
            path, _ = parse_spec(spec)  # a malformed spec fails now, not in a worker
            if path.startswith("mjenv.botzone.") and self.rules != "botzone":
                raise ValueError(f"{spec!r} is a Botzone bot: it plays the botzone rules "
                                 "(rules='botzone', --rules botzone)")
        if isinstance(self.deals, bool) or not isinstance(self.deals, int) or self.deals < 1:
            raise ValueError(f"deals must be a positive integer, got {self.deals!r}")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {self.seed!r}")
        for name, value, allowed in (("rules", self.rules, RULES),
                                     ("episode", self.episode, EPISODES),
                                     ("rotations", self.rotations, ROTATIONS)):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {list(allowed)}, got {value!r}")
        if not self.names:
            object.__setattr__(self, "names", default_names(self.agents))
        elif len(self.names) != len(self.agents) or len(set(self.names)) != len(self.names):
            raise ValueError(f"names must be {len(self.agents)} distinct strings")

    # ---------------------------------------------------------------- the schedule
    def seatings(self) -> list[tuple[int, int, int, int]]:
        """Each seating: the index (into ``agents``) of the agent in seats 0..3."""
        if self.mode == "1v3":
            return [tuple(0 if s == k else 1 for s in range(4)) for k in range(4)]  # type: ignore[misc]
        if self.rotations == "cyclic":
            return [tuple((s + k) % 4 for s in range(4)) for k in range(4)]  # type: ignore[misc]
        return list(itertools.permutations(range(4)))  # type: ignore[arg-type]

    def deal_seeds(self) -> list[int]:
        """One env seed per deal (from the run seed; independent of workers and backend)."""
        children = np.random.SeedSequence(self.seed).spawn(self.deals)
        return [int(c.generate_state(1, np.uint64)[0] >> np.uint64(1)) for c in children]

    def tasks(self) -> list[Task]:
        seeds = self.deal_seeds()
        seatings = self.seatings()
        return [Task(d, k, seatings[k], seeds[d]) for d in range(self.deals)
                for k in range(len(seatings))]

    # ---------------------------------------------------------------- the manifest
    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["agents"] = list(self.agents)
        data["names"] = list(self.names)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ArenaConfig:
        try:
            return cls(**{**data, "agents": tuple(data["agents"]),
                          "names": tuple(data.get("names", ()))})
        except (TypeError, KeyError) as exc:
            raise ValueError(f"not an arena configuration: {exc}") from None

    def fingerprint(self) -> str:
        text = json.dumps(self.to_json(), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class Task:
    """One game of the schedule: deal ``deal`` played with seating ``seating``."""

    deal: int
    seating: int
    seats: tuple[int, int, int, int]
    seed: int

    @property
    def key(self) -> str:
        return f"{self.deal}:{self.seating}"

    def agent_seed(self, seat: int) -> int:
        """The seed an agent in ``seat`` is reset with: fixed per deal and seat, the same in
        every seating (common random numbers: whoever sits in seat 2 of deal 7 draws the same
        random numbers, so two agents that decide alike play identical games)."""
        return int(np.random.SeedSequence([self.seed, seat])
                   .generate_state(1, np.uint64)[0] >> np.uint64(1))


def default_names(specs: tuple[str, ...]) -> tuple[str, ...]:
    names: list[str] = []
    for spec in specs:
        name = spec
        n = 2
        while name in names:
            name = f"{spec}#{n}"
            n += 1
        names.append(name)
    return tuple(names)
