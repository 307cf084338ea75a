"""Evaluators of the mail-organizing checks: a message's folder and labels, a saved rule,
and the attachments of sent mail and drafts.

They read the mail snapshot (``EndState.app(MailSnapshot)``), in which mail still
due when the attempt ended is already delivered through the rules, so "the later
invoice is in Invoices" holds for an agent that saved the rule and stopped.
"""

from __future__ import annotations

from typing import Any

from proctor.grading._outcome import CheckOutcome
from proctor.records import Attachment, EndState, MailMessage, MailRule, MailSnapshot
from proctor.scenario import (
    AttachmentExpect,
    MailInFolder,
    MailRuleExists,
    MailSelect,
    MessageLabels,
    message_texts,
    rule_matches,
    split_address,
)

SHOWN = 5
"""How many misses a result shows."""


def _fold(text: str) -> str:
    return " ".join(text.split()).casefold()


def _selectors(args: MailSelect) -> dict[str, Any]:
    picked = {"id": args.id, "subject_contains": args.subject_contains, "from": args.from_}
    out: dict[str, Any] = {k: v for k, v in picked.items() if v is not None}
    out["count"] = f"exactly {args.count}" if args.count is not None else "at least 1"
    return out


def _select(args: MailSelect, mail: MailSnapshot) -> tuple[list[MailMessage], list[str]]:
    """The messages the selectors pick, and what is wrong with the selection."""
    ids = args.ids()
    parsed = split_address(args.from_) if args.from_ is not None else None
    sender = parsed[1] if parsed is not None else None
    picked = [
        m
        for m in mail.messages
        if (not ids or m.id in ids)
        and (args.subject_contains is None or _fold(args.subject_contains) in _fold(m.subject))
        and (sender is None or m.sender.lower() == sender)
    ]
    known = {m.id for m in mail.messages}
    problems = [f"no message {i!r}" for i in ids if i not in known]
    if args.count is not None and len(picked) != args.count:
        problems.append(f"the selectors pick {len(picked)} messages, not {args.count}")
    elif not picked and not problems:
        problems.append("no message matches the selectors")
    return picked, problems


def _where(m: MailMessage) -> str:
    late = " (arrived after the attempt ended)" if m.delivered == "end" else ""
    return f"{m.id} is in {m.folder}{late}"


def mail_in_folder(args: MailInFolder, state: EndState) -> CheckOutcome:
    expected = {**_selectors(args), "folder": args.folder}
    mail = state.app(MailSnapshot)
    if mail is None:
        return CheckOutcome(False, expected, None, "no mail in the end state")
    picked, problems = _select(args, mail)
    want = _fold(args.folder)
    problems += [_where(m) for m in picked if _fold(m.folder) != want]
    actual = {m.id: m.folder for m in picked}
    return CheckOutcome(not problems, expected, actual, "; ".join(problems[:SHOWN]))


def message_labels(args: MessageLabels, state: EndState) -> CheckOutcome:
    expected = {**_selectors(args), "has": args.has, "lacks": args.lacks}
    mail = state.app(MailSnapshot)
    if mail is None:
        return CheckOutcome(False, expected, None, "no mail in the end state")
    picked, problems = _select(args, mail)
    for m in picked:
        labels = {_fold(label) for label in m.labels}
        problems += [f"{m.id} lacks {want}" for want in args.has if _fold(want) not in labels]
        problems += [f"{m.id} has {bad}" for bad in args.lacks if _fold(bad) in labels]
    actual = {m.id: m.labels for m in picked}
    return CheckOutcome(not problems, expected, actual, "; ".join(problems[:SHOWN]))


def _catches(rule: MailRule, msg: MailMessage) -> bool:
    texts = message_texts(msg.sender, msg.from_name, msg.to, msg.cc, msg.subject, msg.body)
    return rule_matches(rule.conditions, texts)


def _rule_misses(
    args: MailRuleExists, rule: MailRule, messages: dict[str, MailMessage]
) -> list[str]:
    """Why a rule does not match the check; empty when it does."""
    misses = []
    for key, text in args.conditions.items():
        have = rule.conditions.get(key)
        if have is None or _fold(text) not in _fold(have):
            misses.append(f"{key} condition {have!r}")
    for mid in args.catches:
        msg = messages.get(mid)
        if msg is None:
            misses.append(f"no message {mid!r} to catch")
        elif not _catches(rule, msg):
            misses.append(f"does not catch {mid}")
    misses += [
        f"also catches {mid}"
        for mid in args.spares
        if mid in messages and _catches(rule, messages[mid])
    ]
    if args.folder is not None and _fold(rule.folder or "") != _fold(args.folder):
        misses.append(f"moves to {rule.folder}" if rule.folder else "moves nothing")
    if args.label is not None and _fold(rule.label or "") != _fold(args.label):
        misses.append(f"labels {rule.label}" if rule.label else "applies no label")
    if args.read is not None and rule.read != args.read:
        misses.append("marks read" if rule.read else "does not mark read")
    if args.new is not None and rule.seeded == args.new:
        misses.append("seeded" if args.new else "saved during the attempt")
    return misses


def _rule_text(rule: MailRule) -> str:
    return " and ".join(f"{k} contains {v!r}" for k, v in rule.conditions.items())


def mail_rule_exists(args: MailRuleExists, state: EndState) -> CheckOutcome:
    keys = ("conditions", "catches", "spares", "folder", "label", "read", "new")
    expected = {k: getattr(args, k) for k in keys if getattr(args, k) not in (None, [], {})}
    expected["count"] = args.expectation()
    mail = state.app(MailSnapshot)
    rules = list(mail.rules) if mail is not None else []
    messages = {m.id: m for m in mail.messages} if mail is not None else {}
    unknown = [mid for mid in (*args.catches, *args.spares) if mid not in messages]
    matching, misses = [], []
    for rule in rules:
        why = _rule_misses(args, rule, messages)
        if why:
            misses.append(f"{rule.id} ({_rule_text(rule)}): " + "; ".join(why))
        else:
            matching.append(rule.id)
    detail = "non-matching: " + " | ".join(misses[:SHOWN]) if misses else ""
    if not rules:
        detail = "no rules"
    if unknown:
        detail = f"no message {', '.join(unknown)} in the end state; " + detail
    actual = {"matching": matching, "rules": len(rules)}
    return CheckOutcome(args.accepts(len(matching)), expected, actual, detail)


def _attachment_text(want: AttachmentExpect) -> str:
    return ", ".join(f"{k}={v}" for k, v in want.model_dump(exclude_none=True).items())


def _wanted_hash(
    want: AttachmentExpect, state: EndState, mail: MailSnapshot | None
) -> tuple[str | None, str | None]:
    """The SHA-256 the attachment must have (None: any), or why the check cannot tell."""
    hashes = {want.sha256} if want.sha256 is not None else set()
    if want.file is not None:
        original = state.originals.get(want.file)
        if original is None:
            return None, f"no seeded file {want.file} to compare attachment {want.name or ''}"
        hashes.add(original)
    if want.from_message is not None:
        msg = next((m for m in (mail.messages if mail else []) if m.id == want.from_message), None)
        source = [a.sha256 for a in (msg.attachments if msg else []) if a.name == want.name]
        if not source:
            return None, f"message {want.from_message} has no attachment {want.name!r}"
        hashes.add(source[0])
    if len(hashes) > 1:
        return (
            None,
            f"sha256, file and from_message name different bytes ({_attachment_text(want)})",
        )
    return (next(iter(hashes)) if hashes else None), None


def attachment_misses(
    wanted: list[AttachmentExpect], files: list[Attachment], state: EndState
) -> list[str]:
    """Which expected attachments a message lacks (each named as the check gave it)."""
    mail = state.app(MailSnapshot) if any(w.from_message for w in wanted) else None
    misses = []
    for want in wanted:
        sha256, problem = _wanted_hash(want, state, mail)
        if problem is not None:
            misses.append(problem)
            continue
        found = any(
            (want.name is None or _fold(f.name) == _fold(want.name))
            and (sha256 is None or f.sha256 == sha256)
            for f in files
        )
        if not found:
            shown = ", ".join(f.name for f in files) or "none"
            misses.append(f"lacks attachment {_attachment_text(want)} (has: {shown})")
    return misses
