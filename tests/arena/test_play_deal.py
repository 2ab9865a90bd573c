"""A deal's games played side by side (mjenv.arena.play.play_deal): a batch-safe agent gets its
decisions in batches, the results are those of one game at a time, a failing row penalizes
its own game only, and workers and resumed runs give the same results."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

import numpy as np
import pytest

from mjenv.actions import PASS
from mjenv.arena import ArenaConfig, run_arena
from mjenv.arena.play import agent_for, batch_safe, batched_specs, play_deal, play_game
from tests.arena.test_arena import assert_resumed_whole, killed_run, rows_of


class Batched:
    """Batch-safe: the legal action whose id, mixed with the observation's sum, hashes
    highest; ``act_batch`` decides each row as ``act`` does and logs the batch sizes."""

    batch_safe = True
    sizes: ClassVar[list[int]] = []

    def __init__(self, x: int = 0) -> None:
        self.x = x

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        legal = np.flatnonzero(action_mask)
        total = int(np.asarray(observation).sum() * 4)
        return int(max(legal, key=lambda a: (a * 7919 + total * 104729 + self.x) % 1009))

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> list[int]:
        Batched.sizes.append(len(observations))
        return [self.act(o, m) for o, m in zip(observations, action_masks, strict=True)]


class ShortBatch(Batched):
    """Its ``act_batch`` drops the last row; ``act`` is right."""

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> list[int]:
        return super().act_batch(observations, action_masks)[:-1]


class FailsOnClaims(Batched):
    """Like :class:`Batched`, but raises on a claim decision (Pass legal), batch or not."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        if action_mask[PASS]:
            raise RuntimeError("no claims")
        return super().act(observation, action_mask)

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> list[int]:
        return [self.act(o, m) for o, m in zip(observations, action_masks, strict=True)]


BATCHED = "tests.arena.test_play_deal:Batched"


class Unbatched:
    """Says it is batch-safe but has no act_batch."""

    batch_safe = True

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        return int(np.flatnonzero(action_mask)[0])


class Hooked(Batched):
    """Batch-safe by its flag, but keeps a history of its own game (observe_events)."""

    def observe_events(self, events: object, view: object) -> None:
        pass


def test_batch_safe_needs_the_flag_act_batch_and_no_history() -> None:
    from mjenv_agents.random_agent import RandomAgent

    assert batch_safe(Batched())
    assert not batch_safe(Unbatched()) and not batch_safe(Hooked())
    assert not batch_safe(RandomAgent())
    # a deal is played side by side only when no agent keeps a per-game history
    assert batched_specs({"b": Batched(), "r": RandomAgent()}) == {"b"}
    assert batched_specs({"b": Batched(), "h": Hooked()}) == frozenset()


@pytest.mark.parametrize("mode", ["1v3", "four"])
def test_a_deal_side_by_side_plays_what_one_game_at_a_time_plays(mode: str) -> None:
    agents = (BATCHED, "random seed=3") if mode == "1v3" else (
        BATCHED, "random seed=3", BATCHED + " x=1", "greedy")
    config = ArenaConfig(agents=agents, deals=2, seed=4, mode=mode)
    sizes = type(agent_for(BATCHED)).sizes  # the class as the spec imports it
    for deal in range(2):
        tasks = [t for t in config.tasks() if t.deal == deal]
        sizes.clear()
        together = play_deal(config, tasks)
        assert max(sizes) > 1  # decisions of several games in one call
        alone = [play_game(config, t) for t in tasks]
        assert [rows for rows, _, _ in together] == [rows for rows, _, _ in alone]


def test_a_failing_row_penalizes_its_own_game() -> None:
    spec = "tests.arena.test_play_deal:FailsOnClaims"
    config = ArenaConfig(agents=(spec, "random seed=3"), deals=1, seed=9)
    tasks = config.tasks()
    together = play_deal(config, tasks)
    alone = [play_game(config, t) for t in tasks]
    assert [rows for rows, _, _ in together] == [rows for rows, _, _ in alone]
    errors = [f.error for _, failures, _ in together for f in failures]
    assert errors and all("no claims" in e for e in errors)


def small_policy(folder: Path) -> str:
    """The spec of a small random policy network (workers import its agent by name, as they
    cannot a class of this test module)."""
    torch = pytest.importorskip("torch")
    from mjenv_agents.policy import PolicyConfig, PolicyNet, save_checkpoint

    torch.manual_seed(0)
    path = folder / "net.pt"
    save_checkpoint(path, PolicyNet(PolicyConfig(channels=8, blocks=1)))
    return f"policy:{path}"


def test_a_batch_of_the_wrong_length_is_decided_row_by_row() -> None:
    config = ArenaConfig(agents=("tests.arena.test_play_deal:ShortBatch", "random seed=3"),
                         deals=1, seed=9)
    tasks = config.tasks()
    together = play_deal(config, tasks)
    assert [rows for rows, _, _ in together] == [rows for rows, _, _ in
                                                 (play_game(config, t) for t in tasks)]
    assert not any(failures for _, failures, _ in together)


def test_workers_and_a_resumed_run_give_the_same_results(tmp_path: Path) -> None:
    config = ArenaConfig(agents=(small_policy(tmp_path), "random seed=1 win_first=True"),
                         deals=5, seed=2)
    run_arena(config, tmp_path / "whole", progress=False)
    run_arena(config, tmp_path / "two", workers=2, progress=False, chunk_deals=1)
    assert rows_of(tmp_path / "two") == rows_of(tmp_path / "whole")
    out = tmp_path / "killed"
    killed_run(config, out, after=6)  # in the middle of the second deal
    assert_resumed_whole(config, out, tmp_path / "whole")


def test_a_greedy_policy_is_batch_safe_and_a_sampling_one_is_not(tmp_path: Path) -> None:
    spec = small_policy(tmp_path)
    from mjenv_agents.policy import PolicyAgent

    path = spec.partition(":")[2]
    assert batch_safe(PolicyAgent(path))
    assert not batch_safe(PolicyAgent(path, greedy=False))
    config = ArenaConfig(agents=(spec, "random seed=2"), deals=1, seed=3)
    tasks = config.tasks()
    together = play_deal(config, tasks)
    alone = [play_game(config, t) for t in tasks]
    assert [rows for rows, _, _ in together] == [rows for rows, _, _ in alone]
