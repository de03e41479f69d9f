"""A question without what surrounds it: role-play ("Assume that you are an analyst."), task
prefaces, answer-format instructions ("Round your answer to two decimal places") and the leads of a
question after a colon are taken out; the statements they name are kept (``clean_query``)."""

from __future__ import annotations

import re

from ..text import sentences_of

_ROLE = re.compile(
    r"^(?:please\s+)?(?:(?:assume|imagine|suppose|pretend)(?:\s+that)?\s+you(?:'re|\s+are)\b|you\s+are\s+(?:an?|the)\s|"
    r"act\s+as\b|as\s+an?\s+[\w\s-]{0,40}?(?:analyst|expert|investor|advisor|adviser|consultant|accountant)\b)",
    re.IGNORECASE,
)
_IMPERATIVE = re.compile(
    # after an optional opening phrase ("Basing your judgment on the annual report, answer …")
    r"^(?:[^,.?!]{1,160},\s*)?(?:please\s+)?(?:answer|respond|reply|give|provide|calculate|compute|extract|base|"
    r"round|express|report|use|present|format|write|state|show|return|output|keep|be|think|reason|explain|make|"
    r"include|rely|help|address|approach|tackle)\b",
    re.IGNORECASE,
)
_ABOUT_ANSWER = re.compile(
    r"\b(?:your|(?:the|a|an)\s+(?:final\s+|following\s+|above\s+)?(?:answer|response|question|reply|output))\b|"
    r"^(?:please\s+)?(?:answer|respond|reply)\s+(?:in|with|using|as|by|only|briefly|concisely)\b|"
    r"^(?:please\s+)?round\b|\bstep[- ]by[- ]step\b|\bconcise\b",
    re.IGNORECASE,
)
_TASK_PREFACE = re.compile(
    r"^(?:we|i)\s+(?:want|need|would\s+like|are\s+trying|am\s+trying)\s+to\s+(?:calculate|compute|work\s+out|"
    r"derive|estimate|approximate)\s+(?:a|an|some|the\s+following)\s+(?:[\w-]+\s+){0,3}?(?:metric|ratio|measure|"
    r"figure|number|value|approximation|estimate)s?\b",
    re.IGNORECASE,
)
"""A sentence that announces a task in general ('We want to calculate a financial metric.', 'We need to
calculate a reasonable approximation (or exact number if possible) of a financial metric by using
the balance sheet.': the statements it names are kept); one that names its figure ('We want to
calculate the FY2019 current ratio.') is the question itself."""
_QUESTION_LEAD = re.compile(
    r"^(?:(?:so\s+)?(?:here(?:'s|’s|\s+is)|this\s+is)\s+(?:the|my|our)\s+question|(?:the|my|our)\s+question(?:\s+is)?"
    r"|question|.{0,200}?\b(?:please\s+)?(?:answer|respond|tell\s+(?:me|us))(?:\s+(?:this|the\s+following))?)\s*$",
    re.IGNORECASE,
)
"""What leads a question after a colon ("Here's the question: what is X?", "Using the filing's
relevant sections, please answer: what is X?")."""
_QUESTION_FOLLOWS = re.compile(r"(\b(?:following|the|this|my|our)\s+question\s*\.)\s+", re.IGNORECASE)
"""Where an instruction hands over to the question ("… answer the following question. what is X")."""
_INSTRUCTION_START = re.compile(
    r"(?<=[a-z0-9)%])\s+(?=(?:Please|Keep|Round|Answer|Give|Show|Express|Report|Provide|Respond|Explain)\b)"
)
"""An instruction that begins, capitalised, right after a question that has no '?' ("… in the black
stallion Keep the answer short")."""
_CONDITIONAL_INSTRUCTION = re.compile(
    r"^if\b.*\b(?:then\s+)?(?:please\s+)?(?:state|say|answer|respond|return|write|mark|explain)\b", re.IGNORECASE
)
_INLINE_FORMAT = re.compile(
    r"[,;]?\s*\(?\b(?:round(?:ed)?(?:\s+(?:off|up|down))?\s+to\s+(?:the\s+nearest\s+)?[\w\s]{0,30}?"
    r"(?:decimal\s+places?|decimals?|digits?|places?|percent|dollars?|cents?|millions?|billions?|thousands?|"
    r"whole\s+numbers?|integers?)|(?:answer|expressed|reported|given)\s+in\s+(?:units\s+of\s+)?[\w$%\s]{0,25}?"
    r"(?:millions|billions|thousands|percents?|percentages?|dollars))\b\)?",
    re.IGNORECASE,
)
_STATEMENT = re.compile(
    r"\b(?:(?:consolidated\s+)?(?:balance\s+sheets?|income\s+statements?|cash\s+flows?\s+statements?|"
    r"statements?\s+of\s+(?:financial\s+(?:position|condition)|(?:comprehensive\s+)?income|operations|earnings|"
    r"cash\s+flows?|(?:stockholders|shareholders)['’]?\s+equity)|p&l(?:\s+statements?)?|"
    r"profit\s+and\s+loss(?:\s+statements?)?|notes\s+to\s+(?:the\s+)?(?:consolidated\s+)?financial\s+statements|"
    r"management['’]s\s+discussion\s+and\s+analysis|md&a))(?![\w&])",
    re.IGNORECASE,
)


def clean_query(question: str) -> str:
    """The question for search: role-play and answer-format instructions out, the statements they
    named kept. A sentence that asks (ends with '?') is never dropped.

    >>> clean_query("Assume that you are an analyst. What is the FY2019 revenue? Round your answer to "
    ...             "two decimal places. Base your judgments on the balance sheet.")
    'What is the FY2019 revenue? balance sheet'
    """
    kept: list[str] = []
    dropped: list[str] = []
    # a question written in lower case or without its '?' ("… answer the following question. how many
    # judges …", "… how many judges … Keep the answer short.") is a sentence of its own all the same
    parted = _INSTRUCTION_START.sub("\n", _QUESTION_FOLLOWS.sub("\\1\n", question))
    for sentence in sentences_of(parted, lines=True):
        if not sentence:
            continue
        asks = sentence.rstrip().endswith("?")
        lead, colon, rest = sentence.partition(":")
        if colon and rest.strip() and ((asks and _is_instruction(lead)) or _QUESTION_LEAD.match(lead.strip())):
            # "Answer the following question using the balance sheet: what is X?" -> "what is X?"
            dropped.append(lead)
            sentence = rest.strip()
        role = _ROLE.match(sentence)
        if role and asks:
            # "Assume you are an analyst: what is X?" -> the question after the role
            after = re.split(r"[:;,.]\s+", sentence[role.end():], maxsplit=1)
            dropped.append(sentence)
            sentence = after[1] if len(after) == 2 else sentence
        elif not asks and (role or _is_instruction(sentence)):
            dropped.append(sentence)
            continue
        without_format = _INLINE_FORMAT.sub("", sentence).strip()
        if without_format != sentence:
            dropped.append(sentence)
        kept.append(without_format)
    text = " ".join(s for s in kept if s).strip()
    named = [m.group(0).strip() for s in dropped for m in _STATEMENT.finditer(s)]
    missing = [n for n in dict.fromkeys(n.casefold() for n in named) if n not in text.casefold()]
    cleaned = " ".join([text, *missing]).strip()
    return cleaned or question.strip()


def _is_instruction(text: str) -> bool:
    """An answer-format instruction: an imperative about the answer, 'If …, then state …', or a
    preface announcing the task."""
    text = text.strip()
    return bool(
        (_IMPERATIVE.match(text) and _ABOUT_ANSWER.search(text)) or _CONDITIONAL_INSTRUCTION.match(text)
        or _TASK_PREFACE.match(text)
    )
