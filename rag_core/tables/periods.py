"""A table's periods named in its rows: a row of a year's period alone titles the rows below it ('| At December 31,
2019 | | |', ``period_alone``), and a row named by its period alone under an account's heading is the account's
(``by_accounts``), each column under that period (``under_period``): a schedule of valuation and qualifying accounts,
whose columns are the parts of each account's roll-forward and whose years title its blocks."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..chunk_text import MONTH
from ..lexical.figure_name import YEAR
from .headers import dated_year
from .placing import PERIOD_TITLE

HEADER_JOIN = " › "
"""How a column's names are joined across header rows ('Agriculture › LightRAG'), by every reader of a table."""


def period_alone(row: Sequence[str], labels: Sequence[str]) -> str:
    """The period a table row titles by its date alone in its label cell, no figure beside it ('| At December 31, 2019
    | | |'), over columns named ``labels``; '' for any other row, and over a header of years, or of a year's quarters
    ('Q1', 'First Quarter'), whose figures are no year's."""
    if not row or any(cell.strip() for cell in row[1:]) or any(YEAR.search(name) or _WITHIN.search(name)
                                                                for name in labels[1:]):
        return ""
    return period_named(row[0])


def period_named(label: str) -> str:
    """A row label that is a year's period alone, named by its date ('At December 31, 2019', 'Fiscal Year Ended March
    31, 2010', 'Year ended November 1, 2008 . . .', 'As of December 2016'), without its leader dots; '' for any other
    ('Balance at December 31, 2019' names a balance; 'Three months ended March 31, 2012' a quarter, no year's
    figure)."""
    title = re.sub(r"(?:\s*\.){2,}\s*$", "", label).strip().rstrip(" :")
    if _MONTH_END.fullmatch(title):  # 'As of December 2016': a bank's year-end, named without its day
        return title
    year = dated_year(title)
    return title if year and PERIOD_TITLE.fullmatch(before := title[: title.rindex(year)]) and not _WITHIN.search(
        before) else ""


_MONTH_END = re.compile(rf"(?:as\s+of|at)\s+{MONTH}\s+(?:19|20)\d\d", re.IGNORECASE)
"""A balance's date named by its month and year alone ('As of December 2016', Goldman Sachs' way)."""
_WITHIN = re.compile(r"\b(?:quarters?|months?|weeks?|Q[1-4]|[1-4]Q)\b", re.IGNORECASE)
"""A period within a year ('Quarter ended March 31, 2012', 'Six months ended …', 'Q4')."""


def by_accounts(rows: Sequence[tuple[list[str], list[str]]]) -> list[tuple[list[str], list[str]]]:
    """The (labels, row) pairs of ``labelled_rows`` with a row named by its year's period alone under a heading, in a
    table whose columns name no year (a schedule of valuation accounts: 'Accounts Receivable Reserves and Allowances:'
    over '| Year ended November 1, 2008 | $3,611 | $8,427 | …'), named by the heading, its columns under that period
    ('Year ended November 1, 2008 › Additions Charged to Income Statement'). What the figure reader and the answer
    check read alike."""
    out = []
    heading = ""
    for labels, row in rows:
        label = row[0].strip() if row else ""
        if label and not any(cell.strip() for cell in row[1:]):
            heading = label.rstrip(" :")
        elif heading and not YEAR.search(heading) and (period := period_named(label)) and not any(
                YEAR.search(name) for name in labels[1:]):  # an account's heading, not a year's ('Fiscal 2012')
            labels, row = under_period(labels, period), [heading, *row[1:]]
        out.append((labels, row))
    return out


def under_period(labels: Sequence[str], period: str) -> list[str]:
    """A block's column labels under the period its title row names ('At December 31, 2019 › Col. C Additions'): a
    schedule of valuation accounts whose columns are the parts of a roll-forward and whose years title its blocks.
    Unnamed columns stay unnamed (a finder's blanks)."""
    if not period:
        return list(labels)
    return [labels[0], *(f"{period}{HEADER_JOIN}{label}" if label.strip() else label for label in labels[1:])]
