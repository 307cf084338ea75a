"""Without the miniwob package a peer scenario is skipped with the reason; a task the
package does not ship, or one whose code is not permissively licensed, is refused at load."""

from __future__ import annotations

import re

import pytest
from pydantic import ValidationError

from proctor.runner import _plan
from proctor.scenario import MiniwobWorld, miniwob_root


def test_a_peer_scenario_without_the_package_is_skipped_with_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from proctor.scenario import SUITE_ROOT, load_scenario

    loaded = load_scenario(SUITE_ROOT / "peer" / "miniwob-click-button-s1.yaml")
    monkeypatch.setattr(_plan, "miniwob_root", lambda: None)
    assert _plan.scenario_skip(loaded.scenario) == (
        "the miniwob package is not installed (pip install 'proctor[miniwob]', which pins "
        "miniwob==1.1.0; make test installs it)"
    )


def test_excluded_and_unknown_tasks_are_refused_at_load() -> None:
    with pytest.raises(ValidationError, match=re.escape("its bundled code (jscolor) is GPL only")):
        MiniwobWorld(task="use-colorwheel", seed=1)
    if miniwob_root() is not None:
        with pytest.raises(
            ValidationError, match="no task 'click-buton'; did you mean 'click-button'"
        ):
            MiniwobWorld(task="click-buton", seed=1)
