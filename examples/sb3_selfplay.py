"""sb3-contrib MaskablePPO self-play on mjenv: the three opponents are a frozen copy of the
learner, refreshed as it learns; then the arena.

``mjenv.integrations.sb3.SelfPlayEnv`` is the single-agent env whose opponents play one
frozen copy of the learner's policy (a random player until the first copy arrives);
``SelfPlayCallback`` gives each env that copy when training starts and loads the learner's
weights into it every ``--refresh`` steps (through ``env_method``, so a ``SubprocVecEnv`` works
too). The learner's seat is drawn per hand, so it learns every seat.

Reward: the hand's score / 100 plus potential-based shanten shaping (``ShantenShaping``, see
examples/sb3_maskable_ppo.py): a table of beginners draws almost every hand, and the shaping
pays progress toward a ready hand without changing the objective.

    python examples/sb3_selfplay.py --smoke      # a few thousand steps, under a minute
    python examples/sb3_selfplay.py              # the full budget (docs/integrations.md)

The saved model then plays 1 vs 3 over duplicate deals against ``random`` and ``greedy``.
"""

from __future__ import annotations

from sb3_maskable_ppo import GAMMA, finish, learn, make_parser, prepare
from stable_baselines3.common.env_util import make_vec_env

from mjenv.integrations.sb3 import SelfPlayCallback, make_selfplay_env

FULL_STEPS = 300_000
"""The documented budget: 15–18 minutes on a 2-core machine (17.4 min measured with other jobs
running; docs/integrations.md); --smoke's is sb3_maskable_ppo.SMOKE_STEPS."""


def main(argv: list[str] | None = None) -> dict[str, object]:
    parser = make_parser(__doc__, "runs/sb3-selfplay", FULL_STEPS)
    parser.add_argument("--refresh", type=int, default=None,
                        help="steps between opponent refreshes (default 20000; --smoke 1024)")
    args = parser.parse_args(argv)
    steps, deals, out = prepare(args, FULL_STEPS)
    refresh = args.refresh or (1024 if args.smoke else 20_000)
    env = make_vec_env(make_selfplay_env, n_envs=args.envs, seed=args.seed,
                       env_kwargs={"shaping": args.shaping, "gamma": GAMMA,
                                   "reward": "normalized"})
    callback = SelfPlayCallback(refresh=refresh)
    model, seconds, path = learn(env, steps, args.seed, out, callback)
    print(f"trained {model.num_timesteps} steps in {seconds:.0f} s "
          f"({model.num_timesteps / seconds:.0f} steps/s), {callback.refreshes} opponent "
          f"refreshes; saved {path}")
    return finish(model, seconds, path, deals, args.seed, refreshes=callback.refreshes)


if __name__ == "__main__":
    main()
