"""The viewer's data (mjenv.render.html) against the engine, without a browser; the commands.

The frames are checked where the engine has a state to compare with: after each action, every
hand, meld, pool, flower and the wall count of the frame equal the game's (replayed action by
action). Seat views are checked not to depend on anything the seat could not see.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from mjenv import actions as A
from mjenv.cli import main
from mjenv.engine import events as E
from mjenv.engine.game import PENALIZE
from mjenv.engine.record import check_annotations, replay, save
from mjenv.render.html import (
    HandSource,
    annotation,
    hand_data,
    hand_frames,
    index_html,
    index_row,
    load_sources,
    page_html,
    sources_of,
    tile_symbols,
    write_index,
)

from . import records as R
from .records import annotated, engine_states, fresh

KINDS = ("mcr_hand", "concealed_kong_hand", "robbed_kong_hand", "botzone_flowers_hand",
         "penalised_hand")


@pytest.fixture(scope="module")
def recs() -> dict[str, dict[str, Any]]:
    out = {name: getattr(R, name)() for name in KINDS}
    out["mcr_match"] = R.mcr_match()
    return out


def shown(data: dict[str, Any], frame: int) -> list[dict[str, Any]]:
    """The four seat states of a frame."""
    return [data["states"][i] for i in data["frames"][frame]["s"]]


def hand_of(state: dict[str, Any]) -> list[str]:
    drawn = state.get("drawn")
    return sorted(state["hand"] + ([drawn] if drawn else []))


def melds_of(state: dict[str, Any]) -> list[tuple[str, tuple[str, ...]]]:
    return sorted((m["kind"], tuple(m["tiles"])) for m in state["melds"] if not m.get("hidden"))


@pytest.mark.parametrize("kind", KINDS)
def test_every_action_boundary_shows_the_engines_state(recs: dict[str, Any], kind: str) -> None:
    record = recs[kind]
    data = hand_data(HandSource(replay(record), kind))
    expected = engine_states(record)
    assert len(data["frames"]) == len(record["events"])
    for frame, want in expected.items():
        seats = shown(data, frame)
        assert data["frames"][frame]["left"] == want["left"], frame
        for s, st in enumerate(seats):
            assert hand_of(st) == want["hands"][s], (frame, s)
            assert melds_of(st) == want["melds"][s], (frame, s)
            assert [t for t, by in st["river"] if by < 0] == want["pools"][s], (frame, s)
            assert st["flowers"] == want["flowers"][s], (frame, s)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seat", range(4))
def test_a_seat_view_shows_its_own_hand_and_counts_the_others(recs: dict[str, Any], kind: str,
                                                              seat: int) -> None:
    record = recs[kind]
    game = replay(record)
    data = hand_data(HandSource(game, kind), seat)
    for frame, want in engine_states(record).items():
        for s, st in enumerate(shown(data, frame)):
            if s == seat:
                assert hand_of(st) == want["hands"][s], (frame, s)
                assert melds_of(st) == want["melds"][s]
            else:
                assert "hand" not in st
                apart = 1 if "drawn" in st else 0
                assert st["hidden"] + apart == len(want["hands"][s]), (frame, s)
                hidden = [m for m in st["melds"] if m.get("hidden")]
                concealed = [m for m in want["melds"][s] if m[0] == "concealed_kong"]
                assert len(hidden) == (0 if frame == len(record["events"]) - 1
                                       else len(concealed))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seat", range(4))
def test_a_seat_view_reads_nothing_the_seat_did_not_see(recs: dict[str, Any], kind: str,
                                                        seat: int) -> None:
    """The frames from the referee's events equal those from the events redacted for the
    seat: nothing hidden can have reached the page."""
    game = replay(recs[kind])
    last = len(game.events) - 1
    redacted = [E.view(e, seat, over=i == last) for i, e in enumerate(game.events)]
    assert redacted != game.events or kind == "penalised_hand"
    kwargs = {"rules": game.rules, "dealer": game.dealer, "prevalent_wind": game.prevalent_wind,
              "seat": seat}
    assert hand_frames(redacted, **kwargs) == hand_frames(game.events, **kwargs)
    data = hand_data(HandSource(game, kind), seat)
    assert "seed" not in data and "wall" not in json.dumps(data)
    page = page_html([HandSource(game, kind)], seat=seat)
    assert '"wall"' not in page and '"actions"' not in page


def test_the_robbed_kong_is_shown_as_the_engine_plays_it(recs: dict[str, Any]) -> None:
    record = recs["robbed_kong_hand"]
    game = replay(record)
    data = hand_data(HandSource(game, "robbed"))
    adding = max(i for i, e in enumerate(game.events) if isinstance(e, E.AddedKong))
    declarer = game.events[adding].seat
    assert data["log"][adding]["text"].startswith("adds ")
    kinds = [m["kind"] for m in shown(data, adding)[declarer]["melds"]]
    assert "pung" in kinds  # stays a pung: it is robbed, never completed
    result = data["result"]
    assert result["kind"] == "win" and result["robbed"] and result["from"] == declarer
    assert ["抢杠和", "Robbing the Kong", 8, 1] in result["fans"]
    assert sum(result["payments"]) == 0


def test_the_result_has_every_fan_in_both_languages_and_the_payments(
        recs: dict[str, Any]) -> None:
    game = replay(recs["mcr_hand"])
    result = hand_data(HandSource(game, "h"))["result"]
    assert game.result is not None
    assert [(zh, n) for zh, _en, _p, n in result["fans"]] == list(game.result.fans)
    assert all(en and points for _zh, en, points, _n in result["fans"])
    assert result["total"] == game.result.fan_total
    assert result["payments"] == list(game.result.payments)
    penalty = hand_data(HandSource(replay(recs["penalised_hand"]), "p"))["result"]
    assert penalty["kind"] == "penalty" and sorted(penalty["payments"]) == [-30, 10, 10, 10]


def test_a_match_is_one_source_per_hand_with_the_scores_before(recs: dict[str, Any]) -> None:
    match = recs["mcr_match"]
    sources = sources_of(match, "m.json")
    assert len(sources) == len(match["hands"]) == 16
    assert sources[0].scores_before == (0, 0, 0, 0)
    last = sources[-1]
    assert last.game.result is not None
    assert [b + p for b, p in zip(last.scores_before or (), last.game.result.payments,
                                  strict=True)] == match["scores"]
    assert [s.hand_index for s in sources] == list(range(16))


# ------------------------------------------------------------------ annotations
def test_annotation_keeps_the_likeliest_legal_actions() -> None:
    probs = [0.0] * A.NUM_ACTIONS
    probs[A.PASS], probs[A.WIN], probs[A.pung(5)] = 0.1, 0.6, 0.3
    note = annotation(7, 2, probs, value=-0.123456, top=2)
    assert note == {"step": 7, "seat": 2, "top": [["Win", 0.6], ["Pung W6", 0.3]],
                    "value": -0.1235}
    with pytest.raises(ValueError, match="235 probabilities"):
        annotation(0, 0, [1.0])


def test_records_keep_annotations_and_replay_checks_them(recs: dict[str, Any]) -> None:
    rec = annotated(recs["mcr_hand"], 1)
    assert replay(rec).events == replay(recs["mcr_hand"]).events
    bad_cases = [
        ({"step": len(rec["actions"]), "seat": 0, "top": []}, "step must index"),
        ({"step": 0, "seat": (rec["actions"][0][0] + 1) % 4, "top": []}, "did not take action 0"),
        ({"step": 0, "seat": rec["actions"][0][0], "top": [["Fly", 0.5]]}, "not an action name"),
        ({"step": 0, "seat": rec["actions"][0][0], "top": [["Pass", 1.5]]}, "probability"),
        ({"step": 0, "seat": rec["actions"][0][0], "top": [], "why": 1}, "unknown keys"),
        ({"step": 0, "seat": rec["actions"][0][0], "top": [], "value": "high"}, "value must"),
    ]
    actions = [(s, PENALIZE if a == "penalize" else a) for s, a in rec["actions"]]
    for note, message in bad_cases:
        with pytest.raises(ValueError, match=message):
            check_annotations([note], actions)
        broken = dict(rec, annotations=[note])
        with pytest.raises(ValueError, match=message):
            replay(broken)
    with pytest.raises(ValueError, match="expected a list"):
        replay(dict(rec, annotations={}))


def test_annotations_are_shown_at_their_decision_and_only_the_viewers(
        recs: dict[str, Any]) -> None:
    rec = annotated(recs["mcr_hand"], 1)
    game = replay(rec)
    notes = tuple(rec["annotations"])
    open_view = hand_data(HandSource(game, "a", notes))["notes"]
    assert sum(len(v) for v in open_view.values()) == len(notes)
    g = fresh(rec)
    for i, (s, a) in enumerate(rec["actions"]):
        if s == 1:
            at = open_view[str(len(g.events) - 1)]
            note = next(n for n in at if n["step"] == i)
            assert note["chosen"] == A.action_to_string(a) == note["top"][0][0]
            # the seat had that decision at that frame: the action was legal there
            assert a in g.legal_actions(s)
        g.step(s, a)
    assert hand_data(HandSource(game, "a", notes), seat=0)["notes"] == {}
    assert hand_data(HandSource(game, "a", notes), seat=1)["notes"] == open_view


def test_play_annotated_records_the_policys_probabilities() -> None:
    from mjenv.cli.view import play_annotated

    agents = [R.SoftmaxAgent(1), R.SoftmaxAgent(2), R.SoftmaxAgent(3), R.SoftmaxAgent(4)]
    record = play_annotated(agents, seed=5, top=3)
    game = replay(record)  # the annotations are checked by the replay
    notes = record["annotations"]
    assert len(notes) == len(game.actions)  # every decision of every seat explained
    for note in notes:
        seat, a = game.actions[note["step"]]
        assert note["seat"] == seat and note["top"][0][0] == A.action_to_string(a)
        assert len(note["top"]) <= 3 and -1 <= note["value"] <= 1
        assert 0 < sum(p for _, p in note["top"]) <= 1.0001  # the likeliest part
    assert hand_data(HandSource(game, "p", tuple(notes)))["notes"]


def test_a_torch_policy_network_can_explain_its_decisions() -> None:
    """What ``PolicyAgent.explain`` would do (agents/policy.py has no public way to get the
    probabilities yet): softmax of the masked logits and the value head."""
    torch = pytest.importorskip("torch")
    policy = pytest.importorskip("mjenv_agents.policy")
    from mjenv.cli.view import play_annotated

    torch.manual_seed(0)
    net = policy.PolicyNet(policy.PolicyConfig(channels=8, blocks=1)).eval()

    class Explained:
        def reset(self, seat: int, seed: int | None = None) -> None:
            pass

        def explain(self, obs: Any, mask: Any) -> tuple[list[float], float]:
            import numpy as np

            m = np.asarray(mask)[None] != 0
            x = net.prepare(np.asarray(obs, dtype=np.float32)[None], m)
            with torch.inference_mode():
                logits, value = net(torch.from_numpy(x), torch.from_numpy(m))
            return torch.softmax(logits, dim=1)[0].tolist(), float(value[0])

        def act(self, obs: Any, mask: Any) -> int:
            probs = self.explain(obs, mask)[0]
            return max(range(len(probs)), key=probs.__getitem__)

    record = play_annotated([Explained(), R.SoftmaxAgent(1), R.SoftmaxAgent(2),
                             R.SoftmaxAgent(3)], seed=1)
    replay(record)
    assert any(n["seat"] == 0 for n in record["annotations"])


# ------------------------------------------------------------------ pages
def test_the_page_is_one_file_that_needs_nothing_else(recs: dict[str, Any]) -> None:
    page = page_html(sources_of(recs["mcr_hand"], "h.json"))
    assert not re.search(r"https?://|<link|<img|<iframe|@import|url\((?!#)", page)
    refs = set(re.findall(r'(?:href|src)="([^"]*)"', page))
    assert all(ref.startswith("#") for ref in refs), refs  # in-page references only
    assert page.count("<script") == 2  # the data and the viewer, both inline
    data = json.loads(re.search(r'<script id="mjview-data" type="application/json">(.*?)'
                                r"</script>", page, re.S).group(1))
    assert data["hands"][0]["log"][0]["text"].startswith("is dealt ")


def test_text_from_a_record_cannot_break_out_of_the_page(recs: dict[str, Any]) -> None:
    page = page_html(sources_of(recs["mcr_hand"], "</script><b>x</b>.json"),
                     title="<i>&</i>")
    assert "</script><b>" not in page and "<i>&</i>" not in page


def test_tiles_are_drawn_by_our_own_svg() -> None:
    defs = tile_symbols()
    for code, text in (("W3", "三"), ("W3", "萬"), ("F2", "南"), ("J1", "中"), ("J2", "發"),
                       ("H1", "春"), ("H8", "菊"), ("T7", ">7<"), ("B9", ">9<")):
        symbol = re.search(f'<symbol id="t-{code}".*?</symbol>', defs).group(0)
        assert text in symbol, (code, text)


def test_the_index_sorts_by_what_it_shows(recs: dict[str, Any], tmp_path: Path) -> None:
    for name in ("mcr_hand", "penalised_hand", "robbed_kong_hand"):
        save(recs[name], tmp_path / f"{name}.json")
    save(recs["mcr_match"], tmp_path / "match.json")
    pages = write_index(sorted(tmp_path.glob("*.json")), tmp_path / "index.html")
    assert [p.name for p in pages] == ["match.html", "mcr_hand.html", "penalised_hand.html",
                                       "robbed_kong_hand.html", "index.html"]
    text = (tmp_path / "index.html").read_text(encoding="utf-8")
    for page in pages[:-1]:
        assert f'href="{page.name}"' in text
        assert 'href="index.html"' in page.read_text(encoding="utf-8")  # and back
    row = index_row("p.json", "p.html", load_sources(tmp_path / "penalised_hand.json"), "hand")
    assert row.penalties == 1 and row.wins == 0 and sorted(row.scores) == [-30, 10, 10, 10]
    match = index_row("m.json", "m.html", load_sources(tmp_path / "match.json"), "match")
    assert list(match.scores) == recs["mcr_match"]["scores"] and match.hands == 16
    assert 'data-col="8"' in index_html([row, match])


# ------------------------------------------------------------------ commands
def test_mjenv_view_writes_pages_and_an_index(recs: dict[str, Any], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    save(recs["mcr_hand"], tmp_path / "hand.json")
    save(recs["mcr_match"], tmp_path / "match.json")
    (tmp_path / "results.json").write_text('{"rows": []}', encoding="utf-8")
    assert main(["view", str(tmp_path / "hand.json"), "--out", str(tmp_path / "h.html")]) == 0
    assert "1 hand(s)" in capsys.readouterr().out
    assert main(["view", str(tmp_path / "hand.json"), str(tmp_path / "match.json"), "--seat",
                 "2", "--out", str(tmp_path / "both.html")]) == 0
    assert "17 hand(s)" in capsys.readouterr().out
    assert main(["view", str(tmp_path), "--out", str(tmp_path / "site" / "index.html")]) == 0
    captured = capsys.readouterr()
    assert "skipping" in captured.err and "results.json" in captured.err
    assert sorted(p.name for p in (tmp_path / "site").iterdir()) == [
        "hand.html", "index.html", "match.html"]
    assert main(["replay", str(tmp_path / "hand.json"), "--html",
                 str(tmp_path / "r.html")]) == 0
    assert (tmp_path / "r.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_mjenv_view_errors_are_one_line(recs: dict[str, Any], tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    bad = copy.deepcopy(recs["mcr_hand"])
    bad["actions"][0][1] = 0
    save(bad, tmp_path / "bad.json")
    assert main(["view", str(tmp_path / "bad.json"), "--out", str(tmp_path / "x.html")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("mjenv view: error: ") and "bad.json: action 0" in err
    assert not (tmp_path / "x.html").exists()
    assert main(["view", "--out", str(tmp_path / "x.html")]) == 2
    assert "nothing to show" in capsys.readouterr().err


def test_mjenv_view_play_saves_an_annotated_record(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    spec = "tests.render.records:SoftmaxAgent"
    assert main(["view", "--play", spec, "random", "greedy", spec, "--seed", "3",
                 "--save-record", str(tmp_path / "g.json"), "--out",
                 str(tmp_path / "g.html")]) == 0
    record = json.loads((tmp_path / "g.json").read_text(encoding="utf-8"))
    assert {n["seat"] for n in record["annotations"]} == {0, 3}
    replay(record)
    assert "data" in (tmp_path / "g.html").read_text(encoding="utf-8")


def test_the_docs_examples_run() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "viewer.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 3
    namespace: dict[str, Any] = {}
    for block in blocks:
        exec(compile(block, str(doc), "exec"), namespace)
