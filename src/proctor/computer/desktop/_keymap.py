"""Give characters outside the X keymap keys of their own, for good, before they are typed.

``xdotool type`` types such a character by binding it to a spare keycode,
sending the key and unbinding it at once; a toolkit that reads the keymap after
the unbinding sees another key (under load, GTK drops or garbles ``ü``). So the
session binds each such character to a spare keycode once and leaves it bound:
xdotool then finds it in the keymap and sends a plain key press.
"""

from __future__ import annotations

import ctypes
import functools
import threading
from typing import Any

from proctor.computer.desktop._errors import ActionFailed
from proctor.computer.desktop._screen import xlib

_lock = threading.Lock()
_bound: dict[str, set[int]] = {}


def keysym_of(char: str) -> int:
    """The X keysym of one character (Latin-1 maps to itself, the rest to 0x01000000 + code)."""
    code = ord(char)
    return code if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF else 0x01000000 + code


@functools.cache
def _setup() -> Any:
    lib = xlib()
    lib.XDisplayKeycodes.argtypes = [
        ctypes.c_void_p,
        ctypes.POINTER(ctypes.c_int),
        ctypes.POINTER(ctypes.c_int),
    ]
    lib.XGetKeyboardMapping.restype = ctypes.POINTER(ctypes.c_ulong)
    lib.XGetKeyboardMapping.argtypes = [
        ctypes.c_void_p,
        ctypes.c_ubyte,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_int),
    ]
    lib.XChangeKeyboardMapping.argtypes = [
        ctypes.c_void_p,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_ulong),
        ctypes.c_int,
    ]
    lib.XSync.argtypes = [ctypes.c_void_p, ctypes.c_int]
    return lib


def ensure_keys(display: str, text: str) -> None:
    """Bind every character of ``text`` missing from ``display``'s keymap to a spare keycode.

    Raises:
        ActionFailed: the display cannot be opened, or it has no spare keycode left.
    """
    wanted = {keysym_of(c) for c in text if not c.isascii()}
    with _lock:
        done = _bound.setdefault(display, set())
        wanted -= done
        if not wanted:
            return
        lib = _setup()
        dpy = lib.XOpenDisplay(display.encode())
        if not dpy:
            raise ActionFailed(f"cannot open the X display {display} to map keys")
        try:
            low, high = ctypes.c_int(), ctypes.c_int()
            lib.XDisplayKeycodes(dpy, ctypes.byref(low), ctypes.byref(high))
            per = ctypes.c_int()
            count = high.value - low.value + 1
            table = lib.XGetKeyboardMapping(dpy, low.value, count, ctypes.byref(per))
            width = per.value
            present: set[int] = set()
            spare: list[int] = []
            for i in range(count):
                syms = [table[i * width + j] for j in range(width)]
                present.update(s for s in syms if s)
                if not any(syms):
                    spare.append(low.value + i)
            lib.XFree(table)
            missing = sorted(wanted - present)
            if len(missing) > len(spare):
                raise ActionFailed(
                    f"the keyboard of {display} has no spare keys left for "
                    f"{len(missing)} more characters; type fewer distinct non-ASCII characters"
                )
            for keysym, keycode in zip(missing, spare, strict=False):
                pair = (ctypes.c_ulong * 2)(keysym, keysym)
                lib.XChangeKeyboardMapping(dpy, keycode, 2, pair, 1)
            lib.XSync(dpy, 0)
            done |= wanted
        finally:
            lib.XCloseDisplay(dpy)
