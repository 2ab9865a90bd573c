"""Training scripts for the torch policy (:mod:`agents.policy`), CleanRL-style: one readable
file per stage, each with an ``Args`` dataclass filled from a TOML config.

``agents.train.bc``  behaviour cloning of :class:`agents.rule_based.RuleBasedAgent`
                     (``python -m agents.train.bc --config configs/bc_smoke.toml``)
"""
