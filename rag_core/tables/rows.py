"""Tables as the parser renders them ('| a | b |' rows), read back into cells.

Two views serve a reader and a small model. In the prompt, every cell carries its column headers, joined across
multi-row headers, so that '67.6%' arrives as 'Agriculture: ... LightRAG 67.6%' and one column cannot be taken for
another (``labelled``). Under an answer, the table is shown as Markdown with its caption and page, as the document has
it (``markdown``). Both read columns the parser merged as the columns they were (``merged_columns``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from .headers import date_title, dated_year, one_date, over_figures, own_headers, stacked_joined
from .lines import ROWS_LEFT_OUT, SECTION_TOTAL, TOTAL_LABEL, cells, is_row
from .merged import merged_columns, names_columns, split_cells, spread_names, stacked_names
from .periods import HEADER_JOIN, period_alone, under_period
from .placing import (
    FIGURE,
    NIL,
    YEAR_COLUMN,
    squeezed,
    without_period_titles,
    words_before_years,
    year_pairs,
    years_then_changes,
)


def row_labels(text: str) -> list[str]:
    """The label of each table row in ``text`` that states a figure: its first cell, when another cell holds a digit
    ('Effective tax rate' of '| Effective tax rate | 21.6 % | 24.6 % |'), in order. A row of names or a heading inside
    the table ('| Fiscal Year Ended March 31, 2011 | | |') labels no figure."""
    return [label for _, label in headed_row_labels(text)]


def headed_row_labels(text: str) -> list[tuple[str, str]]:
    """Each label of ``row_labels`` with the innermost lead-in it stands under (``lead_in_chains``: '| Cash paid during
    the fiscal year for: | | |' over '| Interest | $ 2,502 |'), its colon kept, or ''."""
    rows = [cells(line) for line in text.splitlines() if is_row(line)]
    return [(f"{chain[0]}:" if chain else "", row[0]) for row, chain in zip(rows, lead_in_chains(rows), strict=True)
            if _labels_a_figure(row)]


def _labels_a_figure(row: Sequence[str]) -> bool:
    """Whether a table row has a label and a figure beside it: a row ``headed_row_labels`` and ``row_headings`` read."""
    return bool(row and row[0] and any(ch.isdigit() for cell in row[1:] for ch in cell))


def row_headings(text: str) -> list[str]:
    """The heading each label of ``headed_row_labels`` stands under, or '': the last row above it of a label alone
    without a colon ('| Expenses | | | |' over '| Marketing | 5,458 |'), which no lead-in chain holds; a total closes
    it ('Total expenses' is the last row under 'Expenses')."""
    headings: list[str] = []
    heading = ""
    for row in (cells(line) for line in text.splitlines() if is_row(line)):
        label = row[0].strip() if row else ""
        if not any(cell.strip() for cell in row[1:]):
            heading = "" if label.endswith(":") else label
            continue
        if _labels_a_figure(row):
            headings.append(heading)
        if TOTAL_LABEL.match(label) or SECTION_TOTAL.match(label):
            heading = ""
    return headings


def lead_in_chains(rows: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    """The lead-ins each table row is listed under, innermost first, each without its colon: the rows of a label alone
    ending in one ('Deferred:' over 'Foreign'); none for a lead-in's own row. One right under another opens a list
    inside it ('Current:' under 'Income tax expense (benefit):'); one after rows of figures takes the place of the list
    before it ('Deferred:' after 'Current:''s rows) or, when a total closed that list ('Total current'), stands beside
    it. A row of figures without a label is its list's total (its lead-in names it) and closes every list, as a row of
    a label alone without a colon does (a heading: '| Other assets | | |'); a section's total ('Net cash provided by
    operating activities', ``SECTION_TOTAL``) closes every list above it and is in none. The one reading of lead-ins of
    the row list, the figure reader and the answer check."""
    chains: list[tuple[str, ...]] = []
    lists: list[str] = []
    after_lead = closed = False
    for row in rows:
        label = row[0].strip() if row else ""
        figures = any(cell.strip() for cell in row[1:])
        if not figures:
            if label.endswith(":"):
                if after_lead or closed or not lists:
                    lists.append(label.rstrip(":").strip())
                else:
                    lists[-1] = label.rstrip(":").strip()
                after_lead, closed = True, False
            elif label:
                lists, after_lead, closed = [], False, False
            chains.append(())
            continue
        after_lead = False
        if SECTION_TOTAL.match(label):
            lists, closed = [], False
        chains.append(tuple(reversed(lists)))
        if not label:
            lists, closed = [], False
        elif lists and TOTAL_LABEL.match(label):
            lists.pop()
            closed = True
    return chains


def column_labels(header_rows: Sequence[Sequence[str]], width: int) -> list[str]:
    """One label per column: the header rows' cells joined top to bottom. A cell left empty in
    an upper header row belongs to the spanning cell on its left ('Agriculture' over the
    NaiveRAG and LightRAG columns); an upper row with one name spans every column, as does one
    whose names are the pieces of one title ending in its date, spread over its cells (``headers.one_date``); an
    upper row whose first column, named below, is under no name has its names over their spans' middles
    (``_centred``)."""
    filled = []
    lowest = [c for c, cell in enumerate(header_rows[-1]) if c > 0 and cell.strip()] if header_rows else []
    end = lowest[-1] + 1 if len(lowest) >= 2 else width  # an upper name spans no column past the names below it
    for r, row in enumerate(header_rows):
        row = [*row, *[""] * (width - len(row))][:width]
        if r < len(header_rows) - 1:
            titles = [cell for cell in row[1:] if cell]
            if len(titles) > 1 and one_date(" ".join(titles)):
                titles = [" ".join(titles)]
            if len(titles) == 1:  # a title over every column ('Fiscal Year' over the years)
                row = [row[0], *titles * (end - 1), *[""] * (width - end)]
            elif len(titles) > 1 and not row[1] and len(header_rows[-1]) > 1 and header_rows[-1][1].strip():
                row = _centred(row)  # '| | | Net Revenue | | Operating Profit | |': names set over their spans' middles
            for c in range(2, end):
                if not row[c]:
                    row[c] = row[c - 1]
        filled.append(row)
    return [HEADER_JOIN.join(dict.fromkeys(cell for cell in column if cell)) for column in zip(*filled, strict=True)]


def _centred(row: list[str]) -> list[str]:
    """An upper header row whose names a finder set over the middle of the columns they span, its first column
    under none: each column under the nearest name, the one on the left when two are as near."""
    named = [c for c in range(1, len(row)) if row[c]]
    return [row[0], *(row[min(named, key=lambda n: (abs(n - c), n))] for c in range(1, len(row)))]


def split_table(text: str, columns: str = "") -> tuple[list[list[str]], list[list[str]]]:
    """(header rows, data rows) of the rendered rows in ``text``. The header rows are the table's own leading
    column-name rows, or else ``columns`` (the rows a contextual header repeats for a later chunk of a long table).
    Columns the parser merged are split again (``merged_columns``)."""
    headers, rows = raw_table(text, columns)
    plan = merged_columns([*headers, *rows])
    return spread_names([split_cells(r, plan) for r in headers], [split_cells(r, plan) for r in rows])


def raw_table(text: str, columns: str) -> tuple[list[list[str]], list[list[str]]]:
    rendered = [line for line in text.splitlines() if is_row(line)]
    lines = stacked_joined(rendered)  # 'Maximum' over 'Potential' over 'Payments'
    own = own_headers(text if lines == rendered else "\n".join(lines), lines)  # (a Markdown rule says where it ends)
    if own:
        return [cells(line) for line in own], [cells(line) for line in lines[len(own) :]]
    repeated = [line for line in columns.splitlines() if is_row(line)]
    return [cells(line) for line in repeated], [cells(line) for line in lines]


def labelled_rows(text: str, columns: str = "") -> list[tuple[list[str], list[str]]]:
    """Each data row of the table rows in ``text`` with the label of each of its columns. A row of names inside the
    table ('| | NaiveRAG | -High |' starting the next block of a results table) replaces the innermost header row for
    the rows below it, so the block's figures are labelled '-High', not with the first block's names (right under a
    header of one row, before any data row, a row of periods naming more columns is a second header row); a row
    titling one period ('| | | Year Ended December 31, 2018 | | |') replaces a header's title of another, so the next
    block of a segment table is of its own year; a row of a year's period alone in its label cell ('| At December 31,
    2019 | | |', ``periods.period_alone``) titles the columns of the rows below it ('At December 31, 2019 ›
    Additions'). A date title and a row of names a finder left as a table's first rows, no rule under them, are its
    header ('| | | At December 31, 2019 | |' over '| | | Estimated useful lives | Gross carrying amount | …'), names it
    stacked a word a line set off by a cell joined (``merged.stacked_names``)."""
    headers, rows = split_table(text, columns)
    headers = over_figures(headers, rows)
    width = max([len(r) for r in [*headers, *rows]] or [0])
    labels = column_labels(headers, width) if headers else [""] * width
    out: list[tuple[list[str], list[str]]] = []
    period, left = "", False  # the period a row's date alone titles rows by; whether the header was left in the body
    for row in rows:
        stacked = stacked_names([*headers, []][1], row) if not out and left and date_title(headers[0]) else None
        if stacked or not out and not headers and not row[0].strip() and (date_title(row) or names_columns(row)):
            headers = [headers[0], stacked] if stacked else [row]  # a header left in the body, its names below, those
            labels, left = column_labels(headers, width), True  # stacked a word a line ('Elimination of' over …)
            continue
        if len(headers) > 1 and date_title(headers[0]) and date_title(row):
            # the next block's period ('Year Ended December 31, 2018') over its names; a narrower block's period over
            # none of them (a year's total alone, '| | Year Ended December 31, 2017 |', under a segment table)
            headers = [row, *headers[1:]] if len(row) >= len(headers[-1]) else [row]
            labels = column_labels(headers, width)
            continue
        if headers and names_columns(row):
            # right under a header of one row, its periods below its names ('December 31, 2022' and '… 2021' under each
            # of 'U.S. Unemployment Rate' and 'U.S. GDP Growth'), or under a block's date title alone; else the next
            below = not out and _named(row) > _named(headers[-1]) and _periods(row) or len(headers) == 1 and \
                date_title(headers[0])  # block's names
            headers = [*headers, row] if below else [*headers[:-1], _beside(headers[-1], row)]
            labels, period = column_labels(headers, width), ""
            continue
        period = period_alone(row, labels) or period
        out.append(([*under_period(labels, period), *[""] * (len(row) - len(labels))], row))
    return out


def _beside(header: Sequence[str], row: Sequence[str]) -> list[str]:
    """A row of names inside a table as the header row it replaces: the next block's names, or, when it names
    one column the header leaves unnamed ('| Property, plant and equipment, net | Average Useful Life (Years) | | |'
    under '| | | 2022 | 2021 |'), the header's names with its own beside them."""
    width = max(len(header), len(row))
    header, new = [*header, *[""] * (width - len(header))], [*row, *[""] * (width - len(row))]
    if _named(new) != 1 or any(header[c].strip() and new[c].strip() for c in range(1, width)):
        return list(row)
    return [new[0], *(new[c] if new[c].strip() else header[c] for c in range(1, width))]


def _named(row: Sequence[str]) -> int:
    """How many columns a row of names names (its label cell aside)."""
    return sum(1 for cell in row[1:] if cell.strip())


def _periods(row: Sequence[str]) -> bool:
    """Whether a row's names are all periods: years ('2022') or dates with their years ('December 31, 2022')."""
    return all(YEAR_COLUMN.fullmatch(cell) or dated_year(cell) for cell in row[1:] if cell.strip())


def labelled(text: str, columns: str = "") -> str:
    """``text`` with each table row rewritten as 'label — header: value; header: value', the
    headers joined across header rows and the cells under one upper header grouped ('Overall —
    Agriculture: NaiveRAG 32.4%, LightRAG 67.6%'). The header rows and the rows of names that
    label the rows below them are left out: every labelled row says them, and a small model shown
    them copies them into its answer as a table of empty cells. Rows of names that label nothing
    (a table of words) and lines that are not table rows stay as they are. A passage of two tables (a page's
    chunks joined, text between them) that no header labels as one is labelled a table at a time, each under its
    own header (``columns`` the first's)."""
    whole, pieces = _labelled(text, columns), _one_table_each(text)
    if len(pieces) < 2 or whole.splitlines() != text.splitlines():
        return whole  # rows after a line of text read under the header above them ('Cash Flows:' in a statement)
    return "\n".join(_labelled(piece, columns if at == 0 else "") for at, piece in enumerate(pieces))


def _one_table_each(text: str) -> list[str]:
    """A text cut before each run of table rows after the first that lines of text part from the one before."""
    pieces: list[list[str]] = [[]]
    table, parted = False, False
    for line in text.splitlines():
        if is_row(line):
            if table and parted:
                pieces.append([])
            table, parted = True, False
        elif line.strip() and line.strip() != ROWS_LEFT_OUT and table:
            parted = True  # a cut's mark for the rows it left out parts no tables
        pieces[-1].append(line)
    return ["\n".join(piece) for piece in pieces]


def _labelled(text: str, columns: str) -> str:
    if not split_table(text, columns)[0]:
        return text
    every = labelled_rows(text, columns)
    paired = pairs_marked(every)
    rows = iter(every)
    own = {line.strip() for line in own_headers(text, [line for line in text.splitlines() if is_row(line)])}
    plan = merged_columns([r for part in raw_table(text, columns) for r in part])
    out: list[str] = []
    names: list[str] = []  # header rows and rows of names, until a labelled row says them or nothing does
    pending = next(rows, None)
    for line in text.splitlines():
        if is_row(line) and pending is not None and split_cells(cells(line), plan) == pending[1]:
            names.clear()
            labels, row = pending
            pending = next(rows, None)
            if row and not row[0].strip() and not any(FIGURE.fullmatch(cell.strip()) for cell in row[1:]):
                out.append(line)  # a row of words under the header ('| | (in $000’s) | |'): no figure to label
                continue
            values = _grouped(_placed(labels, row, paired=paired))
            label = row[0] if row else ""
            out.append(f"{label} — {values}" if label and values else label or values)  # a group's heading alone
        elif is_row(line) and (line.strip() in own or names_columns(split_cells(cells(line), plan))
                               or date_title(cells(line))):
            names.append(line)
        else:
            out += [*names, line]
            names.clear()
    return "\n".join([*out, *names])


def _placed(labels: Sequence[str], row: Sequence[str], *, paired: bool) -> list[tuple[str, str]]:
    """A data row's filled cells after its label, each with the name of the column it belongs to: by position, or as
    ``placed_apart`` places them."""
    return placed_apart(labels, row, paired=paired) or [(labels[c], value) for c, value in enumerate(row)
                                                         if c > 0 and value]


def pairs_marked(rows: Sequence[tuple[Sequence[str], Sequence[str]]]) -> bool:
    """Whether a table's (labels, row) pairs hold a row of an amount and its rate for each year, its rates marked '%'
    (``placing.year_pairs``): its other rows of as many figures are pairs too."""
    return any(row and year_pairs(without_period_titles(labels), row) for labels, row in rows)


def placed_apart(labels: Sequence[str], row: Sequence[str], *, paired: bool = False) -> list[tuple[str, str]] | None:
    """A data row's filled cells, each with the name of the column it belongs to, where that is not their position:
    a row a finder set askew, read by its figures in order (``placing.squeezed``), a row of years followed by the
    changes between them in columns its header does not name (``placing.years_then_changes``), an amount and its rate
    for each year (``placing.year_pairs``), a column of words before the years' figures
    (``placing.words_before_years``); None for a row read by position. ``paired``: the table holds such pairs with
    their rates marked '%' (``pairs_marked``), so a row's rates need not be. What the prompt, the table under an answer
    and the answer check read alike."""
    plain = without_period_titles(labels)  # 'For the Years Ended December 31, › 2019': 2019; the title alone, none
    askew = squeezed(plain, row)
    if askew:
        return [(labels[c], value) for c, value in askew]
    labels = plain
    return (years_then_changes(labels, row) or year_pairs(labels, row, marked=not paired)
            or words_before_years(labels, row))


def _grouped(cells: Sequence[tuple[str, str]]) -> str:
    """A row's labelled cells, the cells under one upper header written once:
    [('Agriculture › NaiveRAG', '32.4%'), ('Agriculture › LightRAG', '67.6%'), ('Mix', '40%')] ->
    'Agriculture: NaiveRAG 32.4%, LightRAG 67.6%; Mix: 40%' (a third fewer tokens than each
    cell with its whole label, and as unambiguous)."""
    groups: list[tuple[str, list[str]]] = []
    for label, value in cells:
        upper, joined, lower = label.rpartition(HEADER_JOIN)
        if joined and groups and groups[-1][0] == upper:
            groups[-1][1].append(f"{lower} {value}")
        elif joined:
            groups.append((upper, [f"{lower} {value}"]))
        else:
            groups.append((label, [value]))
    return "; ".join(f"{upper}: {', '.join(values)}" if upper else ", ".join(values) for upper, values in groups)


def markdown(text: str, columns: str = "") -> str:
    """The table rows in ``text`` as a Markdown table: one header row (the header rows joined,
    or blank when the table names no columns, set over the figures' columns: ``over_figures``), a rule, then the data
    rows."""
    headers, rows = split_table(text, columns)
    headers = over_figures(headers, rows)
    width = max([len(r) for r in [*headers, *rows]] or [0])
    if width == 0:
        return ""
    labels = column_labels(headers, width) if headers else [""] * width
    shown = [_in_columns(labels, row) for row in rows]
    plain = without_period_titles(labels)  # the years under a title of their period read as the years alone
    marked = not pairs_marked([(labels, row) for row in rows])  # a table of pairs whose rates say '%' in some rows
    changed = [years_then_changes(plain, row) if row else None for row in rows]
    named = next((placed for placed in changed if placed), None)
    if named:  # the years, then the changes between them ('2022 vs. 2021'), each figure under its column's name
        labels = [labels[0], *(name for name, _ in named)]
        shown = [[row[0], *(value for _, value in placed)] if placed else shown[n]
                 for n, (row, placed) in enumerate(zip(rows, changed, strict=True))]
    elif any(paired := [year_pairs(plain, row, marked=marked) if row else None for row in rows]):  # '2022: $14,738 …'
        years = [name for name in plain[1:] if name.strip()]
        labels = [labels[0], *years]
        shown = [[row[0], *(dict(placed).get(year, "") for year in years)] if placed else shown[n]
                 for n, (row, placed) in enumerate(zip(rows, paired, strict=True))]
    elif any(described := [words_before_years(plain, row) if row else None for row in rows]):
        labels, shown = _described(labels, rows, described, shown)
    # columns no row fills and no name but the years' period title names are the finder's blanks, left out
    names = without_period_titles(labels)
    span = max(len(row) for row in [labels, *shown])
    kept = [c for c in range(span) if c == 0 or (c < len(names) and names[c].strip())
            or any(c < len(row) and row[c].strip() for row in shown)]
    lines = ["| " + " | ".join(_escape([*labels, *[""] * span][c]) for c in kept) + " |", "|" + "---|" * len(kept)]
    lines += ["| " + " | ".join(_escape([*row, *[""] * span][c]) for c in kept) + " |" for row in shown]
    return "\n".join(lines)


def _described(labels: list[str], rows: Sequence[list[str]], described: Sequence[list[tuple[str, str]] | None],
               shown: list[list[str]]) -> tuple[list[str], list[list[str]]]:
    """A table whose rows hold cells that describe them before their figure for each year (a debt table's currency,
    rate and maturity, ``placing.words_before_years``) set out as unnamed columns, then the years: each row's
    describing cells under them, its figures under their years; a row of figures alone (its total) under the years."""
    years = [name for name, _ in next(placed for placed in described if placed) if name]
    width = max(sum(1 for name, _ in placed if not name) for placed in described if placed)
    out = []
    for row, placed, as_shown in zip(rows, described, shown, strict=True):
        filled = [cell.strip() for cell in row[1:] if cell.strip()]
        if placed:
            words = [value for name, value in placed if not name]
            out.append([row[0], *words, *[""] * (width - len(words)), *(value for name, value in placed if name)])
        elif len(filled) == len(years) and all(FIGURE.fullmatch(cell) or cell in NIL for cell in filled):
            out.append([row[0], *[""] * width, *filled])
        else:
            out.append(as_shown)
    return [labels[0], *[""] * width, *years], out


def _in_columns(labels: Sequence[str], row: list[str]) -> list[str]:
    """A data row as shown under its header: a row a finder set askew with its figures under the columns they
    belong to (``placing.squeezed``: '| Tier 1 | 10.3 | % | 10.5 | % |' as '| Tier 1 | 10.3% | 10.5% |'), any other as
    the finder's cells."""
    askew = squeezed(without_period_titles(labels), row) if row else None
    if askew is None:
        return row
    out = [row[0], *[""] * max(c for c, _ in askew)]
    for c, value in askew:
        out[c] = value
    return out


def _escape(cell: str) -> str:
    return re.sub(r"([|\\])", r"\\\1", cell)
