"""Is there a learnable edge over ``rule``? Paired rollouts on the real wall as a teacher, and
an offline estimate of what a network trained on them would gain.

    python scripts/rollout_teacher.py collect --hands 50 --start 2000000 --out DIR
    python scripts/rollout_teacher.py estimate DIR [--folds 5] [--epochs 3] [--lr 3e-4]
    python scripts/rollout_teacher.py categories DIR [--min-count 30]

``collect`` plays hands of four ``rule`` players (mcr rules, one hand per seed, the hand
``raw_env.reset(seed=h)`` deals). At every decision with a real choice (no Win on offer) it lists
*candidates*: ``rule``'s own action, and at a discard decision the two next discards by shanten
and useful tiles (``mjenv.shanten.discard_outcomes``) with any kong; in a claim window Pass and
the claims. Each alternative is played on a clone of the real game (the real wall and hands)
and the hand is finished with ``rule`` in every seat; the seat's payment is that candidate's
value. ``rule``'s own action is the real game itself, finished the same way, so every candidate
of a decision faces the same tiles (common random numbers) and the difference *A* (alternative
minus ``rule``'s choice) is a one-sample estimate of what departing from ``rule`` there is worth,
``rule`` playing on. Averaged over the hidden states that lead to the same observation, it is the
expected gain a fair player could learn; the hidden state is only the sampling. Each run of
``--hands`` hands writes one ``.npz`` (``h<start>.npz``), so a long collection resumes by file.

``estimate`` fits the shipped ``pretrained`` network (its own inputs: ``shanten-v1+rule`` when
the results in docs/training.md were measured, ``shanten-v1+lookahead`` since 2026-12-05) to
predict *A*: the logit of each alternative minus that of ``rule``'s choice, mean squared error,
targets clipped at ±48. Folds are by hand: each hand's decisions are predicted by a network
that never saw that hand. The estimate of deviating wherever the predicted gain exceeds ``tau``
is the sum of the realised *A* of those decisions per seat and hand, with a 95% interval over
seat-hands: first-order (each departure judged with ``rule`` playing on), and unbiased, since the
targets of the held-out decisions are fresh rollouts. docs/training.md reports it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from mjenv.actions import (
    CONCEALED_KONG_BASE,
    DISCARD_BASE,
    KIND_NAMES,
    NUM_ACTIONS,
    PASS,
    WIN,
    decode,
)
from mjenv.arena.stats import mean_ci
from mjenv.encoders.default import S_TILES_LEFT, SCALARS
from mjenv.engine import Game
from mjenv.shanten import discard_outcomes
from mjenv.vector.options import env_options
from mjenv.vector.slot import GameSlot
from mjenv_agents.observation import read_observation
from mjenv_agents.rule_based import RuleBasedAgent

MAX_CANDIDATES = 4
"""``rule``'s action and at most three alternatives (a discard decision has two, plus kongs)."""
CLIP = 48.0
"""Targets are clipped here: a 64-point hand pays 72 a seat, and such tails drown the mean."""


class Teacher:
    """``rule`` in every seat, and the hand finished from any position of a real game."""

    def __init__(self) -> None:
        self.options = env_options({"rules": "mcr"})
        self.rule = RuleBasedAgent()  # deterministic: its choice depends on the observation only

    def finish(self, game: Game) -> tuple[int, ...]:
        """Play ``game`` to its end with ``rule`` in every seat; the four payments."""
        slot = GameSlot(self.options)
        slot.resume(game)
        while not slot.over:
            legal = slot.legal(slot.seat)
            action = legal[0]
            if len(legal) > 1:
                seen = slot.observe(slot.seat)
                action = self.rule.act(seen["observation"], seen["action_mask"])
            slot.step(action)
        assert game.result is not None
        return tuple(game.result.payments)

    @staticmethod
    def candidates(observation: npt.NDArray[np.float32], legal: Sequence[int],
                   chosen: int) -> list[int]:
        """``chosen`` (``rule``'s action) first, then the alternatives (see the docstring)."""
        if WIN in legal:
            return [chosen]
        out = [chosen]
        if PASS in legal:  # a claim window: Pass and the claims
            for a in [PASS, *legal]:
                if a not in out and len(out) < MAX_CANDIDATES:
                    out.append(a)
            return out
        facts = read_observation(observation)
        after, useful = discard_outcomes(list(facts.hand), facts.n_melds)
        kinds_useful = {t: len(u) for t, u in useful}
        for t, _ in sorted(after, key=lambda ts: (ts[1], -kinds_useful.get(ts[0], 0))):
            if DISCARD_BASE + t in legal and DISCARD_BASE + t not in out and len(out) < 3:
                out.append(DISCARD_BASE + t)
        out += [a for a in legal if a >= CONCEALED_KONG_BASE and a not in out]
        return out[:MAX_CANDIDATES]

    def hand(self, seed: int) -> dict[str, list[object]]:
        """One hand's samples (see :func:`collect`)."""
        rows: dict[str, list[object]] = {k: [] for k in ("obs", "mask", "seat", "cands", "q")}
        slot = GameSlot(self.options)
        slot.start(seed)
        pending: list[tuple[int, int]] = []  # (seat, row) whose first value is the real payment
        while not slot.over:
            seat = slot.seat
            legal = list(slot.legal(seat))
            seen = slot.observe(seat)
            chosen = self.rule.act(seen["observation"], seen["action_mask"])
            cands = self.candidates(seen["observation"], legal, chosen) if len(legal) > 1 else []
            if len(cands) > 1:
                values = [np.nan] * MAX_CANDIDATES
                for i, action in enumerate(cands[1:], 1):
                    assert slot.game is not None
                    trial = slot.game.clone()
                    trial.step(seat, action)
                    values[i] = self.finish(trial)[seat]
                pending.append((seat, len(rows["q"])))
                rows["obs"].append(seen["observation"].astype(np.float16))
                rows["mask"].append(seen["action_mask"].astype(bool))
                rows["seat"].append(seat)
                rows["cands"].append(cands + [-1] * (MAX_CANDIDATES - len(cands)))
                rows["q"].append(values)
            slot.step(chosen)
        assert slot.game is not None and slot.game.result is not None
        payments = slot.game.result.payments
        for seat, row in pending:
            q = rows["q"][row]
            assert isinstance(q, list)
            q[0] = payments[seat]
        return rows


def collect(hands: int, start: int, out: Path) -> Path:
    """Hands ``start`` .. ``start + hands - 1`` into ``out/h<start>.npz`` (kept if present):
    per decision with alternatives, the seat's ``mjenv-v1`` observation (float16) and mask, the
    seat, the candidates (-1 padded) and their values (the seat's payment; NaN padded)."""
    path = out / f"h{start}.npz"
    if path.exists():
        return path
    out.mkdir(parents=True, exist_ok=True)
    teacher = Teacher()
    rows: dict[str, list[object]] = {k: [] for k in ("obs", "mask", "seat", "cands", "q", "hand")}
    with tqdm(range(start, start + hands), unit="hand", file=sys.stderr) as bar:
        for h in bar:
            one = teacher.hand(h)
            for key, values in one.items():
                rows[key] += values
            rows["hand"] += [h] * len(one["q"])
            bar.set_postfix(decisions=len(rows["q"]))
    partial = path.with_suffix(".partial.npz")
    np.savez(partial, **{k: np.array(v) for k, v in rows.items()})
    partial.replace(path)
    return path


def estimate(folder: Path, folds: int, epochs: int, lr: float,
             taus: Sequence[float] = (0.0, 0.5, 1.0, 2.0, 3.0, 5.0)) -> list[str]:
    """The K-fold offline estimate (see the module docstring); one line per ``tau``."""
    import torch

    from mjenv_agents import pretrained
    from mjenv_agents.policy import PolicyNet, load_checkpoint

    files = sorted(folder.glob("h*.npz"))
    if not files:
        raise ValueError(f"no h*.npz in {folder}")
    data = {k: np.concatenate([np.load(f)[k] for f in files])
            for k in ("obs", "mask", "cands", "q", "hand", "seat")}
    n = len(data["q"])
    gain = data["q"][:, 1:] - data["q"][:, :1]  # alternative minus rule's choice
    valid = ~np.isnan(gain)
    base, _ = load_checkpoint(pretrained.checkpoint_path())
    x = np.concatenate([base.prepare(data["obs"][i:i + 4096].astype(np.float32),
                                     data["mask"][i:i + 4096])
                        for i in range(0, n, 4096)]).astype(np.float16)
    cands = torch.from_numpy(np.where(data["cands"] < 0, 0, data["cands"]).astype(np.int64))
    target = torch.from_numpy(np.nan_to_num(np.clip(gain, -CLIP, CLIP)).astype(np.float32))
    weight = torch.from_numpy(valid)
    every = torch.ones(2048, NUM_ACTIONS, dtype=torch.bool)

    def predicted(net: PolicyNet, rows: npt.NDArray[np.int64]) -> torch.Tensor:
        logits, _ = net(torch.from_numpy(x[rows].astype(np.float32)), every[:len(rows)])
        picked = logits.gather(1, cands[rows])
        return picked[:, 1:] - picked[:, :1]

    hands = np.unique(data["hand"])
    fold_of = dict(zip(hands.tolist(),
                       (np.random.default_rng(0).permutation(len(hands)) % folds).tolist(),
                       strict=True))
    fold = np.array([fold_of[h] for h in data["hand"].tolist()])
    pred = np.full(gain.shape, np.nan, dtype=np.float32)
    for k in range(folds):
        train, test = np.flatnonzero(fold != k), np.flatnonzero(fold == k)
        net = PolicyNet(base.config)
        net.load_state_dict(base.state_dict())
        optimizer = torch.optim.Adam(net.parameters(), lr=lr)
        for epoch in range(epochs):
            net.train()
            order = np.random.default_rng(100 * k + epoch).permutation(train)
            for i in range(0, len(order), 512):
                rows = order[i:i + 512]
                loss = (((predicted(net, rows) - target[rows]) ** 2 * weight[rows]).sum()
                        / weight[rows].sum())
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        net.eval()
        with torch.no_grad():
            for i in range(0, len(test), 2048):
                rows = test[i:i + 2048]
                pred[rows] = predicted(net, rows).numpy()
        print(f"fold {k + 1}/{folds} done", file=sys.stderr, flush=True)
    scores = np.where(valid, pred, -np.inf)
    best = scores.argmax(axis=1)
    at = np.arange(n)
    best_pred, best_gain = scores[at, best], gain[at, best]
    _, seat_hand = np.unique(data["hand"] * 4 + data["seat"], return_inverse=True)
    discard = (data["cands"][:, 0] >= DISCARD_BASE) & (data["cands"][:, 0] < DISCARD_BASE + 34)
    lines = [f"{n} decisions of {len(hands)} hands ({seat_hand.max() + 1} seat-hands), "
             f"{folds} folds, {epochs} epochs, lr {lr}"]
    for tau in taus:
        pick = best_pred > tau
        per = mean_ci(np.bincount(seat_hand, weights=np.where(pick, best_gain, 0.0)).tolist())
        lines.append(f"tau {tau:g}: departs at {pick.mean():.2%} of decisions "
                     f"({int((pick & discard).sum())} discards, {int((pick & ~discard).sum())} "
                     f"claims); gain per seat and hand {per['mean']:+.3f} "
                     f"[{per['low']:+.3f}, {per['high']:+.3f}]")
    return lines


_STAGES = ((84, "early"), (45, "middle"), (0, "late"))
"""Tiles left in the wall at least (mcr: 144 tiles, 83 after the deal): a decision's stage."""


def action_kind(action: int) -> str:
    """The kind of an action id, by the layout of mjenv.actions."""
    return KIND_NAMES[decode(action)[0]]


def stage_of(tiles_left: int) -> str:
    """A decision's stage of the hand by the tiles left in the wall (``_STAGES``)."""
    return next(name for least, name in _STAGES if tiles_left >= least)


class Departing(RuleBasedAgent):
    """``rule``, except in one kind of decision that :func:`categories` lists: where ``rule``
    picks an action of kind ``first`` at stage ``stage`` (``any``: every stage) and the
    teacher's candidates include one of kind ``alt``, it plays the first such candidate. For
    playing a row of the table against ``rule`` in the arena, e.g. ``PYTHONPATH=scripts mjenv
    arena --agents "rollout_teacher:Departing first=pung alt=pass stage=late" rule``."""

    def __init__(self, first: str = "pung", alt: str = "pass", stage: str = "any",
                 **rule_options: Any) -> None:
        super().__init__(**rule_options)
        if first not in KIND_NAMES or alt not in KIND_NAMES:
            raise ValueError(f"Departing: first and alt are each one of {', '.join(KIND_NAMES)}; "
                             f"got first={first!r} alt={alt!r}")
        if stage != "any" and stage not in {name for _, name in _STAGES}:
            raise ValueError(f"Departing: stage is any, early, middle or late; got {stage!r}")
        self.first, self.alt, self.stage = first, alt, stage
        self.departed = 0

    def act(self, observation: npt.NDArray[np.float32], action_mask: npt.NDArray[np.int8]) -> int:
        chosen = super().act(observation, action_mask)
        if action_kind(chosen) != self.first:
            return chosen
        if self.stage != "any" and stage_of(read_observation(observation).tiles_left) != self.stage:
            return chosen
        legal = [int(a) for a in np.flatnonzero(action_mask)]
        for a in Teacher.candidates(observation, legal, chosen)[1:]:
            if action_kind(a) == self.alt:
                self.departed += 1
                return a
        return chosen


def categories(folder: Path, min_count: int = 30) -> list[str]:
    """What always departing from ``rule`` in one kind of decision is worth, kind by kind: for
    each pair (``rule``'s action kind, the alternative's kind) and stage of the hand, how often
    it comes up, the mean *A* of one departure, and the gain per seat and hand of departing
    every time it comes up (zero where it does not), with its 95% interval over seat-hands.
    No network: a hand-written rule ("at a claim, pass instead of chowing late in the hand")
    that gains would show here as a row whose interval is above zero."""
    files = sorted(folder.glob("h*.npz"))
    if not files:
        raise ValueError(f"no h*.npz in {folder}")
    data = {k: np.concatenate([np.load(f)[k] for f in files])
            for k in ("obs", "cands", "q", "hand", "seat")}
    left = np.rint(data["obs"][:, SCALARS, S_TILES_LEFT].astype(np.float32) * 144).astype(int)
    stage = [stage_of(int(x)) for x in left]
    _, seat_hand = np.unique(data["hand"] * 4 + data["seat"], return_inverse=True)
    n_seat_hands = int(seat_hand.max()) + 1
    gain = data["q"][:, 1:] - data["q"][:, :1]
    chosen = [action_kind(int(a)) for a in data["cands"][:, 0]]
    groups: dict[tuple[str, str, str], list[tuple[int, int]]] = {}
    for row, (first, cands) in enumerate(zip(chosen, data["cands"].tolist(), strict=True)):
        for j, alt in enumerate(cands[1:]):
            if alt >= 0 and not np.isnan(gain[row, j]):
                key = (first, action_kind(alt), stage[row])
                groups.setdefault(key, []).append((row, j))
    lines = [f"{len(gain)} decisions of {len(np.unique(data['hand']))} hands "
             f"({n_seat_hands} seat-hands); stages by tiles left: early >= 84, middle 45-83, "
             "late < 45",
             "| rule's action | alternative | stage | times | per hand | mean A | "
             "gain per seat-hand | 95% CI |",
             "|---|---|---|---:|---:|---:|---:|---|"]
    order = {"early": 0, "middle": 1, "late": 2}
    for key in sorted(groups, key=lambda k: (k[0], k[1], order[k[2]])):
        cells = groups[key]
        if len(cells) < min_count:
            continue
        rows = np.array([r for r, _ in cells])
        values = np.array([gain[r, j] for r, j in cells])
        per = mean_ci(np.bincount(seat_hand[rows], weights=values,
                                  minlength=n_seat_hands).tolist())
        lines.append(f"| {key[0]} | {key[1]} | {key[2]} | {len(cells)} | "
                     f"{len(cells) / n_seat_hands:.3f} | {values.mean():+.2f} | "
                     f"{per['mean']:+.3f} | [{per['low']:+.3f}, {per['high']:+.3f}] |")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play hands and roll out the alternatives")
    c.add_argument("--hands", type=int, default=50, help="hands in this file")
    c.add_argument("--start", type=int, default=2_000_000, help="the first hand's seed")
    c.add_argument("--out", type=Path, default=Path("runs/rollout-teacher"), help="folder")
    e = sub.add_parser("estimate", help="K-fold fit and the offline estimate")
    e.add_argument("folder", type=Path, help="the collect --out folder")
    e.add_argument("--folds", type=int, default=5, help="folds, by hand")
    e.add_argument("--epochs", type=int, default=3, help="passes over each fold's training set")
    e.add_argument("--lr", type=float, default=3e-4, help="Adam's learning rate")
    g = sub.add_parser("categories", help="the gain of departing in each kind of decision")
    g.add_argument("folder", type=Path, help="the collect --out folder")
    g.add_argument("--min-count", type=int, default=30, help="rows with fewer are left out")
    args = p.parse_args(argv)
    if args.command == "categories":
        try:
            print("\n".join(categories(args.folder, args.min_count)))
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        return 0
    if args.command == "collect":
        if args.hands < 1:
            p.error("--hands must be at least 1")
        print(collect(args.hands, args.start, args.out))
        return 0
    if args.folds < 2 or args.epochs < 1:
        p.error("--folds must be at least 2 and --epochs at least 1")
    try:
        print("\n".join(estimate(args.folder, args.folds, args.epochs, args.lr)))
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
