"""validate sees what only showed at run time: names the checks use that the world lacks."""

from __future__ import annotations

from pathlib import Path

from proctor.scenario import problems_in
from proctor.world import all_sites

BASE = """\
id: refs
title: Check names against the world
tier: local
category: regression
brief: Open {site.forms}/contact.
world:
  sites: [forms, sheets]
  apps:
    sheets:
      workbooks: [{id: ledger, title: Ledger, sheets: [{name: Invoices, rows: [[a]]}]}]
checks:
  - requested: {path: /contact}
  - CHECK
solution:
  - {op: navigate, url: "{site.forms}/contact"}
  - {op: done}
decoys:
  - {name: does-nothing, steps: [{op: done}], fails: [requested]}
"""


def problems(tmp_path: Path, check: str) -> list[str]:
    path = tmp_path / "refs.yaml"
    path.write_text(BASE.replace("CHECK", check), encoding="utf-8")
    return [f"{p.field}: {p.message}" + (f" ({p.hint})" if p.hint else "")
            for p in problems_in(path, set(all_sites()))]  # fmt: skip


def test_names_the_world_holds_are_valid(tmp_path: Path) -> None:
    assert problems(tmp_path, "sheet_cells: {workbook: ledger, sheet: Invoices, rows: [[a]]}") == []
    assert problems(tmp_path, "submitted: {route: contact, host: '{site.forms}'}") == []


def test_a_check_reading_a_site_the_world_does_not_list(tmp_path: Path) -> None:
    assert problems(tmp_path, "mail_sent: {to: a@b.test}") == [
        "checks[1].mail_sent: the check reads the site 'mail', which world.sites does not "
        "list (add mail to world.sites)"
    ]
    assert problems(tmp_path, "not_submitted: {route: pay, host: shop.proctor.test}") == [
        "checks[1].not_submitted.host: host 'shop.proctor.test' reads the site 'shop', which "
        "world.sites does not list (add shop to world.sites)"
    ]
    assert problems(tmp_path, "site_state: {site: bookng, items: rooms}") == [
        "checks[1].site_state.site: site 'bookng' names the unknown site 'bookng' "
        "(did you mean 'booking'?)"
    ]


def test_seeded_names_and_paths_are_checked(tmp_path: Path) -> None:
    assert problems(tmp_path, "sheet_cells: {workbook: ledgr, rows: [[a]]}") == [
        "checks[1].sheet_cells.workbook: workbook 'ledgr' is not in world.apps.sheets "
        "(seeded: ledger) (the sheets app makes no new workbooks: seed it, or name a "
        "seeded one)"
    ]
    assert problems(tmp_path, "sheet_cells: {workbook: ledger, sheet: Invoice, rows: [[a]]}") == [
        "checks[1].sheet_cells.sheet: workbook 'ledger' has no sheet 'Invoice' (its sheets: "
        "Invoices)"
    ]
    found = problems(tmp_path, "file_sha256: {path: a.pdf, sha256_from: sheets.workbook.x}")
    assert found == [
        "checks[1].file_sha256.sha256_from: path 'sheets.workbook.x': the sheets snapshot has "
        "no field 'workbook' (did you mean 'workbooks'? its fields: workbooks, edits)"
    ]


def test_nested_checks_and_desktop_apps(tmp_path: Path) -> None:
    found = problems(tmp_path, "any: [{chat_posted: {channel: ops}}, {requested: {path: /x}}]")
    assert found == [
        "checks[1].any[0].chat_posted: the check reads the site 'chat', which world.sites does "
        "not list (add chat to world.sites)"
    ]
    assert problems(tmp_path, "desktop_alive: {app: calc}") == [
        "checks[1].desktop_alive.app: app 'calc': this scenario launches no desktop app "
        "(add world.desktop.apps, or drop the desktop check)"
    ]
