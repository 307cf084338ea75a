"""The docs hold: reference pages current and complete, links that resolve, a short README.

Completeness is checked against the code enumerated here, independently of the
renderer, so a renderer that skips a check kind, an action, an option or a site fails.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import typing
from pathlib import Path

import pytest
import typer
from pydantic import BaseModel

from proctor.cli import app
from proctor.cli._reference import render_pages
from proctor.computer import Action
from proctor.grading import EVALUATORS
from proctor.scenario import CHECK_ARGS, COMMON_KEYS, PlayEvent
from proctor.vocab import SURFACES
from proctor.world import all_sites

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
FIX = "run `make docs` and commit the pages"


@pytest.fixture(scope="module")
def pages() -> dict[str, str]:
    return render_pages()


def section(text: str, heading: str) -> str:
    """The text under ``heading`` (a whole heading line) up to the next heading of its level."""
    level = heading.split(" ")[0]
    start = text.index(heading + "\n")
    rest = text[start + len(heading) + 1 :]
    match = re.search(rf"^{level} ", rest, re.M)
    return rest[: match.start()] if match else rest


# --- (1) the committed pages are the rendered ones ------------------------------------


def test_the_committed_reference_pages_are_current(pages: dict[str, str]) -> None:
    stale = []
    for relative, text in pages.items():
        path = ROOT / relative
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            stale.append(relative)
    assert stale == [], f"out of date: {', '.join(stale)}; {FIX}"
    committed = sorted(p.relative_to(ROOT).as_posix() for p in (DOCS / "reference").glob("*.md"))
    assert committed == sorted(pages), f"docs/reference/ holds pages nothing renders; {FIX}"


def test_rendering_is_deterministic_and_holds_no_machine_paths(pages: dict[str, str]) -> None:
    assert render_pages() == pages
    for relative, text in pages.items():
        assert str(ROOT) not in text, relative
        assert " at 0x" not in text, relative
        assert text.endswith("\n") and not text.endswith("\n\n"), relative


# --- (2) completeness -------------------------------------------------------------------


def test_every_check_kind_and_argument_is_documented(pages: dict[str, str]) -> None:
    text = pages["docs/reference/checks.md"]
    kinds = set(EVALUATORS) | {"all", "any", "after_event"}
    for kind in sorted(kinds):
        assert f"\n## {kind}\n" in text, f"check kind {kind} has no section; {FIX}"
    for kind, model in CHECK_ARGS.items():
        body = section(text, f"## {kind}")
        for name, info in model.model_fields.items():
            key = info.alias or name
            if key not in COMMON_KEYS:
                assert f"| `{key}` |" in body, f"check {kind}: argument {key} is missing"
    for key in COMMON_KEYS:
        assert f"| `{key}` |" in text


def _action_models() -> list[type[BaseModel]]:
    """The members of the typed action union, read from the union itself."""
    union = typing.get_args(Action)[0]
    return list(typing.get_args(union))


def test_every_action_op_and_argument_is_documented(pages: dict[str, str]) -> None:
    text = pages["docs/reference/actions.md"]
    models = _action_models()
    assert len(models) > 20
    for model in models:
        op = model.model_fields["op"].default
        body = section(text, f"### {op}")
        for name, info in model.model_fields.items():
            if name != "op":
                assert f"| `{info.alias or name}` |" in body, f"action {op}: field {name} missing"
    for name in PlayEvent.model_fields:
        assert f"| `{name}` |" in section(text, "## Timeline events"), name
    steps = section(text, "## Scenario steps")
    assert "`expect: error` (`expect_error`)" in steps
    assert "`expect: refused` (`expect_refused`)" in steps


def test_every_mcp_tool_is_documented(pages: dict[str, str]) -> None:
    from proctor.computer._mcp_tools import tool_models

    text = pages["docs/reference/actions.md"]
    tools: set[str] = set()
    for surface in SURFACES:
        tools |= set(tool_models(surface, timeline=True))
    for tool in sorted(tools):
        assert f"\n### {tool}\n" in text, f"MCP tool {tool} has no section"


def _commands(group: typer.Typer, prefix: str) -> list[tuple[str, object]]:
    """(full name, callback) of every command, from typer's own registrations."""
    found: list[tuple[str, object]] = []
    for info in group.registered_commands:
        assert info.callback is not None
        name = info.name or info.callback.__name__.replace("_", "-")
        found.append((f"{prefix} {name}", info.callback))
    for group_info in group.registered_groups:
        assert group_info.typer_instance is not None and group_info.name is not None
        full = f"{prefix} {group_info.name}"
        found.append((full, None))
        found += _commands(group_info.typer_instance, full)
    return found


def test_every_command_and_option_is_documented(pages: dict[str, str]) -> None:
    text = pages["docs/reference/cli.md"]
    commands = _commands(app, "proctor")
    assert len(commands) > 30
    root = typer.main.get_command(app)
    for full, _ in commands:
        assert f"\n## {full}\n" in text, f"command {full} has no section; {FIX}"
        command = root
        for part in full.split()[1:]:
            ctx = typer.Context(command)
            command = command.get_command(ctx, part)  # type: ignore[attr-defined]
        body = section(text, f"## {full}")
        ctx = typer.Context(command)
        for param in command.get_params(ctx):
            if param.name == "help" or getattr(param, "hidden", False):
                continue
            shown = f"`{param.name.upper()}`" if param.param_type_name == "argument" else (
                f"`{param.opts[0]}`"
            )  # fmt: skip
            assert shown in body, f"{full}: {shown} is missing"


def _site_constants() -> dict[str, str]:
    """Module-level secrets and codes of the sites and apps, by where they live."""
    wanted = re.compile(r"^(PASSWORD|USERNAME|PIN|DOOR_CODE|WORD|SHARE|LINK|AUDIT_ID|ACCOUNT_REF)$")
    found: dict[str, str] = {}
    packages = [importlib.import_module("proctor.world.sites"),
                importlib.import_module("proctor.world.apps")]  # fmt: skip
    for package in packages:
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            module = importlib.import_module(info.name)
            for name, value in vars(module).items():
                if wanted.match(name) and isinstance(value, str):
                    found[f"{info.name}.{name}"] = value
    return found


def test_every_site_and_its_sign_in_details_are_documented(pages: dict[str, str]) -> None:
    text = pages["docs/reference/sites.md"]
    for name, site in all_sites().items():
        assert f"\n## {name}\n" in text, f"site {name} has no section; {FIX}"
        assert site.host in section(text, f"## {name}")
    constants = _site_constants()
    assert len(constants) >= 10
    missing = {where: value for where, value in constants.items() if value not in text}
    assert missing == {}, f"sign-in details or codes not on the page: {missing}"


def test_the_shops_cards_catalog_and_accounts_are_documented(pages: dict[str, str]) -> None:
    from proctor.scenario import ShopSeed
    from proctor.world.sites import session
    from proctor.world.sites.shop import _cards, _catalog

    shop = section(pages["docs/reference/sites.md"], "## shop")
    for number in _cards.BANK_ANSWERS:
        assert number in shop, number
    for sku in _catalog.PRODUCTS:
        assert f"| {sku} |" in shop, sku
    for option in _catalog.SHIPPING:
        assert f"| {option} |" in shop, option
    assert ShopSeed().bank_code in shop and ShopSeed().approval_code in shop
    users = section(pages["docs/reference/sites.md"], "## session")
    for user, info in session.USERS.items():
        assert user in users and info["password"] in users


# --- (3) the README is short ------------------------------------------------------------


def test_the_readme_is_at_most_250_lines() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 250, f"README.md has {lines} lines; move detail into a guide under docs/"


# --- (4) relative links resolve ---------------------------------------------------------

LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    anchors: set[str] = set()
    counts: dict[str, int] = {}
    fenced = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if fenced or not line.startswith("#"):
            continue
        slug = _slug(line.lstrip("#"))
        n = counts.get(slug, 0)
        counts[slug] = n + 1
        anchors.add(slug if n == 0 else f"{slug}-{n}")
    return anchors


def _markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.rglob("*.md"))]


def _links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    return LINK.findall(text)


def test_every_relative_link_points_at_a_file_and_anchor_that_exist() -> None:
    broken = []
    for path in _markdown_files():
        for target in _links(path):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # http:, https:, mailto:
            file_part, _, anchor = target.partition("#")
            dest = (path.parent / file_part).resolve() if file_part else path
            where = f"{path.relative_to(ROOT)} -> {target}"
            if not dest.exists():
                broken.append(f"{where}: no such file")
            elif anchor and dest.suffix == ".md" and anchor not in _anchors(dest):
                broken.append(f"{where}: no such heading")
    assert broken == []


def test_the_link_checker_sees_slugs_as_github_does() -> None:
    assert _slug(" proctor run") == "proctor-run"
    assert _slug(" The seal: what it covers") == "the-seal-what-it-covers"
    assert _slug(" after_event") == "after_event"
    assert _slug(" `--only` and `--tier`") == "--only-and---tier"


def test_the_first_run_example_counts_the_local_tier() -> None:
    local = len(list((ROOT / "src" / "proctor" / "suite" / "local").glob("*.yaml")))
    for path in (README, DOCS / "getting-started.md"):
        counts = re.findall(
            r"(\d+) passed, 0 failed, 0\s+skipped", path.read_text(encoding="utf-8")
        )
        assert counts, f"{path.name} shows no first-run count line"
        assert {int(n) for n in counts} == {local}, f"{path.name}: the local tier has {local}"
