"""scripts/defence_oracle.py: the game's own answer to "which discards can an opponent win on",
and a short run of the measurement."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest

import mjenv
from mjenv.actions import DISCARD_BASE, WIN


def test_dangerous_tiles_are_the_discards_an_opponent_may_win_on(
        load_script: Callable[[str], ModuleType]) -> None:
    oracle = load_script("defence_oracle")
    env = mjenv.raw_env()
    checked = found = 0
    for seed in range(6):
        env.reset(seed=seed)
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            game, seat = env.game, env.agents.index(agent)
            assert game is not None
            legal = game.legal_actions(seat)
            discards = [a - DISCARD_BASE for a in legal if DISCARD_BASE <= a < DISCARD_BASE + 34]
            if discards and checked < 400:
                exact = oracle.dangerous_tiles(game, seat, "exact")
                assert exact <= oracle.dangerous_tiles(game, seat, "shape")
                for t in discards[:6]:  # the answer, tile by tile, from a clone of the game
                    trial = game.clone()
                    trial.step(seat, DISCARD_BASE + t)
                    wins = any(WIN in trial.legal_actions(s) for s in trial.to_act() if s != seat)
                    assert (t in exact) == wins
                checked += 1
                found += len(exact)
            env.step(legal[-1] if legal[-1] < DISCARD_BASE + 34 else legal[0])
    assert checked > 100 and found > 0


def test_defence_oracle_smoke(load_script: Callable[[str], ModuleType],
                              capsys: pytest.CaptureFixture[str]) -> None:
    oracle = load_script("defence_oracle")
    assert oracle.main(["--deals", "2"]) == 0
    out = capsys.readouterr().out
    assert "guarded - rule" in out and "guarded deal-in" in out
    assert oracle.main(["--deals", "2", "--waits", "ready"]) == 0
    assert capsys.readouterr().out.startswith("--waits ready: 2 deals")
    timely = oracle.TimelyGuarded()
    assert timely._threat(None) == 0.0  # told no opponent is ready: no defence at all
    timely.ready = True
    assert timely._threat(None) == 1.5  # rule's largest threat
    with pytest.raises(SystemExit):
        oracle.main(["--deals", "1"])
