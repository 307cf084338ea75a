"""Real apps on the real desktop session: galculator and mousepad through AT-SPI."""

from __future__ import annotations

import os
import struct
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from proctor.computer.desktop import (
    ActionFailed,
    App,
    DesktopSession,
    NodeNotFound,
    Outline,
    WindowUnavailable,
    _proc,
    activate,
    key,
    press,
    read,
    screenshot,
    set_value,
    type_text,
)

pytestmark = pytest.mark.desktop


def launch(session: DesktopSession, argv: list[str], scratch: Path, **kw: object) -> App:
    app = App(session, argv, scratch, **kw)  # type: ignore[arg-type]
    app.launch()
    return app


@pytest.fixture
def calc(session: DesktopSession, tmp_path: Path) -> Iterator[App]:
    app = launch(session, ["galculator"], tmp_path / "calc")
    yield app
    app.close()


@pytest.fixture
def editor(session: DesktopSession, tmp_path: Path) -> Iterator[App]:
    app = launch(session, ["mousepad"], tmp_path / "editor")
    yield app
    app.close()


def display_of(outline: Outline) -> str:
    """galculator's display: the one text node of its window."""
    texts = [n for n in outline.nodes if n.role == "text"]
    assert len(texts) == 1, outline.text
    return read(texts[0])


def zombie_children() -> list[int]:
    me = os.getpid()
    found = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                stat = Path(entry.path, "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if stat[0] == "Z" and int(stat[1]) == me:
                found.append(int(entry.name))
    return found


def compute_15_and_quit(app: App) -> None:
    outline = app.observe()
    for name in ("1", "2", "+", "3", "="):
        press(outline.find("toggle button", name))
    assert display_of(app.observe()) == "15"
    # File > Quit (hidden while its menu is closed): galculator saves its state on quit.
    quit_item = _raw_find(app.active_window().acc, "menu item", "Quit")
    assert quit_item is not None
    assert session_atspi().Action.do_action(quit_item, 0)
    deadline = time.monotonic() + 5
    while app.alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not app.alive()
    app.close()


def session_atspi() -> Any:
    from proctor.computer.desktop import _atspi

    return _atspi.gi_module()


def _raw_find(acc: Any, role: str, name: str, depth: int = 0) -> Any:
    if acc.get_role_name() == role and acc.get_name() == name:
        return acc
    if depth < 14:
        for i in range(acc.get_child_count()):
            hit = _raw_find(acc.get_child_at_index(i), role, name, depth + 1)
            if hit is not None:
                return hit
    return None


def test_galculator_adds_by_buttons_and_starts_fresh(
    session: DesktopSession, tmp_path: Path
) -> None:
    app = launch(session, ["galculator"], tmp_path / "first")
    try:
        outline = app.observe()
        assert outline.title == "galculator"
        buttons = {n.name for n in outline.nodes if n.role == "toggle button"}
        assert {"1", "2", "3", "+", "="} <= buttons, outline.text
        assert 'toggle button "1" [ref=' in outline.text
        assert display_of(outline) == "0"
        compute_15_and_quit(app)
    finally:
        app.close()
    conf = app.home.parent / "config" / "galculator" / "galculator.conf"
    assert conf.is_file(), "galculator kept its configuration outside XDG_CONFIG_HOME"
    # The leak this guards against: with its old config, galculator restores its display.
    conf.write_text(conf.read_text().replace("remembers_display=false", "remembers_display=true"))
    env = {"XDG_CONFIG_HOME": str(conf.parent.parent)}
    # The jail shows an app only its own folder: this one is given the first one's too.
    restored = launch(session, ["galculator"], tmp_path / "restored", env=env, writable=tmp_path)
    try:
        assert display_of(restored.observe()) == "15"
    finally:
        restored.close()
    # A fresh HOME and XDG folders: nothing comes back.
    fresh = launch(session, ["galculator"], tmp_path / "fresh")
    try:
        assert display_of(fresh.observe()) == "0"
        assert fresh.home != app.home
    finally:
        fresh.close()


def test_find_reports_candidates(calc: App) -> None:
    outline = calc.observe()
    assert outline.find("Toggle Button", "ac").name == "AC"  # case-insensitive fallback
    with pytest.raises(NodeNotFound) as caught:
        outline.find("push button", "1")
    assert 'toggle button "1"' in str(caught.value)
    with pytest.raises(NodeNotFound, match="no node has ref 'd9999'"):
        outline.by_ref("d9999")
    ref = outline.find("toggle button", "7").ref
    assert outline.by_ref(ref).name == "7"
    with pytest.raises(ActionFailed, match="neither editable text nor a value"):
        set_value(outline.find("toggle button", "7"), "3")
    with pytest.raises(ActionFailed, match=r"menu bar \(ref d\d+\) cannot be pressed"):
        press(next(n for n in outline.nodes if n.role == "menu bar"))


def test_mousepad_text_by_value_typing_and_keys(session: DesktopSession, editor: App) -> None:
    outline = editor.observe()
    area = outline.find("text", "")
    assert "editable" in area.states
    set_value(area, "set by value\n")
    assert read(area) == "set by value\n"
    activate(session, editor.active_window())
    key(session, "ctrl+End")
    type_text(session, "typed ünï €")
    deadline = time.monotonic() + 5
    while read(area) != "set by value\ntyped ünï €" and time.monotonic() < deadline:
        time.sleep(0.02)
    assert read(area) == "set by value\ntyped ünï €"
    key(session, "ctrl+a")
    type_text(session, "replaced")
    deadline = time.monotonic() + 5
    while read(area) != "replaced" and time.monotonic() < deadline:
        time.sleep(0.02)
    assert read(area) == "replaced"
    seen = editor.observe()
    assert seen.focused is not None and seen.focused.startswith("- text")
    assert '[value="replaced"]' in seen.text
    with pytest.raises(ActionFailed, match="not a key combination"):
        key(session, "ctrl++")


def test_activate_moves_the_keyboard_between_apps(
    session: DesktopSession, calc: App, editor: App
) -> None:
    area = editor.observe().find("text", "")
    activate(session, calc.active_window())
    assert calc.active_window().active
    key(session, "7")  # galculator takes digits from the keyboard
    deadline = time.monotonic() + 5
    while display_of(calc.observe()) != "7" and time.monotonic() < deadline:
        time.sleep(0.02)
    assert display_of(calc.observe()) == "7"
    assert read(area) == ""
    activate(session, editor.active_window())
    type_text(session, "x")
    deadline = time.monotonic() + 5
    while read(area) != "x" and time.monotonic() < deadline:
        time.sleep(0.02)
    assert read(area) == "x"
    assert display_of(calc.observe()) == "7"


def test_titlebar_controls_are_left_out(session: DesktopSession, tmp_path: Path) -> None:
    # GTK draws its own titlebar with close/minimize/maximize when asked (GTK_CSD=1).
    app = launch(session, ["mousepad"], tmp_path / "csd", env={"GTK_CSD": "1"})
    try:
        window = app.active_window()
        raw = _all_names(window.acc)
        assert {"Close", "Minimize", "Maximize"} <= raw  # they are in the tree...
        outline = app.observe()
        for name in ("Close", "Minimize", "Maximize"):  # ...but not in the outline
            assert f'push button "{name}"' not in outline.text
        assert 'menu "File"' in outline.text
    finally:
        app.close()


def _all_names(acc: object, depth: int = 0) -> set[str]:
    names = {acc.get_name()}  # type: ignore[attr-defined]
    if depth < 6:
        for i in range(acc.get_child_count()):  # type: ignore[attr-defined]
            names |= _all_names(acc.get_child_at_index(i), depth + 1)  # type: ignore[attr-defined]
    return names


def test_screenshot_is_a_png_of_the_screen(session: DesktopSession, calc: App) -> None:
    png = screenshot(session.display)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    length, kind = struct.unpack(">I4s", png[8:16])
    assert (length, kind) == (13, b"IHDR")
    width, height, bits, color = struct.unpack(">IIBB", png[16:26])
    assert (width, height, bits, color) == (1280, 800, 8, 2)
    assert zlib.crc32(png[12:29]) == struct.unpack(">I", png[29:33])[0]
    # Something is drawn: the calculator is not a blank screen.
    assert len(set(png[40:4000])) > 8


def test_a_killed_app_is_dead_and_the_session_serves_the_next(
    session: DesktopSession, tmp_path: Path
) -> None:
    app = launch(session, ["galculator"], tmp_path / "crash")
    mark = app.mark
    app.kill()
    assert not app.alive()
    assert _proc.marked(mark, _proc.APP_MARK_ENV) == []
    assert app.windows() == []
    assert zombie_children() == []
    again = launch(session, ["galculator"], tmp_path / "after")
    try:
        assert display_of(again.observe()) == "0"
    finally:
        again.close()
    assert not again.alive()
    assert zombie_children() == []


def test_an_app_without_a_window_is_relaunched_once_then_unavailable(
    session: DesktopSession, tmp_path: Path
) -> None:
    app = App(session, ["sleep", "30"], tmp_path / "nowindow", window_timeout=1.0)
    before = set(zombie_children())  # another test's, on this worker: not this app's
    began = time.monotonic()
    with pytest.raises(WindowUnavailable, match="window_unavailable") as caught:
        app.launch()
    took = time.monotonic() - began
    assert caught.value.cause == "window_unavailable"
    assert len(app.pids) == 2 and app.pids[0] != app.pids[1]
    assert took >= 2.0  # each launch waited out its window timeout (no upper bound: load)
    for pid in app.pids:
        assert not Path(f"/proc/{pid}").exists()
    assert set(zombie_children()) - before == set()
    assert len(list((tmp_path / "nowindow" / ".desktop").iterdir())) == 2
