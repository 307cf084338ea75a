"""report.html embeds small thumbnails and links the full screenshots, so 50 attempts stay
under 2 MB: once the full PNGs were embedded, ~180 KB an attempt (9.1 MB for 50)."""

from __future__ import annotations

import base64
import io
import os
import random
import re
from pathlib import Path
from urllib.parse import unquote

import pytest
from PIL import Image, ImageDraw
from report_records import failing_check, make, write_run

from proctor.records import AttemptRecord
from proctor.report import summarize, write_reports
from proctor.report._shots import THUMB_WIDTH, thumbnail

ATTEMPTS = 50
PER_ATTEMPT = 30_000
"""The most embedded image data (data URI characters) one attempt may add to the page."""
REPORT_MAX = 2_000_000


def _screenshot(seed: int) -> bytes:
    """A 1280x720 page-like PNG with noise all over it (it compresses badly, as photos do)."""
    rnd = random.Random(seed)
    page = Image.new("RGB", (1280, 720), (246, 247, 249))
    draw = ImageDraw.Draw(page)
    for _ in range(60):
        x, y = rnd.randrange(1200), rnd.randrange(700)
        box = [x, y, x + rnd.randrange(20, 400), y + rnd.randrange(8, 60)]
        draw.rectangle(box, fill=(rnd.randrange(256), rnd.randrange(256), rnd.randrange(256)))
    for n in range(200):
        draw.text((rnd.randrange(1200), rnd.randrange(700)), f"Order #{n} total", fill=(20, 20, 20))
    noisy = Image.blend(page, Image.effect_noise((1280, 720), 60).convert("RGB"), 0.1)
    out = io.BytesIO()
    noisy.save(out, "PNG")
    return out.getvalue()


@pytest.fixture(scope="module")
def pngs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """before.png and after.png, made once; every attempt's folder links to them."""
    folder = tmp_path_factory.mktemp("shots")
    made = {}
    for seed, name in enumerate(("before", "after")):
        made[name] = folder / f"{name}.png"
        made[name].write_bytes(_screenshot(seed))
    return made


def _records() -> list[AttemptRecord]:
    records = []
    for n in range(ATTEMPTS):
        sid, arm = f"scenario-{n // 2:02d}", ("oracle", "agent")[n % 2]
        failed = arm == "agent" and n % 4 == 1
        records.append(
            make(sid, arm, 1, "failed" if failed else "passed",
                 checks=[failing_check()] if failed else [],
                 failed_checks=["submitted"] if failed else [])
        )  # fmt: skip
    return records


def test_a_50_attempt_report_embeds_thumbnails_and_links_the_full_pngs(
    tmp_path: Path, pngs: dict[str, Path]
) -> None:
    run_dir = tmp_path / "results" / "r1"
    records = _records()
    write_run(run_dir, records)
    for record in records:
        for name, source in pngs.items():
            os.link(source, run_dir / "attempts" / record.id / f"{name}.png")
    assert pngs["after"].stat().st_size > 500_000  # full size, as a real run's may be

    html = write_reports(run_dir, summarize("r1", records, 0.0, 1.0), records).html.read_text()
    assert len(html.encode()) < REPORT_MAX
    assert "data:image/png" not in html  # no full PNG is embedded
    blocks = html.split('<details class="attempt"')[1:]
    assert len(blocks) == ATTEMPTS
    for record, block in zip(records, blocks, strict=True):
        uris = re.findall(r'src="(data:image/[a-z]+;base64,[^"]+)"', block)
        assert len(uris) == 2, record.id
        assert sum(len(u) for u in uris) <= PER_ATTEMPT, record.id
        thumb = Image.open(io.BytesIO(base64.b64decode(uris[1].split(",", 1)[1])))
        assert thumb.width <= THUMB_WIDTH
        links = sorted(set(re.findall(r'<a (?:class="full" )?href="([^"]+\.png)"', block)))
        assert links == [f"attempts/{record.id}/after.png", f"attempts/{record.id}/before.png"]
        for link in links:  # relative to report.html's folder, and there
            assert not link.startswith("/") and (run_dir / unquote(link)).is_file()


def test_a_thumbnail_keeps_its_bound_whatever_the_image() -> None:
    noise = Image.effect_noise((1920, 1080), 128).convert("RGB")
    out = io.BytesIO()
    noise.save(out, "PNG")
    thumb = thumbnail(out.getvalue())
    assert thumb is not None and len(thumb) <= 10_000
    assert thumbnail(b"not a png") is None
