"""Where a table row's figures go: a sign a finder set in a cell of its own joined to its figure, and the figures
given to the columns they belong to when the finder's cells and the header's names do not line up: a row set askew,
a row of years followed by the changes between them, an amount and its rate for each year, and cells that describe a
row before the years' figures (a column of words; a debt's currency, rate and maturity)."""

from __future__ import annotations

import re
from collections.abc import Sequence

FIGURE = re.compile(r"[-−(]?[$€£¥]?[-−(]?\d[\d,.]*(?:%?\)?|\)%)")
"""A figure as a cell writes it ('$1,048', '(96.0)', '35.8%', a negative rate '(2.6)%', '$(1,645)')."""

SIGNS = frozenset({"$", "€", "£", "¥", "%"})
"""Signs a finder may set in a cell of their own beside a figure."""
NIL = frozenset({"—", "–", "-"})
"""A cell that states none of the figure ('$ | —': a currency sign before it is not joined to it)."""
YEAR_COLUMN = re.compile(r"\s*(?:FY\s?)?(?:19|20)\d\d\s*")
PERIOD_TITLE = re.compile(r"\s*(?:(?:for|the|fiscal|years?|quarters?|months?|weeks?|periods?|ended|ending|as|of|at|"
                          r"(?:january|february|march|april|may|june|july|august|september|october|november|december)"
                          r"(?:\s+\d{1,2})?)[\s,]*)+", re.IGNORECASE)
"""A header cell that titles the years' period over them ('For the Years', 'Ended December 31,', 'As of'): it names no
column of its own."""


def without_period_titles(labels: Sequence[str]) -> list[str]:
    """Column labels with the title of the years' period taken out ('For the Years Ended December 31, › 2019' is
    '2019'; a title alone over a blank column is no name), so that a header of the years under such a title reads as
    the years alone."""
    return [" › ".join(part for part in label.split(" › ") if not PERIOD_TITLE.fullmatch(part)) for label in labels]


def without_spacers(labels: Sequence[str]) -> list[str]:
    """Column labels with a block's name alone over a blank column of its own left out, where the column after it is
    one of the block's ('Retiree Medical' between 'Pension › 2020' and 'Retiree Medical › 2022', over the cell a finder
    set a currency sign in): a figure set askew in it belongs to the named column after it ('| Total | $336 | $738 |
    $507 | $48 | | $47 | | $55 | |')."""
    return ["" if label and later.startswith(f"{label} › ") else label
            for label, later in zip(labels, [*labels[1:], ""], strict=True)]


def signs_joined(row: Sequence[str]) -> list[str]:
    """A row's filled cells, a sign a finder set in a cell of its own joined to its figure: a percent sign to the
    figure before it, a currency sign to the one after ('10.3 | % | $ | 5' is '10.3%', '$5'; '9 %' is '9%', '$ 5' is
    '$5'; '$ | —' is '—')."""
    figures: list[str] = []
    sign = ""
    for cell in (re.sub(r"(?<=\d)\s+%$", "%", re.sub(r"^([$€£¥])\s+(?=[\d(])", r"\1", cell.strip())) for cell in row):
        if cell == "%" and figures:
            figures[-1] += "%"
        elif cell in SIGNS:
            sign = cell
        elif cell:
            figures.append(sign + cell if sign and not cell.startswith(sign) and cell not in NIL else cell)
            sign = ""
    return figures


def words_before_years(labels: Sequence[str], row: Sequence[str]) -> list[tuple[str, str]] | None:
    """A row with columns that describe it between its label and its figures, which its header, the years alone, does
    not name ('| Right-of-use assets | Other assets | $2,373 | $2,020 |' under '| | 2022 | 2021 |'; a debt table's
    '| Medium-term note (€600 million) | EUR Fixed | 1.14% | 2023 | 639 | 679 |', ``described_before``): those cells
    unnamed, each figure under its year; None for any other row."""
    named = [labels[c] for c in range(1, len(labels)) if labels[c].strip()]
    filled = [cell.strip() for cell in row[1:] if cell.strip()]
    if len(named) < 2 or not all(YEAR_COLUMN.fullmatch(label) for label in named) \
            or not (words := described_before(filled, len(named))):
        return None
    return [*(("", cell) for cell in filled[:words]), *zip(named, filled[words:], strict=True)]


def described_before(filled: Sequence[str], years: int, *, bare: bool = True) -> int:
    """How many of a row's filled cells, before its figure for each of ``years`` years, describe the row rather than
    state one of its amounts: words ('Other assets'), or rates and years, with words or without (a debt table's
    currency, interest rate and maturity, 'EUR Fixed | 1.14% | 2023', or its rate alone, '1.93%', before its carrying
    values at each year's end). The last ``years`` cells are figures (amounts, no rate, after a rate or a year); 0 for
    any other row (an amount and its share of revenue each year, '1,049 | 52% | 1,386 | 60%', is no such row:
    ``rates_paired``)."""
    extra = len(filled) - years
    if years < 1 or extra < 1:
        return 0
    lead, tail = filled[:extra], filled[extra:]
    worded = [cell for cell in lead  # words, or a label's leader dots: no figure
              if not any(ch.isdigit() for ch in cell) and cell not in NIL and not _NO_FIGURE.fullmatch(cell)]
    if not all(FIGURE.fullmatch(cell) or cell in NIL or _NO_FIGURE.fullmatch(cell) for cell in tail):
        return 0
    if worded and len(worded) == len(lead):
        return extra  # words alone: the figures after them are the years', rates too ('Segment A | 12.5% | 13.0%')
    if not bare:
        return 0  # a header that names more than the years names these columns ('Ownership Percentages')
    amounts = all(_AMOUNT.fullmatch(cell) or cell in NIL for cell in tail)
    return extra if amounts and all(cell in worded or _DESCRIBING.fullmatch(cell) for cell in lead) else 0


def rates_paired(figures: Sequence[str], years: int, *, marked: bool = True) -> bool:
    """Whether a row's figures are an amount and its rate for each of ``years`` years, in turn ('$14,738 | 2.93% |
    $16,053 | 2.80%' under '2022 2021': a debt's carrying value and effective rate; '1,049 | 52% | 1,386 | 60%': a
    line and its share of revenue), each year's pair under the year; by position, 2021's figure was 2022's rate. A
    table whose rate columns write their '%' in some rows alone (a tax reconciliation's first and last) pairs its other
    rows too: ``marked`` off, a rate may be any figure ('(104) | (7) | (198) | (11)')."""
    if years < 2 or len(figures) != 2 * years:
        return False
    amounts, rates = figures[0::2], figures[1::2]
    if not all(_AMOUNT.fullmatch(cell) or cell in NIL for cell in amounts):
        return False
    if not marked:
        return all(FIGURE.fullmatch(cell) or _NO_FIGURE.fullmatch(cell) or cell in NIL for cell in rates)
    return (all(_RATE.fullmatch(cell) or _NO_FIGURE.fullmatch(cell) or cell in NIL for cell in rates)
            and any(_RATE.fullmatch(cell) for cell in rates))


_RATE = re.compile(r"[-−(]?\d[\d,]*(?:\.\d+)?(?:%\)?|\)%)")
"""A figure written as a rate ('2.93%', '(2.6)%', '(0.6%)')."""
_AMOUNT = re.compile(r"[-−(]?[$€£¥]?[-−(]?\d[\d,.]*\)?")
"""A figure that is an amount, no rate ('$1,048', '(96.0)', '$(1,645)')."""
_NO_FIGURE = re.compile(r"n\.?\s?m\.?|n/m|#|[—–-]\s?%", re.IGNORECASE)
"""A cell's mark for no figure ('NM', 'n/m', '#', '—%')."""
_DESCRIBING = re.compile(r"[-−(]?\d+(?:\.\d+)?\)?\s*%|[—–-]\s*%|(?:19|20)\d\d(?:\s*[-–]\s*(?:19|20)?\d\d)?")
"""A cell that describes a row beside its amounts: a rate ('2.26%', '—%') or a year or span of years (a maturity,
'2023', '2025-2028')."""


def year_pairs(labels: Sequence[str], row: Sequence[str], *, marked: bool = True) -> list[tuple[str, str]] | None:
    """A row whose header names only its years over an amount and its rate for each (``rates_paired``), as (year,
    'amount rate'): '2022: $14,738 2.93%'; in a table of such rows (``marked`` off), a row with blanks in the grid of
    two cells a year, each year's cells where the grid puts them ('| Audit settlements | | | | | (587) | 4.1 |':
    '2020: (587) 4.1'); None for any other row."""
    named = [labels[c] for c in range(1, len(labels)) if labels[c].strip()]
    if not named or not all(YEAR_COLUMN.fullmatch(label) for label in named):
        return None
    figures = signs_joined(row[1:])
    if rates_paired(figures, len(named), marked=marked):
        return [(year, f"{figures[2 * n]} {figures[2 * n + 1]}") for n, year in enumerate(named)]
    if marked or not (gridded := paired_cells(row, len(named))):
        return None
    return [(named[n], " ".join(pair)) for n, pair in gridded]


def paired_cells(row: Sequence[str], years: int) -> list[tuple[int, list[str]]]:
    """A row set in a grid of two cells a year after its label (an amount and its rate), blanks and all, as (the
    year's number, its filled cells) for each year with a figure; [] when the row is no such grid."""
    if len(row) != 1 + 2 * years:
        return []
    found = [(n, [cell.strip() for cell in row[1 + 2 * n: 3 + 2 * n] if cell.strip()]) for n in range(years)]
    cells = [cell for _, pair in found for cell in pair]
    if not cells or not all(FIGURE.fullmatch(cell) or cell in NIL or _NO_FIGURE.fullmatch(cell) for cell in cells):
        return []
    return [(n, pair) for n, pair in found if pair]


def years_then_changes(labels: Sequence[str], row: Sequence[str]) -> list[tuple[str, str]] | None:
    """A row whose header names only its years ('| | 2022 | 2021 | 2020 |') over more figures than years, the rest the
    changes between each two years (``changes_follow``: '| 1,232 | | 1,171 | | 988 | 61 | 5.2% | 183 | 18.5% |'),
    as (column name, figure): each year's figure under its year, each change, an amount and its rate, under the two
    years it is between ('2022 vs. 2021: 61 5.2%'); None for any other row."""
    named = [labels[c] for c in range(1, len(labels)) if labels[c].strip()]
    if len(named) < 2 or not all(YEAR_COLUMN.fullmatch(label) for label in named) or len(row) - 1 <= len(named):
        return None
    figures = signs_joined(row[1:])
    if not changes_follow(figures, len(named)):
        return None
    extra = figures[len(named):]
    pairs = [f"{a.strip()} vs. {b.strip()}" for a, b in zip(named, named[1:], strict=False)]
    if len(extra) == 2 * len(pairs):
        extra = [f"{extra[i]} {extra[i + 1]}" for i in range(0, len(extra), 2)]
    elif len(extra) != len(pairs):
        return None
    return [*zip(named, figures[: len(named)], strict=True), *zip(pairs, extra, strict=True)]


def changes_follow(figures: Sequence[str], years: int) -> bool:
    """Whether a row's figures after its first ``years``, one a year, are the changes between each two years side by
    side, in columns its header may not name: a column or two for each two years (an amount and its rate, or one of
    them), each amount the difference of its two years' figures ('16,214' after '169,236 | 153,022'; either sign, a
    dash a zero) and each rate that difference as a percentage of the later year's ('10.6%', or '23' in a column that
    writes its '%' in its first row alone), within the rounding of the figures as written; a change no figure states
    ('NM', '—%') is not held against it, and a difference of nothing ('— | —' over '—') tells nothing. Figures after
    the years that are not (an amount and its share of revenue beside each year's, small figures a unit apart by
    chance) do not."""
    extra, pairs = figures[years:], years - 1
    if years < 2 or len(extra) not in (pairs, 2 * pairs):
        return False
    told = False
    for pair in range(pairs):
        first, second = _value(figures[pair]), _value(figures[pair + 1])
        if first is None or second is None:
            return False
        stated = extra[2 * pair : 2 * pair + 2] if len(extra) == 2 * pairs else [extra[pair]]
        for k, written in enumerate(stated):
            rate_mark = k == 1 and written.strip().rstrip("%").strip() in NIL | {"−", "#"}  # 'NM' read as a dash
            fits = None if rate_mark else _fits(first, second, written, figures[pair : pair + 2],
                                                alone=len(extra) == pairs)
            if fits is False:
                return False
            told = told or (fits is True and first != second)
    return told


def _fits(first: float, second: float, written: str, years: Sequence[str], *, alone: bool) -> bool | None:
    """Whether a change as written is the difference of two years' figures, as an amount or a rate (a rate's '%' may
    be in its column's first row alone); None when it states no figure ('NM', '—%') or a rate over nothing."""
    change = _value(written)
    if change is None or (written.strip().rstrip("%").strip() in NIL | {"−"} and "%" in written):
        return None
    rate = abs(first - second) / abs(second) * 100 if second else None
    as_rate = rate is not None and abs(abs(change) - rate) <= rounding(written) + _RATE_SLACK
    as_amount = abs(abs(change) - abs(first - second)) <= sum(rounding(f) for f in (*years, written))
    if "%" in written:  # a rate, or the change in points of two years' percentages ('56.2% | 53.2% | 3.0%')
        points = all("%" in year for year in years) and as_amount
        return as_rate or points if rate is not None or points else None
    return as_amount or (alone and as_rate)


_RATE_SLACK = 0.05
"""How far a change's rate as written may be from the one its rounded amounts give, beyond its own rounding, in
percentage points ('10.6%' of 16,214 over 153,022)."""


def _value(figure: str) -> float | None:
    """A figure's value as written ('$(1,544)' -1544, '10.6%' 10.6, a dash 0), None for words."""
    if figure.strip() in NIL | {"−"}:
        return 0.0
    found = re.fullmatch(r"\s*([-−(]?)\s*[$€£¥]?\s*([-−(]?)\s*(\d[\d,]*(?:\.\d+)?)\s*%?\s*\)?\s*%?\s*", figure)
    if found is None:
        return None
    value = float(found.group(3).replace(",", ""))
    return -value if found.group(1) or found.group(2) else value


def rounding(figure: str) -> float:
    """How far a figure as written may be from the value it rounds ('5.3%': 0.05)."""
    decimals = re.search(r"\.(\d+)", figure)
    return 0.5 * 10 ** -len(decimals.group(1) if decimals else "") + 1e-9


def squeezed(labels: Sequence[str], row: Sequence[str]) -> list[tuple[int, str]] | None:
    """A row a table finder set askew (more cells than its header names: a sign or a blank between its figures,
    '| Common Equity Tier 1 | 10.3 | % | 10.5 | % | 13.5 | % | | |'), its figures given to the header's columns in
    order, as (column, figure): to every column when it has one each, to the years alone when it has one a year (a
    ratio's row leaves the change columns empty), or an amount and its rate to each change column after the years
    ('2022 vs. 2021: $10,482 25%'); None for any other row, which is labelled by position. A block's name alone over
    a blank column names none (``without_spacers``)."""
    named = [c for c, label in enumerate(without_spacers(labels)) if c > 0 and label.strip()]
    if len(row) - 1 <= len(named):
        return None
    figures = signs_joined(row[1:])
    if not figures or not all(FIGURE.fullmatch(f) or f in NIL | {"#"} for f in figures):
        return None
    years = [c for c in named if YEAR_COLUMN.fullmatch(labels[c])]
    if len(figures) == len(named):
        return list(zip(named, figures, strict=True))
    if len(figures) == len(years) and years:
        return list(zip(years, figures, strict=True))
    changes = named[len(years):]  # after the years, each change column an amount and its rate: '$10,482 | 25%'
    if years == named[:len(years)] and changes and len(figures) == len(years) + 2 * len(changes):
        paired = [f"{figures[i]} {figures[i + 1]}" for i in range(len(years), len(figures), 2)]
        return list(zip(named, [*figures[:len(years)], *paired], strict=True))
    return None
