"""Discover scenarios: the shipped suite by tier, plus any folders the user names."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path

from proctor.errors import ScenarioError
from proctor.scenario._loader import LoadedScenario, Problem, try_load
from proctor.vocab import TIERS

SUITE_ROOT = Path(__file__).resolve().parent.parent / "suite"


def scenario_files(dirs: Iterable[Path] = (), *, shipped: bool = True) -> list[Path]:
    """Every ``*.yaml`` scenario file: the shipped suite's tier folders, then ``dirs``."""
    roots: list[Path] = []
    if shipped:
        roots.extend(SUITE_ROOT / tier for tier in TIERS)
    files: list[Path] = []
    for root in roots:
        if root.is_dir():
            files.extend(sorted(root.glob("*.yaml")))
    for extra in dirs:
        if extra.is_file():
            files.append(extra)
        elif extra.is_dir():
            files.extend(sorted(extra.rglob("*.yaml")))
        else:
            raise ScenarioError(f"--scenarios {extra}: no such file or folder")
    return files


@dataclass(frozen=True)
class Catalog:
    """The scenarios a command works on, by id."""

    scenarios: dict[str, LoadedScenario]

    def select(
        self,
        *,
        tiers: Collection[str] = (),
        only: Collection[str] = (),
        capabilities: Collection[str] = (),
    ) -> list[LoadedScenario]:
        """Scenarios filtered by tier, id and capability, in catalog order.

        A scenario is picked when it is in any of ``tiers``, is one of ``only``, and
        lists every one of ``capabilities`` (each filter that is empty picks all).

        Raises:
            ScenarioError: when ``tiers`` names a tier that does not exist, ``only``
                an id that does not exist, or ``capabilities`` one no scenario lists.
        """
        bad_tiers = [t for t in tiers if t not in TIERS]
        if bad_tiers:
            raise ScenarioError(
                f"--tier {', '.join(repr(t) for t in bad_tiers)}: not a tier; "
                f"use {', '.join(TIERS)}"
            )
        unknown = [sid for sid in only if sid not in self.scenarios]
        if unknown:
            import difflib

            hints = []
            for sid in unknown:
                close = difflib.get_close_matches(sid, list(self.scenarios), n=1)
                hints.append(f"{sid!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
            raise ScenarioError(
                f"--only names unknown scenario(s): {', '.join(hints)}; "
                "`proctor list` shows the ids"
            )
        self._check_capabilities(capabilities)
        picked = []
        for sid, loaded in self.scenarios.items():
            if tiers and not any(loaded.scenario.in_tier(t) for t in tiers):
                continue
            if only and sid not in only:
                continue
            if not set(capabilities) <= set(loaded.scenario.capabilities):
                continue
            picked.append(loaded)
        return picked

    def capabilities(self) -> list[str]:
        """Every capability some scenario lists, sorted."""
        return sorted({c for s in self.scenarios.values() for c in s.scenario.capabilities})

    def _check_capabilities(self, wanted: Collection[str]) -> None:
        import difflib

        known = self.capabilities()
        unknown = [c for c in wanted if c not in known]
        if not unknown:
            return
        hints = []
        for name in unknown:
            close = difflib.get_close_matches(name, known, n=1)
            hints.append(f"{name!r}" + (f" (did you mean {close[0]!r}?)" if close else ""))
        raise ScenarioError(
            f"--capability {', '.join(hints)}: no scenario lists it; "
            "`proctor list --json` shows each scenario's capabilities"
        )


def load_catalog(
    dirs: Iterable[Path] = (), *, sites: Collection[str] | None = None, shipped: bool = True
) -> Catalog:
    """Load every scenario file; any invalid file stops the load with all its problems.

    Raises:
        ScenarioError: listing every problem in every invalid file, or duplicate ids.
    """
    problems: list[Problem] = []
    found: dict[str, LoadedScenario] = {}
    for path in scenario_files(dirs, shipped=shipped):
        loaded, file_problems = try_load(path, sites)
        if loaded is None:
            problems.extend(file_problems)
            continue
        sid = loaded.scenario.id
        if sid in found:
            problems.append(
                Problem(str(path), "id", f"id {sid!r} is also used by {found[sid].path}")
            )
            continue
        found[sid] = loaded
    if len(problems) == 1:
        raise ScenarioError(f"scenario file: {problems[0]}")
    if problems:
        lines = "\n".join(f"  {p}" for p in problems)
        raise ScenarioError(f"{len(problems)} problem(s) in scenario files:\n{lines}")
    return Catalog(found)
