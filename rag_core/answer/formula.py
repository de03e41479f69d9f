"""A small evaluator of the arithmetic a figure question asks for: + - * / and parentheses over
numbers and phrases, each phrase resolved to a cell's value by the caller (never ``eval``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from ..lexical.line_items import written_out


class Missing(Exception):
    """An operand no table row holds."""


_TOKEN = re.compile(r"\s*(?:(?P<number>\d+(?:\.\d+)?)(?![\w])|(?P<op>[-+*/×÷()])|(?P<words>[^-+*/×÷()]+))")


def formula_tokens(text: str) -> list[str]:
    """A formula's tokens: numbers, operators, parentheses and the phrases between them. A hyphen
    inside a word ('long-term assets', 'debt-to-equity') is the word's, not a minus."""
    out: list[str] = []
    for word, op in _WORD_OPERATORS:
        text = word.sub(f" {op} ", text)
    for match in _TOKEN.finditer(_WORD_HYPHEN.sub(_HYPHEN, text)):
        piece = match.group("number") or match.group("op") or (match.group("words") or "").strip()
        if piece:
            out.append({"×": "*", "÷": "/"}.get(piece, piece).replace(_HYPHEN, "-"))
    return out


_WORD_OPERATORS = ((re.compile(r"\bdivided by\b", re.IGNORECASE), "/"),
                   (re.compile(r"\b(?:multiplied by|times)\b", re.IGNORECASE), "*"),
                   (re.compile(r"\bplus\b", re.IGNORECASE), "+"),
                   (re.compile(r"\b(?:minus|less)\b(?!\s+than\b)", re.IGNORECASE), "-"))
"""Arithmetic a question writes in words ('total current assets divided by total current liabilities',
'operating cash flow less purchases of PP&E')."""
_WORD_HYPHEN = re.compile(r"(?<=[A-Za-z])-(?=[A-Za-z])")
_HYPHEN = "\u2010"


_TERM_DEFINED = re.compile(r"(?:^|[.?!]\s+)(?P<term>[A-Z][\w&%'-]*(?:\s+[\w&%'-]+){0,5}?)\s+is\s+(?:defined|"
                           r"calculated|computed)\s+as:?\s*(?P<formula>.+?)(?=\.\s|\.?$|\?)", re.DOTALL)
"""A term a question defines in a sentence of its own ('DIO is defined as: 365 * (average inventory …) / (FY2019
COGS).')."""
_NESTED = 3
"""Most levels of terms within terms a question defines (a cycle's days, each a formula of lines)."""


def with_terms(formula: str, text: str) -> str:
    """A formula with each term that ``text`` defines in a sentence of its own written out as that definition, in
    parentheses: 'DIO + DSO - DPO' of "CCC is defined as: DIO + DSO - DPO. DIO is defined as: 365 * (average
    inventory …) / (FY2019 COGS). DSO is …" is '(365 * (average inventory …) / (FY2019 COGS)) + (…) - (…)'. A term
    is a whole phrase of the formula; the formula as it is when the text defines none of its phrases."""
    defined = {m.group("term").strip().lower(): m.group("formula").strip() for m in _TERM_DEFINED.finditer(text)}
    for _ in range(_NESTED):
        tokens = formula_tokens(formula)
        if not any(token.lower() in defined for token in tokens):
            break
        formula = " ".join(f"({defined[token.lower()]})" if token.lower() in defined else token for token in tokens)
    return formula


_YEAR_END_BALANCE = re.compile(
    r"\b(?:at|as of)\s+(?:the\s+)?(?:fiscal\s+)?year[- ]end\b|\bat\s+the\s+end\s+of\s+the\s+(?:fiscal\s+)?year\b|"
    r"\b(?:year[- ]end|ending|end[- ]of[- ](?:the[- ])?year)\s+(?:(?!return\b|on\b)[\w'’]+\s+){0,4}?(?:equity|"
    r"assets|capital|inventor(?:y|ies)|receivables?|payables?|balances?)\b", re.IGNORECASE)
"""A balance a question asks to be taken at the year's end ('using total common shareholders' equity at year end',
'ending total assets'), not averaged over the year's two ends."""


def over_year_end(formula: str, question: str) -> str:
    """A textbook formula over an average balance ('net income / average shareholders' equity') over the balance at the
    year's end when the question says so and asks no average; the formula as it is otherwise."""
    if not _YEAR_END_BALANCE.search(question) or re.search(r"\baverage\b", question, re.IGNORECASE):
        return formula
    return re.sub(r"\baverage\s+", "", formula, flags=re.IGNORECASE)


def grouped(phrase: str) -> str:
    """A formula's part in parentheses when it holds arithmetic ('operating cash flow less capex'),
    so that a division after it divides the whole part; a single phrase as it is. A textbook amount no statement states
    is written out first ('EBITDA less capex', ``line_items.written_out``)."""
    phrase = written_out(phrase)
    whole = re.fullmatch(r"\([^()]*\)", phrase.strip()) is not None  # written out in parentheses already
    return f"({phrase})" if not whole and any(t in "+-*/" for t in formula_tokens(phrase)) else phrase


def evaluate(tokens: Sequence[str], operand: Callable[[str], tuple[float, str]] | None) -> tuple[float, str, int]:
    """The value of a formula's tokens, the formula shown with each operand's value, and its
    dimension (1: an amount, as its operands are; 0: a pure number, a ratio): + - * / and
    parentheses over numbers and phrases (each phrase an amount, its value and how it is shown
    from ``operand``). Raises ValueError for a formula it cannot read."""
    resolve = operand
    position = 0

    def peek() -> str | None:
        return tokens[position] if position < len(tokens) else None

    def take() -> str:
        nonlocal position
        position += 1
        return tokens[position - 1]

    def atom() -> tuple[float, str, int]:
        token = peek()
        if token is None:
            raise ValueError("the formula ends early")
        take()
        if token == "(":
            value, shown, unit = expression()
            if peek() != ")":
                raise ValueError("an unclosed parenthesis")
            take()
            return value, f"({shown})", unit
        if token == "-":
            value, shown, unit = atom()
            return -value, f"−{shown}", unit
        if re.fullmatch(r"\d+(?:\.\d+)?", token):
            return float(token), token, 0
        if token in "+*/)":
            raise ValueError(f"an operator where a value belongs: {token!r}")
        if resolve is None:
            raise ValueError(f"no value for {token!r}")
        value, shown = resolve(token)
        return float(value), str(shown), 1

    def term() -> tuple[float, str, int]:
        value, shown, unit = atom()
        while peek() in ("*", "/"):
            op = take()
            right, right_shown, right_unit = atom()
            if op == "/" and _operators_outside_parentheses(right_shown):  # an average's '(a + b) / 2'
                right_shown = f"({right_shown})"
            value, unit = (value * right, unit + right_unit) if op == "*" else (value / right, unit - right_unit)
            shown = f"{shown} {'×' if op == '*' else '/'} {right_shown}"
        return value, shown, unit

    def expression() -> tuple[float, str, int]:
        value, shown, unit = term()
        while peek() in ("+", "-"):
            op = take()
            right, right_shown, right_unit = term()
            value = value + right if op == "+" else value - right
            shown, unit = f"{shown} {op.replace('-', '−')} {right_shown}", max(unit, right_unit)
        return value, shown, unit

    value, shown, unit = expression()
    if position != len(tokens):
        raise ValueError(f"unread tokens: {tokens[position:]}")
    return value, shown, unit


def _operators_outside_parentheses(shown: str) -> bool:
    """Whether an operand as shown holds arithmetic outside parentheses ('(a + b) / 2', an average
    read for one phrase), so that after a division it must be written in parentheses of its own."""
    depth = 0
    for previous, char, following in zip(" " + shown[:-1], shown, shown[1:] + " ", strict=True):
        depth += (char == "(") - (char == ")")
        if depth == 0 and char in "+−×/" and previous == " " and following == " ":
            return True
    return False
