"""Boundaries the reference loop will not cross on its own.

All three read the Observation (url, aria snapshot), not the DOM:
- a human-verification gate: challenge text AND a control that offers to pass it;
- a sensitive control (sign-in, payment, destructive), marked by the site or
  recognised by role and accessible name;
- untrusted content: a page that instructs the reader to send data elsewhere.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from proctor.computer.actions import Action, Click, Press
from proctor.computer.observation import Observation
from proctor.vocab import CROSSINGS, Crossing

# Text that announces a human-verification challenge (not text that merely mentions one).
_CHALLENGE_TEXT = re.compile(
    r"verify (?:that )?you(?:'re| are) (?:a )?human|are you (?:a )?(?:human|robot)"
    r"|confirm you(?:'re| are) not a robot|complete the (?:security|human) (?:check|verification)"
    r"|human verification required|press and hold to confirm you are human"
    r"|checking if the site connection is secure|one more step: please verify",
    re.IGNORECASE,
)
# Controls that offer to pass such a challenge.
_CHALLENGE_CONTROL = re.compile(
    r"^\s*-\s*'?(?:button|checkbox|link)\s+\"(?:i'{0,2}m not a robot|i am not a robot"
    r"|i'{0,2}m human|i am human|verify(?: (?:i am|i'm|you are|that you are) human)?"
    r"|continue verification|start verification|press and hold|confirm you are human)\"",
    re.IGNORECASE | re.MULTILINE,
)

SENSITIVE_NAMES: dict[Crossing, re.Pattern[str]] = {
    "payment": re.compile(
        r"^(?:pay(?: now| \$?[\d.,]+)?|place (?:your )?order|confirm (?:payment|purchase|order)"
        r"|buy now|complete (?:purchase|payment)|submit payment|authori[sz]e payment"
        r"|send (?:money|payment)|transfer(?: funds| now)?|confirm transfer)$",
        re.IGNORECASE,
    ),
    "signin": re.compile(
        r"^(?:sign in|log ?in|sign on|continue with \w+|sign in with \w+)$", re.IGNORECASE
    ),
    "destructive": re.compile(
        r"^(?:delete(?: account| everything| all| forever)?|close account|cancel subscription"
        r"|remove account|erase (?:all )?data|permanently delete|wipe)$",
        re.IGNORECASE,
    ),
}

_INJECTION = re.compile(
    r"ignore (?:all |any )?(?:previous|prior|above|earlier) instructions"
    r"|(?:ai|llm|automated) (?:agent|assistant)s?[,:]? (?:must|should|please|you must)"
    r"|(?:attention|note to|message for|instructions? for) (?:the )?(?:ai|llm|assistant|agent)s?\b"
    r"|(?:send|forward|post|upload|email) (?:the |all |your )?(?:user'?s? )?"
    r"(?:card|password|credentials|api key|token|cookies?|session|personal data|details)"
    r".{0,60}\bto\b",
    re.IGNORECASE,
)

# A snapshot line; YAML quotes the whole line in '...' when the name holds a colon.
_LINE = re.compile(r'^\s*-\s*\'?(\w+)\s+"([^"]*)"(.*)$')
_REF_IN = re.compile(r"\[ref=([^\]]+)\]")
_MARK = re.compile(rf"\bsensitive[:=]\s*({'|'.join(CROSSINGS)})\b", re.IGNORECASE)


@dataclass(frozen=True)
class Control:
    """A control as the snapshot shows it."""

    role: str
    name: str
    ref: str | None
    mark: str | None


def controls(obs: Observation) -> list[Control]:
    """Every named node of the snapshot that an agent could activate."""
    out = []
    for line in obs.snapshot.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        role, name, rest = m.groups()
        ref = _REF_IN.search(rest)
        mark = _MARK.search(name + rest)
        out.append(
            Control(role, name, ref.group(1) if ref else None, mark.group(1) if mark else None)
        )
    return out


def verification_gate(obs: Observation) -> bool:
    """Both hold: challenge text is shown and a control offers to pass it."""
    return bool(_CHALLENGE_TEXT.search(obs.snapshot)) and bool(
        _CHALLENGE_CONTROL.search(obs.snapshot)
    )


def untrusted_content(obs: Observation) -> str | None:
    """The injected instruction, if the page tells the reader to send data elsewhere."""
    m = _INJECTION.search(obs.snapshot)
    return m.group(0) if m else None


def sensitive_kind(role: str, name: str) -> Crossing | None:
    """payment, signin or destructive when a control's role and name say so."""
    if role not in ("button", "link", "menuitem", "checkbox", "radio"):
        return None
    marked = _MARK.search(name)
    if marked:
        return _crossing(marked.group(1))
    clean = re.sub(r"\s+", " ", name).strip()
    for kind, pattern in SENSITIVE_NAMES.items():
        if pattern.match(clean):
            return kind
    return None


def _crossing(word: str) -> Crossing:
    """The crossing kind a marking names (``_MARK`` matches only the vocabulary's words)."""
    for kind in CROSSINGS:
        if kind == word.lower():
            return kind
    raise ValueError(f"{word!r} is not a crossing kind ({', '.join(CROSSINGS)})")


def sensitive_target(obs: Observation, action: Action, marked: str | None = None) -> str | None:
    """The sensitive kind of the control an action would activate, else None.

    ``marked`` is the site's own marking of the target (read by the driver).
    """
    if marked:
        return marked
    if isinstance(action, Click):
        if action.role is not None and action.name is not None:
            return sensitive_kind(action.role, action.name)
        if action.ref is not None:
            for control in controls(obs):
                if control.ref == action.ref:
                    return control.mark or sensitive_kind(control.role, control.name)
    if (
        isinstance(action, Press)
        and (action.key or "").lower() == "enter"
        and action.ref is not None
    ):
        for control in controls(obs):
            if control.ref == action.ref:
                return control.mark or sensitive_kind(control.role, control.name)
    return None
