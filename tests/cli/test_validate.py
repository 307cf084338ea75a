"""proctor validate: exit 1 naming file and field for bad files, exit 0 on the shipped suite."""

from __future__ import annotations

from pathlib import Path

from cli_support import Invoke

GOOD = """\
id: good
title: Open the contact page
tier: local
category: regression
brief: Open {site.forms}/contact.
world: {sites: [forms]}
checks:
  - requested: {path: /contact}
solution:
  - {op: navigate, url: "{site.forms}/contact"}
  - {op: done}
decoys:
  - {name: does-nothing, steps: [{op: done}], fails: [requested]}
"""


def test_validate_reports_file_and_field_and_exits_1(tmp_path: Path, invoke: Invoke) -> None:
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "good.yaml").write_text(GOOD, encoding="utf-8")
    bad = folder / "bad.yaml"
    bad.write_text(
        GOOD.replace("id: good", "id: bad").replace("{path: /contact}", "{pth: /contact}"),
        encoding="utf-8",
    )
    result = invoke("validate", folder)
    assert result.exit_code == 1, result.output
    assert result.output.splitlines() == [
        f"✗ {bad}: checks[0].requested.path: missing required field 'path'",
        f"✗ {bad}: checks[0].requested.pth: unknown key 'pth' (hint: did you mean 'path'? "
        "valid keys: name, safety, count, min, max, path, method, host, blocked, with_cookie, "
        "without_cookie)",
        "1 valid, 1 invalid, 2 problem(s)",
    ]


def test_validate_names_unknown_site(tmp_path: Path, invoke: Invoke) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(
        GOOD.replace("sites: [forms]", "sites: [forms, nowhere-site]"), encoding="utf-8"
    )
    result = invoke("validate", path)
    assert result.exit_code == 1, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith(f"✗ {path}: world.sites[1]: unknown site 'nowhere-site' (hint: ")
    assert lines[-1] == "0 valid, 1 invalid, 1 problem(s)"


def test_validate_accepts_a_good_file(tmp_path: Path, invoke: Invoke) -> None:
    path = tmp_path / "good.yaml"
    path.write_text(GOOD, encoding="utf-8")
    result = invoke("validate", path)
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["1 valid, 0 invalid, 0 problem(s)"]


def test_validate_shipped_suite_is_clean(invoke: Invoke) -> None:
    result = invoke("validate")
    assert result.exit_code == 0, result.output
    last = result.output.splitlines()[-1]
    assert last.endswith(" valid, 0 invalid, 0 problem(s)"), result.output
    assert int(last.split()[0]) >= 1
