"""proctor doctor checks for real, and --fix runs only a fix that addresses the failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_support import Proctor

SCENARIOS: list[dict[str, object]] = []

pytestmark = pytest.mark.browser


def test_doctor_loads_a_fixture_page_in_the_real_browser(results: Path, proctor: Proctor) -> None:
    done = proctor("doctor", "--results", results, timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok   chromium: " in done.stdout
    assert "ok   browser: Playwright loaded a fixture page; its aria snapshot has" in done.stdout
    assert "ok   desktop: Xvfb, D-Bus and AT-SPI up; galculator's tree has" in done.stdout


def test_a_missing_desktop_piece_is_named_with_the_package_that_mends_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import proctor.computer.desktop as desktop
    from proctor.cli.doctor import _desktop

    monkeypatch.setattr(
        desktop, "missing_stack", lambda: ["Xvfb", "xdotool", "PyGObject with the Atspi typelib"]
    )
    found = _desktop()
    assert (found.ok, found.detail) == (
        False,
        "missing: Xvfb, xdotool, PyGObject with the Atspi typelib",
    )
    assert found.fix is not None and found.fix.startswith("apt-get install -y xdotool xvfb && ")
    assert "pip install 'PyGObject<3.50'" in found.fix


@pytest.mark.parametrize("binary", ["/bin/true"])
def test_a_chromium_that_is_not_one_fails_and_fix_does_not_reach_for_apt(
    results: Path, proctor: Proctor, binary: str
) -> None:
    done = proctor(
        "doctor", "--fix", "--results", results, env={"PROCTOR_CHROMIUM": binary}, timeout=180
    )
    out = " ".join(done.stdout.split())
    assert done.returncode == 1, out
    assert f"FAIL chromium: {binary} " in out
    assert f"do: PROCTOR_CHROMIUM={binary}: point it at a Chromium binary" in out
    assert "FAIL browser:" in out
    assert "running:" not in out  # apt-get cannot mend a wrong PROCTOR_CHROMIUM
