"""A small, documented vocabulary of financial statements and ratios, for search only.

A question about a ratio rarely names the lines it is computed from: "has the quick ratio improved?" is
answered on the balance sheet, by current assets and current liabilities, words the question lacks.
``expansion`` turns the ratios and statements it names into one more phrasing of those inputs and titles.

Entries are textbook definitions (the inputs of each ratio), not phrasings of any test question; the
evaluation (``python -m rag_core.eval financebench``) measures whether the phrasing helps.

The same entries say which *statements* hold a question's answer (``statements_named``), and
``statement_of`` recognizes a table chunk of such a statement by the title in its contextual header
("CONSOLIDATED BALANCE SHEETS", "Consolidated Statements of Operations") or by its rows, the statement's
own line items (``LINES``). Retrieval adds the chunks of the statements a question needs as one more
ranked list: a balance sheet's rows of figures rarely share a word with "has the quick ratio improved?".
A ratio asked for in plain words is read by its textbook name (``paraphrase``)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from .paraphrase import with_paraphrases
from .statement_names import BALANCE, CASH, COMPREHENSIVE, EQUITY, INCOME, METRICS, NOT_OFF, STATEMENTS, Statement
from .topics import DISCUSSION, SECTIONS, TOPICS

TITLES: dict[Statement, str] = {
    "balance_sheet": rf"{NOT_OFF}balance sheets?|statements? of (?:consolidated )?(?:financial (?:position|condition)|"
                     r"condition)",
    "income": r"statements? of (?:consolidated )?\(?(?:income|operations|earnings|loss)|income statements?|"
              r"profit (?:and|or) loss",
    "cash_flows": r"statements? of (?:consolidated )?cash flows?",
    "equity": r"statements? of (?:changes in )?(?:(?:stockholders|shareholders|owners)['’]? (?:\(deficit\) )?)?equity|"
              r"statements? of (?:stockholders|shareholders)['’]? investment",
    "comprehensive_income": r"statements? of comprehensive \(?(?:income|loss)",
}
"""How each statement is titled in reports, a loss first in parentheses included ("Consolidated
Statements of (Loss) Income"), and a bank's "Statements of Condition". "Statement of comprehensive
income" is not the income statement: the order of the checks below puts it first."""

_COMPILED = [(re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE), entry)
             for pattern, entry in (METRICS | STATEMENTS | {t: (words, ()) for t, words in TOPICS.items()}).items()]
STATEMENT_TITLES = re.compile(rf"\b(?:{'|'.join(STATEMENTS)})\b", re.IGNORECASE)
"""A statement named by its title ('the income statement', 'statement of cash flows'), not by a ratio of its lines."""
_METRICS = [re.compile(rf"\b(?:{pattern})\b", re.IGNORECASE) for pattern in METRICS]
_SECTIONS = [(re.compile(rf"\b(?:{topic})\b", re.IGNORECASE), title) for topic, title in SECTIONS.items()]
_DISCUSSION = re.compile(rf"\b(?:{DISCUSSION})\b", re.IGNORECASE)
_CHECK_ORDER: tuple[Statement, ...] = (COMPREHENSIVE, CASH, EQUITY, BALANCE, INCOME)
_TITLES = [(statement, re.compile(rf"\b(?:{TITLES[statement]})\b", re.IGNORECASE)) for statement in _CHECK_ORDER]
_HEADER_PARTS = " › "
SET_GAP = 2
"""Statement pages at most this far apart belong to one run (a continued page may sit between)."""


def expansion(question: str) -> str | None:
    """The inputs and statement titles of every ratio or statement the question names, as one
    phrasing (each term once), or None when it names none."""
    asked = with_paraphrases(question)
    words = dict.fromkeys(w for pattern, (terms, _) in _COMPILED if pattern.search(asked) for w in terms.split())
    return " ".join(words) or None


def statements_named(question: str) -> tuple[Statement, ...]:
    """The statements that hold the answer to a question: those it names, and those holding the
    inputs of the ratios it names, each once, in the order found."""
    asked = with_paraphrases(question)
    found = [s for pattern, (_, statements) in _COMPILED if pattern.search(asked) for s in statements]
    return tuple(dict.fromkeys(found))


def metrics_named(question: str) -> tuple[str, ...]:
    """The ratios and metrics a question names, as it words them ("operating margin"), each once."""
    asked = with_paraphrases(question)
    return tuple(dict.fromkeys(m.group(0).lower() for pattern in _METRICS if (m := pattern.search(asked))))


QUARTER = re.compile(r"\b(?:first|second|third|fourth|1st|2nd|3rd|4th)[- ](?:fiscal[- ])?quarter\b|\bq[1-4]\b|"
                     r"\b[1-4]q\b|\b(?:three|six|nine) months ended\b", re.IGNORECASE)
"""A question of a quarter's figure ('in the fourth quarter of fiscal 2012', 'Q4 2022'): the reader reads a
year's columns, and the year's total is no answer to it."""


def asks_why(question: str) -> bool:
    """Whether a question asks what drove a change ("What drove operating margin change?"): the
    report's discussion of its results answers it, not the statement that states the figures."""
    return _DISCUSSION.search(question) is not None


def sections_named(question: str) -> tuple[str, ...]:
    """The section titles (regular expressions) of the topics a question asks about, each once."""
    return tuple(dict.fromkeys(title for topic, title in _SECTIONS if topic.search(question)))


def heading_parts(header: str) -> list[str]:
    """The headings of a chunk's contextual header (``title › heading › … › caption``), without the
    document's own title."""
    return header.split("\n", 1)[0].split(_HEADER_PARTS)[1:]


STATEMENT_TEXT_FIGURES = 8
"""Figures (numbers that are not years) a text chunk's terms must hold to be read as a statement's
rows: a statement page whose table the finder missed is text dense with amounts, while the prose
under a statement's title (its notes' lead-in, 'The accompanying notes…') holds few."""

_AMOUNT = re.compile(r"\d[\d.]*")
_YEAR = re.compile(r"(?:19|20)\d\d")


LINES: dict[Statement, tuple[str, ...]] = {
    INCOME: (r"(?:total|net) (?:net )?(?:revenue|sale)", r"cost (?:good sold|sale|revenue|product)",
             r"gross (?:profit|margin)",
             r"operating (?:income|profit|loss)|income (?:loss )?operation", r"income (?:loss )?(?:before )?income tax|"
             r"earning (?:before )?income tax|provision (?:benefit )?income tax|income tax (?:expense|provision)",
             r"net (?:income|earning|loss)", r"(?:earning|income|loss) per (?:common )?share",
             r"research development", r"selling general administrative"),
    BALANCE: (r"total asset", r"total (?:current )?liabilit", r"total current asset", r"account receivable",
              r"account payable", r"inventor(?:y|ie)", r"(?:retained earning|accumulated deficit)",
              r"property plant equipment net", r"total liabilit (?:shareholder|stockholder|owner) equity|"
              r"total liabilit equity"),
    CASH: (r"operating activit", r"investing activit", r"financing activit", r"net cash (?:provided|used)",
           r"depreciation (?:depletion )?amortization", r"cash cash equivalent (?:end|beginning)",
           r"(?:purchase|addition|acquisition) property plant equipment|capital expenditure"),
    EQUITY: (r"balance (?:at )?(?:begin|end|\w+ \d{1,2} (?:19|20)\d\d)", r"dividend (?:declared|paid)",
             r"treasury stock", r"additional paid (?:in )?capital", r"common stock (?:issued|repurchased)|"
             r"(?:issuance|repurchase) common stock", r"stock[- ]based compensation|share[- ]based compensation"),
    COMPREHENSIVE: (r"other comprehensive (?:income|loss)", r"comprehensive (?:income|loss)",
                    r"foreign currency translation", r"unrealized (?:gain|loss|holding)",
                    r"reclassification"),
}
"""A statement's own line items, as BM25 terms read them (lower case, plural and stop words out:
'Net cash provided by operating activities' is 'net cash provided operating activity'): what a
statement's table is made of, whatever its title says. Textbook lines of each statement."""
_LINES = {statement: [re.compile(rf"\b(?:{line})") for line in lines] for statement, lines in LINES.items()}
STATEMENT_LINES = 3
"""Distinct line items of one statement a chunk's rows must hold, more than of any other, to be
read as that statement by its rows (a lease note's 'operating lease cost' table holds none)."""
_MENTION = re.compile(r"\b(?:in|on|from|to|within|into|per|under|see)\s+(?:(?:our|the|its|their|these|this|such)\s+)?"
                      r"(?:accompanying\s+)?(?:(?:consolidated|condensed|combined)\s+)*$", re.IGNORECASE)
"""What stands before a statement's name that a sentence mentions rather than a title gives ('Lease
cost recognized in our consolidated statements of operations')."""


def statement_of(header: str, kind: str, terms: str = "") -> Statement | None:
    """Which statement a chunk belongs to: a table chunk, or a text chunk whose ``terms`` hold
    ``STATEMENT_TEXT_FIGURES`` amounts or more (the rows of a statement read as text); None for
    prose. Read from the nearest title in its contextual header (``title › heading › … ›
    caption``; the document's own title is not read, nor a caption that mentions a statement in a
    sentence), and from its rows (``LINES``): rows that are another statement's line items override
    the title (a comprehensive income or equity statement, which repeat net income, aside), and
    rows alone recognize a table titled in words the titles do not know; a title whose rows are
    none of that statement's keeps it (a statement's table cut into chunks). Text chunks go by their
    title alone (an MD&A paragraph names the same lines)."""
    return _recognized(header, kind, terms)[0]


def _recognized(header: str, kind: str, terms: str) -> tuple[Statement | None, bool]:
    """``statement_of``, and whether a title says so (False: its rows alone)."""
    if kind != "table" and amounts(terms) < STATEMENT_TEXT_FIGURES:
        return None, False
    titled = _titled(header)
    rows = statement_by_lines(terms) if kind == "table" else None  # MD&A prose is dense with these lines too
    stands = rows in (None, titled) or titled in (COMPREHENSIVE, EQUITY) or _changes_in(titled, rows)
    if titled is not None and stands:
        return titled, True
    return rows, titled is not None


def _changes_in(titled: Statement | None, rows: Statement | None) -> bool:
    """A cash flow statement's working-capital lines name the balance sheet's items (changes in
    receivables, inventories, payables): under its title they are its rows, not a balance sheet."""
    return titled == CASH and rows == BALANCE


def _titled(header: str) -> Statement | None:
    for part in reversed(heading_parts(header)):
        for statement, title in _TITLES:
            for match in title.finditer(part):
                if not _MENTION.search(part[: match.start()]):
                    return statement
    return None


def statement_by_lines(terms: str) -> Statement | None:
    """The statement whose line items (``LINES``) a chunk's terms hold: ``STATEMENT_LINES`` or more
    distinct ones, and more than of any other statement; None otherwise."""
    if not terms:
        return None
    counts = sorted(((sum(1 for line in lines if line.search(terms)), statement)
                     for statement, lines in _LINES.items()), reverse=True)
    (best, statement), (second, _) = counts[0], counts[1]
    return statement if best >= STATEMENT_LINES and best > second else None


def amounts(terms: str) -> int:
    """How many of a chunk's terms are figures other than years."""
    return sum(1 for term in terms.split() if _AMOUNT.fullmatch(term) and not _YEAR.fullmatch(term))


def primary_statements(tags: Sequence[tuple[str, int, Statement | None]], gap: int = SET_GAP) -> list[bool]:
    """For each chunk (its document, page and statement): whether it belongs to one of its
    document's primary statements.

    A report's primary statements come as a set on consecutive pages: income statement,
    comprehensive income, balance sheet, cash flows, equity. A note's table that restates one of
    them (a balance sheet caption in a lease note, a segment's income statement) stands alone,
    and a schedule of the parent company's condensed statements comes later with fewer of them.
    So statement pages at most ``gap`` pages apart form a run, and the chunks of the run naming
    the most different statements in its document are the primary ones.
    """
    pages: dict[str, set[tuple[int, Statement]]] = {}
    for doc_id, page, statement in tags:
        if statement:
            pages.setdefault(doc_id, set()).add((page, statement))
    run_of: dict[tuple[str, int], int] = {}
    size: dict[int, int] = {}
    largest: dict[str, int] = {}
    for doc_id, found in pages.items():
        runs: list[list[tuple[int, Statement]]] = []
        for page, statement in sorted(found):
            if runs and page - runs[-1][-1][0] <= gap:
                runs[-1].append((page, statement))
            else:
                runs.append([(page, statement)])
        for run in runs:
            number = len(size)
            size[number] = len({statement for _, statement in run})
            largest[doc_id] = max(size[number], largest.get(doc_id, 0))
            run_of |= {(doc_id, page): number for page, _ in run}
    return [statement is not None and size[run_of[doc_id, page]] == largest[doc_id] for doc_id, page, statement in tags]


class Tagged(NamedTuple):
    """What recognizing a chunk's statement reads of it."""

    doc_id: str
    page: int
    header: str
    kind: str
    terms: str


def statement_tags(chunks: Sequence[Tagged]) -> list[tuple[Statement, bool] | None]:
    """Each chunk's statement and whether it is one of its report's primary ones (or None): table
    chunks by ``statement_of``, by their rows alone only for a statement no title of their document
    names; a statement of which a document has no table (the table finder missed it, or was off) from
    the document's text chunks under its title that are dense with amounts."""
    recognized = [_recognized(c.header, c.kind, c.terms) if c.kind == "table" else (None, False) for c in chunks]
    titled = {(c.doc_id, s) for c, (s, by_title) in zip(chunks, recognized, strict=True) if s and by_title}
    # rows alone name a statement no title of its report names: a titled report's segment or quarterly
    # table that repeats an income statement's lines is a note's, not a second statement
    statements = [s if by_title or (c.doc_id, s) not in titled else None
                  for c, (s, by_title) in zip(chunks, recognized, strict=True)]
    tabled = {(c.doc_id, s) for c, s in zip(chunks, statements, strict=True) if s}
    for n, chunk in enumerate(chunks):
        if chunk.kind != "table" and (found := statement_of(chunk.header, chunk.kind, chunk.terms)) and (
                chunk.doc_id, found) not in tabled:
            statements[n] = found
    primary = primary_statements([(c.doc_id, c.page, s) for c, s in zip(chunks, statements, strict=True)])
    return [(s, p) if s else None for s, p in zip(statements, primary, strict=True)]


def statement_pages(chunks: Sequence[Tagged]) -> dict[str, tuple[int, ...]]:
    """A document's primary statements and their pages ('income': (38,)), from its chunks."""
    pages: dict[str, set[int]] = {}
    for chunk, tag in zip(chunks, statement_tags(chunks), strict=True):
        if tag and tag[1]:
            pages.setdefault(tag[0], set()).add(chunk.page)
    return {statement: tuple(sorted(found)) for statement, found in sorted(pages.items())}
