"""Baseline agents for mjenv (random, shanten-greedy, rule-based, torch policy) and their
training code, installed as the package ``mjenv_agents`` (the source folder is ``agents/``; a
top-level ``agents`` would collide with other distributions of that name).

Agents use the public API of ``mjenv`` only and never see the engine; ``mjenv`` never imports
this package at module level: it finds the agents through the entry points ``mjenv.agents``
(spec names ``random``, ``greedy``, ``rule``, ``policy``) and the training stack through
``mjenv.train`` (:mod:`mjenv.plugins`). Modules here import each other relatively, so the
package works under either name (mypy checks the folder as ``agents``).
"""
