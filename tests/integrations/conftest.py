"""With ``MJENV_REQUIRE_INTEGRATIONS=1`` (CI, after installing the RL libraries' extras) a test
here that would skip for a missing library fails instead: a broken install must not pass as
"skipped". Without it, a library that is not installed skips its tests."""

from __future__ import annotations

import os
from collections.abc import Generator
from typing import Any

import pytest

REQUIRED = os.environ.get("MJENV_REQUIRE_INTEGRATIONS") == "1"


def _fail_skips(report: Any) -> None:
    if REQUIRED and report.skipped and not hasattr(report, "wasxfail"):
        report.outcome = "failed"
        report.longrepr = f"MJENV_REQUIRE_INTEGRATIONS=1, but skipped: {report.longrepr}"


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    outcome = yield
    _fail_skips(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None],
                              ) -> Generator[None, Any, None]:
    outcome = yield
    _fail_skips(outcome.get_result())


@pytest.fixture(autouse=True, scope="session")
def _sb3_logs_in_tmp(tmp_path_factory: pytest.TempPathFactory) -> Generator[None, None, None]:
    """Stable-Baselines3 makes a log folder in the system's temporary directory at every
    ``learn`` unless ``SB3_LOGDIR`` names one: keep the tests' in pytest's own temporary
    folders (which it prunes), not in /tmp for good. Session-wide, so that module-scoped
    fixtures that train are covered too."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SB3_LOGDIR", str(tmp_path_factory.mktemp("sb3-logs")))
        yield
