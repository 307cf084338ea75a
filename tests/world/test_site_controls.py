"""A site that declares its page controls declares every one its templates hold.

A model arm in a world whose sites all declare is offered only the browser tools
those controls need (``proctor.agents.llm``), so a control a declaration forgot
would hide a tool the task needs. The templates are the pages: this reads every
template folder the site's module renders from, and the shared ones.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import proctor.world.sites as sites_pkg
from proctor.vocab import PAGE_CONTROLS, PageControl
from proctor.world import all_sites

SITES = Path(sites_pkg.__file__).parent
TEMPLATES = SITES / "templates"

SEEN: dict[PageControl, str] = {
    "select": r"<select\b",
    "checkbox": r"type=[\"']?(?:checkbox|radio)",
    "new_tab": r"target=[\"']?_blank|window\.open",
    "file_input": r"type=[\"']?file",
    "pointer": r"draggable|pointerdown|mousedown|dragstart|mouseover|mouseenter",
    "scroller": (
        r"IntersectionObserver|onscroll|[\"']scroll[\"']|overflow(?:-[xy])?:\s*(?:auto|scroll)"
    ),
    "delayed": r"setTimeout|setInterval|requestAnimationFrame|http-equiv=[\"']?refresh",
}
"""How a template shows each control; kept_sign_in is a site's behaviour, not markup."""

DECLARED = sorted(name for name, site in all_sites().items() if site.controls is not None)


def _sources(name: str) -> str:
    module = SITES / f"{name}.py"
    files = [module] if module.exists() else sorted((SITES / name).glob("*.py"))
    return "".join(f.read_text() for f in files)


def controls_seen(name: str) -> set[PageControl]:
    """The controls the templates of site ``name`` hold."""
    source = _sources(name)
    assert not re.search(r"render\(\s*[a-z_]", source), (
        f"site {name} renders a template named at run time: its templates cannot be read "
        "here, so it must not declare controls"
    )
    folders = set(re.findall(r"\"([a-z0-9_]+)/[a-z0-9_]+\.html\"", source)) | {"_shared"}
    seen: set[PageControl] = set()
    for folder in folders:
        for page in (TEMPLATES / folder).rglob("*.html"):
            text = page.read_text()
            seen |= {control for control, pattern in SEEN.items() if re.search(pattern, text)}
    return seen


def test_every_control_but_a_behaviour_is_read_from_markup() -> None:
    assert set(SEEN) | {"kept_sign_in"} == set(PAGE_CONTROLS)


@pytest.mark.parametrize("name", DECLARED)
def test_a_declaration_names_every_control_its_pages_hold(name: str) -> None:
    declared = all_sites()[name].controls
    assert declared is not None
    missing = controls_seen(name) - declared
    assert not missing, f"site {name}'s templates hold {sorted(missing)}; declare them"


def test_the_model_tiers_sites_declare_theirs() -> None:
    assert {"search", "headers", "gate"} <= set(DECLARED)
    assert controls_seen("headers") == {"new_tab"}
    assert controls_seen("gate") == {"checkbox"}
    assert controls_seen("search") == set()
