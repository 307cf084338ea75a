"""docs/world.md is made from the sites' own docstrings and declarations, and kept current."""

from __future__ import annotations

from pathlib import Path

from proctor.world import all_sites
from proctor.world.reference import reference, section

DOC = Path(__file__).resolve().parents[2] / "docs" / "world.md"
FIX = "run: .venv/bin/python -m proctor.world.reference > docs/world.md"


def test_every_site_has_a_documented_section() -> None:
    page = reference()
    for name, site in all_sites().items():
        text = section(site)
        assert f"## {name}\n" in page, name
        assert "(no module docstring)" not in text, f"site {name}: its module has no docstring"
        assert f"{name}.proctor.test" in text, name


def test_app_sections_list_their_seed_and_snapshot_fields() -> None:
    mail = section(all_sites()["mail"])
    assert "**Seed** (`world.apps.mail`, MailSeed):" in mail
    assert "- `messages` (list[MessageSeed])" in mail
    assert "**Snapshot** (what its checks read, MailSnapshot):" in mail
    assert "0x" not in reference()  # no object addresses: the page is the same every time


def test_docs_world_md_is_current() -> None:
    assert DOC.exists(), f"docs/world.md is missing; {FIX}"
    assert DOC.read_text() == reference(), f"docs/world.md is out of date; {FIX}"
