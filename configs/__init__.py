"""The built-in training configs, installed as the package ``mjenv_agents.configs``.

This file only makes the folder a regular package: a wheel then carries the ``.toml`` files as
package data, and :mod:`importlib.resources` finds them both in the wheel and in an editable
install of the checkout (where ``configs/`` is mapped into ``mjenv_agents``). Listing and
resolving names: :mod:`mjenv_agents.train.configs`.
"""
