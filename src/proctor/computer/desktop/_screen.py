"""A PNG of the Xvfb screen, read with Xlib's ``XGetImage`` through ctypes.

No toolkit in this process: GDK would open a display connection that exits the
process when Xvfb goes away. One short-lived connection per screenshot, and a
PNG written with ``zlib``. Needs only ``libX11`` (which Xvfb's stack brings).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
import struct
import zlib
from typing import Any

from proctor.computer.desktop._errors import DesktopFault

_ALL_PLANES = ctypes.c_ulong(-1 & 0xFFFFFFFFFFFFFFFF)
_Z_PIXMAP = 2


class _XImage(ctypes.Structure):
    # The leading fields of Xlib's XImage, as far as the pixels need.
    _fields_ = [
        ("width", ctypes.c_int),
        ("height", ctypes.c_int),
        ("xoffset", ctypes.c_int),
        ("format", ctypes.c_int),
        ("data", ctypes.POINTER(ctypes.c_char)),
        ("byte_order", ctypes.c_int),
        ("bitmap_unit", ctypes.c_int),
        ("bitmap_bit_order", ctypes.c_int),
        ("bitmap_pad", ctypes.c_int),
        ("depth", ctypes.c_int),
        ("bytes_per_line", ctypes.c_int),
        ("bits_per_pixel", ctypes.c_int),
        ("red_mask", ctypes.c_ulong),
        ("green_mask", ctypes.c_ulong),
        ("blue_mask", ctypes.c_ulong),
    ]


@functools.cache
def xlib() -> Any:
    """libX11 through ctypes, its functions typed (shared with ``_keymap``)."""
    name = ctypes.util.find_library("X11") or "libX11.so.6"
    try:
        lib = ctypes.CDLL(name)
    except OSError as exc:
        raise DesktopFault(f"screenshots need libX11 ({exc}); apt-get install libx11-6") from exc
    lib.XOpenDisplay.restype = ctypes.c_void_p
    lib.XOpenDisplay.argtypes = [ctypes.c_char_p]
    lib.XDefaultRootWindow.restype = ctypes.c_ulong
    lib.XDefaultRootWindow.argtypes = [ctypes.c_void_p]
    lib.XDefaultScreen.argtypes = [ctypes.c_void_p]
    lib.XDisplayWidth.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.XDisplayHeight.argtypes = [ctypes.c_void_p, ctypes.c_int]
    lib.XGetImage.restype = ctypes.POINTER(_XImage)
    lib.XGetImage.argtypes = [
        ctypes.c_void_p,
        ctypes.c_ulong,
        ctypes.c_int,
        ctypes.c_int,
        ctypes.c_uint,
        ctypes.c_uint,
        ctypes.c_ulong,
        ctypes.c_int,
    ]
    lib.XDestroyImage.argtypes = [ctypes.POINTER(_XImage)]
    lib.XCloseDisplay.argtypes = [ctypes.c_void_p]
    lib.XFree.argtypes = [ctypes.c_void_p]
    return lib


def screenshot(display: str) -> bytes:
    """The whole screen of X ``display`` (e.g. ``":3"``) as PNG bytes.

    Raises:
        DesktopFault: the display cannot be opened or read.
    """
    lib = xlib()
    dpy = lib.XOpenDisplay(display.encode())
    if not dpy:
        raise DesktopFault(f"cannot open the X display {display} for a screenshot")
    try:
        screen = lib.XDefaultScreen(dpy)
        width, height = lib.XDisplayWidth(dpy, screen), lib.XDisplayHeight(dpy, screen)
        image = lib.XGetImage(
            dpy, lib.XDefaultRootWindow(dpy), 0, 0, width, height, _ALL_PLANES, _Z_PIXMAP
        )
        if not image:
            raise DesktopFault(f"XGetImage of the display {display} failed")
        try:
            img = image.contents
            if img.bits_per_pixel != 32 or img.red_mask != 0xFF0000 or img.blue_mask != 0xFF:
                raise DesktopFault(
                    f"the display {display} has a pixel format screenshots do not read "
                    f"({img.bits_per_pixel} bpp, red mask {img.red_mask:#x}); use depth 24"
                )
            raw = ctypes.string_at(img.data, img.bytes_per_line * height)
            stride = img.bytes_per_line
        finally:
            lib.XDestroyImage(image)
    finally:
        lib.XCloseDisplay(dpy)
    return encode_png(raw, width, height, stride)


def encode_png(bgrx: bytes, width: int, height: int, stride: int) -> bytes:
    """An RGB PNG of little-endian BGRX rows (``stride`` bytes apart)."""
    rows = []
    for y in range(height):
        row = bgrx[y * stride : y * stride + width * 4]
        rgb = bytearray(width * 3)
        rgb[0::3] = row[2::4]
        rgb[1::3] = row[1::4]
        rgb[2::3] = row[0::4]
        rows.append(b"\x00" + bytes(rgb))
    data = zlib.compress(b"".join(rows), 3)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return (
            struct.pack(">I", len(body))
            + kind
            + body
            + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", data) + chunk(b"IEND", b"")
    )
