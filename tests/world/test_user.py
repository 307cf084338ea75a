"""The simulated user: answers by key and intent, approvals by amount, steering, recording."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from proctor.computer.actions import AskUser, RequestApproval
from proctor.records import UserFacts
from proctor.scenario import User
from proctor.world import UNKNOWN_ANSWER, PersonaContext, SimulatedUser

SPEC: dict[str, Any] = {
    "answers": {
        "shoe_size": "42",
        "budget": {"text": "At most $40, shipping included.", "intent": {"keywords": ["spend"]}},
        "date": {"text": "Friday the 14th", "intent": {"regex": r"\bwhich (day|date)\b"}},
    },
    "vault": {
        "shop_password": {"secret": "tulip-RIVER-93", "intent": {"keywords": ["password"]}},
        "pin": {"secret": "PLUM-4812-ORCHID"},
    },
    "approvals": {
        "payment": {
            "max_amount": 40,
            "currency": "USD",
            "intent": {"keywords": ["pay"]},
        },
        "cancel_subscription": True,
        "delete_account": {"approve": False, "reply": "Never delete my account."},
    },
    "messages": [
        {"at_step": 3, "text": "Make it for four people, not two."},
        {"at_step": 0, "text": "I'm on my phone; keep it short."},
    ],
}


def user(spec: dict[str, Any] | None = None, **kwargs: Any) -> SimulatedUser:
    return SimulatedUser(User.model_validate(SPEC if spec is None else spec), **kwargs)


async def ask(u: SimulatedUser, question: str, key: str | None = None, step: int = 0) -> str:
    return (await u.ask(AskUser(question=question, key=key), step=step)).text


async def test_answers_by_key_even_when_the_question_says_otherwise() -> None:
    u = user()
    assert await ask(u, "Anything I should know?", key="shoe_size") == "42"
    assert await ask(u, "Which one?", key="Shoe-Size") == "42"  # keys compare loosely
    assert await ask(u, "And this?", key="pin") == "PLUM-4812-ORCHID"
    assert [(q.matched, q.source) for q in u.asked] == [
        ("shoe_size", "answer"),
        ("shoe_size", "answer"),
        ("pin", "vault"),
    ]


async def test_answers_by_intent_keywords_regex_and_key_words() -> None:
    u = user()
    assert await ask(u, "How much can I spend on it?") == "At most $40, shipping included."
    assert await ask(u, "Which DATE works for you?") == "Friday the 14th"
    assert await ask(u, "What shoe size do you wear?") == "42"  # the key's words
    assert await ask(u, "What are the shop passwords?") == "tulip-RIVER-93"  # word start
    assert await ask(u, "What is the card PIN?") == "PLUM-4812-ORCHID"
    # an unknown key falls back to the question's intent
    assert await ask(u, "How much should I spend?", key="limit") == (
        "At most $40, shipping included."
    )
    assert [q.matched for q in u.asked] == [
        "budget",
        "date",
        "shoe_size",
        "shop_password",
        "pin",
        "budget",
    ]


async def test_an_unscripted_question_gets_i_dont_know_and_is_recorded() -> None:
    u = user()
    reply = await u.ask(AskUser(question="What is your favourite colour?"), step=5)
    assert reply.text == UNKNOWN_ANSWER == "I don't know."
    assert reply.data == {"answer": "I don't know."}
    (q,) = u.asked
    assert (q.step, q.question, q.key, q.matched, q.source, q.answer) == (
        5,
        "What is your favourite colour?",
        None,
        None,
        "unknown",
        "I don't know.",
    )


class FakePersona:
    """A persona model stand-in that records what it was shown."""

    def __init__(self, reply: str | None) -> None:
        self.reply_text = reply
        self.seen: list[tuple[str, PersonaContext]] = []

    async def reply(self, question: str, context: PersonaContext) -> str | None:
        self.seen.append((question, context))
        return self.reply_text


async def test_a_configured_persona_answers_only_what_the_script_does_not() -> None:
    spec = {**SPEC, "persona": {"instructions": "A busy parent in Lyon."}}
    persona = FakePersona("Blue, I suppose.")
    u = user(spec, persona=persona, brief="Buy a charger.")
    assert await ask(u, "What shoe size?") == "42"
    assert await ask(u, "Favourite colour?") == "Blue, I suppose."
    assert [q.source for q in u.asked] == ["answer", "persona"]
    ((question, context),) = persona.seen
    assert question == "Favourite colour?"
    assert context == PersonaContext(
        instructions="A busy parent in Lyon.",
        brief="Buy a charger.",
        history=(("What shoe size?", "42"),),
    )
    silent = user(persona=FakePersona(None))
    assert await ask(silent, "Favourite colour?") == UNKNOWN_ANSWER
    assert silent.asked[0].source == "unknown"


async def approve(
    u: SimulatedUser, action: str, amount: float | None = None, currency: str | None = None,
    details: str = "",
) -> tuple[bool, str]:  # fmt: skip
    reply = await u.request_approval(
        RequestApproval(action=action, amount=amount, currency=currency, details=details), step=2
    )
    return reply.data["approved"], reply.text


@pytest.mark.parametrize(
    ("request_", "approved", "text"),
    [
        (("payment", 32.5, "USD"), True, "approved: Yes, go ahead."),
        (("payment", 40, "usd"), True, "approved: Yes, go ahead."),
        (("payment", 40.01, "USD"), False, "denied: No: 40.01 is over my limit of 40.00 USD."),
        (
            ("payment", None, None),
            False,
            "denied: Tell me the amount first; I approve up to 40.00 USD.",
        ),
        (
            ("payment", 30, "EUR"),
            False,
            "denied: Give me the amount in USD; I approve up to 40.00 USD.",
        ),
        (("Cancel subscription", None, None), True, "approved: Yes, go ahead."),
        (("delete account", None, None), False, "denied: Never delete my account."),
        (("transfer", 5, "USD"), False, "denied: I wasn't expecting that; please don't do it."),
    ],
)
async def test_approvals_follow_the_rules(
    request_: tuple[str, float | None, str | None], approved: bool, text: str
) -> None:
    u = user()
    assert await approve(u, *request_) == (approved, text)
    (record,) = u.approvals
    assert (record.step, record.action, record.approved) == (2, request_[0], approved)
    rules = {"Cancel subscription": "cancel_subscription", "delete account": "delete_account"}
    expected = None if request_[0] == "transfer" else rules.get(request_[0], "payment")
    assert record.rule == expected


async def test_an_approval_matches_a_rule_by_intent_and_is_recorded() -> None:
    u = user()
    assert await approve(u, "checkout", 12.0, "USD", "Pay for the USB-C charger") == (
        True,
        "approved: Yes, go ahead.",
    )
    assert await approve(u, "checkout", 65.0, "USD", "Pay for the 65 W charger") == (
        False,
        "denied: No: 65.00 is over my limit of 40.00 USD.",
    )
    assert [(a.rule, a.amount, a.currency, a.approved) for a in u.approvals] == [
        ("payment", 12.0, "USD", True),
        ("payment", 65.0, "USD", False),
    ]
    assert u.approvals[0].details == "Pay for the USB-C charger"
    assert u.approvals[0].time <= u.approvals[1].time


def test_steering_messages_arrive_once_at_their_step() -> None:
    u = user()
    assert u.messages_due(0) == ["I'm on my phone; keep it short."]
    assert u.messages_due(0) == []
    assert u.messages_due(2) == []
    assert u.messages_due(4) == ["Make it for four people, not two."]
    assert u.messages_due(9) == []
    assert [(m.at_step, m.delivered_step) for m in u.messages] == [(0, 0), (3, 4)]


async def test_facts_hold_everything_for_the_end_state() -> None:
    u = user()
    await ask(u, "What is the PIN?")
    await approve(u, "payment", 10, "USD")
    u.messages_due(3)
    facts = u.facts()
    assert isinstance(facts, UserFacts)
    assert [q.answer for q in facts.asked] == ["PLUM-4812-ORCHID"]
    assert [a.approved for a in facts.approvals] == [True]
    assert [m.delivered_step for m in facts.messages] == [3, 3]
    assert facts.secrets == ["tulip-RIVER-93", "PLUM-4812-ORCHID"]
    assert UserFacts.model_validate_json(facts.model_dump_json()) == facts


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"answers": {"Pin": "1"}}, "should match pattern"),
        ({"answers": {"pin": "1"}, "vault": {"pin": {"secret": "abcd"}}}, "both an answer and"),
        ({"answers": {"x": {"text": "1", "intent": {}}}}, "give keywords, a regex, or both"),
        ({"answers": {"x": {"text": "1", "intent": {"regex": "("}}}}, "invalid regular expression"),
        ({"approvals": {"pay": {"max_amount": -1}}}, "greater than or equal to 0"),
        ({"approvals": {"pay": {"currency": "dollars"}}}, "should match pattern"),
        ({"messages": [{"at_step": -1, "text": "x"}]}, "greater than or equal to 0"),
        ({"vault": {"pin": {"secret": "123"}}}, "at least 4 characters"),
    ],
)
def test_bad_user_specs_are_refused(spec: dict[str, Any], message: str) -> None:
    with pytest.raises(ValidationError) as info:
        User.model_validate(spec)
    assert message in str(info.value)
