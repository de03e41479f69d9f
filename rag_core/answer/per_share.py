"""Figures per share and counts of shares among a statement's rows: which rows a question of either can be.

A statement of operations lists its figures per share beside its amounts and counts of shares, often under the same
labels ('Net income attributable to CVS Health | $7,910' and, under 'Basic earnings per share:', '… | $6.00'), and
a table 'in millions, except per share amounts' scales only some of them. ``Shares`` tells a row's kind apart for
``figure_rows.rows_named``: a figure per share asked for is never an amount or a count of shares (nor the row of the
other of basic and diluted), an amount or a count asked for is never a figure per share, and the bottom line under a
heading that names the figure per share asked ('Basic earnings per share:' over 'Net income attributable to …') is it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..lexical.paraphrase import ASKS_COUNT
from .figure_cells import FIGURE_PER_SHARE, Row, in_cents

_PER_SHARE = re.compile(r"\beps\b|\bper (?:(?:basic|diluted) )?(?:common )?share\b", re.IGNORECASE)
"""A figure per share asked for: a row its table scales ('in millions') is none."""
_DILUTION = re.compile(r"\b(?:basic|diluted)\b", re.IGNORECASE)
"""Which of a figure per share's two a question asks, or a row or its heading states ('Basic earnings per share:')."""
_BOTTOM_LINE = re.compile(r"^\s*net\s+(?:income|earnings|loss)\b", re.IGNORECASE)
"""A figure per share's bottom line under a heading that names the figure ('Basic earnings per share:' over
'Income from continuing operations …', '… discontinued operations …', 'Net income attributable to …')."""
_SHARE_COUNT = re.compile(r"^\s*(?:weighted[- ]average\s+)?(?:number of\s+)?(?:common\s+)?shares\b|"
                          r"\bshares\s+(?:used|outstanding)\b", re.IGNORECASE)
"""A row of a count of shares ('Shares used to compute earnings per share — Diluted'): no figure per share."""
_COUNT_SAID = re.compile(r"\d[\d,]*(?:\.\d+)?\s+(?:(?:million|billion)\s+)?shares\b", re.IGNORECASE)
"""A label that states a count of shares ('Common stock, par value $5.00 – 1,200,000,000 shares authorized;
1,012,261,159 shares issued'): its cells are the stock's amount, no count."""
_CURRENCY = re.compile(r"[$€£¥]")
"""A cell written as money ('$0.20'), which no count is."""
_MONEY_COUNTED = re.compile(r"\bhow many\s+(?:\w+\s+){0,2}(?:dollars|euros|pounds|yen)\b", re.IGNORECASE)
"""A count of money asked ('how many millions of dollars'): an amount, not a count."""


def bottom_line_of(row: Row, heading: str) -> str:
    """The heading of figures per share a row is the bottom line of, without its colon ('Earnings per share-diluted'
    over 'Net income(1) | $0.85'), which names it in an answer; '' for any other row (an amount 'Net income' under a
    table's title on earnings per share)."""
    if _BOTTOM_LINE.match(row.label) and _PER_SHARE.search(heading) and in_cents(row.cells):
        return heading.rstrip(": ")
    return ""


@dataclass(frozen=True)
class Shares:
    """What a question asks of shares: a figure per share (``per_share``, basic or diluted when it says which), or a
    count of them (``count``)."""

    per_share: bool
    count: bool
    dilution: str
    """'basic', 'diluted', or '' when the question says neither."""

    @classmethod
    def asked(cls, metric: str, question: str) -> Shares:
        said = _DILUTION.search(question or metric)
        count = re.search(ASKS_COUNT, question, re.IGNORECASE) is not None and not _MONEY_COUNTED.search(question)
        return cls(_PER_SHARE.search(metric) is not None, count, said.group().lower() if said else "")

    def heads(self, row: Row, heading: str) -> bool:
        """Whether the row is the bottom line of figures per share under a heading that may name the one asked."""
        return self.per_share and bool(bottom_line_of(row, heading))

    def other_kind(self, row: Row, heading: str) -> bool:
        """Whether the row, under its heading, is another kind of figure than the one asked: for a figure per share,
        one its table scales ('Diluted | 1,389' of weighted shares in millions), a count of shares, a total paid at a
        figure per share ('Dividends, $2.08 per share | (1,568)'), or the other of basic and diluted ('Basic and
        diluted net loss per share' is both); for an amount or a count, a figure per share under a heading of them
        ('how many diluted shares': not the 'Diluted' earnings under 'Earnings per common share'; net income
        attributable is not its '$6.00' under 'Basic earnings per share:', while the 'Weighted average diluted shares
        outstanding' listed there count), a row whose label states the count itself (its cells are the stock's
        amount at par), or a row whose label names the other of basic and diluted ('Basic: Weighted-average common
        stock' is no diluted weighted-average common stock); for a count, a row whose cells are all written as money
        ('Fourth Quarter | $0.20' of a dividend table is no count of shares purchased)."""
        if self.per_share:
            kinds = {kind.lower() for kind in _DILUTION.findall(f"{heading} {row.label}")}
            return (row.scale != 1.0 or _SHARE_COUNT.search(row.label) is not None
                    or FIGURE_PER_SHARE.search(row.label) is not None
                    or bool(self.dilution and kinds and self.dilution not in kinds))
        own = {kind.lower() for kind in _DILUTION.findall(row.label)}  # 'Basic: Weighted-average common stock' is
        return bool(FIGURE_PER_SHARE.search(row.label) and self.count  # no diluted count of shares
                    or self.count and _COUNT_SAID.search(row.label)
                    or self.count and _in_money(row.cells)
                    or _PER_SHARE.search(f"{heading} {row.label}") and in_cents(row.cells)
                    or self.dilution and own and self.dilution not in own)


def _in_money(cells: dict[str, str]) -> bool:
    """Whether every figure of a row's ``cells`` is written as money ('$0.20', '$ 9')."""
    figures = [text for text in cells.values() if any(ch.isdigit() for ch in text)]
    return bool(figures) and all(_CURRENCY.search(text) for text in figures)
