#!/usr/bin/env python3
"""Screenshots of the HTML viewer for the docs: ``docs/img/viewer-midgame.png`` (a step in the
middle of a hand) and ``docs/img/viewer-result.png`` (the end, with the result panel).

The hand is played from a seeded wall by the heuristic player of ``tests/render/records.py`` (the
one the viewer's tests use); the first seed whose hand is won with two or more melds and some
flowers is shown, every tile face up. The page is made by ``mjenv.render.html`` exactly as
``mjenv view`` makes it, opened from disk in headless Chromium (Selenium) with no network, and
captured at a fixed viewport.

Use::

    python scripts/viewer_screenshots.py                 # writes docs/img/viewer-*.png
    python scripts/viewer_screenshots.py --out /tmp/img  # elsewhere
    python scripts/viewer_screenshots.py --keep          # also keep the page (path printed)

Needs chromium, chromedriver and a CJK font (scripts/install_browser.sh) and selenium.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from mjenv.engine import events as E
from mjenv.engine.game import Game
from mjenv.engine.record import record_of
from mjenv.render.html import sources_of, write_page

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from tests.render.records import search  # noqa: E402  (the heuristic the viewer's tests use)

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars")
WIDTH, HEIGHT = 1440, 900


def showcase(seeds: range = range(400)) -> Game:
    """The first seeded hand worth showing: won, with 2+ melds of the winner, 3+ fans and
    flowers on the table."""
    def worth(game: Game) -> bool:
        r = game.result
        return (r is not None and r.winner is not None and len(game.melds[r.winner]) >= 2
                and len(r.fans) >= 3 and sum(map(len, game.flowers)) >= 2
                and len(game.events) >= 90)

    return search(lambda seed: Game(seed=seed, dealer=seed % 4, prevalent_wind=(seed // 4) % 4),
                  worth, "a showcase hand", seeds)


def midgame_step(game: Game) -> int:
    """A discard about 60% into the hand."""
    target = int(len(game.events) * 0.6)
    for i in range(target, len(game.events)):
        if isinstance(game.events[i], E.Discard):
            return i
    return target


def shrink(path: Path) -> None:
    """Store the PNG with a 256-colour palette when Pillow is there (a sixth of the size: the
    page is flat colours but for the felt's gradient; octree keeps the few bright colours)."""
    try:
        from PIL import Image
    except ImportError:
        return
    with Image.open(path) as image:
        small = image.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE,
                                              dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "img",
                        help="the folder for the PNGs")
    parser.add_argument("--keep", action="store_true", help="keep the page (path printed)")
    args = parser.parse_args(argv)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if not chromium or not driver_path:
        sys.exit("needs chromium and chromedriver: sudo scripts/install_browser.sh")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    game = showcase()
    work = Path(tempfile.mkdtemp(prefix="mjenv-viewer-"))
    page = work / "hand.html"
    write_page(sources_of(record_of(game), f"mcr hand · seed {game.wall.seed}"), page)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={work / 'profile'}")
    options.add_argument(f"--window-size={WIDTH},{HEIGHT}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1,
                                "mobile": False})
        driver.get(page.as_uri())
        args.out.mkdir(parents=True, exist_ok=True)
        shots = (("viewer-midgame.png", midgame_step(game)),
                 ("viewer-result.png", len(game.events) - 1))
        for name, step in shots:
            driver.execute_script("mjview.go(arguments[0])", step)
            driver.execute_script("return new Promise((ok) => requestAnimationFrame(() => "
                                  "requestAnimationFrame(ok)))")
            driver.save_screenshot(str(args.out / name))
            shrink(args.out / name)
            print(f"wrote {args.out / name} (step {step + 1} of {len(game.events)})")
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]
        if errors:
            sys.exit(f"the page logged errors: {errors}")
    finally:
        driver.quit()
        if args.keep:
            print(f"page: {page}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
