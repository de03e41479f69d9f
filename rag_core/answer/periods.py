"""The periods a question asks of and a table's rows name, as spans of days: "in October 2022" is October 1 to
31, 2022; a repurchase table's row 'August 30, 2009 through September 26, 2009' a fiscal month, and its 'Total' of
three such months the fiscal quarter a question asks as "the fourth quarter of fiscal 2009"."""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from datetime import date, timedelta

from ..chunk_text import MONTH
from ..lexical.figure_name import YEAR
from ..tables.lines import unmarked

__all__ = ["Span", "asked_span", "fiscal_fourth", "month_of", "said_day", "span_of"]

_DAY = re.compile(rf"(?P<month>\b{MONTH})(?!\w)|(?P<numeric>\b\d{{1,2}}/\d{{1,2}}/(?:19|20)?\d\d\b)|"
                  r"(?P<year>\b(?:19|20)\d\d\b)|(?P<day>\b\d{1,2}\b)", re.IGNORECASE)
"""A period label's parts: a month's name, a date written in numbers ('10/31/2022'), a year, a day."""
_ASKED_DAY = re.compile(rf"\b(?P<month>{MONTH})(?!\w)\s+(?:(?P<day>\d{{1,2}}),?\s+)?(?P<year>(?:19|20)\d\d)\b",
                        re.IGNORECASE)
"""A month a question asks of, or a day ('in October 2022', 'at December 31, 2022')."""
_SPANNED = re.compile(r"\b(?:ended|ending|months|quarters?|year)\b", re.IGNORECASE)
"""A period's label that names its length ('Three months ended December 31, 2022'): no month's row."""
_FISCAL = re.compile(r"\bfiscal\b", re.IGNORECASE)
_QUARTER_LONG = (timedelta(days=80), timedelta(days=100))  # a fiscal quarter: 12 to 14 weeks, or three months

Span = tuple[date, date]


def asked_span(question: str, quarter: int | None) -> Span | None:
    """The period a question asks of: a day ('at December 31, 2022'), a month ('in October 2022'), a calendar quarter
    of the year asked (``quarter``: 'in the fourth quarter of 2022'), else the year; None when it names no year."""
    if (day := _ASKED_DAY.search(question)) is not None:
        month, year = month_of(day.group("month")), int(day.group("year"))
        last = calendar.monthrange(year, month)[1]
        if day.group("day") and 1 <= (on := int(day.group("day"))) <= last:
            return date(year, month, on), date(year, month, on)
        return date(year, month, 1), date(year, month, last)
    years = [int(year) for year in YEAR.findall(question)]
    if not years:
        return None
    year = years[-1]
    if quarter is not None:
        end = 3 * quarter
        return date(year, end - 2, 1), date(year, end, calendar.monthrange(year, end)[1])
    return date(year, 1, 1), date(year, 12, 31)


def fiscal_fourth(spans: Sequence[Span], window: Span, quarter: int | None, question: str) -> Span | None:
    """The fourth quarter of a fiscal year asked ('fourth quarter of fiscal 2009') among a report's table's rows'
    ``spans``: the latest a quarter long (its 'Total' of the fiscal months, 'August 2, 2009 through October 31, 2009')
    ending in the year asked or the January after it (a retailer's fiscal year); None when none is, or another quarter
    is asked. A 10-K's table is of its fiscal year's last quarter."""
    if quarter != 4 or not _FISCAL.search(question):
        return None
    ends = (date(window[1].year, 1, 1), date(window[1].year + 1, 1, 31))
    quarters = [span for span in spans if _QUARTER_LONG[0] <= span[1] - span[0] <= _QUARTER_LONG[1]
                and ends[0] <= span[1] <= ends[1]]
    return max(quarters, key=lambda span: span[1]) if quarters else None


def month_of(name: str) -> int:
    """The month a month's name or its short form names ('Oct.': 10)."""
    key = name.rstrip(".").lower()[:3]
    return next(n for n in range(1, 13) if calendar.month_name[n].lower().startswith(key))


def span_of(label: str) -> Span | None:
    """The period a row's label names ('January 1 - 31, 2022', 'January 1 - March 31, 2022', 'October 1-31, 2022',
    '10/1/2022 thru 10/31/2022', 'October 2022'), from its first day to its last; None for any other label."""
    numeric = [m.group("numeric") for m in _DAY.finditer(label) if m.group("numeric")]
    if len(numeric) == 2:
        ends = []
        for written in numeric:
            month, day, year = (int(part) for part in written.split("/"))
            year += 2000 if year < 100 else 0
            if not (1 <= month <= 12 and 1 <= day <= calendar.monthrange(year, month)[1]):
                return None
            ends.append(date(year, month, day))
        return (ends[0], ends[1]) if ends[0] <= ends[1] else None
    months, days, years = [], [], []
    for found in _DAY.finditer(unmarked(label)):
        if found.group("month"):
            months.append(month_of(found.group("month")))
        elif found.group("year"):
            years.append(int(found.group("year")))
        elif found.group("day"):
            days.append(int(found.group("day")))
    if not months or not years or len(months) > 2 or len(years) > 2 or len(days) > 2 or _SPANNED.search(label):
        return None
    last = days[-1] if len(days) == 2 or (days and len(months) == 1) else None
    try:
        start = date(years[0], months[0], days[0] if days else 1)
        end = date(years[-1], months[-1], last or calendar.monthrange(years[-1], months[-1])[1])
    except ValueError:
        return None  # no such day ('February 30')
    return (start, end) if start <= end else None


def said_day(day: date) -> str:
    """A day as a report writes it ('October 31, 2009')."""
    return f"{day:%B} {day.day}, {day.year}"
