"""Training scripts for the torch policy (:mod:`mjenv_agents.policy`), CleanRL-style: one
readable file per stage, each with an ``Args`` dataclass filled from a TOML config.

``mjenv_agents.train.bc``        behaviour cloning of the rule-based player
                                 (``python -m mjenv_agents.train.bc --config bc_smoke``)
``mjenv_agents.train.ppo``       PPO self-play against an opponent pool
``mjenv_agents.train.pipeline``  ``mjenv train``: the stages of a staged config in order
``mjenv_agents.train.configs``   the built-in configs (``smoke``, ``demo`` ...) and their names
"""
