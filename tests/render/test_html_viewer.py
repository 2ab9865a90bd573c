"""The viewer page in a real browser: headless Chromium driven by Selenium.

Each record kind is written as a page, opened from disk (``file://``) and stepped through
from the first event to the last; at every step the tiles the page drew (read from the SVG's
``data-*`` attributes) are compared with the frame data, and after every action with the
engine's own state (hands, melds, pools, flowers, the wall count). The result panel, the
controls (keyboard, buttons, slider, the log, the hand selector), the annotations and the
index page are checked too, and no page may log a console error.

Needs the Debian packages ``chromium`` and ``chromium-driver`` (scripts/install_browser.sh)
and ``selenium`` (the ``dev`` extra); without them the tests are skipped, saying which is
missing. The browser runs with no network and a fresh profile.
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mjenv import actions as A
from mjenv.engine.record import replay, save
from mjenv.render.html import HandSource, hand_data, sources_of, write_index, write_page

from . import records as R
from .records import annotated, engine_states

CHROMIUM = next(filter(None, (shutil.which(n) for n in ("chromium", "chromium-browser",
                                                         "google-chrome"))), None)
CHROMEDRIVER = shutil.which("chromedriver")
try:
    import selenium  # noqa: F401
    HAVE_SELENIUM = True
except ImportError:
    HAVE_SELENIUM = False

MISSING = [name for name, found in (("chromium", CHROMIUM), ("chromedriver", CHROMEDRIVER),
                                    ("selenium", HAVE_SELENIUM)) if not found]
if MISSING and os.environ.get("MJENV_REQUIRE_BROWSER") == "1":  # CI installs the browser
    raise RuntimeError(f"MJENV_REQUIRE_BROWSER=1 but {', '.join(MISSING)} missing: "
                       "run scripts/install_browser.sh")
pytestmark = pytest.mark.skipif(
    bool(MISSING), reason=f"the browser tests need {' and '.join(MISSING)}: "
    "sudo scripts/install_browser.sh (chromium, chromedriver); selenium is in the dev extra")

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1400,1000")

# the tiles the page drew, read back from the SVG: one entry per step
COLLECT = """
const q = (sel) => Array.from(document.querySelectorAll('#table ' + sel));
function dom() {
  const seats = [0, 1, 2, 3].map((s) => {
    const at = (zone) => q(`.tile[data-seat="${s}"][data-zone="${zone}"]`);
    const hand = at('hand');
    const melds = [];
    at('meld').forEach((e) => {
      const k = Number(e.dataset.meld);
      melds[k] = melds[k] || {kind: e.dataset.kind, tiles: []};
      melds[k].tiles.push(e.dataset.tile || null);
    });
    return {
      hand: hand.filter((e) => e.dataset.tile).map((e) => e.dataset.tile).sort(),
      hidden: hand.filter((e) => !e.dataset.tile).length,
      melds: melds,
      river: at('river').map((e) => [e.dataset.tile, Number(e.dataset.claimedBy)]),
      flowers: at('flower').map((e) => e.dataset.tile),
    };
  });
  const cur = document.querySelector('#log li.cur');
  return {step: mjview.state().step, seats: seats,
          left: Number(document.getElementById('wall-count').dataset.left),
          highlighted: q('.tile.hl').length, log: cur ? Number(cur.dataset.step) : -1,
          result: !document.getElementById('result').hidden};
}
const first = arguments[0], last = arguments[1], out = [];
for (let i = first; i <= last; i++) { mjview.go(i); out.push(dom()); }
return out;
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    assert CHROMIUM is not None
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every record kind as a record and a page (face up)."""
    folder = tmp_path_factory.mktemp("pages")
    recs = {
        "mcr_hand": R.mcr_hand(),
        "robbed_kong_hand": R.robbed_kong_hand(),
        "botzone_flowers_hand": R.botzone_flowers_hand(),
        "penalised_hand": R.penalised_hand(),
        "concealed_kong_hand": R.concealed_kong_hand(),
        "mcr_match": R.mcr_match(),
    }
    recs["annotated_hand"] = annotated(recs["mcr_hand"], 2)
    out: dict[str, Any] = {"folder": folder, "records": recs}
    for name, rec in recs.items():
        save(rec, folder / f"{name}.json")
        write_page(sources_of(rec, name), folder / f"{name}.html")
    return out


def open_page(driver: Any, path: Path, hook: str = "mjview") -> None:
    driver.get_log("browser")  # drop what an earlier page logged
    driver.get(path.as_uri())
    kind = driver.execute_script(f"return typeof window.{hook}")
    assert kind == "object", (path, driver.current_url, driver.get_log("browser"))


def console_errors(driver: Any) -> list[dict[str, Any]]:
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def state(driver: Any) -> dict[str, Any]:
    out: dict[str, Any] = driver.execute_script("return mjview.state()")
    return out


def expected_seat(st: dict[str, Any]) -> dict[str, Any]:
    """What the page must draw for one seat state of the data."""
    drawn = st.get("drawn", False)
    hand = list(st.get("hand", [])) + ([drawn] if drawn else [])
    return {
        "hand": sorted(hand),
        "hidden": st.get("hidden", 0) + (1 if drawn is None else 0),
        "melds": [{"kind": m["kind"], "tiles": m.get("tiles", [None] * 4)} for m in st["melds"]],
        "river": [list(r) for r in st["river"]],
        "flowers": st["flowers"],
    }


def check_hand(driver: Any, data: dict[str, Any], record: dict[str, Any]) -> list[Any]:
    """Step through the open hand; compare every step with ``data`` (the page's frames) and
    every action boundary with the engine replaying ``record``."""
    steps = len(data["frames"])
    drawn = driver.execute_script(COLLECT, 0, steps - 1)
    assert len(drawn) == steps
    engine = engine_states(record)
    for i, (shown, frame) in enumerate(zip(drawn, data["frames"], strict=True)):
        assert shown["step"] == i and shown["log"] == i
        assert shown["left"] == frame["left"]
        assert shown["highlighted"] > 0 or frame["hl"][0][1] == "seat", i
        assert shown["result"] == (i == steps - 1)
        for s in range(4):
            want = expected_seat(data["states"][frame["s"][s]])
            got = shown["seats"][s]
            got["melds"] = [{"kind": m["kind"], "tiles": sorted(m["tiles"], key=str)}
                            for m in got["melds"]]
            want["melds"] = [{"kind": m["kind"], "tiles": sorted(m["tiles"], key=str)}
                             for m in want["melds"]]
            assert got == want, (i, s)
        if i in engine:
            e = engine[i]
            assert shown["left"] == e["left"], i
            for s in range(4):
                got = shown["seats"][s]
                if "seed" in data:  # face up: every hand
                    assert got["hand"] == e["hands"][s], (i, s)
                assert [t for t, by in got["river"] if by < 0] == e["pools"][s], (i, s)
                assert got["flowers"] == e["flowers"][s], (i, s)
    return list(drawn)


RESULT = """
const panel = document.getElementById('result');
const attrs = (sel, names) => Array.from(panel.querySelectorAll(sel)).map(
  (e) => Object.fromEntries(names.map((n) => [n, e.getAttribute('data-' + n)]).concat(
    [['text', e.textContent]])));
const total = document.getElementById('fan-total');
return {shown: !panel.hidden && panel.offsetWidth > 0, text: panel.textContent,
        fans: attrs('tr[data-fan]', ['fan', 'en', 'points', 'count']),
        pays: attrs('#payments [data-seat]', ['seat', 'pay']),
        total: total ? total.textContent : null};
"""


def check_result(driver: Any, record: dict[str, Any]) -> None:
    """The result panel (shown at the last step) names the record's fans in Chinese and in
    English with their points, the total, and every payment."""
    from mjenv.fans import FAN_BY_ZH

    r = replay(record).result
    assert r is not None
    shown = driver.execute_script(RESULT)
    assert shown["shown"]
    assert {int(p["seat"]): int(p["pay"]) for p in shown["pays"]} == dict(enumerate(r.payments))
    assert [(f["fan"], int(f["count"])) for f in shown["fans"]] == list(r.fans)
    for f in shown["fans"]:
        fan = FAN_BY_ZH[f["fan"]]
        assert (f["en"], int(f["points"])) == (fan.en, fan.points)
        assert fan.zh in f["text"] and fan.en in f["text"]
    if r.winner is not None:
        assert shown["total"] == str(r.fan_total) and "wins" in shown["text"]
    elif r.penalized is not None:
        assert "错和" in shown["text"] and "false win" in shown["text"]
    else:
        assert "荒庄" in shown["text"] and shown["fans"] == []


KINDS = ("mcr_hand", "robbed_kong_hand", "botzone_flowers_hand", "penalised_hand",
         "concealed_kong_hand")


@pytest.mark.parametrize("kind", KINDS)
def test_every_record_kind_steps_to_the_end_as_the_engine_played_it(
        browser: Any, pages: dict[str, Any], kind: str) -> None:
    record = pages["records"][kind]
    open_page(browser, pages["folder"] / f"{kind}.html")
    data = hand_data(HandSource(replay(record), kind))
    check_hand(browser, data, record)
    check_result(browser, record)
    assert console_errors(browser) == []


def test_a_match_has_a_hand_selector(browser: Any, pages: dict[str, Any]) -> None:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    record = pages["records"]["mcr_match"]
    open_page(browser, pages["folder"] / "mcr_match.html")
    select = Select(browser.find_element("id", "hand-select"))
    assert len(select.options) == 16 and select.first_selected_option.text.endswith("1/16")
    select.select_by_index(1)
    assert state(browser)["hand"] == 1 and state(browser)["step"] == 0
    hand = record["hands"][1]
    sources = sources_of(record, "m")
    assert len(browser.find_elements("css selector", "#log li")) == len(hand["events"])
    check_hand(browser, hand_data(sources[1]), hand)
    check_result(browser, hand)
    browser.find_element("tag name", "body").send_keys(Keys.PAGE_DOWN)
    assert state(browser)["hand"] == 2
    assert console_errors(browser) == []


def test_the_keyboard_buttons_slider_and_log_drive_the_page(browser: Any,
                                                             pages: dict[str, Any]) -> None:
    from selenium.webdriver.common.keys import Keys
    from selenium.webdriver.support.ui import Select

    open_page(browser, pages["folder"] / "mcr_hand.html")
    body = browser.find_element("tag name", "body")
    last = state(browser)["steps"] - 1
    body.send_keys(Keys.END)
    assert state(browser)["step"] == last and state(browser)["over"]
    body.send_keys(Keys.HOME)
    assert state(browser)["step"] == 0
    body.send_keys(Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_RIGHT, Keys.ARROW_LEFT)
    assert state(browser)["step"] == 2
    for button, step in (("next", 3), ("prev", 2), ("last", last), ("first", 0)):
        browser.find_element("id", button).click()
        assert state(browser)["step"] == step, button
    browser.find_element("id", "slider").send_keys(Keys.ARROW_RIGHT)
    assert state(browser)["step"] == 1
    browser.find_element("css selector", '#log li[data-step="10"]').click()
    assert state(browser)["step"] == 10
    Select(browser.find_element("id", "speed")).select_by_value("20")
    body.send_keys(Keys.SPACE)
    assert state(browser)["playing"]
    time.sleep(0.5)
    body.send_keys(Keys.SPACE)
    paused = state(browser)
    assert not paused["playing"] and paused["step"] > 11
    time.sleep(0.2)
    assert state(browser)["step"] == paused["step"]
    body.send_keys(Keys.END)
    browser.find_element("css selector", "#result .close").click()
    assert not browser.find_element("id", "result").is_displayed()
    assert console_errors(browser) == []


def test_a_seat_view_draws_backs_and_reveals_only_at_the_end(browser: Any,
                                                             pages: dict[str, Any]) -> None:
    record = pages["records"]["concealed_kong_hand"]
    game = replay(record)
    declarer = next(e.seat for e in game.events if type(e).__name__ == "ConcealedKong")
    seat = (declarer + 1) % 4
    path = pages["folder"] / "seat.html"
    write_page(sources_of(record, "seat"), path, seat=seat)
    open_page(browser, path)
    data = hand_data(HandSource(game, "seat"), seat)
    drawn = check_hand(browser, data, record)
    engine = engine_states(record)
    kong_at = next(i for i, e in enumerate(game.events) if type(e).__name__ == "ConcealedKong")
    for i, shown in enumerate(drawn):
        for s, got in enumerate(shown["seats"]):
            if s == seat:
                if i in engine:
                    assert got["hand"] == engine[i]["hands"][s]
            else:
                final_win_tile = i == len(drawn) - 1 and len(got["hand"]) == 1
                assert got["hand"] == [] or final_win_tile, (i, s)
        kongs = [m for m in shown["seats"][declarer]["melds"] if m["kind"] == "concealed_kong"]
        if kong_at <= i < len(drawn) - 1:
            assert kongs and all(t is None for t in kongs[0]["tiles"]), i
    assert all(t is not None for t in kongs[0]["tiles"])  # revealed by the final event
    assert console_errors(browser) == []


def test_annotations_are_shown_at_each_decision(browser: Any, pages: dict[str, Any]) -> None:
    record = pages["records"]["annotated_hand"]
    open_page(browser, pages["folder"] / "annotated_hand.html")
    notes = browser.execute_script("return mjview.data.hands[0].notes")
    assert sum(len(v) for v in notes.values()) == len(record["annotations"])
    for frame in sorted(notes, key=int)[:12]:
        browser.execute_script("mjview.go(arguments[0])", int(frame))
        boxes = browser.find_elements("css selector", "#notes .note")
        assert [int(b.get_attribute("data-note-seat")) for b in boxes] == [2]
        note = notes[frame][0]
        bars = boxes[0].find_elements("css selector", ".bar")
        assert [(b.get_attribute("data-action"), float(b.get_attribute("data-prob")))
                for b in bars] == [tuple(t) for t in note["top"]]
        chosen = boxes[0].find_element("css selector", ".bar.chosen")
        assert chosen.get_attribute("data-action") == note["chosen"]
        assert A.string_to_action(note["chosen"]) == record["actions"][note["step"]][1]
        assert "value" in boxes[0].text
    browser.execute_script("mjview.go(0)")
    assert browser.find_elements("css selector", "#notes .note") == []
    assert console_errors(browser) == []


def test_the_index_sorts_its_rows_and_links_to_the_pages(browser: Any,
                                                          pages: dict[str, Any]) -> None:
    folder = pages["folder"]
    names = ["mcr_hand", "robbed_kong_hand", "penalised_hand", "mcr_match"]
    index = folder / "site" / "index.html"
    write_index([folder / f"{n}.json" for n in names], index)
    open_page(browser, index, hook="mjindex")
    rows = browser.find_elements("css selector", "#records tbody tr")
    assert len(rows) == len(names)

    def column(col: int) -> list[str]:
        return [r.find_elements("tag name", "td")[col].get_attribute("data-v")
                for r in browser.find_elements("css selector", "#records tbody tr")]

    header = browser.find_element("css selector", 'th[data-col="6"]')  # best fans
    header.click()
    best = [int(v) for v in column(6)]
    assert best == sorted(best, reverse=True)
    header.click()
    assert [int(v) for v in column(6)] == sorted(best)
    browser.find_element("css selector", 'th[data-col="8"]').click()  # penalties
    assert column(0)[0] == "penalised_hand.json"
    browser.find_element("css selector", 'th[data-col="0"]').click()  # by name
    assert column(0) == sorted(column(0))
    assert console_errors(browser) == []
    browser.find_element("link text", "robbed_kong_hand.json").click()
    assert browser.execute_script("return mjview.state().steps") == \
        len(pages["records"]["robbed_kong_hand"]["events"])
    browser.find_element("id", "to-index").click()
    assert browser.execute_script("return typeof window.mjindex") == "object"
    assert console_errors(browser) == []
