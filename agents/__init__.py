"""Baseline agents for mjenv (random, rule-based, torch policy) and their training code.

Agents use the public API of ``mjenv`` only and never see the engine; ``mjenv`` never imports
``agents`` at module level (agent specs are resolved by import string at run time).
``random_agent.RandomAgent`` (spec ``random``) is the first; more follow.
"""
