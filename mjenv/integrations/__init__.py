"""Adapters for RL libraries: thin, documented, tested (docs/integrations.md).

mjenv itself follows the conventions the libraries share, so most recipes need no adapter:
``mjenv.env()`` / ``mjenv.raw_env()`` (PettingZoo AEC, masks in the observation),
``mjenv.parallel_env()`` (PettingZoo parallel: every seat with a decision acts at once; SuperSuit's
vector wrappers), :class:`mjenv.single_agent.SingleAgentEnv` (Gymnasium, with ``action_masks()``;
``gymnasium.make("mjenv/MCRMahjong-v0")``), ``state()`` for centralised critics, and end-of-hand
infos of flat numbers. An adapter exists where a library's convention differs: the observation's
key names or shape, where the mask is looked for, self-play, and turning a trained model back
into an mjenv agent for ``mjenv arena``. Each module imports its library, so ``import
mjenv.integrations`` imports none:

``mjenv.integrations.sb3``
    Stable-Baselines3 / sb3-contrib ``MaskablePPO``: the single-agent env against fixed
    opponents with potential-based shanten shaping, a self-play env and callback (the opponents
    are a frozen copy of the learner, refreshed), and ``MaskablePPOAgent`` (a saved model as an
    mjenv agent spec). Extra: ``sb3``.
``mjenv.integrations.tianshou``, ``mjenv.integrations.rllib``, ``mjenv.integrations.torchrl``
    the same services in those libraries' conventions (see each module and
    docs/integrations.md). Extras: ``tianshou``, ``rllib``.

The examples in ``examples/`` train with each library, then evaluate in the arena.
"""
