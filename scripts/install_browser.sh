#!/usr/bin/env bash
# The headless browser of the viewer's tests (tests/render/test_html_viewer.py): Chromium and
# its WebDriver from the Debian packages, and a CJK font so that the tiles' characters (萬 東
# 中 ...) render in screenshots (scripts/viewer_screenshots.py). Selenium itself comes with the
# project's `dev` extra. Without these the browser tests are skipped, saying what is missing.
#
#   sudo scripts/install_browser.sh      (CI: as root, before `make test`)
#
# Debian (bookworm or later), about 300 MB with the recommended packages. The tests run the
# browser headless with no network and a fresh profile; nothing here is needed to use mjenv.
set -euo pipefail

if [ "$(id -u)" -ne 0 ]; then
    echo "install_browser.sh: run as root (sudo $0)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q chromium chromium-driver fonts-wqy-microhei
chromium --version
chromedriver --version
