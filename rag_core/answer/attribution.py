"""Checking an answer after it is written, without another LLM call.

The answer is split into statements (sentences, bullets, table rows). Each statement is scored
against every passage of the prompt: the cosine of their embeddings (the loaded embedder), the
share of the statement's content terms found in the passage, and the share of its numbers found
there; a statement quoted word for word from a passage scores 1 against it. The citations the
model made are kept and judged; when it cited nothing, or cited a passage that does not support
the statement, the best supporting passage is attached as the system's own citation. A statement
no passage supports is marked, and so is every number found in no passage of the context, and so
is a statement that turns round a comparison the passages make, or guesses ('may') where they do
not (``claims.doubts``), however alike its words are to theirs.

A number found only in table cells is also checked against the cells' headers: when the
statement names a row or a column of that table ('LightRAG', 'Comprehensiveness') and no cell
holding the number sits under a name it gives, the number was read from the wrong column or row
('32.4% is under Agriculture › NaiveRAG'), and it is marked as unverified, with that reason.

What a figure means is read too (``meaning``): a table's value said to be a change is marked;
arithmetic a statement shows is evaluated, its result verified when it follows from the passages'
figures; a figure in no passage names the step over a passage's figures that gives it; a figure
said with a scale word its table's unit does not give ('$126,375 million' of a table in thousands)
is marked with the amount it is.

The thresholds live in ``AttributionSettings`` and were chosen on a labelled set
(``python -m rag_core.eval attribution``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from ..backends import Embedder
from ..lexical.figure_name import YEAR, at_year_end
from ..lexical.line_items import LINE_ITEMS
from ..models import AttributionSummary, Passage, Statement
from ..settings import AttributionSettings
from ..tables.lines import prose_lines
from ..text import CITATION, sentences_of
from .claims import course, doubts
from .computed import Computed
from .figure_cells import Row, table_rows
from .figure_course import SINCE
from .meaning import (
    Said,
    Shown,
    Units,
    arithmetic_note,
    derivation,
    in_its_unit,
    in_place_of,
    said_as_change,
    said_in_other_unit,
    sentences_said,
    shown_arithmetic,
    units_of,
    wrong_arithmetic,
)
from .numbers import BULLET, Cell, Number, clause_terms, content_terms, misread, number_in, numbers, table_cells
from .row_words import BEFORE
from .said_rows import another_row, said_by
from .said_years import another_year, carried_years

_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$")
_HEADING = re.compile(r"^\s*#{1,6}\s+")
_QUOTE_CHARS = 20
"""A statement at least this long found word for word in a passage is supported by it."""


def split_statements(answer: str) -> list[str]:
    """The answer's statements in order: each bullet, numbered item and table row alone, and
    prose cut into sentences (not after 'e.g.' or inside '84.8%'). A citation after a full stop
    stays with its sentence; headings, table rules, a table's header row and uncited lead-in lines
    ending with ':' are not statements."""
    statements: list[str] = []
    lines = answer.splitlines()
    for i, line in enumerate(lines):
        if not line.strip() or _TABLE_RULE.match(line) or _HEADING.match(line) and len(line) < 80:
            continue
        if line.rstrip(" *_").endswith(":") and not CITATION.search(line):
            continue  # a lead-in to a list ('Strengths:', 'Most relevant passages:'), not a claim
        if line.lstrip().startswith("|") and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]):
            continue  # a Markdown table's header row names columns; it claims nothing
        if line.lstrip().startswith("|"):
            statements.append(line.strip())
            continue
        body = BULLET.sub("", line).strip()
        statements.extend(sentences_of(body))
    return [s for s in statements if re.search(r"\w", CITATION.sub("", s))]


def cited_numbers(statement: str) -> list[int]:
    """The passage numbers a statement cites, in order, each once."""
    found = [int(n) for match in CITATION.finditer(statement) for n in re.split(r"\s*[,;]\s*", match.group(1))]
    return list(dict.fromkeys(found))


def _folded(text: str) -> str:
    """Lowercase words and figures only, for finding a statement quoted word for word."""
    return " ".join(re.findall(r"\w+(?:[.,%]\w+)*%?", CITATION.sub(" ", text).lower()))


def attribute(
    answer: str,
    passages: Sequence[Passage],
    embedder: Embedder | None,
    settings: AttributionSettings,
    passage_vectors: Sequence[np.ndarray | None] | None = None,
    computed: Sequence[Computed] = (),
) -> tuple[list[Statement], AttributionSummary]:
    """Every statement of ``answer`` with its citations judged, attributed citations added where
    needed, a support score, and its numbers found in no passage.

    Args:
        answer: The answer text, with the model's [n] citations.
        passages: The passages of the prompt, numbered as the model saw them.
        embedder: The loaded embedder; None scores by terms and numbers alone.
        settings: Weights and thresholds.
        passage_vectors: Per passage, the stored vectors of its chunks (one row each; the best
            row counts), or None to embed that passage's text.
        computed: Figures computed by code from cited cells, shown with their formula in the
            answer: verified though no passage states them, and a statement of one about the rows
            it was computed from is supported by its cells' passages. Any other figure no passage
            states is marked.
    """
    statements = split_statements(answer)
    if not statements or not passages:
        return [], AttributionSummary()
    similarity = _similarities(statements, passages, embedder, passage_vectors)
    read = [p.text if p.columns.strip() in p.text else f"{p.columns}\n{p.text}" for p in passages]  # its years too
    passage_terms, passage_text = [content_terms(text) for text in read], [_folded(text) for text in read]
    passage_numbers = [numbers(text) for text in read]
    everywhere = [n for group in passage_numbers for n in group]
    shown = [n for figure in computed if not figure.read for n in numbers(figure.shown)]  # computed, not read
    cells = table_cells(passages)
    prose = [n for p in passages for n in numbers("\n".join(prose_lines(p.text)))]
    index_of = {p.n: i for i, p in enumerate(passages)}
    rows = table_rows(passages)
    context = _Figures(everywhere, shown, computed, cells, prose, passage_numbers, units_of(passages, rows, prose),
                       rows, sentences_said(passages))
    results = []
    for s, statement in enumerate(statements):
        terms = content_terms(at_year_end(statement)) | carried_years(statement, statements[:s])  # of a year said
        stated = numbers(statement, days=False)
        folded = _folded(statement)
        quoted_in = [len(folded) >= _QUOTE_CHARS and folded in text for text in passage_text]
        equations = shown_arithmetic(statement)
        notes = [(number, "" if any(quoted_in)  # a quotation states the passage's own figures
                  else _note(statement, number, terms, equations, context)) for number in stated]
        checkable = [number for number, note in notes if not note]
        by_arithmetic = [n for n in checkable if not number_in(n, everywhere) and not number_in(n, shown)]
        weighed = [n for n in stated if n not in by_arithmetic]  # a shown result rests on its inputs
        scores = [
            1.0
            if quoted_in[i]
            else _support(similarity[s, i], terms, passage_terms[i], weighed, checkable, passage_numbers[i], settings)
            for i in range(len(passages))
        ]
        cited = [n for n in cited_numbers(statement) if n in index_of]
        supported_cited = [n for n in cited if scores[index_of[n]] >= settings.support_threshold]
        ways = [(figure, agrees) for figure in computed if figure.change is not None
                and (agrees := course(statement, figure.name, figure.change)) is not None]
        by_code = _computed_support(statement, notes, shown, everywhere, computed) or next(
            (figure.passages for figure, agrees in ways if agrees), ())  # 'Yes, its gross margin is improving'
        supported_cited += [n for n in cited if n in by_code and n not in supported_cited]
        doubted = doubts(statement, passages, settings.hedge_term_share, statements[:s]) if settings.claims else []
        doubted += [f"{figure.name} went {'up' if (figure.change or 0) > 0 else 'down'} ({figure.shown}, computed by "
                    "code from the tables), not the way this says" for figure, agrees in ways[:1] if not agrees]
        doubted += [note for number, note in notes if _misread(number, note)]
        if doubted:
            supported_cited = []  # the passages refute it or never say it, however alike the words
        attributed: list[int] = []
        if not supported_cited and not doubted:
            best = max(range(len(passages)), key=lambda i: scores[i])
            if scores[best] >= settings.support_threshold and passages[best].n not in cited:
                attributed = [passages[best].n]
            elif by_code:
                attributed = [n for n in by_code if n in index_of and n not in cited][:1]
        used = [index_of[n] for n in [*supported_cited, *attributed]] or [index_of[n] for n in cited]
        support = max((scores[i] for i in used), default=max(scores))
        results.append(
            Statement(
                text=statement,
                cited=cited,
                attributed=attributed,
                cited_supported=[n in supported_cited for n in cited],
                support=round(float(support), 4),
                supported=bool(supported_cited or attributed),
                unverified_numbers=[number.text for number, note in notes if note],
                number_notes=[note for _, note in notes if note],
                numbers=len(stated),
                notes=doubted,
            )
        )
    return results, summarize(results)


def _misread(number: Number, note: str) -> bool:
    """Whether a number's note says the passages give it another meaning than the statement does (another row,
    unit, period, or a computation for something else), not merely that no passage states it: the statement is
    then not theirs ("ABIOMED held $5,990 thousand in cash and short-term marketable securities combined", where
    5,990 is the row 'Cash and cash equivalents' and the combined figure 77,223)."""
    return bool(note) and not note.startswith(f"{number.text} {_NOWHERE}")


_NOWHERE = "is in no passage"
"""A number's note when no passage states it: no other meaning of it, only none (``_misread``)."""


class _Figures(NamedTuple):
    """The passages' figures a statement's numbers are judged against."""

    everywhere: Sequence[Number]
    shown: Sequence[Number]
    """Figures code computed and the answer shows with their formula."""
    computed: Sequence[Computed]
    cells: Sequence[Cell]
    prose: Sequence[Number]
    per_passage: Sequence[Sequence[Number]]
    units: Units
    """The passages' figures by the unit stated for them."""
    rows: Sequence[Row]
    """The passages' table rows and the sentences that are rows by year."""
    said: Sequence[Said]
    """The sentences of the passages that state figures, a statement may repeat."""


def _opening_years(statement: str) -> set[str]:
    """The years a statement names as where a span up to now opens ('increased 14.5% since 2020, from $58,158 million
    to $66,608 million'): no column of its figures, which are of that year and of the latest."""
    return {year for found in SINCE.finditer(statement) for year in YEAR.findall(found.group())}


def _note(statement: str, number: Number, terms: set[str], equations: Sequence[Shown], figures: _Figures) -> str:
    """Why a stated number is not verified, or '' when it is: a passage's figure read from its cell under the names
    the statement gives and with the meaning it gives (``meaning``), not the result of wrong arithmetic it shows; a
    figure code computed, stated of its rows; or the result of arithmetic the statement shows, right, over the
    passages' figures. A figure in no passage names the step that gives it when one does. A figure said by another
    row's name is marked first, whatever else the statement says of it (``said_rows``)."""
    other_row = another_row(statement, number, figures.cells, figures.prose)
    if other_row:
        return other_row
    if _written_out(statement, number, figures.computed):
        return ""
    if number_in(number, figures.everywhere) or number_in(number, figures.shown):
        if _read_as_named(statement, number, terms, figures.computed):  # the cell code read, said by its row's name
            return wrong_arithmetic(number, equations)  # or the heading it was read under
        return (wrong_arithmetic(number, equations)
                or _number_note(number, terms, figures.shown, figures.everywhere, figures.computed)
                or misread(number, terms - _opening_years(statement), figures.cells, figures.prose,
                           before=bool(BEFORE.search(statement)), said=clause_terms(statement, number),
                           by=content_terms(said_by(statement, number)))
                or ("" if number_in(number, figures.shown) else said_as_change(statement, number, figures.cells,
                                                                               figures.prose))
                or said_in_other_unit(number, figures.units)
                or in_place_of(statement, number, terms, figures.said)
                or another_year(statement, number, figures.rows, figures.prose, figures.cells,
                                _opening_years(statement)))
    if in_its_unit(number, figures.units):
        return ""  # '$126,375,000' of a table in thousands
    arithmetic = arithmetic_note(number, equations, figures.everywhere)
    if arithmetic is not None:
        return arithmetic
    step = derivation(number, figures.per_passage)
    return f"{number.text} {_NOWHERE}" + (f"; it is {step}, computed without showing how" if step else "")


def _read_as_named(statement: str, number: Number, terms: set[str], computed: Sequence[Computed]) -> bool:
    """Whether the number is a cell code read as it is (its amount, when said with a scale word), and the statement
    names every word of its row's label or of the heading it was read under ('The diluted earnings per share in fiscal
    2009 was $0.85' of 'Net income(1) | $0.85' under 'Earnings per share-diluted:', which a list's 'Total …' line cuts
    off from its lead-ins) and no year but its column's; or every word and year of what the answer's lead calls it ('The
    debt maturing after 2024 is $1,650 million' of a schedule's 'Thereafter' row read as 'Debt maturing after 2024')."""
    years = set(YEAR.findall(at_year_end(statement))) - _opening_years(statement)
    return any(figure.read and number_in(number, numbers(figure.shown)) and figure.said_as(number)
               and (years <= set(YEAR.findall(figure.column)) and any(
                   (named := {term for term in content_terms(name) if "-" not in term}) and named <= terms
                   for name in figure.names) or figure.called(statement, terms)) for figure in computed)


def _number_note(number: Number, terms: set[str], shown: Sequence[Number], everywhere: Sequence[Number],
                 computed: Sequence[Computed]) -> str:
    """For a figure code computed (shown with its formula, stated by no passage): '' when the
    statement names a row it was computed from, else what it was computed for. '' for any other."""
    if not number_in(number, shown) or number_in(number, everywhere):
        return ""
    elsewhere = _computed_for_others(number, terms, computed)
    return f"{number.text} is computed for {elsewhere}, not for what this names" if elsewhere else ""


def _written_out(statement: str, number: Number, computed: Sequence[Computed]) -> bool:
    """Whether the number is one of a computation code did and the statement writes out whole ('… 58.62, computed
    from the document's figures: 365 × (2,994 [1] + 3,183 [1]) / 2 / 19,232 [2] = 58.62', its citations aside) or
    states each of its figures in its own words (``_restates``): an input code read from its cell (shown on the
    debug page), a constant of the formula (365 days), or its result, whatever other rows the statement's words
    name ('the share of net income paid out as dividends' names 'Net income' and 'Other — net')."""
    plain = _formula_text(statement)
    return any(figure.formula and (_formula_text(figure.formula) in plain or _restates(statement, figure))
               and number_in(number, numbers(figure.formula)) for figure in computed)


def _restates(statement: str, figure: Computed) -> bool:
    """Whether a statement states every figure of a computation code did, its inputs and its result, in its own
    words ('computed by dividing $106,925 [1] by $126,375 [1], resulting in a percentage of 84.6%')."""
    said = numbers(statement)
    return bool(figure.formula) and all(number_in(n, said) for n in numbers(figure.formula))


def _formula_text(text: str) -> str:
    return re.sub(r"\s+", "", CITATION.sub("", text))


def _computed_for_others(number: Number, terms: set[str], computed: Sequence[Computed]) -> str:
    """The rows a computed figure is of when the statement names none of them ('3.5%' of Net sales), else ''."""
    of = [figure.about for figure in computed if number_in(number, numbers(figure.shown))]
    return "" if not of or any(_names_rows(terms, about) for about in of) else " and ".join(of)


_REPORT_NAMES = [{frozenset(content_terms(label)) for label in labels} for labels in LINE_ITEMS.values()]


def _names_rows(terms: set[str], about: str) -> bool:
    """Whether a statement names a figure's rows, by their words or another name reports give them ('capex')."""
    rows = content_terms(about)
    return bool(rows & terms) or any(any(n <= rows for n in ns) and any(n <= terms for n in ns) for ns in _REPORT_NAMES)


def _computed_support(statement: str, notes: Sequence[tuple[Number, str]], shown: Sequence[Number],
                      everywhere: Sequence[Number], computed: Sequence[Computed]) -> tuple[int, ...]:
    """The passages whose cells support a statement by code: it states a computed figure (one no passage states) or a
    figure code read from its cell, every figure it states is verified, and it names the rows the figure was computed
    or read from ('Net sales grew by 3.5%' of (32,765 − 31,657) / 31,657 over 'Net sales'), by another name reports
    give them, or what it is ('gross profit'; 'Debt maturing after 2024' of 'Thereafter'), or restates its workings."""
    stated = [number for number, _ in notes]
    if not stated or any(note for _, note in notes):
        return ()
    terms = content_terms(statement)
    for figure in computed:
        figure_numbers = numbers(figure.shown)
        states_it = any(number_in(n, figure_numbers) and (figure.read or not number_in(n, everywhere)) for n in stated)
        if states_it and (_names_rows(terms, figure.about) or figure.called(statement, terms)
                          or _restates(statement, figure)):
            return figure.passages
    return ()


def summarize(statements: Sequence[Statement]) -> AttributionSummary:
    stated = sum(s.numbers for s in statements)
    return AttributionSummary(
        statements=len(statements),
        supported=sum(s.supported for s in statements),
        numbers=stated,
        numbers_verified=stated - sum(len(s.unverified_numbers) for s in statements),
    )


def _support(
    cosine: float,
    terms: set[str],
    passage_terms: set[str],
    stated: Sequence[Number],
    checkable: Sequence[Number],
    passage_numbers: Sequence[Number],
    settings: AttributionSettings,
) -> float:
    """cosine, term share and number share, weighted; without numbers, their weight goes to the
    other two in proportion. A number read from the wrong cell (not in ``checkable``) counts as
    not found."""
    term_share = len(terms & passage_terms) / len(terms) if terms else 0.0
    weights = [settings.embedding_weight, settings.term_weight, settings.number_weight]
    parts = [max(cosine, 0.0), term_share]
    if stated:
        parts.append(sum(number_in(n, passage_numbers) for n in checkable) / len(stated))
    else:
        weights = weights[:2]
    return sum(w * p for w, p in zip(weights, parts, strict=True)) / sum(weights)


def _similarities(
    statements: Sequence[str],
    passages: Sequence[Passage],
    embedder: Embedder | None,
    stored: Sequence[np.ndarray | None] | None,
) -> np.ndarray:
    """Statement × passage cosines: against a passage's stored chunk vectors (the best chunk)
    where given, else against its embedded text."""
    if embedder is None:
        return np.zeros((len(statements), len(passages)))
    statement_vectors = np.asarray(embedder.embed_documents([CITATION.sub("", s) for s in statements]))
    stored = list(stored) if stored is not None else [None] * len(passages)
    missing = [i for i, v in enumerate(stored) if v is None or len(v) == 0]
    if missing:
        embedded = embedder.embed_documents([passages[i].text for i in missing])
        for i, vector in zip(missing, embedded, strict=True):
            stored[i] = np.asarray(vector)[None, :]
    columns = [(statement_vectors @ np.asarray(v).T).reshape(len(statements), -1).max(axis=1) for v in stored]
    return np.stack(columns, axis=1)
