"""Where a table row stands in its passage: the lines above its own, the heading it stands under, and the lines
that title its table (its header rows, its caption), which say what its figures are of (``about``) and whose
(``names_part``; a line attributable to the company's shareholders: ``attributed``)."""

from __future__ import annotations

import re

from ..chunk_text import MONTH, parts_named
from ..lexical.figure_name import YEAR
from ..tables.cuts import sums_up
from ..tables.lines import TOTAL_LABEL, cells
from ..tables.periods import HEADER_JOIN, period_named
from ..tables.rows import lead_in_chains
from .figure_cells import Row, table_rows
from .row_words import GENERIC, QUALIFIERS, label_stems, stems
from .statement_lines import cell_value, decimal_places
from .year_columns import TITLE_END, names_over


def lines_above(row: Row) -> list[str]:
    """The lines of a row's passage above its own line (``row_line``), in reading order: where the headings it stands
    under are; none when its line is not found."""
    at = row_line(row)
    return row.passage.text.splitlines()[:at] if at is not None else []


def row_line(row: Row) -> int | None:
    """Which line of its passage a table row is: the first table line holding its label and every cell, read without
    spaces or cell bars (a finder's '$ 5,788 $ 6,206' is the row's '$5,788' and '$6,206', '| $ | 782 |' its '$782');
    for a total the reader named, 'Total Current', the first line without a label holding every cell. None when its
    line is not found."""
    lines = row.passage.text.splitlines()
    figures = [text.replace(" ", "") for text in row.cells.values()]
    held = [n for n, line in enumerate(lines) if line.lstrip().startswith("|")  # '| $ | 782 |' holds '$782'
            and all(text in re.sub(r"[\s|]", "", line) for text in figures)]
    return next((n for n in held if row.label in lines[n]),
                next((n for n in held if not cells(lines[n])[0]), None) if figures else None)


def heading_of(row: Row) -> str:
    """The heading a table row stands under in its passage: the nearest line above it that holds no
    figure, a row of a label alone ('| Revenues: | | |') or a title ('Capital Expenditures'); '' for none."""
    for line in reversed(lines_above(row)):
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if line.lstrip().startswith("|") and cells[0] and not any(cells[1:]):
            return cells[0]
        if line.strip() and not line.lstrip().startswith("|") and len(YEAR.findall(line)) < 2:  # not its years
            return line if len(line) <= _HEADING_CHARS else ""
    return ""


def heading_row(row: Row) -> str:
    """The row of a label alone a table row is listed under ('| Current tax (benefit)/expense | | |'), its colon
    kept; '' when a line of text comes first (a title, not a list) or a list's total ('Total deferred', or figures
    under no label: the row after it, 'Total income tax provision', is in no list above). A line of text right above
    the table that names a list is its first heading, set above the table by a table finder ('Current income tax
    expense:' over 'U.S. federal', 'Deferred income tax (benefit) expense:' being a row further down)."""
    for line in reversed(lines_above(row)):
        if not line.strip():
            continue
        if not line.lstrip().startswith("|"):
            return line.strip() if _LIST_HEADING.fullmatch(line.strip()) and not _SENTENCE.search(line) and not \
                _WHEN.search(line) else ""
        named = cells(line)
        if named[0] and not any(named[1:]):
            return named[0]
        if any(named[1:]) and (not named[0] or TOTAL_LABEL.match(named[0])):
            return ""
    return ""


def outer_heading(row: Row) -> str:
    """The row of a label alone right above a table row's own heading row, no row of figures between: a list's name
    over the name of its first part ('| Deferred tax assets: | |' over '| Accruals not currently deductible | |'), whose
    end a finder's rows do not show (the indent is lost), so the later rows ('Lease liabilities') may be the outer
    list's; '' for none."""
    under = False
    for line in reversed(lines_above(row)):
        named = cells(line) if line.lstrip().startswith("|") else []
        if named and named[0] and not any(named[1:]):
            if under:
                return named[0]
            under = True
        elif under or not named or (any(named[1:]) and (not named[0] or TOTAL_LABEL.match(named[0]))):
            return ""
    return ""


_LIST_HEADING = re.compile(r"[A-Z][\w&,.'’()/ -]{2,80}:")
"""A line that names the list below it: a short name ending in a colon ('Current income tax expense:')."""
_SENTENCE = re.compile(r"\b(?:follows?|following|below|is|are|was|were|consists?|consisted|includes?|included|"
                       r"summari[sz]ed|presents?|shows?)\b", re.IGNORECASE)
"""A title line's words that make it a sentence about a table ('… were as follows:'), not the name of a list."""
_WHEN = re.compile(rf"\d|\b(?:{MONTH}|ended|ending|millions|thousands|billions)\b", re.IGNORECASE)
"""A line that says when or in what unit ('Years ended December 31:', 'In millions:'), not what its list is of."""


def lead_ins(row: Row) -> list[str]:
    """The lead-ins a table row is listed under, nearest first, each without its colon (``lead_in_chains``, read over
    the table lines from the top of its table to its own: '| Income tax expense (benefit): |' over '| Current: |').
    A list ends at its total ('Total current', or a row of figures without a label) and at a heading."""
    own = row_line(row)
    if own is None:
        return []
    lines = row.passage.text.splitlines()
    table: list[str] = []
    for line in reversed(lines[:own]):
        if not line.strip():
            continue
        if not line.lstrip().startswith("|"):
            break  # out of the table: a title
        table.insert(0, line)
    rows = [cells(line) for line in [*table, lines[own]]]
    return list(lead_in_chains(rows)[-1])


_HEADING_CHARS = 120
"""Longest line above a table read as its heading ('Capital Expenditures', 'Segment assets are
summarized in the table below.'); a longer one is a paragraph, no heading."""


def table_words(row: Row) -> list[str]:
    """The lines that title a row's table: its header rows and headings above it, and the nearest line of words
    above the table (a unit or a line of years is none: '(Millions)', 'Years ended December 31, 2022 2021'); every
    other line of its passage when its line is not found; none when it opens its passage (its caption titles it)."""
    at = row_line(row)
    if at is None:
        return [line for line in row.passage.text.splitlines() if row.label not in line]
    above = row.passage.text.splitlines()[:at]
    near: list[str] = []
    names = False  # lines of its columns' names, the last ending in 'Total', under its title
    for line in reversed(above):
        if line.lstrip().startswith("|"):
            if names:
                break
            near += [line] if not re.search(r"\d", YEAR.sub(" ", line)) else []  # its header rows and headings
        elif re.search(r"[a-z]{3}", _UNITS.sub(" ", line), re.IGNORECASE):
            near.append(line)  # its caption
            names = names or (sum(not n.lstrip().startswith("|") for n in near) == 1 and names_over(line))
            if not names or TITLE_END.search(line) or len(near) > _NAME_LINES:
                break
    return near


_NAME_LINES = 16
"""Most lines of column names a table's title may stand above ('States, municipalities', 'and political', …)."""


def title_lines(row: Row) -> list[str]:
    """The lines of words among those that title a row's table (``table_words``), its header rows aside."""
    return [line for line in table_words(row) if not line.lstrip().startswith("|")]


def title_line(row: Row) -> str:
    """The nearest line of words above a row's table (``title_lines``); '' when none is, or its line is not found."""
    near = title_lines(row) if row_line(row) is not None else []
    return near[0] if near else ""


def table_title(row: Row) -> str:
    """A row's table's title: its title line, else its passage caption's last part that names something beyond a
    unit and years ('Income Before Income Taxes' of '… › Income Before Income Taxes › (Millions) 2022 2021 2020')."""
    parts = row.passage.caption.split(" › ")
    return title_line(row) or next((part for part in reversed(parts) if _UNITS.sub(" ", part).strip(" ,.:;$()")),
                                   parts[-1])


def titled(row: Row) -> str:
    """What a row's table is of: the lines of words that title it, else its passage's section and caption (a page's
    passage may hold the income tax note's table under the pension note's section)."""
    return " ".join(title_lines(row)) or f"{row.passage.section} {row.passage.caption}"


_UNITS = re.compile(rf"\((?:in\s+)?(?:\$\s*)?(?:millions|thousands|billions|000['’]?s)[^)]*\)|\b(?:19|20)\d\d\b|"
                    rf"\b{MONTH}\b|\b(?:dollars|in|millions|years?|ended|ending|as|of|at|for|the|fiscal)\b",
                    re.IGNORECASE)
"""A line's words that name no line item: a unit, a year, a date ('(Dollars in millions) Years ended December 31,
2022 2021', '(Millions)')."""


def parts_of(row: Row) -> str:
    """What a row's table says its rows are the parts of, by its title (the nearest line of words above it, else its
    passage's caption): 'income before income taxes' of 'The components of income before income taxes are as
    follows:', 'Revenues' of 'Revenues consisted of the following:'; or the title itself when it is a name alone and
    the row is one of the parts that add up to the table's 'Total' ('Income Before Income Taxes' over 'United
    States', 'International' and 'Total', ``adds_up``), in the line above it or, for a table that opens its passage,
    in its caption; '' when its title says none."""
    near = title_line(row)
    title = near or table_title(row)
    if found := parts_named(title):
        return found
    named = _UNITS.sub(" ", title).split()  # its words, to tell a name from a sentence
    name = " ".join(re.sub(r"\([^)]*\)", " ", title).split()).strip(" :")  # as written: 'Provision for Income Taxes'
    return name if (near or opens_passage(row)) and 0 < len(named) <= _NAME_WORDS and adds_up(row) else ""


def opens_passage(row: Row) -> bool:
    """Whether a row's table opens its passage, no line of words above it: its title is then its caption's
    (``table_title``), a later chunk of the page whose first chunk held the title line."""
    return not any(line.strip() and not line.lstrip().startswith("|") for line in lines_above(row))


_NAME_WORDS = 8
"""The most words a table's title has that is a name of what its rows add up to, not a sentence about them."""


def adds_up(row: Row) -> bool:
    """Whether a row is one of the parts of a table listed under no heading row whose last row, a bare 'Total', is
    their sum in every column (within a unit of the last digit for each part: each is rounded)."""
    read = [r for r in table_rows([row.passage]) if not r.prose]  # its tables numbered apart from the context's
    at = next((r.table for r in read if (r.label, r.cells) == (row.label, row.cells)), None)
    table = [r for r in read if r.table == at]
    if len(table) < _PARTS_AT_LEAST + 1 or label_stems(table[-1].label) - QUALIFIERS or not sums_up(table[-1].label):
        return False
    parts, total = table[:-1], table[-1]
    if total.label == row.label or any(heading_row(r) for r in table):
        return False
    for column, written in total.cells.items():
        values = [cell_value(r.cells.get(column, "")) for r in parts]
        whole = cell_value(written)
        if whole is None or any(v is None for v in values):
            return False
        places = max((decimal_places(r.cells[column]) or 0) for r in parts)
        if abs(sum(v for v in values if v is not None) - whole) > len(parts) * 10 ** -places:
            return False
    return bool(total.cells)


_PARTS_AT_LEAST = 2
"""The fewest rows above a table's 'Total' that are read as its parts."""


def names_part(row: Row, part: set[str]) -> bool:
    """Whether a row, a column of it, its heading or its table's caption names the part of the company asked about."""
    return bool(stems(" ".join((row.label, *row.cells, heading_of(row), row.passage.section, row.passage.caption)))
                & part)


def about(row: Row, head: set[str]) -> bool:
    """Whether a row's table names what the metric's head names: its section, caption and the lines that title it
    (``table_words``: 'Our revenues are comprised of the following' above an 'Impella' row, of 'revenue of Impella';
    a 'Shares' column over a 'Restricted stock units' row, of 'shares for restricted stock units'; not 'Net Sales'
    over the table before 'Operating Performance', whose 'Safety and Industrial' row is no segment's net sales). The
    section and the passage's caption and columns only of a table its lines do not title: a section ('…
    revenue-generating activities') holds tables of other line items (3M's segments' operating income and assets), and
    a passage's caption titles the table that opens it ('Operating Performance 2022 2021 2020' is not the caption of
    the net sales table flowed into text below it). Or a column of the row's own names it, under its block's period
    (a schedule of valuation accounts' 'Fiscal Year Ended March 31, 2011 › Additions' beside 'Allowance for Doubtful
    Accounts', of 'additions to its allowance for doubtful accounts')."""
    title = [line for line in table_words(row) if stems(line) - GENERIC]  # not its columns' 'Amount Rate Amount Rate'
    said = " ".join(title or (row.passage.section, row.passage.caption, row.passage.columns))
    return bool(stems(said) & head) or bool(columns_say(row) & head)


def columns_say(row: Row) -> set[str]:
    """The words of the names of a row's columns under its block's period (a schedule of valuation accounts'
    'Fiscal Year Ended March 31, 2011 › Additions': 'additions')."""
    return stems(" ".join(name for column in row.cells if (period := column.rpartition(HEADER_JOIN))[1]
                          and period_named(period[0]) and (name := period[2])))


def attributed(label: str, metric: str, question: str) -> str:
    """A label of a line of the company's shareholders, said without whom: 'Net income attributable to CVS Health' is
    'Net income' when the metric or the question asks the line so ('net income attributable to shareholders', '…
    dividends paid and net income attributable to shareholders)' of a formula's 'net income'); 'Total PepsiCo Common
    Shareholders' Equity' is 'Total Shareholders' Equity' when the metric asks the shareholders' equity, not a
    total (CVS Health's 'Total shareholders' equity' holds the noncontrolling interests' too). '' otherwise, and for
    the noncontrolling interests' part, which is no line of the company's shareholders."""
    whole = _ATTRIBUTED.sub("", label).strip(" ,")
    asked = _ATTRIBUTED.search(metric) or re.search(rf"\b{re.escape(metric.strip())}{_TO_SHAREHOLDERS}", question,
                                                    re.IGNORECASE)
    if whole != label.strip(" ,") and asked:
        return whole
    owned = _OWNERS_EQUITY.fullmatch(label.strip())
    equity = _EQUITY.search(metric) is not None and re.search(r"\btotal\b", metric, re.IGNORECASE) is None
    return f"{owned.group('total') or ''}{owned.group('line')}" if owned and equity else ""


_TO_SHAREHOLDERS = r"\s+attributable\s+to\s+(?!(?:the\s+)?(?:non-?controlling|minority|redeemable|participating)\b)"
_ATTRIBUTED = re.compile(rf"{_TO_SHAREHOLDERS}[^()]+$", re.IGNORECASE)
"""Whom a line is attributable to, at a label's end: its shareholders, by their name or the company's."""
_EQUITY = re.compile(r"\b(?:share|stock)holders['’]?\s+(?:equity|deficit)\b", re.IGNORECASE)
_OWNERS_EQUITY = re.compile(r"(?P<total>(?i:total)\s+)?(?:(?!(?i:total|liabilities|and)\b)[A-Z0-9][\w&.'’-]*\s+){1,4}?"
                            r"(?i:common\s+)?(?P<line>(?i:share|stock)(?i:holders)['’]?\s+(?i:equity|deficit)\b.*)")
"""The equity of the company's shareholders by their company's name ('Total 3M Company shareholders' equity', 'Total
PepsiCo Common Shareholders' Equity'): a balance sheet's line above the noncontrolling interests and 'Total equity'."""
