"""A statement's table lines as a PDF's table finder leaves them, read whole again, and the figures
of a cell: rows set into one cell ('Cash . . . Short-term investments . . . | $ 639,729 $ 593,599
1,176,244 716,087 |') apart, a row a line break cut in two and a label set over two rows joined, and
a row without a label that sums the rows above it named as their total ('Total Revenue')."""

from __future__ import annotations

import re

from ..tables.lines import LEADERS, cells
from ..tables.placing import SIGNS
from .numbers import numbers


def repaired(lines: list[str], years: int) -> list[str]:
    """A table's rows read whole (``years``: how many year columns its header names)."""
    return _subtotals(_unmerged(_continued(lines), years))


def _unmerged(lines: list[str], years: int) -> list[str]:
    """Rows a PDF's table finder set into one ('Cash . . . Short-term investments . . . | $ 639,729
    $ 593,599 1,176,244 716,087 |'), apart again: labels cut at their leader dots, the figures given
    to them a year at a time, when there are as many as the labels times the years; a cell a year
    holding a figure a label ('R&D . . . SG&A . . . | 446,980 333,184 | 533,480 415,682 |'). One label
    over two figures a year ('Operating income . . . | 833,820 284,817 | 952,250 625,025 |') is the
    second's: the first is the unlabelled total of the lines above it."""
    out: list[str] = []
    for line in lines:
        row = cells(line)
        labels = [label.strip(" $") for label in LEADERS.split(row[0])] if row else []  # its sign is a figure's
        labels = _under_heading(_of_footnote([label for label in labels if label]))
        by_year = [figures_of(cell) for cell in row[1:] if cell.strip()]
        figures = [f for cell in by_year for f in cell]
        stacked = len(by_year) == years and all(len(cell) == max(len(labels), 2) for cell in by_year)
        if years and labels and stacked:
            rows = [[cell[n] for cell in by_year] for n in range(len(by_year[0]))]
            out += ["| " + " | ".join([label, *values]) + " |" for label, values in
                    zip(([""] if len(labels) == 1 else []) + labels, rows, strict=True)]
        elif years and len(labels) >= 2 and len(figures) == len(labels) * years:
            out += ["| " + " | ".join([label, *figures[n * years:(n + 1) * years]]) + " |" for n, label in
                    enumerate(labels)]
        else:
            out.append(line)
    return out


_PER_SHARE_HEADING = re.compile(r"(?P<heading>.*\bper (?:common )?share\b(?:\s*[—–-]\s*(?:basic|diluted))?)\s+"
                                r"(?=(?-i:[A-Z]))", re.IGNORECASE)
"""A heading of figures per share the first label of rows set into one cell opens with ('Earnings per share —
Diluted Income from continuing operations, net of tax')."""


def _under_heading(labels: list[str]) -> list[str]:
    """Labels set into one cell after a first that opens with a heading of figures per share, each with the heading
    ('Earnings per share — Diluted Net income'), unless it names a figure per share itself ('Dividends declared per
    share'): apart, 'Net income | 0.85' would be read as the net income."""
    found = _PER_SHARE_HEADING.match(labels[0]) if len(labels) >= 2 else None
    if found is None:
        return labels
    heading = found.group("heading")
    return [labels[0], *(label if re.search(r"\bper\b", label, re.IGNORECASE) else f"{heading} {label}"
                         for label in labels[1:])]


_FOOTNOTE = re.compile(r"^(?:\(\d{1,2}\)|\*+)\s*(?:includes\s+)?(?P<what>[^:]+?)(?:\s+as follows)?:\s*(?P<first>.+)$",
                       re.IGNORECASE)
"""A footnote's breakdown run into one row ('(1) Includes stock-based compensation expense as follows: Cost of
sales . . . Research and development . . .')."""


def _of_footnote(labels: list[str]) -> list[str]:
    """The labels of a footnote's breakdown each said as a part of what it breaks down ('Stock-based
    compensation expense in research and development'): not the statement's line of that name."""
    found = _FOOTNOTE.match(labels[0]) if labels else None
    if found is None:
        return labels
    what = found.group("what").strip()
    return [f"{what[:1].upper()}{what[1:]} in {label.strip(' $').lower()}" for label in [found.group("first"),
                                                                                         *labels[1:]]]


def _continued(lines: list[str]) -> list[str]:
    """A label a line break set over two rows ('| Return on average common shareholders’ | |' then
    '| equity | 9.4% 7.4% | 11.2% |') joined into the row of the figures: a row of no figures whose
    label is no heading (no ':'), then one whose label goes on in lower case."""
    out: list[str] = []
    for line in lines:
        row, last = cells(line), cells(out[-1]) if out else []
        if row and last and row[0][:1].islower() and last[0].strip() and not last[0].rstrip().endswith(":") \
                and not any(cell.strip() for cell in last[1:]):
            out[-1] = "| " + " | ".join([f"{last[0].strip()} {row[0].strip()}", *row[1:]]) + " |"
        else:
            out.append(line)
    return out


def _subtotals(lines: list[str]) -> list[str]:
    """A row without a label whose figures are the sums of the rows since a heading ('Revenue:',
    'Product revenue', 'Funded research …', then '| | 126,375 | 101,151 |') named as that heading's
    total ('Total Revenue'); a statement's subtotals are often unlabelled. A heading without its colon ('Deferred tax
    assets' over its lines and '| | 118,279 | 120,721 |') names the sum of the rows since it alike."""
    out: list[str] = []
    since: list[list[float]]
    totals: list[list[float]]
    under: list[list[float]]
    heading, since = "", []  # the heading's name, and the figures of each row since it
    titled, under = "", []  # a heading without its colon ('Deferred tax assets'), and the figures of each row since it
    section, totals = "", []  # a section's heading in capitals ('ASSETS'), and its subtotals' figures
    for line in lines:
        row = cells(line)
        label = row[0].strip() if row else ""
        values = [cell_value(f) or 0.0 for cell in row[1:] for f in figures_of(cell)]
        if capitals := _SECTION.match(label):
            section, totals = capitals.group(1), []
        head, colon, first = label.partition(":")
        if label.endswith(":") and not values:
            heading, since = label.rstrip(":").strip(), []
        elif colon and first.strip() and values:  # a heading the row's label opens with ('Provision for income
            heading, since = head.strip(), [values]  # taxes: Payable currently | 38,441 |'), its first line after it
        elif label and not values:
            titled, under = label, []
        elif label:
            since, under = since + [values], under + [values]
            totals = totals + [values] if _SUBTOTAL.match(label) else totals
        elif values and ((headed := bool(heading) and _sums(since, values)) or titled and _sums(under, values)):
            named = heading if headed else titled
            line = "| " + " | ".join([f"Total {named}", *row[1:]]) + " |"
            heading, since = ("", []) if named == heading else (heading, since)
            titled, under = "", []
        elif values and section and _sums(totals, values):  # 'Total current assets', …, then '| | $3,404,294 |'
            line = "| " + " | ".join([f"Total {section.lower()}", *row[1:]]) + " |"
            section, totals = "", []
        out.append(line)
    return out


_SECTION = re.compile(r"^([A-Z][A-Z’'&, ]*[A-Z])(?=\s+[A-Z][a-z]|$)")
"""A statement's section heading in capitals at the head of a row ('ASSETS Current Assets Cash …')."""
_SUBTOTAL = re.compile(r"^(?:total|net)\b", re.IGNORECASE)


def _sums(rows: list[list[float]], total: list[float]) -> bool:
    """Whether ``total`` is the sum of two or more rows of as many figures, column by column."""
    return len(rows) >= 2 and all(len(r) == len(total) for r in rows) and all(
        abs(sum(column) - value) <= 1 for column, value in zip(zip(*rows, strict=True), total, strict=True))


def rejoined(lines: list[str]) -> list[str]:
    """Table rows a line break inside a cell cut in two ('| … | 15,468 — 438 (18,' then '586) (40,871)
    11,595 |') joined again: a row's start without its closing bar, and the rest that closes it."""
    out: list[str] = []
    for line in lines:
        if out and out[-1].startswith("|") and not out[-1].rstrip().endswith("|") and line.rstrip().endswith("|") \
                and not line.lstrip().startswith("|"):
            out[-1] += ("" if out[-1].endswith(",") else " ") + line.strip()
        else:
            out.append(line)
    return out


def unflowed(lines: list[str]) -> list[str]:
    """A table the finder missed, its rows flowed into one line of text under a line that ends in its years ('Net
    Sales 2022 2021 2020' over 'Safety and Industrial $ 11,604 $ 11,981 $ 10,972 Transportation and Electronics 8,902
    9,262 8,406 …'), set out as table rows again, a label and a figure a year each; every other line as it is."""
    out: list[str] = []
    for line in lines:
        above = next((earlier for earlier in reversed(out) if earlier.strip()), "")
        header = _YEARS_ENDING.fullmatch(above.strip())
        rows = _flowed_rows(line, len(re.findall(r"(?:19|20)\d\d", header.group("years")))) if header else []
        out += rows or [line]
    return out


def _flowed_rows(line: str, years: int) -> list[str]:
    """The rows of a line that is labels each followed by ``years`` figures, two rows at least; [] for any other."""
    rows: list[str] = []
    label: list[str] = []
    figures: list[str] = []
    for token in [*line.replace("$ ", "$").split(), ""]:
        if token and _FIGURE_TOKEN.fullmatch(token):
            figures.append(token)
            continue
        if figures:  # a label's figures end: one a year, or the line is no such table
            if len(figures) != years or not any(ch.isalpha() for word in label for ch in word):
                return []
            rows.append(f"| {' '.join(label)} | {' | '.join(figures)} |")
            label, figures = [], []
        if token:
            label.append(token)
    return rows if len(rows) >= 2 and not label else []


_YEARS_ENDING = re.compile(r"[^\d|]{0,80}?\s*(?P<years>(?:(?:19|20)\d\d\s*){2,})")
"""A line that ends in the years over a table's columns, after its title at most ('Net Sales 2022 2021 2020')."""
_FIGURE_TOKEN = re.compile(r"[-−(]?[$€£]?[-−(]?\d[\d,]*(?:\.\d+)?(?:%?\)?|\)%)|[—–−-]")
"""A figure as a cell writes it: '$1,048', '(96.0)', '35.8%', and a negative percentage '(8.2)%'."""


def figures_of(cell: str) -> list[str]:
    """The figures of a cell in order (a dash for none), a merged cell's several ('$11,647 $12,678');
    [] when it holds words."""
    tokens = cell.replace("$ ", "$").split()
    figures = [t for t in tokens if t not in SIGNS]
    return figures if figures and all(_FIGURE_TOKEN.fullmatch(t) for t in figures) else []


def _plain(text: str) -> float | None:
    match = re.fullmatch(r"\s*\(?[-−]?\$?\s*(\d+(?:\.\d+)?)\s*%?\)?\s*", text)
    return float(match.group(1)) if match else None


IN_PARENTHESES = re.compile(r"\s*\$?\s*\(")
"""A figure written in parentheses, its currency sign before them or not ('(53,969)', '$(1,234)')."""


def is_percent(written: str) -> bool:
    """Whether a figure as written is a percentage ('21.6%', '21.6 percent')."""
    return re.search(r"%|\bpercent\b", written, re.IGNORECASE) is not None


def cell_value(text: str) -> float | None:
    """A cell's value: '(1,234)' and '−5' negative, '$1,577' 1577, '12.5%' 12.5."""
    found = numbers(text)
    value = found[0].value if found else _plain(text)
    if value is None:
        return None
    negative = text.strip().startswith(("(", "-", "−", "$(", "$ ("))
    return -value if negative else value


DASH = re.compile(r"[—–-]+")
"""A cell's mark for none: nothing bought in a month, nothing due in a year."""


def cell_figure(text: str) -> float | None:
    """A cell's one figure, a dash none (0); None for a cell of no figure or of several (a finder's merged cells)."""
    if DASH.fullmatch(text.strip()):
        return 0.0
    return cell_value(text) if len(figures_of(text)) == 1 else None


def decimal_places(written: str) -> int | None:
    """The decimal places of a figure as written ('(5.3)%': 1, '15%': 0), None when it holds no figure."""
    figure = re.search(r"\d[\d,]*(?:\.(\d+))?", written)
    return len(figure.group(1) or "") if figure else None


BALANCE_AT = re.compile(r"\s*balances?\b", re.IGNORECASE)
"""The row of a roll-forward that gives the balance at a date ('Balance, March 31, 2011')."""
