"""The rule editor: list the rules, create one (optionally for mail already here), delete one."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from proctor.scenario import CONDITION_MAX, RULE_FIELDS, RuleField
from proctor.world._kit import page_error, read_form, see_other
from proctor.world._site import world_of
from proctor.world.apps.mail._items import Rule
from proctor.world.apps.mail._state import MAX_RULES, Mailbox, mailbox
from proctor.world.apps.mail._view import page as _page

FORM_FIELDS = (*RULE_FIELDS, "folder", "label", "read", "existing")


def _rules(
    box: Mailbox,
    status: int = 200,
    *,
    values: dict[str, str] | None = None,
    errors: list[str] | None = None,
    notice: str | None = None,
) -> Response:
    return _page(
        "rules.html",
        box,
        status,
        values=values or dict.fromkeys(FORM_FIELDS, ""),
        errors=errors or [],
        notice=notice,
        targets=[f for f in box.all_folders() if f != "inbox"],
    )


async def rules_page(request: Request) -> Response:
    box = mailbox(world_of(request))
    query = request.query_params
    notice = None
    saved = box.rule(query.get("saved", ""))
    if saved is not None:
        notice = "Rule saved."
        if query.get("existing") == "yes":
            n = saved.existing
            notice += (
                f" It acted on {n} message{'s' if n != 1 else ''} already in your mailbox."
                if n
                else " No message already in your mailbox matched it."
            )
    elif query.get("deleted"):
        notice = "Rule deleted."
    return _rules(box, notice=notice)


def _check(box: Mailbox, values: dict[str, str]) -> tuple[Rule | None, list[str]]:
    """The rule the form describes, or what is wrong with it."""
    errors: list[str] = []
    conditions: dict[RuleField, str] = {
        key: " ".join(values[key].split()) for key in RULE_FIELDS if values[key].strip()
    }
    if not conditions:
        errors.append("Give at least one condition: From, To, Subject or Body contains.")
    if any(len(text) > CONDITION_MAX for text in conditions.values()):
        errors.append(f"A condition has at most {CONDITION_MAX} characters.")
    folder = box.folder_named(values["folder"]) if values["folder"] else None
    if values["folder"] and folder is None:
        errors.append(f"There is no folder called {values['folder']!r}.")
    if folder == "inbox":
        errors.append("Mail already arrives in the Inbox: choose another folder, or none.")
    label = box.label_named(values["label"]) if values["label"] else None
    if values["label"] and label is None:
        errors.append(f"There is no label called {values['label']!r}.")
    read = values["read"] == "yes"
    if not values["folder"] and not values["label"] and not read:
        errors.append(
            "Choose at least one action: move to a folder, apply a label or mark as read."
        )
    if len(box.rules) >= MAX_RULES:
        errors.append(f"You have {MAX_RULES} rules, the most a mailbox can have.")
    if errors:
        return None, errors
    rule = Rule("", conditions, folder, label, read, seeded=False)
    if any(rule.same_as(other) for other in box.rules):
        return None, ["You already have this rule."]
    rule.id = box.new_id("r", [r.id for r in box.rules])
    return rule, []


async def create_rule(request: Request) -> Response:
    """POST /rules: 303 to /rules?saved=<id>, or 400 with the editor and its problems."""
    box = mailbox(world_of(request))
    form = await read_form(request, trim=False)
    values = {key: form.get(key, "").strip() for key in FORM_FIELDS}
    rule, errors = _check(box, values)
    if rule is None:
        return _rules(box, 400, values=values, errors=errors)
    existing = values["existing"] == "yes"
    box.add_rule(rule, existing=existing)
    return see_other(f"/rules?saved={rule.id}" + ("&existing=yes" if existing else ""))


async def delete_rule(request: Request) -> Response:
    """POST /rules/<id>/delete: 303 to /rules?deleted=<id>."""
    box = mailbox(world_of(request))
    rule = box.rule(request.path_params["id"])
    if rule is None:
        return page_error(["This rule does not exist."], 404, back="/rules")
    box.rules.remove(rule)
    box.touched = True
    return see_other(f"/rules?deleted={rule.id}")
