"""How much of a seat's hand score can a critic predict, from its own observation or from the
whole table (the ``oracle-v1`` planes)? The question behind an oracle critic for PPO.

    python scripts/critic_variance.py collect --hands 2500 --start 0 --out DIR
    python scripts/critic_variance.py fit DIR [--epochs 6] [--channels 32] [--blocks 2]

Why: PPO's advantage is the return minus the critic's value, so the share of the return's
variance the critic explains is the share of noise it removes from every policy-gradient step.
Suphx (riichi) trains with oracle features, and an *asymmetric* critic (the value reads
privileged state, the policy does not) is the usual way to use them in actor-critic methods. If
the hidden hands and the next draws explained much of an MCR hand's score, a PPO critic reading
them would make learning from 2 cores' worth of hands far less noisy.

``collect`` plays hands of four ``rule`` players (mcr rules, the hand ``raw_env.reset(seed=h)``
deals, ``h`` from ``--start``) and keeps a quarter of the decisions with a real choice (more
than one legal action; which ones is drawn from the hand's seed): the seat's ``mjenv-v1``
observation, its ``oracle-v1`` planes (every hand, the waits, the next twelve draws), the tiles
left in the wall, and the seat's payment at the end of the hand (the return, undiscounted: the
hand is the episode). Each run writes one ``h<start>.npz``, so collections add up by file.

``fit`` trains two critics of the shipped network's shape (``PolicyNet``'s value head, mean
squared error on the payment / 32, gradients clipped as PPO's): one on the observation, one on
the observation and the oracle planes. Hands are split 70 / 10 / 20 % into train, validation
and test; each critic is read at the epoch with the best validation score, and the table gives
the share of the test returns' variance it explains, in all and by the tiles left in the wall.
docs/training.md reports it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

from mjenv.vector.options import env_options
from mjenv.vector.slot import GameSlot
from mjenv_agents.rule_based import RuleBasedAgent

KEEP = 0.25
"""The share of the decisions with a choice that are kept (a hand's rows share its return)."""
SCALE = 32.0
"""Returns are divided by this for training (a 1-point hand scores 8 a seat, big ones 100+)."""
MAX_GRAD_NORM = 0.5
"""Gradients are clipped as PPO's are (its default ``max_grad_norm``)."""
TRIES = 3
"""Seeds a critic is started from before giving up: on 36,000 hands the critic with the oracle
planes, from seed 0, came out of its first epoch dead (a constant prediction), clipped or not."""
STAGES = ((60, 999, "more than 60 tiles left"), (30, 60, "31-60 left"), (-1, 30, "30 or fewer"))
"""Buckets of the decisions by the tiles left in the wall (91 after the deal, less the flowers'
replacements), for the table."""


def collect(hands: int, start: int) -> dict[str, npt.NDArray[np.generic]]:
    """The rows of hands ``start .. start + hands - 1`` (see the module docstring)."""
    options = env_options({"rules": "mcr", "oracle": True})
    slot = GameSlot(options)
    rule = RuleBasedAgent()  # deterministic: one serves the four seats
    obs: list[npt.NDArray[np.float16]] = []
    oracle: list[npt.NDArray[np.float16]] = []
    left: list[int] = []
    seat_of: list[int] = []
    hand_of: list[int] = []
    ret: list[float] = []
    for h in tqdm(range(start, start + hands), desc="hands", unit="hand"):
        rng = np.random.default_rng(h)
        slot.start(h)
        kept: list[int] = []
        while not slot.over:
            seat = slot.seat
            legal = slot.legal(seat)
            action = legal[0]
            if len(legal) > 1:
                seen = slot.observe(seat)
                action = rule.act(seen["observation"], seen["action_mask"])
                if rng.random() < KEEP:
                    assert slot.game is not None
                    obs.append(seen["observation"].astype(np.float16))
                    oracle.append(seen["oracle"].astype(np.float16))
                    left.append(slot.game.wall.remaining)
                    kept.append(seat)
            end = slot.step(action)
            if end is not None:
                payments = end.result.payments
        seat_of += kept
        hand_of += [h] * len(kept)
        ret += [float(payments[s]) for s in kept]
    return {"obs": np.stack(obs), "oracle": np.stack(oracle),
            "left": np.array(left, np.int16), "seat": np.array(seat_of, np.int8),
            "hand": np.array(hand_of, np.int64), "ret": np.array(ret, np.float32)}


def explained_variance(target: npt.NDArray[np.floating], predicted: npt.NDArray[np.floating],
                       ) -> float:
    """1 - Var(target - predicted) / Var(target): the share of the variance a prediction
    removes (0 for a constant, negative for a prediction worse than one); NaN where the targets
    do not vary (fewer than two rows, say an empty bucket of the table), without a warning."""
    spread = float(np.var(target)) if len(target) > 1 else 0.0
    if spread == 0.0:
        return float("nan")
    return float(1.0 - np.var(target - predicted) / spread)


def split_hands(hands: npt.NDArray[np.int64], seed: int = 0,
                ) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Row masks of the train, validation and test hands (70 / 10 / 20 % of the hands)."""
    unique = np.unique(hands)
    order = np.random.default_rng(seed).permutation(len(unique))
    n_test, n_val = len(unique) // 5, len(unique) // 10
    test = np.isin(hands, unique[order[:n_test]])
    val = np.isin(hands, unique[order[n_test:n_test + n_val]])
    return ~(test | val), val, test


def fit(data: dict[str, npt.NDArray[np.generic]], with_oracle: bool, epochs: int,
        channels: int, blocks: int, seed: int = 0) -> tuple[list[float], npt.NDArray[np.float32]]:
    """Train one critic from ``seed``; the validation score of each epoch and the test
    predictions of the best epoch (:class:`DeadCritic` when the first epoch leaves it
    predicting a constant)."""
    import torch

    from mjenv_agents.policy import PolicyConfig, PolicyNet

    torch.manual_seed(seed)
    x = np.concatenate([data["obs"], data["oracle"]], 1) if with_oracle else data["obs"]
    y = data["ret"] / SCALE
    train, val, test = split_hands(data["hand"])
    net = PolicyNet(PolicyConfig(obs_shape=(x.shape[1], x.shape[2]), channels=channels,
                                 blocks=blocks))
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    xt, yt = torch.from_numpy(x[train]), torch.from_numpy(y[train])
    scores: list[float] = []
    best: tuple[float, npt.NDArray[np.float32]] = (-np.inf, np.zeros(int(test.sum()), np.float32))

    def predict(rows: npt.NDArray[np.bool_]) -> npt.NDArray[np.float32]:
        net.eval()
        out = []
        with torch.no_grad():
            part = x[rows]
            for i in range(0, len(part), 2048):
                xb = torch.from_numpy(part[i:i + 2048]).float()
                out.append(net(xb, torch.ones(len(xb), net.config.num_actions,
                                              dtype=torch.bool))[1].squeeze(-1).numpy())
        return np.concatenate(out)

    name = "with oracle" if with_oracle else "observation"
    for _ in tqdm(range(epochs), desc=f"critic, {name}", unit="epoch"):
        net.train()
        perm = torch.randperm(len(yt))
        for i in range(0, len(perm) - 255, 256):
            idx = perm[i:i + 256]
            value = net(xt[idx].float(), torch.ones(len(idx), net.config.num_actions,
                                                    dtype=torch.bool))[1].squeeze(-1)
            loss = ((value - yt[idx]) ** 2).mean()
            optimizer.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), MAX_GRAD_NORM)
            optimizer.step()
        at_val = predict(val)
        if not scores and float(np.std(at_val)) < 1e-6:
            raise DeadCritic(f"seed {seed}: a constant prediction after the first epoch")
        scores.append(explained_variance(y[val], at_val))
        if scores[-1] > best[0]:
            best = (scores[-1], predict(test))
    return scores, best[1]


class DeadCritic(RuntimeError):
    """The value head's hidden layer died in the first epoch (every unit off: a constant
    prediction); :func:`main` starts that critic again from the next seed."""


def report(data: dict[str, npt.NDArray[np.generic]],
           predictions: dict[str, npt.NDArray[np.float32]]) -> str:
    """The markdown table: explained variance of the test returns, in all and by stage."""
    _, _, test = split_hands(data["hand"])
    y = data["ret"][test] / SCALE
    left = data["left"][test]
    rows = ["| critic reads | all decisions | " + " | ".join(s[2] for s in STAGES) + " |",
            "|---|---:|" + "---:|" * len(STAGES)]
    for name, p in predictions.items():
        cells = [f"{explained_variance(y, p):.3f}"]
        for lo, hi, _ in STAGES:
            at = (left > lo) & (left <= hi)
            cells.append(f"{explained_variance(y[at], p[at]):.3f}")
        rows.append(f"| {name} | " + " | ".join(cells) + " |")
    hands = len(np.unique(data["hand"]))
    return (f"{len(data['ret']):,} decisions of {hands:,} hands (test: {int(test.sum()):,}); "
            f"return sd {float(np.std(data['ret'])):.1f} points\n\n" + "\n".join(rows))


def load(folder: Path) -> dict[str, npt.NDArray[np.generic]]:
    files = sorted(folder.glob("h*.npz"))
    if not files:
        raise SystemExit(f"critic_variance.py: no h*.npz in {folder} (run collect first)")
    parts = [dict(np.load(f)) for f in files]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("collect", help="play rule hands and keep decisions with their returns",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    c.add_argument("--hands", type=int, default=2500, help="hands in this run")
    c.add_argument("--start", type=int, default=0, help="the first hand's seed")
    c.add_argument("--out", type=Path, required=True, help="folder of the h<start>.npz files")
    f = sub.add_parser("fit", help="train the two critics and print the table",
                       formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    f.add_argument("folder", type=Path, help="collect's folder")
    f.add_argument("--epochs", type=int, default=6, help="training epochs of each critic")
    f.add_argument("--channels", type=int, default=32, help="the network's channels")
    f.add_argument("--blocks", type=int, default=2, help="the network's residual blocks")
    args = parser.parse_args(argv)
    if args.command == "collect":
        if args.hands < 1:
            parser.error("--hands must be at least 1")
        args.out.mkdir(parents=True, exist_ok=True)
        path = args.out / f"h{args.start}.npz"
        np.savez(path, **collect(args.hands, args.start))  # type: ignore[arg-type]
        print(f"wrote {path}")
        return 0
    data = load(args.folder)
    predictions = {}
    for with_oracle, name in ((False, "the observation"),
                              (True, "the observation and the oracle planes")):
        for seed in range(TRIES):
            try:
                scores, predictions[name] = fit(data, with_oracle, args.epochs, args.channels,
                                                args.blocks, seed)
                break
            except DeadCritic as dead:
                print(f"{name}: {dead}; again from seed {seed + 1}")
        else:
            raise SystemExit(f"critic_variance.py: {name}: every one of {TRIES} seeds died")
        print(f"{name} (seed {seed}): validation explained variance by epoch "
              + ", ".join(f"{s:.3f}" for s in scores))
    print(report(data, predictions))
    return 0


if __name__ == "__main__":
    sys.exit(main())
