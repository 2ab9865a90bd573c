"""The built-in training configs by name (mjenv_agents.train.configs): listing, descriptions,
NAME-or-PATH resolution and its error. No torch needed, except where a stage parses one."""

from __future__ import annotations

from pathlib import Path

import pytest

from mjenv_agents.train.configs import builtin_configs, describe, resolve_config

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = ROOT / "configs"
NAMES = sorted(p.stem for p in CONFIGS.glob("*.toml"))


def test_every_config_of_the_folder_is_a_builtin_with_a_description() -> None:
    found = builtin_configs()
    assert list(found) == NAMES == ["bc_smoke", "demo", "long", "smoke", "strong"]
    for name, description in found.items():
        assert description and "\n" not in description, name
        assert description.endswith("."), (name, description)
    assert found["smoke"] == ("Every stage with a tiny budget: seconds on 2 CPU cores "
                              "(the tests run it).")
    assert found["demo"].startswith("The CPU demo (`make demo`): clone the rule-based player")
    assert found["demo"].endswith("about 5 minutes on 2 CPU cores.")  # over two comment lines


@pytest.mark.parametrize("name", NAMES)
def test_a_name_resolves_to_the_packaged_file(name: str) -> None:
    path = resolve_config(name)
    assert path.name == f"{name}.toml" and path.is_file()
    assert path.read_bytes() == (CONFIGS / f"{name}.toml").read_bytes()
    assert resolve_config(f"{name}.toml") == path


def test_an_existing_path_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mine = tmp_path / "mine.toml"
    mine.write_text("out = 'x'\n")
    assert resolve_config(mine) == mine and resolve_config(str(mine)) == mine
    monkeypatch.chdir(tmp_path)
    (tmp_path / "demo.toml").write_text("# my own demo\n")
    assert resolve_config("demo.toml") == Path("demo.toml")  # a local file shadows the builtin
    assert resolve_config("demo") != Path("demo.toml")       # the bare name is the builtin
    assert resolve_config(CONFIGS / "smoke.toml") == CONFIGS / "smoke.toml"


@pytest.mark.parametrize("text", ["nosuch", "nosuch.toml", "configs/demo.toml", "", "README"])
def test_neither_file_nor_builtin_is_one_line_naming_the_builtins(
        text: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # configs/demo.toml exists only in the checkout
    with pytest.raises(ValueError) as info:
        resolve_config(text)
    message = str(info.value)
    assert "\n" not in message and repr(text) in message
    assert "bc_smoke, demo, long, smoke" in message


@pytest.mark.parametrize(("text", "expected"), [
    ("# One. Two.\nout = 1\n", "One."),
    ("# A sentence that goes\n# on. Then more.\n", "A sentence that goes on."),
    ("# Stops at an example:\n#   mjenv train --config x\n# not this\n", "Stops at an example:"),
    ("# Stops at a gap\n#\n# not this.\n", "Stops at a gap"),
    ("# Version 1.5 is not an end\n", "Version 1.5 is not an end"),
    ("out = 1\n# late comment\n", ""),
    ("", ""),
])
def test_describe(text: str, expected: str) -> None:
    assert describe(text) == expected


def test_the_stages_take_names() -> None:
    pytest.importorskip("torch")
    from mjenv_agents.train import bc, pipeline

    staged = pipeline.load(resolve_config("smoke"))
    assert staged.bc is not None and staged.ppo is not None and staged.evaluate is not None
    flat = bc.parse_args(["--config", "bc_smoke", "hands=3"])  # python -m ...train.bc
    assert (flat.hands, flat.channels, flat.out) == (3, 16, "runs/bc_smoke")


def test_the_pipeline_refuses_an_unknown_name(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("torch")
    from mjenv_agents.train import pipeline

    assert pipeline.main(["--config", "nosuch"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == ("error: no config 'nosuch': not a file, and not a built-in config "
                   "(built-in: bc_smoke, demo, long, smoke, strong)")


def test_configs_the_fuzzer_broke_are_one_line_errors(tmp_path: Path) -> None:
    # found by scripts/fuzz_entry_points.py: tomllib's RecursionError on deep arrays, and a
    # stage given as a value then overridden as a table
    from mjenv_agents.train import pipeline

    deep = tmp_path / "deep.toml"
    deep.write_text("a = " + "[" * 5000 + "]" * 5000 + "\n")
    with pytest.raises(ValueError, match="nested too deeply"):
        pipeline.load(deep)
    flat = tmp_path / "flat.toml"
    flat.write_text("bc = 3\n")
    with pytest.raises(ValueError, match="not a table"):
        pipeline.load(flat, ["bc.epochs=1"])
