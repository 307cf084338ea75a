"""Scratch paths (world.dirs, world.files, tree names, file checks) stay in the scratch folder."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from proctor.scenario import load_scenario, problems_in
from proctor.scenario._files import SCRATCH_HINT, scratch_path_error

SITES = {"forms", "shop"}
Edit = Callable[..., Path]
WORLD = "world:\n  sites: [forms]\n"
TREE_NAMES = " (a name is one file or folder name: no /, no backslash, no control characters)"

BAD = [
    ("", "path '' names no file or folder"),
    (".", "path '.' names no file or folder"),
    ("./", "path './' names no file or folder"),
    ("/etc", "path '/etc' is absolute; it must stay inside the scratch folder"),
    ("../../x", "path '../../x' has a .. segment; it must stay inside the scratch folder"),
    ("a/../../b", "path 'a/../../b' has a .. segment; it must stay inside the scratch folder"),
    ("a\\b", "path 'a\\\\b' has a backslash; separate folders with /"),
    ("a\x00b", "path 'a\\x00b' holds the control character '\\x00'"),
    ("a\x1fb", "path 'a\\x1fb' holds the control character '\\x1f'"),
    ("a\x85b", "path 'a\\x85b' holds the control character '\\x85'"),
]


def quoted(path: str) -> str:
    """A YAML double-quoted scalar for ``path``."""
    return (
        '"'
        + "".join(c if c.isprintable() and c not in '"\\' else f"\\x{ord(c):02x}" for c in path)
        + '"'
    )


@pytest.mark.parametrize(("path", "message"), BAD, ids=[repr(p) for p, _ in BAD])
def test_bad_world_dirs_are_rejected(scenario: Edit, path: str, message: str) -> None:
    file = scenario((WORLD, WORLD + f"  dirs: [ok, {quoted(path)}]\n"))
    problems = [p for p in problems_in(file, SITES) if p.message != "holds a NUL character"]
    assert [(p.field, p.message, p.hint) for p in problems] == [
        ("world.dirs[1]", message, SCRATCH_HINT)
    ]


@pytest.mark.parametrize(("path", "message"), BAD, ids=[repr(p) for p, _ in BAD])
def test_bad_world_file_paths_are_rejected(scenario: Edit, path: str, message: str) -> None:
    file = scenario((WORLD, WORLD + f"  files: [{{path: {quoted(path)}, text: hi}}]\n"))
    problems = [p for p in problems_in(file, SITES) if p.message != "holds a NUL character"]
    assert [(p.field, p.message, p.hint) for p in problems] == [
        ("world.files[0].path", message, SCRATCH_HINT)
    ]


def test_a_nul_in_world_dirs_is_also_reported_as_nul(scenario: Edit) -> None:
    file = scenario((WORLD, WORLD + '  dirs: ["a\\0b"]\n'))
    assert [(p.field, p.message) for p in problems_in(file, SITES)] == [
        ("world.dirs[0]", "holds a NUL character"),
        ("world.dirs[0]", "path 'a\\x00b' holds the control character '\\x00'"),
    ]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("a\\\\b", "'a\\\\b': a name may not hold a backslash"),
        ("a\\x01b", "'a\\x01b': a name may not hold the control character '\\x01'"),
        (
            'sub/: {"x\\0": {text: hi}}, z',
            "sub/'x\\x00': a name may not hold the control character '\\x00'",
        ),
        (" ", "' ': an entry needs a name"),
    ],
)
def test_bad_tree_entry_names_are_rejected(scenario: Edit, name: str, message: str) -> None:
    entry = name if name.startswith("sub/") else f'"{name}"'
    file = scenario(
        (WORLD, WORLD + f"  files: [{{path: docs, tree: {{{entry}: {{text: hi}}}}}}]\n")
    )
    problems = [p for p in problems_in(file, SITES) if "NUL" not in p.message]
    assert [(p.field, p.message.removesuffix(TREE_NAMES)) for p in problems] == [
        ("world.files[0].tree", message)
    ]


def test_good_scratch_paths_load(scenario: Edit) -> None:
    file = scenario(
        (WORLD, WORLD + "  dirs: [output/pdfs, ./inbox, 'with space', a.b, trailing/]\n"),
        (
            "  - page_text",
            "  - dir_listing: {path: ., contains: [output/]}\n"
            "  - file_exists: {path: ./output/*.pdf, absent: true}\n"
            "  - page_text",
        ),
    )
    loaded = load_scenario(file, SITES)
    assert loaded.scenario.world.dirs == [
        "output/pdfs",
        "./inbox",
        "with space",
        "a.b",
        "trailing/",
    ]


CHECKS = "checks:\n"


@pytest.mark.parametrize(
    ("check", "field"),
    [
        ("file_text: {path: ../etc/passwd, contains: x}", "checks[0].file_text.path"),
        ("file_exists: {path: /tmp/x}", "checks[0].file_exists.path"),
        ("file_unchanged: {path: '.'}", "checks[0].file_unchanged.path"),
        ("pdf: {path: 'a\\\\b.pdf', pages: 1}", "checks[0].pdf.path"),
        ("csv: {path: ../x.csv, rows: 1}", "checks[0].csv.path"),
        ("rich_text: {path: ../x.html, exact: true}", "checks[0].rich_text.path"),
        ("dir_listing: {path: .., contains: [x]}", "checks[0].dir_listing.path"),
        ("file_sha256: {path: /x, sha256: '" + "0" * 64 + "'}", "checks[0].file_sha256.path"),
        (
            "all: [{page_text: {contains: x}}, {csv: {path: /x, rows: 1}}]",
            "checks[0].all[1].csv.path",
        ),
        ("submitted: {route: r, files: {receipt: ../r.txt}}", "checks[0].submitted.files.receipt"),
    ],
)
def test_bad_check_paths_are_rejected(scenario: Edit, check: str, field: str) -> None:
    file = scenario((CHECKS, CHECKS + f"  - {check}\n"))
    problems = [p for p in problems_in(file, SITES) if p.field.startswith("checks[0]")]
    assert [(p.field, p.hint) for p in problems] == [(field, SCRATCH_HINT)]


def test_dir_listing_may_list_the_scratch_folder_itself() -> None:
    assert scratch_path_error(".", root=True) == ""
    assert scratch_path_error(".") == "path '.' names no file or folder"
    assert scratch_path_error("..", root=True).endswith(
        "has a .. segment; it must stay inside the scratch folder"
    )
