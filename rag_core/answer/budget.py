"""The hard token budget: rendered prompt + reserved output <= limit, always.

Pure: the token counter and the prompt's builders are injected. Each passage is counted once, as
its own rendered block; the whole rendered chat (system, history, context and question) is counted
to fit the question and history, and once more at the end, which decides: a prompt over the limit
is never returned.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ..backends import TokenCounter
from ..models import Budget, Intent, Message, Passage
from ..settings import BudgetSettings
from ..tables.cuts import cut_order
from ..tables.lines import ROWS_LEFT_OUT, is_row
from ..text import sentence_ends
from .context import with_texts
from .prompts import build_messages, render_passage

Build = Callable[[str, Sequence[Message], Sequence[str]], list[Message]]
"""build(question, history, passage_texts) -> the full chat messages."""
Block = Callable[[int, str], str]
"""block(index, text) -> how passage ``index`` with this text is rendered in the prompt."""

_ELLIPSIS = " …"
JOIN_SLACK = 2
"""Tokens allowed per passage for where its block meets the next (a sum of separately counted
blocks can differ from the count of their join by a token or so)."""
SHORTEST_CUT = 12
"""Fewest tokens worth sending of a passage cut short."""
SENTENCE_KEEPS = 0.8
"""A passage is cut at a sentence's end when that keeps this share of the room's characters, else
between words (a table's rows have few sentence ends; fixed: where a cut falls, not how much is sent)."""
CUT_TRIES = 4
"""Counts tried to cut the overflowing passage, and to bring an over-long final prompt down (fixed: the
limit holds whatever the count; more tries only send a few more tokens)."""
CUT_SHRINK = 0.95
"""Each further try at a cut aims this share under the characters the last one's count allowed: a
passage's tokens per character vary along it, so aiming exactly at the room overshoots again."""


class Asked(NamedTuple):
    """What a table's rows are cut for: the question (the rows it names stay longest) and the sides
    of a comparison (their blocks stay longer than the others)."""

    question: str
    sides: tuple[str, ...] = ()
    keep: tuple[str, ...] = ()
    """The labels of the rows a figure was read from by code: a cut keeps them, as long as it keeps any row."""


class BudgetTooSmall(ValueError):
    """Not even the system prompt and a truncated question fit the limit."""


class _Counting:
    """A token counter that counts its own calls (the budget reports them)."""

    def __init__(self, counter: TokenCounter) -> None:
        self.counter = counter
        self.calls = 0

    def messages(self, messages: Sequence[Message]) -> int:
        self.calls += 1
        return self.counter.count_messages(messages)

    def text(self, text: str) -> int:
        self.calls += 1
        return self.counter.count_text(text)


def fit(
    build: Build,
    block: Block,
    question: str,
    history: Sequence[Message],
    passages: Sequence[str],
    counter: TokenCounter,
    *,
    limit: int,
    reserved_output: int,
    question_share: float,
    history_share: float,
    prompt_cap: int | None = None,
    whole: bool = False,
    table_share: float | None = None,
    sides: Sequence[str] = (),
    keep: Sequence[str] = (),
    together: int | None = None,
) -> Budget | None:
    """Fit question, history and passages (in rank order) into ``limit - reserved_output`` tokens,
    and into ``prompt_cap`` tokens when given (a model that reads slowly gets a shorter prompt).

    The question is cut to at most ``question_share`` of the room; the oldest history goes next,
    until it takes at most ``history_share``; then passages are added while their blocks' counts
    fit, the one that overflows is cut (in its table rows when text follows them, else at a sentence
    or word boundary), and the rest are dropped.
    With ``whole``, None is returned unless every passage fits uncut. With ``table_share``,
    a passage of table rows that other passages follow first loses rows (``table_cuts.cut_order``)
    until it takes at most that share of the room. ``sides``: the things a comparison compares, whose
    blocks of a table lose their rows last. ``keep``: the labels of the rows a figure was read from,
    which a table with nothing after it loses last too (a cut at its end would lose the bottom rows).
    ``together``: how many of the first passages must all be kept (those a figure was read from,
    over two statements; None: none): when they do not fit the room together, those over an even
    share of it lose rows (``_shares``), the figure's rows last.

    Raises:
        BudgetTooSmall: The fixed parts alone exceed the room.
    """
    room = limit - reserved_output
    if room <= 0:
        raise BudgetTooSmall(f"reserved output {reserved_output} leaves no room under the limit {limit}")
    count = _Counting(counter)

    question_truncated = False
    if count.messages(build(question, [], [])) > room * question_share:
        question = _longest_prefix(question, lambda text: count.messages(build(text, [], [])) <= room * question_share)
        question_truncated = True
        if not question:
            raise BudgetTooSmall(f"the system prompt alone exceeds {room * question_share:.0f} tokens")

    history = list(history)
    dropped = 0
    base = count.messages(build(question, [], []))
    skeleton = base
    if history:
        skeleton = count.messages(build(question, history, []))
        while history and skeleton > base + room * history_share:
            history.pop(0)
            dropped += 1
            skeleton = count.messages(build(question, history, []))

    cap = min(room, prompt_cap or room)
    asked = Asked(question, tuple(sides), tuple(keep))
    if table_share is not None and not whole:
        passages = [_within_share(i, text, int((cap - skeleton) * table_share), block, count, asked)
                    if i < len(passages) - 1 else text for i, text in enumerate(passages)]
    if together is not None and together > 1 and not whole:
        passages = _together(passages, together, cap - skeleton, block, count, asked)
    kept, per_passage, truncated, cut = _fill(passages, block, count, cap - skeleton, whole, asked)
    if whole and (cut or truncated is not None):
        return None
    messages = build(question, history, kept)
    prompt_tokens = count.messages(messages)
    for _ in range(CUT_TRIES):  # the blocks' sum fell short of the whole: bring the last passage down
        if prompt_tokens <= cap or not kept:
            break
        if whole:
            return None
        kept, per_passage, truncated, cut = _shorten(kept, per_passage, truncated, cut, prompt_tokens - cap,
                                                     passages, block, count, asked)
        messages = build(question, history, kept)
        prompt_tokens = count.messages(messages)
    if prompt_tokens > room:  # a bug if it ever happens: never send such a prompt (the cap may give way to a
        # long question, the limit never does)
        raise BudgetTooSmall(f"prompt {prompt_tokens} + reserved {reserved_output} exceeds the limit {limit}")
    return Budget(
        question=question,
        history=history,
        passages=kept,
        messages=messages,
        prompt_tokens=prompt_tokens,
        reserved_output=reserved_output,
        limit=limit,
        tokenizer=counter.name,
        kept=len(kept),
        truncated=truncated,
        cut=cut,
        question_truncated=question_truncated,
        history_dropped=dropped,
        passage_tokens=per_passage,
        prompt_cap=prompt_cap,
        tokenizer_calls=count.calls,
    )


def fit_prompt(
    intent: Intent, question: str, history: Sequence[Message], passages: Sequence[Passage], sides: Sequence[str],
    counter: TokenCounter, config: BudgetSettings, *, reserved: int, prompt_cap: int | None, whole: bool,
    brief: bool = False, settled: str = "", keep: Sequence[str] = (), together: int | None = None,
) -> Budget | None:
    """``fit`` for the answer's prompt (``prompts.build_messages``, each passage rendered as its own
    block, the instruction brief or not), with the budget's limit and shares; ``keep``: the rows
    the settled figure was read from, ``together``: how many passages it was read from (the first)."""
    return fit(
        lambda q, h, texts: build_messages(intent, q, with_texts(passages, texts), h, sides, brief, settled),
        lambda i, text: render_passage(passages[i].model_copy(update={"text": text})),
        question, history, [p.text for p in passages], counter,
        limit=config.token_limit, reserved_output=reserved, question_share=config.question_share,
        history_share=config.history_share, prompt_cap=prompt_cap, whole=whole,
        table_share=config.comparison_table_share if intent == "comparison" else None,
        sides=sides if intent == "comparison" else (), keep=keep, together=together,
    )


def _within_share(
    index: int, text: str, share: int, block: Block, count: _Counting, asked: Asked, tokens: int | None = None
) -> str:
    """A passage holding table rows with rows left out until its block takes at most ``share``
    tokens (``_cut_rows``); any other passage, or one that fits, or one no row cut fits, as it is.
    ``tokens``: its block's count when the caller has it."""
    if not any(is_row(line) for line in text.splitlines()):
        return text
    if (count.text(block(index, text)) + JOIN_SLACK if tokens is None else tokens) <= share:
        return text
    shorter = _cut_rows(index, text, share, block, count, asked)
    return shorter[0] if shorter is not None else text


def _together(
    passages: Sequence[str], together: int, room: int, block: Block, count: _Counting, asked: Asked
) -> list[str]:
    """The passages with the first ``together`` cut in their rows to their shares of ``room`` when
    their blocks do not fit it together (``_within_share``); the rest as they are."""
    sizes = [count.text(block(i, text)) + JOIN_SLACK for i, text in enumerate(passages[:together])]
    if sum(sizes) <= room:
        return list(passages)
    shares = _shares(sizes, room)
    return [_within_share(i, text, shares[i], block, count, asked, sizes[i]) if i < together else text
            for i, text in enumerate(passages)]


def _shares(sizes: Sequence[int], room: int) -> list[int]:
    """Each size's share of ``room``: the smaller ones whole while an even share of what is left
    holds them, the others an even share of the rest."""
    shares = [0] * len(sizes)
    left = room
    for done, i in enumerate(sorted(range(len(sizes)), key=sizes.__getitem__)):
        shares[i] = min(sizes[i], left // (len(sizes) - done))
        left -= shares[i]
    return shares


def _fill(
    passages: Sequence[str], block: Block, count: _Counting, room: int, whole: bool, asked: Asked
) -> tuple[list[str], list[int], int | None, list[int]]:
    """Passages added while their blocks (each counted once) fit ``room``; the one that overflows
    is cut at a boundary (or dropped), and every later one dropped. Returns the kept texts, the
    tokens of each, the index of the cut one and the indices of the dropped ones."""
    kept: list[str] = []
    per_passage: list[int] = []
    used = 0
    for index, text in enumerate(passages):
        tokens = count.text(block(index, text)) + JOIN_SLACK
        if used + tokens <= room:
            kept.append(text)
            per_passage.append(tokens)
            used += tokens
            continue
        if whole:
            return kept, per_passage, None, list(range(index, len(passages)))
        partial = _cut(index, text, tokens, room - used, block, count, asked)
        if partial is None:
            return kept, per_passage, None, list(range(index, len(passages)))
        kept.append(partial[0])
        per_passage.append(partial[1])
        return kept, per_passage, index, list(range(index + 1, len(passages)))
    return kept, per_passage, None, []


def _cut(
    index: int, text: str, tokens: int, room: int, block: Block, count: _Counting, asked: Asked
) -> tuple[str, int] | None:
    """The passage cut at a boundary so that its block fits ``room`` tokens, and its tokens; the
    cut is first placed by the block's tokens per character, then moved back while it overflows.
    None when fewer than ``SHORTEST_CUT`` tokens are free."""
    if room < SHORTEST_CUT:
        return None
    rows_cut = _cut_rows(index, text, room, block, count, asked)
    if rows_cut is not None:
        return rows_cut
    chars = len(text) * room / tokens
    for _ in range(CUT_TRIES):
        partial = _prefix_within(text, int(chars))
        if not partial:
            return None
        counted = count.text(block(index, partial + _ELLIPSIS)) + JOIN_SLACK
        if counted <= room:
            return partial + _ELLIPSIS, counted
        chars = len(partial) * room / counted * CUT_SHRINK
    return None


def _shorten(
    kept: list[str], per_passage: list[int], truncated: int | None, cut: list[int], excess: int,
    passages: Sequence[str], block: Block, count: _Counting, asked: Asked,
) -> tuple[list[str], list[int], int | None, list[int]]:
    """The kept passages with the last one ``excess`` tokens shorter (cut again), or dropped."""
    index = len(kept) - 1
    text = kept[index].removesuffix(_ELLIPSIS) if truncated == index else passages[index]
    partial = _cut(index, text, per_passage[index], per_passage[index] - excess - JOIN_SLACK, block, count, asked)
    later = list(range(index + 1, len(passages)))
    if partial is None:
        return kept[:index], per_passage[:index], None, [index, *later]
    return [*kept[:index], partial[0]], [*per_passage[:index], partial[1]], index, later


def _cut_rows(
    index: int, text: str, room: int, block: Block, count: _Counting, asked: Asked
) -> tuple[str, int] | None:
    """A passage whose table rows are followed by text (the paragraph that reads the table, the
    next section) cut in its rows: rows left out in ``table_cuts.cut_order`` (details from the last
    up, then the totals, then the rows the question names; a block's row of names with the last
    of its rows), each run of them one
    ``ROWS_LEFT_OUT`` line, and everything that is not a row kept. A prefix cut would drop the
    text after the table first, though a table's discussion states in a few sentences what a
    hundred cells show, and a cut of the last rows would drop the last block's 'Overall' line
    before the first block's details. The fewest rows to leave out are found by binary search;
    None when the passage has no text after its rows nor a row a figure was read from (``Asked.keep``,
    left out last: a prefix cut would lose a statement's bottom rows), or when it does not fit with one
    row kept."""
    lines = text.splitlines()
    rows = [i for i, line in enumerate(lines) if is_row(line)]
    kept = [i for i in rows if any(label and label in lines[i] for label in asked.keep)]
    if not rows or not (kept or any(line.strip() and line.strip() != ROWS_LEFT_OUT for line in lines[rows[-1] + 1:])):
        return None
    order, blocks = cut_order(text, question=asked.question, sides=asked.sides)
    order = [*(i for i in order if i not in kept), *(i for i in order if i in kept)]  # a figure's rows go last
    best: tuple[str, int] | None = None
    low, high = 1, len(order) - 1
    while low <= high:
        middle = (low + high) // 2
        dropped = set(order[:middle])
        dropped |= {names for names, labelled in blocks.items() if set(labelled) <= dropped}
        candidate = _without_rows(lines, dropped)
        counted = count.text(block(index, candidate)) + JOIN_SLACK
        if counted <= room:
            best, high = (candidate, counted), middle - 1
        else:
            low = middle + 1
    return best


def _without_rows(lines: Sequence[str], dropped: set[int]) -> str:
    """The lines with those at ``dropped`` left out, each run of left-out rows (and a mark left
    by an earlier cut next to it) written as one ``ROWS_LEFT_OUT`` line."""
    out: list[str] = []
    for i, line in enumerate(lines):
        if i in dropped or line.strip() == ROWS_LEFT_OUT:
            if not out or out[-1] != ROWS_LEFT_OUT:
                out.append(ROWS_LEFT_OUT)
        else:
            out.append(line)
    return "\n".join(out)


def _prefix_within(text: str, chars: int) -> str:
    """The longest prefix of at most ``chars`` characters ending at a sentence boundary that keeps
    most of them (``SENTENCE_KEEPS``), else at a word boundary, else anywhere (unbroken text)."""
    if chars <= 0:
        return ""
    sentence_stops = [stop for stop, _ in sentence_ends(text, lines=True)]
    word_stops = [m.start() for m in re.finditer(r"\s+", text)]
    for stops, keeps in ((sentence_stops, SENTENCE_KEEPS), (word_stops, 0.0)):
        ends = [stop for stop in stops if 0 < stop <= chars]
        if ends and ends[-1] >= keeps * chars:
            return text[: ends[-1]].rstrip()
    return text[:chars].rstrip()


def _longest_prefix(text: str, fits: Callable[[str], bool]) -> str:
    """The longest prefix that fits, ending at a sentence boundary if one fits, else at a word
    boundary, else anywhere (unbroken text); each found by binary search."""
    for cuts in (
        [stop for stop, _ in sentence_ends(text, lines=True)],
        [m.start() for m in re.finditer(r"\s+", text)],
        range(1, len(text)),
    ):
        best = _search(text, list(cuts), fits)
        if best:
            return best
    return ""


def _search(text: str, cuts: list[int], fits: Callable[[str], bool]) -> str:
    best = ""
    low, high = 0, len(cuts) - 1
    while low <= high:
        middle = (low + high) // 2
        candidate = text[: cuts[middle]].rstrip()
        if candidate and fits(candidate):
            best = candidate
            low = middle + 1
        else:
            high = middle - 1
    return best
