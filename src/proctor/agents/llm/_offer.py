"""Which tools a model is offered: those its surface and its scenario's world need.

Every tool schema is a cost paid on every request (on a local model, the cold
first decision), so a scenario is offered what its world can use and no more,
decided from the scenario alone, never from its oracle:

- the surface's actions (a browser task never sees the desktop's verbs);
- on a browser, the ``CORE`` tools, plus those the page controls of its sites need
  (``Site.controls``); a world with a site that has not declared its controls, a
  live site or a MiniWoB task is offered every browser tool;
- ``upload`` where there are files to upload (seeded in the scratch folder, or a
  site with a file input, where a download may be attached);
- ``ask_user`` where the user has something to say (answers, vault items, a
  persona, messages or a timeline), ``request_approval`` where the user has
  approval rules, ``schedule`` where the scenario has a timeline.

``tests/agents/llm/test_offer.py`` holds every shipped scenario's oracle to it: no
tool a solution uses is ever hidden. A call to an action not offered but valid on
the surface still runs; only what the prompt lists changes.
"""

from __future__ import annotations

from collections.abc import Mapping

from proctor.computer.actions import ops_on
from proctor.scenario import Scenario
from proctor.vocab import PageControl
from proctor.world import Site, all_sites

CORE = ("navigate", "back", "click", "fill", "press", "type", "extract", "done")
"""The browser tools every browser task is offered: an agent that reads the whole page's
aria snapshot needs no scrolling or waiting where no content hides or comes late."""

CONTROL_TOOLS: dict[PageControl, tuple[str, ...]] = {
    "select": ("select",),
    "checkbox": ("check",),
    "new_tab": ("tabs",),
    "file_input": ("upload",),
    "pointer": ("drag", "hover"),
    "scroller": ("scroll",),
    "delayed": ("wait",),
    "kept_sign_in": ("restart",),
}
"""The tools a page control needs."""

USER_TOOLS = frozenset({"ask_user", "request_approval", "schedule"})


def offered_tools(scenario: Scenario, sites: Mapping[str, Site] | None = None) -> frozenset[str]:
    """The action tools ``scenario``'s world needs, on its surface (``sites``: by name, the
    fixture sites; all of them by default)."""
    world = scenario.world
    if world.desktop is not None:
        on_surface = set(ops_on("desktop"))
        page = on_surface - USER_TOOLS
    else:
        on_surface = set(ops_on("browser"))
        page = _browser_tools(scenario, all_sites() if sites is None else sites)
        if world.files or world.dirs:
            page.add("upload")
    user = scenario.user
    if user.answers or user.vault or user.persona or user.messages or scenario.play:
        page.add("ask_user")
    if user.approvals:
        page.add("request_approval")
    if scenario.play:
        page.add("schedule")
    return frozenset(page & on_surface)


def _browser_tools(scenario: Scenario, sites: Mapping[str, Site]) -> set[str]:
    world = scenario.world
    everything = set(ops_on("browser")) - USER_TOOLS
    if world.live is not None or world.miniwob is not None:
        return everything
    tools = set(CORE)
    for name in world.sites:
        site = sites.get(name)
        if site is None or site.controls is None:
            return everything
        for control in site.controls:
            tools.update(CONTROL_TOOLS[control])
    return tools
