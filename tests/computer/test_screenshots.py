"""Screenshots: a capture that failed fast is tried again, a bounded number of times."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

import pytest
from playwright.async_api import Error as PlaywrightError

from proctor.computer import _observe


@dataclass
class FlakyPage:
    """Fails its first ``failures`` screenshots fast, then answers."""

    failures: int
    calls: int = 0
    closed: bool = False

    async def screenshot(self, timeout: float) -> bytes:
        self.calls += 1
        if self.calls <= self.failures:
            raise PlaywrightError("Protocol error: Target closed")
        return b"PNG"

    def is_closed(self) -> bool:
        return self.closed


@dataclass
class Computer:
    page: FlakyPage
    context: None = None


@pytest.fixture(autouse=True)
def no_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_observe, "SHOT_PAUSE_S", 0.0)


async def test_a_capture_that_failed_fast_is_tried_again() -> None:
    page = FlakyPage(failures=1)
    assert await _observe.screenshot_bytes(cast(Any, Computer(page))) == b"PNG"
    assert page.calls == 2


async def test_a_page_that_never_answers_is_given_up_after_the_tries() -> None:
    page = FlakyPage(failures=100)
    assert await _observe.screenshot_bytes(cast(Any, Computer(page))) is None
    assert page.calls == _observe.SHOT_TRIES


async def test_a_closed_page_is_not_tried_again() -> None:
    page = FlakyPage(failures=100, closed=True)
    assert await _observe.screenshot_bytes(cast(Any, Computer(page))) is None
    assert page.calls == 1


async def test_a_capture_that_hung_is_not_tried_again(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_observe, "FAST_FAIL_S", -1.0)  # every failure counts as slow
    page = FlakyPage(failures=100)
    assert await _observe.screenshot_bytes(cast(Any, Computer(page))) is None
    assert page.calls == 1
