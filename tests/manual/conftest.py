"""Manual-comparison tests: no CI variable reaches the library (the CLI test sets its own)."""

from __future__ import annotations

import pytest

from proctor.manual._plan import CI_VARIABLES


@pytest.fixture(autouse=True)
def _not_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in CI_VARIABLES:
        monkeypatch.delenv(name, raising=False)
