"""checks.md: every check kind, from ``CHECK_MODELS`` and the argument models."""

from __future__ import annotations

from pydantic import BaseModel

from proctor.cli._reference._tables import (
    doc_of,
    field_rows,
    model_section,
    models_in,
    page,
    reachable,
)
from proctor.scenario import (
    CHECK_ARGS,
    CHECK_MODELS,
    COMMON_KEYS,
    CheckArgs,
)
from proctor.vocab import is_leaf_check_kind


def checks_page() -> str:
    """Every check kind: what it holds, its arguments, and the argument types they use."""
    kinds = sorted(CHECK_MODELS)
    body = ["## Contents", ""]
    body += [f"- [{kind}](#{kind})" for kind in kinds]
    body += ["- [Argument types](#argument-types)", ""]
    args_models: list[type[BaseModel]] = []
    for kind in kinds:
        model = CHECK_MODELS[kind]
        args = CHECK_ARGS[kind] if is_leaf_check_kind(kind) else None
        body += [f"## {kind}", ""]
        if args is not None:
            body += [doc_of(args) or doc_of(model), ""]
            reads = getattr(args, "reads_site", None)
            if reads:
                body += [f"Reads the site `{reads}`: list it in `world.sites`.", ""]
            body += [*field_rows(args, skip=COMMON_KEYS), ""]
            args_models.append(args)
        elif kind in ("all", "any"):
            shape = f"`{{{kind}: [CHECK, ...], name, safety}}`"
            body += [doc_of(model), "", f"{shape}: a list of at least one check, with `name` "
                     "and `safety` beside the list.", ""]  # fmt: skip
        else:
            inner = models_in(model.model_fields[kind].annotation)[0]
            body += [doc_of(inner) or doc_of(model), ""]
            body += [*field_rows(inner, skip=COMMON_KEYS), ""]
            args_models.append(inner)
    body += ["## Argument types", "", "Models the check arguments above refer to.", ""]
    stop: frozenset[type[BaseModel]] = frozenset({CheckArgs, *CHECK_MODELS.values()})
    for shared in reachable(args_models, stop=stop):
        body += model_section(shared)
    common = ", ".join(f"`{k}`" for k in COMMON_KEYS)
    intro = (
        "A check is a one-key mapping from its kind to its arguments, e.g. "
        "`{submitted: {route: contact, count: 1}}`. Checks read the end state only "
        f"(requests, files, apps, the page, the trace), never the agent's claims. Every kind "
        f"also takes {common}:\n\n" + "\n".join(field_rows(CheckArgs)) + "\n\nA decoy's `fails` "
        "names checks by `name` (default: the kind). See [the scenarios guide](../scenarios.md) "
        "for how checks are used."
    )
    return page("Checks", intro, body)
