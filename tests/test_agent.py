"""The agent interface (mjenv.agent): specs, make_agent, act_batch, and the RandomAgent."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from mjenv import actions as A
from mjenv.agent import Agent, act_batch, make_agent, parse_spec, registered_agents
from mjenv_agents.random_agent import RandomAgent

ROOT = Path(__file__).resolve().parents[1]


def random_masks(n: int, seed: int = 0) -> np.ndarray:
    """``n`` random 235-wide int8 masks, each with at least one legal action."""
    rng = np.random.default_rng(seed)
    masks = (rng.random((n, A.NUM_ACTIONS)) < 0.05).astype(np.int8)
    masks[np.arange(n), rng.integers(A.NUM_ACTIONS, size=n)] = 1
    return masks


OBS = np.zeros(3, dtype=np.float32)  # agents here ignore the observation


# ------------------------------------------------------------------ parse_spec
BUILTINS = {
    "random": "mjenv_agents.random_agent:RandomAgent",
    "greedy": "mjenv_agents.greedy:GreedyShantenAgent",
    "rule": "mjenv_agents.rule_based:RuleBasedAgent",
    "lookahead": "mjenv_agents.lookahead:LookaheadAgent",
    "policy": "mjenv_agents.policy:PolicyAgent",
    "pretrained": "mjenv_agents.pretrained:PretrainedAgent",
    "botzone": "mjenv.botzone.program_agent:BotzoneProgramAgent",
}


def test_the_builtins_are_registered_entry_points() -> None:
    registered = registered_agents()
    assert {name: registered.get(name) for name in BUILTINS} == BUILTINS


@pytest.mark.parametrize("name", sorted(BUILTINS))
def test_builtin_names(name: str) -> None:
    # a bare name imports nothing: even ``policy`` (torch) is only looked up
    assert parse_spec(name) == (BUILTINS[name], {})


def test_builtin_with_options_and_literal_values() -> None:
    path, options = parse_spec("  random   seed=3 win_first=True  ")
    assert path == "mjenv_agents.random_agent:RandomAgent"
    assert options == {"seed": 3, "win_first": True}
    _, options = parse_spec("random a=1.5 b=None c=[1, 2] d='x y' e=hello f=-2 g=(1,2) "
                            "h='3' i={'k': 'v w'} j=x=y")
    assert options == {"a": 1.5, "b": None, "c": [1, 2], "d": "x y", "e": "hello", "f": -2,
                       "g": (1, 2), "h": "3", "i": {"k": "v w"}, "j": "x=y"}
    assert isinstance(options["f"], int)


def test_policy_path() -> None:
    pytest.importorskip("torch")  # the argument: PolicyAgent's spec_argument names the option
    assert parse_spec("policy:runs/demo/final.pt") == (
        "mjenv_agents.policy:PolicyAgent", {"path": "runs/demo/final.pt"})
    assert parse_spec("policy:model.pt device=cuda") == (
        "mjenv_agents.policy:PolicyAgent", {"path": "model.pt", "device": "cuda"})
    # the path is everything after the first colon; quoted, it may hold spaces
    assert parse_spec("policy:C:/models/x.pt")[1] == {"path": "C:/models/x.pt"}
    assert parse_spec("policy:'my runs/x.pt' device=cpu")[1] == {"path": "my runs/x.pt",
                                                                 "device": "cpu"}
    with pytest.raises(ValueError, match="policy needs a path: 'policy:PATH'"):
        parse_spec("policy:")
    with pytest.raises(ValueError, match="the path is given twice"):
        parse_spec("policy:a.pt path=b.pt")


def test_import_string() -> None:
    assert parse_spec("my_pkg.sub.module:MyAgent depth=2") == (
        "my_pkg.sub.module:MyAgent", {"depth": 2})
    assert parse_spec("module:factory") == ("module:factory", {})


@pytest.mark.parametrize(("spec", "message"), [
    ("", "non-empty string"),
    ("   ", "non-empty string"),
    (None, "non-empty string"),
    (3, "non-empty string"),
    ("random seed", "is not key=value"),
    ("random =3", "is not key=value"),
    ("random 1x=3", "is not key=value"),
    ("random seed=1 seed=2", "given twice"),
    ("random name='unterminated", "unbalanced"),
    ("random sizes=[1, 2", "unbalanced"),
    ("botzone:", "botzone needs a command"),
    ("botzone:'python a.py' command=b", "given twice"),
    ("random:x", "takes no ':' argument"),
    ("nosuchagent", "unknown agent spec"),
    ("package.module", "unknown agent spec"),
    ("package.module:", "unknown agent spec"),
    (":Class", "unknown agent spec"),
    ("bad-name.module:Class", "unknown agent spec"),
    ("pkg..mod:Class", "unknown agent spec"),
])
def test_malformed_specs(spec: object, message: str) -> None:
    with pytest.raises(ValueError, match=message) as info:
        parse_spec(spec)  # type: ignore[arg-type]
    if isinstance(spec, str) and spec.strip():
        assert repr(spec) in str(info.value)  # the message names the spec


def test_unknown_spec_lists_the_builtins() -> None:
    with pytest.raises(ValueError) as info:
        parse_spec("nosuchagent")
    for name in BUILTINS:
        assert name in str(info.value)
    assert "package.module:Class" in str(info.value)
    assert "\n" not in str(info.value)


def test_a_bare_name_missing_its_argument_says_so() -> None:
    # a bare name parses without importing its factory; building it names the missing argument
    with pytest.raises(ValueError, match="botzone needs a command: 'botzone:COMMAND'"):
        make_agent("botzone io=json")
    pytest.importorskip("torch")
    with pytest.raises(ValueError, match=r"policy needs a path: 'policy:PATH'"):
        make_agent("policy")


def test_the_argument_fills_the_option_the_factory_names(agent_module: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    import mjenv.plugins

    registered = {**mjenv.plugins.agent_entry_points(),
                  "fixed": f"{agent_module}:Fixed", "labelled": f"{agent_module}:Labelled"}
    monkeypatch.setattr(mjenv.plugins, "agent_entry_points", lambda: registered)
    assert parse_spec("labelled:'a b' action=3") == (f"{agent_module}:Labelled",
                                                     {"action": 3, "label": "a b"})
    assert make_agent("labelled:xyz").label == "xyz"  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="'fixed' takes no ':' argument"):
        parse_spec("fixed:3")


# ------------------------------------------------------------------ make_agent
@pytest.fixture
def agent_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """An importable module of test agents; its name."""
    name = "mjenv_test_agents_mod"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent("""
        class Fixed:
            def __init__(self, action=0, label="x"):
                self.action = action
                self.label = label
                self.seat = None

            def reset(self, seat, seed=None):
                self.seat = seat

            def act(self, observation, action_mask):
                return self.action

        class Labelled(Fixed):
            spec_argument = "label"

        def factory(action=5):
            return Fixed(action=action, label="factory")

        class NotAnAgent:
            def act(self, observation, action_mask):
                return 0

        class Broken:
            def __init__(self):
                raise RuntimeError("boom")

        CONSTANT = 3
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, name, raising=False)
    return name


def test_make_agent_import_string(agent_module: str) -> None:
    agent = make_agent(f"{agent_module}:Fixed action=7 label='a b'")
    assert isinstance(agent, Agent)
    assert agent.act(OBS, random_masks(1)[0]) == 7
    assert agent.label == "a b"  # type: ignore[attr-defined]
    agent.reset(2, seed=1)
    assert agent.seat == 2  # type: ignore[attr-defined]


def test_make_agent_factory_function(agent_module: str) -> None:
    agent = make_agent(f"{agent_module}:factory")
    assert agent.act(OBS, random_masks(1)[0]) == 5
    assert make_agent(f"{agent_module}:factory action=9").act(OBS, random_masks(1)[0]) == 9


def test_make_agent_unknown_module() -> None:
    with pytest.raises(ValueError, match="cannot import 'no_such_pkg_xyz.mod'"):
        make_agent("no_such_pkg_xyz.mod:Agent")


def test_make_agent_unimportable_module(monkeypatch: pytest.MonkeyPatch) -> None:
    # a registered name whose module cannot be imported (a broken plugin): a clear error
    import mjenv.plugins

    registered = {**mjenv.plugins.agent_entry_points(), "greedy": "not_written_yet.mod:Agent"}
    monkeypatch.setattr(mjenv.plugins, "agent_entry_points", lambda: registered)
    with pytest.raises(ValueError, match="cannot import 'not_written_yet.mod'"):
        make_agent("greedy")


@pytest.mark.parametrize("attr", ["Nope", "CONSTANT"])
def test_make_agent_missing_or_uncallable_attr(agent_module: str, attr: str) -> None:
    with pytest.raises(ValueError, match=f"has no callable '{attr}'"):
        make_agent(f"{agent_module}:{attr}")


def test_make_agent_rejected_options(agent_module: str) -> None:
    with pytest.raises(ValueError, match="speed") as info:
        make_agent("random speed=3")
    assert "'random speed=3'" in str(info.value)
    with pytest.raises(ValueError, match="colour"):
        make_agent(f"{agent_module}:Fixed colour=1")


@pytest.mark.parametrize("attr", ["NotAnAgent", "CONSTANT.__class__"])
def test_make_agent_not_an_agent(agent_module: str, attr: str) -> None:
    with pytest.raises(ValueError, match="not an agent|no callable"):
        make_agent(f"{agent_module}:{attr}")


def test_make_agent_non_agent_objects() -> None:
    with pytest.raises(ValueError, match="is not an agent"):
        make_agent("collections:OrderedDict")
    with pytest.raises(ValueError, match="has no callable 'pi'"):
        make_agent("math:pi")


def test_make_agent_errors_from_the_constructor_are_one_line(agent_module: str) -> None:
    with pytest.raises(ValueError, match=r"Broken': cannot build it: RuntimeError: boom$"):
        make_agent(f"{agent_module}:Broken")


def test_restricted_specs_accept_only_registered_names(
        agent_module: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """MJENV_ALLOW_IMPORT=0 (docs/security.md): import strings and program bots are refused
    before anything is imported or run; registered agents still work."""
    monkeypatch.setenv("MJENV_ALLOW_IMPORT", "0")
    with pytest.raises(ValueError, match=r"import strings are off \(MJENV_ALLOW_IMPORT=0\)"):
        parse_spec("subprocess:call args=['false']")
    with pytest.raises(ValueError, match="import strings are off"):
        make_agent(f"{agent_module}:Fixed")
    assert agent_module not in sys.modules  # refused before the import
    with pytest.raises(ValueError, match="'botzone' runs a program, which is off"):
        make_agent('botzone:"python bot.py"')
    assert isinstance(make_agent("random seed=3"), RandomAgent)
    monkeypatch.setenv("MJENV_ALLOW_PROGRAMS", "1")
    assert parse_spec('botzone:"python bot.py"')[1] == {"command": "python bot.py"}
    monkeypatch.setenv("MJENV_ALLOW_IMPORT", "1")
    assert make_agent(f"{agent_module}:Fixed action=2").act(OBS, random_masks(1)[0]) == 2


def test_make_agent_malformed_spec() -> None:
    with pytest.raises(ValueError, match="is not key=value"):
        make_agent("random seed")


# ------------------------------------------------------------------ RandomAgent
def choices(agent: Agent, masks: np.ndarray) -> list[int]:
    return [agent.act(OBS, m) for m in masks]


def test_random_spec_is_reproducible() -> None:
    masks = random_masks(200)
    a, b = make_agent("random seed=3"), make_agent("random seed=3")
    assert isinstance(a, RandomAgent)
    first = choices(a, masks)
    assert first == choices(b, masks)
    assert first != choices(make_agent("random seed=4"), masks)
    # reset with a seed restarts the stream from (own seed, reset seed); without one it goes on
    a.reset(0, seed=7)
    again = choices(a, masks)
    a.reset(0, seed=7)
    assert choices(a, masks) == again
    a.reset(1)
    assert choices(a, masks) != again
    # differently seeded agents differ even when a caller resets both with one seed
    b.reset(2, seed=11)
    c = make_agent("random seed=4")
    c.reset(2, seed=11)
    assert choices(b, masks) != choices(c, masks)
    d, e = RandomAgent(), RandomAgent()  # unseeded agents follow the reset seed alone
    d.reset(2, seed=11)
    e.reset(3, seed=11)
    assert choices(d, masks) == choices(e, masks)


def test_random_picks_only_legal_actions_and_covers_them() -> None:
    agent = RandomAgent(seed=0)
    for mask in random_masks(300, seed=1):
        assert mask[agent.act(OBS, mask)] == 1
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[[0, 1, 7, 234]] = 1
    picked = {agent.act(OBS, mask) for _ in range(200)}
    assert picked == {0, 1, 7, 234}
    assert all(isinstance(agent.act(OBS, mask), int) for _ in range(5))


def test_random_all_zero_mask_raises() -> None:
    with pytest.raises(ValueError, match="no legal action"):
        RandomAgent(seed=0).act(OBS, np.zeros(A.NUM_ACTIONS, dtype=np.int8))


def test_random_win_first() -> None:
    agent = make_agent("random seed=0 win_first=True")
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[[0, A.WIN, 5, 40]] = 1
    assert {agent.act(OBS, mask) for _ in range(50)} == {A.WIN}
    mask[A.WIN] = 0  # no Win: random among the rest
    assert {agent.act(OBS, mask) for _ in range(100)} == {0, 5, 40}
    plain = RandomAgent(seed=0)
    mask[A.WIN] = 1
    assert len({plain.act(OBS, mask) for _ in range(100)}) == 4


# ------------------------------------------------------------------ act_batch
class Looping:
    def __init__(self) -> None:
        self.calls = 0

    def reset(self, seat: int, seed: int | None = None) -> None:
        pass

    def act(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.calls += 1
        return int(np.flatnonzero(action_mask)[0])


class Batched(Looping):
    def __init__(self) -> None:
        super().__init__()
        self.batches = 0

    def act_batch(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        self.batches += 1
        return np.asarray(np.argmax(action_masks, axis=1))  # numpy ints


def test_act_batch_without_a_batched_method() -> None:
    masks = random_masks(10)
    agent = Looping()
    out = act_batch(agent, np.zeros((10, 3)), masks)
    assert list(out) == [int(np.flatnonzero(m)[0]) for m in masks]
    assert agent.calls == 10


def test_act_batch_uses_the_batched_method() -> None:
    masks = random_masks(10)
    agent = Batched()
    out = act_batch(agent, np.zeros((10, 3)), masks)
    assert list(out) == [int(np.flatnonzero(m)[0]) for m in masks]
    assert all(type(a) is int for a in out)
    assert (agent.batches, agent.calls) == (1, 0)


def test_act_batch_random_agent_matches_act() -> None:
    masks = random_masks(20)
    assert list(act_batch(RandomAgent(seed=5), np.zeros((20, 3)), masks)) == \
        choices(RandomAgent(seed=5), masks)


def test_act_batch_length_mismatch() -> None:
    with pytest.raises(ValueError):
        act_batch(Looping(), np.zeros((3, 3)), random_masks(2))


def test_protocol_check() -> None:
    assert isinstance(RandomAgent(), Agent)
    assert isinstance(Looping(), Agent)
    assert not isinstance(object(), Agent)


# ------------------------------------------------------------------ layering
def test_mjenv_agent_does_not_import_agents() -> None:
    code = ("import sys\n"
            "import mjenv, mjenv.agent, mjenv.single_agent, mjenv.play\n"
            "assert 'mjenv_agents' not in sys.modules, 'agents imported at module import'\n"
            "mjenv.agent.parse_spec('policy')\n"
            "assert 'mjenv_agents' not in sys.modules, 'a bare name imported its factory'\n"
            "mjenv.agent.make_agent('random')\n"
            "assert 'mjenv_agents.random_agent' in sys.modules\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_pathological_spec_is_one_short_line() -> None:
    # found by scripts/fuzz_entry_points.py: ast.literal_eval recursed on 100k unary minuses,
    # and the message quoted the whole spec
    with pytest.raises(ValueError) as err:
        make_agent("random seed=" + "-" * 100_000 + "1")
    message = str(err.value)
    assert "\n" not in message and len(message) < 500
