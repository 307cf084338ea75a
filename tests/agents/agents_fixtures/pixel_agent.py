"""A pixel agent for the MCP lane's screenshot tests; it runs as its own process.

    python pixel_agent.py solve        find the blocks by colour, act by coordinates only
    python pixel_agent.py miss         the same, but click 300 px left of the green field
    python pixel_agent.py page-scroll  the same, but scroll the page, not at the yellow pane

It sees the page only through ``screenshot``: it decodes the PNG itself (zlib, no
imaging library), finds each block by its exact colour, and clicks, types and
scrolls at the blocks' centres, turned from PNG pixels into the CSS pixels the
tool's text names. It never calls observe. It prints what it found and sent:

    VIEWPORT 1280x800 scale=1
    FOUND green 120,140,480,204
    SHOT <sha256 of each PNG it got>
    SENT tool_calls=N inputs=M screenshots=K
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import re
import struct
import sys
import zlib
from typing import Any, NamedTuple

GREEN = (0, 200, 83)
YELLOW = (255, 214, 0)
BLUE = (41, 98, 255)
NAME = "Pixel Pat"


class Image(NamedTuple):
    width: int
    height: int
    channels: int
    rows: list[bytes]

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        i = x * self.channels
        row = self.rows[y]
        return row[i], row[i + 1], row[i + 2]


def decode_png(data: bytes) -> Image:
    """An 8-bit RGB or RGBA, non-interlaced PNG's rows of pixels (what Chromium writes)."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValueError("not a PNG")
    pos, idat = 8, bytearray()
    width = height = channels = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or color not in (2, 6) or interlace:
                raise ValueError(f"unsupported PNG: depth {depth}, colour type {color}")
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    raw = zlib.decompress(bytes(idat))
    stride = width * channels
    rows: list[bytes] = []
    prior = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        filt, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        if filt == 1:  # Sub
            for i in range(channels, stride):
                line[i] = (line[i] + line[i - channels]) & 0xFF
        elif filt == 2:  # Up
            line = bytearray((a + b) & 0xFF for a, b in zip(line, prior, strict=True))
        elif filt == 3:  # Average
            for i in range(stride):
                left = line[i - channels] if i >= channels else 0
                line[i] = (line[i] + ((left + prior[i]) >> 1)) & 0xFF
        elif filt == 4:  # Paeth
            for i in range(stride):
                a = line[i - channels] if i >= channels else 0
                b = prior[i]
                c = prior[i - channels] if i >= channels else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 0xFF
        elif filt != 0:
            raise ValueError(f"bad PNG filter {filt} in row {y}")
        rows.append(bytes(line))
        prior = line
    return Image(width, height, channels, rows)


def find(image: Image, colour: tuple[int, int, int]) -> tuple[int, int, int, int] | None:
    """The bounding box (x0, y0, x1, y1; x1, y1 exclusive) of the pixels of ``colour``."""
    pattern, step = bytes(colour), image.channels
    xs: list[int] = []
    ys: list[int] = []
    for y, row in enumerate(image.rows):
        first = row.find(pattern)
        while first != -1 and first % step:  # a match must start at a pixel
            first = row.find(pattern, first + 1)
        if first == -1:
            continue
        last = row.rfind(pattern)
        while last % step:
            last = row.rfind(pattern, 0, last + len(pattern) - 1)
        xs += (first // step, last // step)
        ys.append(y)
    if not xs:
        return None
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


class Eyes:
    """Takes screenshots through the lane and says where a colour is, in CSS pixels."""

    def __init__(self, mcp: Any) -> None:
        self.mcp = mcp
        self.shots = 0
        self.scale = 1.0

    async def look(self) -> Image:
        result = await self.mcp.call_tool("screenshot", {})
        self.shots += 1
        if result.is_error:
            raise RuntimeError(f"screenshot failed: {text_of(result)}")
        images = [c for c in result.content if getattr(c, "type", "") == "image"]
        if len(images) != 1 or images[0].mime_type != "image/png":
            raise RuntimeError(f"screenshot: expected one image/png, got {result.content!r}")
        png = base64.b64decode(images[0].data)
        print(f"SHOT {hashlib.sha256(png).hexdigest()}", flush=True)
        said = text_of(result)
        m = re.search(r"the viewport, (\d+) x (\d+) CSS pixels", said)
        if m is None:
            raise RuntimeError(f"screenshot: no viewport size in {said!r}")
        width, height = int(m.group(1)), int(m.group(2))
        image = decode_png(png)
        self.scale = image.width / width
        if (image.width, image.height) != (round(width * self.scale), round(height * self.scale)):
            raise RuntimeError(f"the PNG is {image.width}x{image.height}, the viewport {m[0]}")
        print(f"VIEWPORT {width}x{height} scale={self.scale:g}", flush=True)
        return image

    def centre(self, image: Image, colour: tuple[int, int, int], name: str) -> tuple[int, int]:
        box = find(image, colour)
        if box is None:
            raise LookupError(name)
        x0, y0, x1, y1 = (round(v / self.scale) for v in box)
        print(f"FOUND {name} {x0},{y0},{x1},{y1}", flush=True)
        return (x0 + x1) // 2, (y0 + y1) // 2


def text_of(result: Any) -> str:
    return "".join(getattr(c, "text", "") for c in result.content)


async def solve(mode: str) -> int:
    from mcp import Client

    sys.stdin.read()
    calls: list[str] = []

    async def act(name: str, args: dict[str, Any]) -> None:
        calls.append(name)
        result = await mcp.call_tool(name, args)
        print(f"{name}: {text_of(result).splitlines()[0]}", flush=True)
        if result.is_error:
            raise RuntimeError(f"{name} failed: {text_of(result)}")

    async with Client(os.environ["PROCTOR_MCP_URL"]) as mcp:
        names = [t.name for t in (await mcp.list_tools()).tools]
        if "screenshot" not in names or "observe" not in names:
            print(f"no screenshot tool: {names}", file=sys.stderr)
            return 3
        eyes = Eyes(mcp)
        first = await eyes.look()
        x, y = eyes.centre(first, GREEN, "green")
        await act("click", {"x": x - 300 if mode == "miss" else x, "y": y})
        await act("type", {"text": NAME})
        px, py = eyes.centre(first, YELLOW, "yellow")
        await act("scroll", {"direction": "down", "amount": 600} | (
            {} if mode == "page-scroll" else {"x": px, "y": py}
        ))  # fmt: skip
        second = await eyes.look()
        try:
            bx, by = eyes.centre(second, BLUE, "blue")
        except LookupError:
            print("NO BLUE", flush=True)
        else:
            await act("click", {"x": bx, "y": by})
        await act("done", {})
        late = await mcp.call_tool("screenshot", {})
        print(f"LATE error={late.is_error} {text_of(late)}", flush=True)
    inputs = sum(name in ("click", "type") for name in calls)
    print(
        f"SENT tool_calls={len(calls) + eyes.shots} inputs={inputs} screenshots={eyes.shots}",
        flush=True,
    )
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(solve(sys.argv[1])))
