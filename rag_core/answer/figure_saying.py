"""How a figure read by code is said: rounded as the question asks, in its unit and scale, with
its formula and citations; figures of one line item brought to one unit before arithmetic; the
inputs no passage holds named (``answer.figures`` reads the cells, this says them)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from ..lexical.figure_name import SPAN_OF_YEARS
from ..lexical.line_items import BENEFIT_SIGNED, OUTFLOWS, amount_subtracted
from ..models import CellRead, FigureReading
from ..tables.headers import dated_year
from ..tables.rows import HEADER_JOIN
from .figure_cells import Row, unit_unstated
from .figure_columns import split_lines
from .figure_rows import When, headed_item
from .statement_lines import IN_PARENTHESES, cell_value, decimal_places, is_percent

SCALE_NAMES = {1e3: "thousand", 1e6: "million", 1e9: "billion"}
NOT_COMPUTED = "No figure is computed"
"""How the sentence of a reading that found no figure opens (an input missing, or in unlike units)."""
_THREE_FIGURES = 10.0
"""A computed percentage below this is said with two places (1.18%, not 1.2%: a small margin's one
place loses a sixth of it), above it with one (24.8%)."""
_WHOLE_FROM = 1_000.0
"""A figure computed over amounts a table states without their unit is said without cents from this
size on ('-568,023', the change of revenue in a table without '(in thousands)'; not '-568,023.00')."""
_ONE_PLACE_FROM = 100.0
"""A computed amount not whole is said with one place from this size on (123.5), two below it (12.35)."""
_NEAR = 10.0
"""A figure without a stated unit is read in the unit that brings it within this many times of the
same line item's figure with one."""


def paid(cells: Sequence[CellRead]) -> tuple[float, str]:
    """The sum of cells, an amount paid written (1,577) counted as 1,577 (an expense beside a benefit
    written so too, and the benefit as less expense), with its inputs."""
    amounts = [(-c.value, cite(c).replace(c.text, c.text.strip("()") if c.value < 0 else f"-{c.text}"))
               if (c.value < 0 and OUTFLOWS.search(c.row)) or BENEFIT_SIGNED.search(c.row) else (c.value, cite(c))
               for c in cells]
    return ((sum(v for v, _ in amounts), f"({' + '.join(t for _, t in amounts)})") if len(amounts) > 1
            else amounts[0])


def as_amounts(*cells: CellRead) -> tuple[CellRead, ...]:
    """Cells of rows that state an amount subtracted, each written in parentheses ('Cost of products | (53,969)',
    ``line_items.amount_subtracted``), read as the amounts they are ('53,969'); the cells as read otherwise."""
    if not all(c.value < 0 and IN_PARENTHESES.match(c.text) and amount_subtracted(c.row) for c in cells):
        return cells
    return tuple(c.model_copy(update={"value": -c.value, "text": re.sub(r"[()]", "", c.text).strip()}) for c in cells)


AVERAGED = re.compile(rf"^(?:the\s+)?(?:{SPAN_OF_YEARS}\s+)?(?:average|mean)\s+(?:of\s+)?", re.IGNORECASE)
"""An average's words before the line it averages ('average of D&A'): no part of the line's name."""


_ASKS_LOWERED = re.compile(r"\b(?:reduc|lower|decreas|cut)\w*", re.IGNORECASE)
_ASKS_NEGATIVE = re.compile(r"(?<!credit )(?<!loan )(?<!for )(?<!\()\bloss(?:es)?\b|\b(?:los[et]|losing|benefits?|"
                            r"use[ds]?|using|spen[dt]|spending|outflows?|releases?|released|deficits?)\b",
                            re.IGNORECASE)
"""A question that asks for the side of a row its parentheses mean: a loss, a tax benefit, cash used or spent (not a
line named by what it provides for, 'provision for credit losses', nor 'income (loss)', which asks either side)."""


_CLAUSE = re.compile(r"[,:;]\s+")
_AMOUNT = re.compile(r"\$\s?\d")
_YEAR_LAST = re.compile(r"[,:;]\s*(?:19|20)\d\d$")


def said_row(label: str) -> str:
    """A row's label as an answer names it: without a note in parentheses that holds figures of its own
    ('Deposits (includes $13,782 as of December 2016 …, at fair value)'), nor the clauses from the first that
    holds an amount on ('Accounts receivable, net of allowances of $132 and $190, at December 31, 2019 …' is
    'Accounts receivable'; '…, less reserves for credit losses: 2022, $3,747; 2021, $3,305' ends at 'losses'),
    either of which would read as the answer's, nor a footnote's mark ('Days Sales Outstanding*'), nor the headings a
    PDF's text joined to it ('LIABILITIES AND SHAREHOLDERS’ EQUITY Current Liabilities Accounts payable')."""
    bare = re.sub(r"\s*\([^)]*\d[^)]*\)|\s*\([^)]*$|\s*[*†‡]+$", "", label).strip()  # a note a cut left open too
    cuts = [m.start() for m in _CLAUSE.finditer(bare)]
    ends = [*cuts[1:], len(bare)] if cuts else []
    noted = next((at for at, end in zip(cuts, ends, strict=True) if _AMOUNT.search(bare, at, end)), None)
    if noted is not None:
        bare = _YEAR_LAST.sub("", bare[:noted])
    return headed_item(bare) or bare or label


def row_named(cell: CellRead, said: bool = True) -> str:
    """A cell's row as an answer names it (``said_row``; as its table writes it when not ``said``), after the lead-in
    the question named it with ('Income before income tax expense — Foreign': a 'Foreign' alone is no answer)."""
    row = said_row(cell.row) if said else cell.row
    return f"{said_row(cell.lead) if said else cell.lead} — {row}" if cell.lead else row


def said_column(label: str) -> str:
    """A column's label as an answer names it: a block's title of one period by its date, by its year ('Year Ended
    December 31, 2019 › King' is '2019 › King'; a date's day would read as a figure of the answer)."""
    return HEADER_JOIN.join(dated_year(part) or part for part in label.split(HEADER_JOIN))


class Saying:
    """The cells a reading used, what it assumed and what it missed, and how its figure is said."""

    def __init__(self, rows: list[Row], *, decimals: int | None, wanted_scale: float | None,
                 question: str = "") -> None:
        self.rows, self.decimals, self.wanted_scale = rows, decimals, wanted_scale
        self.signs = _ASKS_NEGATIVE.search(question) is None
        """Whether a figure its row writes in parentheses among plain ones is said with its minus sign: not when the
        question asks for the side the parentheses mean ('How much did it lose', 'its deferred tax benefit')."""
        self.lowers = _ASKS_LOWERED.search(question) is not None
        """Whether the question asks what lowered a figure ('How much did the divestiture reduce its tax rate')."""
        self.cells: list[CellRead] = []
        self.missing: list[str] = []
        self.inferred: dict[tuple[str, int], float] = {}
        """Scales read off a figure of the same line item whose unit is stated, by (row, passage)."""
        self.assumed: list[str] = []
        """Each such reading, said in the answer's sentence."""

    def _row_scale(self, cell: CellRead) -> float:
        if (cell.row, cell.passage) in self.inferred:
            return self.inferred[cell.row, cell.passage]
        # its own table's row: a passage's two tables may both have a 'Total revenues', in thousands and in percent,
        # and a table two rows of one label ('Net income attributable to CVS Health | $7,910' and, under 'Basic
        # earnings per share:', '… | $6.00'): the one holding the cell first
        mine = [r for r in self.rows if r.label == cell.row and r.passage.n == cell.passage and r.table == cell.table]
        return next((r.scale for r in mine if r.cells.get(cell.column) == cell.text), None) or next(
            (r.scale for r in mine), None) or next(
            (r.scale for r in self.rows if r.label == cell.row and r.passage.n == cell.passage), 1.0)

    def _said(self, cell: CellRead) -> str:
        """A cell as its row and column write it, with its table's scale ('$126,375 thousand' for '(in $000’s)'), and
        with its minus sign when its row writes other figures plain: a release in a row of provisions
        ('Total provisions for credit losses | 2,182 | (1,419)' is -1,419 in 2021), not an outflow a row writes so
        every year ('Repurchase of common stock | (3,500) | (1,200)' is 3,500 spent); a line of a rate's reconciliation
        in the points it adds to the rate, below nought when it lowers it, unless the question asks what lowered it."""
        at = (cell.row, cell.passage, cell.table)
        own = [row for row in self.rows if (row.label, row.passage.n, row.table) == at]
        percent = is_percent(cell.text)  # an amount a row writes in parentheses is said as its amount in a unit asked
        points = any(row.points for row in own)  # what it adds to a rate: 'Legal charges | 3.5', 'Tax credits | (2.0)%'
        signed = bool(IN_PARENTHESES.match(cell.text)) and cell.value < 0 and (
            not self.lowers if points else self.signs and any(
                (value := cell_value(text)) is not None and value > 0 and not is_percent(text)
                for row in own for text in row.cells.values()))
        value = cell.value if signed or (percent and not points) or not IN_PARENTHESES.match(cell.text) \
            else abs(cell.value)
        if points:
            return f"{self._shown(value, percent=True, as_written=cell.text).removesuffix('%')} percentage points"
        return self._shown(value, percent=percent, scale=self._row_scale(cell), as_written=cell.text, signed=signed)

    def _shown(self, value: float, *, percent: bool, scale: float = 1.0, as_written: str = "",
               signed: bool = False) -> str:
        if percent:
            # a cell with the places it is written with; a computed 0.86% and 1.18%, not 0.9% and 1.2%
            own = decimal_places(as_written)
            own = own if own is not None else 2 if abs(value) < _THREE_FIGURES else 1
            return f"{value:,.{own if self.decimals is None else self.decimals}f}%"
        unit = self.wanted_scale or (scale if scale > 1 else 1.0)
        if as_written and self.decimals is None and unit == scale:
            money = "$" if "$" in as_written else ""
            plain = re.sub(r"[$()\s]", "", as_written)  # '(1,577)', an outflow, is stated as 1,577
            return f"{'-' if signed else ''}{money}{plain}" + (f" {SCALE_NAMES[unit]}" if unit in SCALE_NAMES else "")
        amount = value / unit
        whole = amount == round(amount) and bool(self.cells) and all(decimal_places(c.text) == 0 for c in self.cells)
        decimals = self.decimals if self.decimals is not None else (  # an average of 131 and 116: 123.5, not 124
            0 if abs(amount) >= _WHOLE_FROM or whole else 1 if abs(amount) >= _ONE_PLACE_FROM else 2)
        return f"{amount:,.{decimals}f}" + (f" {SCALE_NAMES[unit]}" if unit in SCALE_NAMES else "")

    def _computed(self, kind: str, value: float, formula: str, *, percent: bool, what: str,
                  scale: float = 1.0) -> FigureReading:
        shown = self._shown(value, percent=percent, scale=scale) if percent or scale > 1 else \
            self._ratio(value, change=kind == "change")
        cited = "".join(f"[{n}]" for n in dict.fromkeys(c.passage for c in self.cells))
        units = [f"{re.sub(r'[()]', '', c.text).strip()} [{c.passage}] in the unit of [{c.unit_passage}]"
                 for c in self.cells if c.unit_passage and c.unit_passage != c.passage]  # another passage's unit
        notes = [*dict.fromkeys(units), *self.assumed]
        assumed = f" ({'; '.join(notes)})" if notes else ""
        return FigureReading(kind=kind, sentence=f"**{what}: {shown}**, computed from the document's figures: "
                             f"{formula} = {shown} {cited}{assumed}", value=value, shown=shown,
                             formula=f"{formula} = {shown}", what=what,
                             cells=list(self.cells), notes=[c.why for c in self.cells])

    def cells_summed(self, cells: Sequence[CellRead], what: str) -> FigureReading:
        """Cells read apart summed, each input shown ('$4,200,000,000 [1] + $4,200,000,000 [1]'), said in the smallest
        scale among them."""
        self.cells += [cell for cell in cells if cell not in self.cells]
        return self._computed("sum", sum(cell.value for cell in cells), " + ".join(cite(cell) for cell in cells),
                              percent=False, what=what, scale=min(self._row_scale(cell) for cell in cells))

    def _ratio(self, value: float, *, change: bool = False) -> str:
        """A ratio as said: a small one also in percent ('0.027 (2.7%)'); a change of one (or of a rate's points)
        without, which would read as its growth ('-0.162', not '-0.162 (-16.2%)')."""
        if self.decimals is None and 0 < abs(value) < 1:  # 0.027 (2.7%), not 0.03: two places lose a small ratio
            return f"{value:.3g}" if change else f"{value:.3g} ({self._shown(value * 100, percent=True)})"
        places = self.decimals if self.decimals is not None else 0 if abs(value) >= _WHOLE_FROM else 2
        return f"{value:,.{places}f}"

    def _aligned(self, cells: Sequence[CellRead]) -> list[CellRead] | FigureReading:
        """Figures of one line item in one unit. A table that states no unit ('$5,425' in a schedule
        without its '(in thousands)') beside the same item with one ('$7.4 million' in a sentence) is
        read in the one unit (thousand, million, billion) that brings it within ten times of the
        stated figure, and the answer says so; when none does, or more than one, nothing is
        computed: a change across them could be off by a thousand times. Nor is it between a percentage
        and an amount ('21%' of one page, '$7,027' of another)."""
        if len({is_percent(c.text) for c in cells}) > 1:
            shown = "; ".join(f"{cite(c)} ({row_named(c, said=False)}, {c.column})" for c in cells)
            return FigureReading(kind="missing", sentence=f"{NOT_COMPUTED}: the figures found ({shown}) are a "
                                 "percentage and an amount, not one figure in two years.", cells=list(cells),
                                 notes=["a percentage beside an amount"])
        scales = {self._row_scale(c) for c in cells}
        if len(scales) == 1 or 1.0 not in scales:
            return list(cells)
        stated = [c for c in cells if self._row_scale(c) != 1.0 and c.value]
        aligned = []
        for cell in cells:
            if self._row_scale(cell) != 1.0:
                aligned.append(cell)
                continue
            fits = [unit for unit in SCALE_NAMES if stated and cell.value
                    and all(1 / _NEAR < cell.value * unit / other.value < _NEAR for other in stated)]
            if len(fits) != 1:
                shown = "; ".join(f"{cite(c)} ({row_named(c, said=False)}, {c.column})" for c in cells)
                return FigureReading(kind="missing", sentence=f"{NOT_COMPUTED}: the figures found ({shown}) "
                                     "are in units the passages do not state alike.", cells=list(cells),
                                     notes=["inputs in unlike units"])
            unit = fits[0]
            named = SCALE_NAMES.get(self._row_scale(stated[0]))  # a sentence's 'trillion' has no name here
            said = (f"{cite(cell)} read as {SCALE_NAMES[unit]}s: its table states no unit, and "
                    f"{cite(stated[0])} states {stated[0].row} in {f'{named}s' if named else 'a stated unit'}")
            read = cell.model_copy(update={"value": cell.value * unit, "why": f"{cell.why}; {said}"})
            self.inferred[cell.row, cell.passage] = unit
            self.assumed.append(said)
            self.cells = [read if c is cell else c for c in self.cells]
            aligned.append(read)
        return aligned

    def in_one_unit(self) -> bool:
        """Whether the amounts a formula has read, all of one document, state one unit but for those of
        tables that state none, now read in that unit (their rows rescaled, the cells read cleared, the
        answer told): a report's note ('Total inventories | $253,161' without its '(in thousands)') is
        in the unit of its statements ('Cost of sales | 896,271' in thousands), not in dollars a
        thousand times smaller. False, nothing changed, when they share one unit or state two."""
        rows = {(r.label, r.passage.n, r.table): r for r in self.rows}
        read = [(c, row) for c in self.cells if (row := rows.get((c.row, c.passage, c.table))) is not None]
        stated = {self._row_scale(c) for c, _ in read if not is_percent(c.text)} - {1.0}
        bare = {(c.passage, c.table) for c, row in read if unit_unstated(row, c.text)
                and (c.row, c.passage) not in self.inferred}
        if len(stated) != 1 or not bare or len({c.document for c in self.cells}) != 1:
            return False
        unit = stated.pop()
        self.rows = [replace(r, scale=unit) if (r.passage.n, r.table) in bare
                     and all(unit_unstated(r, t) for t in r.cells.values()) else r for r in self.rows]
        passages = ", ".join(f"[{n}]" for n in sorted({n for n, _ in bare}))
        self.cells, self.missing = [], []
        self.assumed = [f"{passages} read in {SCALE_NAMES.get(unit, 'the stated unit')}s: its table states no unit, "
                        "the other figures' tables do"]
        return True

    def summed(self, metric: str, cells: Sequence[tuple[CellRead, When]]) -> tuple[list[tuple[float, str]], str]:
        """Each cell's value and how it is shown; of a line its table splits into parts it does not total, the
        year's parts summed (``split_lines``: Analog Devices' D&A, '(132,493 [1] + 7,377 [1])'), the parts counted
        among the cells read; and the summed line's name, the metric's words (D&A, not its 'Depreciation'), '' when
        no row is split."""
        parts = [split_lines(self.rows, cell, metric, year) for cell, year in cells]
        self.cells += [part for each in parts for part in each]
        values = [paid([cell, *each]) if each else (cell.value, cite(cell))
                  for (cell, _), each in zip(cells, parts, strict=True)]
        return values, AVERAGED.sub("", metric) if any(parts) else ""

    def difference(self, old: CellRead, new: CellRead, *, relative: bool, what: str,
                   summed: Sequence[tuple[float, str]] = ()) -> FigureReading | None:
        """``new`` less ``old``, or its growth rate in percent with ``relative`` (None from zero); an
        amount's change says its rate too, and a rate its amount ('6,918 million (up 8.7%)'). A cost written in
        parentheses both years changes as its amounts do ('Cost of products': 49,954 to 53,969 is up 4,015). With
        ``summed``, the two cells' values as ``summed`` gives them (a line split into parts, each year's sum)."""
        old, new = as_amounts(old, new)
        (was, was_shown), (now, now_shown) = summed or ((old.value, cite(old)), (new.value, cite(new)))
        change, scale = now - was, 1.0 if is_percent(new.text) else self._row_scale(new)  # a rate column's
        if relative:
            grown = self.grown((was, was_shown), (now, now_shown), what, workings="")
            if grown is None:
                return None  # from nought
            reading = grown
            beside = self._shown(abs(change), percent=False, scale=scale) if scale > 1 else ""
        else:
            reading = self._computed("change", change, f"{now_shown} − {was_shown}", percent=False, what=what,
                                     scale=scale)
            rated = was * now > 0 and not is_percent(new.text + old.text)  # not from a loss to a profit
            beside = self._shown(abs(change) / abs(was) * 100, percent=True) if rated else ""
        way = "up" if change >= 0 else "down"
        if not beside and not relative and is_percent(new.text) and is_percent(old.text):  # a rate's points: the way
            return went(reading, change, old.text, new.text)  # it went, in words ('down from 14.0% to 13.3%')
        return reading.model_copy(update={"sentence": f"{reading.sentence} ({way} {beside})", "beside": beside}
                                  ) if beside else reading

    def grown(self, was: tuple[float, str], now: tuple[float, str], what: str, *,
              workings: str) -> FigureReading | None:
        """The growth rate from ``was`` to ``now`` (each a value and how it is shown) after the ``workings`` that gave
        them ('2019: 1,831 − 116 = 1,715 million; 2018: …; (1,715 million − 1,659 million) / 1,659 million = 3.38%');
        None from nought."""
        if not was[0]:
            return None
        return self._computed("growth", (now[0] - was[0]) / abs(was[0]) * 100,
                              f"{workings}({now[1]} − {was[1]}) / {was[1]}", percent=True, what=what)

    def compounded(self, was: tuple[float, str], now: tuple[float, str], first: int, last: int,
                   what: str, *, workings: str = "") -> FigureReading | None:
        """The growth a year, compounded, from ``was`` in ``first`` to ``now`` in ``last`` (each a value and how it is
        shown: '(34,229 [1] / 32,184 [1])^(1/2) − 1 = 3.13%'), after the ``workings`` of the two values when they were
        worked out; None from nought or a figure below it."""
        if was[0] <= 0 or now[0] <= 0:
            return None
        return self._computed("growth", ((now[0] / was[0]) ** (1 / (last - first)) - 1) * 100,
                              f"{workings}({now[1]} / {was[1]})^(1/{last - first}) − 1", percent=True,
                              what=f"{what}, compound annual growth {first} to {last}")

    def _missing(self) -> FigureReading:
        named = "; ".join(dict.fromkeys(self.missing)) or "an input"
        return FigureReading(kind="missing", sentence=f"{NOT_COMPUTED}: the passages' tables do not give "
                             f"{named}.", cells=list(self.cells), missing=list(dict.fromkeys(self.missing)))


def answered(reading: FigureReading, way: str) -> FigureReading:
    """A change read for a yes or no on the way its figure went (``way``: 'up', 'down'), opened with the answer: 'No: …'
    when it went the other way, 'Yes: …' when it went that way; as it is for no such question, a change of nothing or
    another reading."""
    if not way or reading.kind not in ("change", "growth") or not reading.value:
        return reading
    yes = (reading.value > 0) == (way == "up")
    return reading.model_copy(update={"sentence": f"{'Yes' if yes else 'No'}: {reading.sentence}"})


def went(reading: FigureReading, change: float, old: str, new: str) -> FigureReading:
    """A change said with the way it went in words and its two ends ('(down from 14.0% to 13.3%)'), as a reader (and a
    small model) would say it: a figure in points or a ratio's change has no rate beside it that says so."""
    if not change:
        return reading
    ends = [old.strip(), new.strip()]
    return reading.model_copy(update={"sentence": f"{reading.sentence} ({'up' if change > 0 else 'down'} from "
                                                  f"{ends[0]} to {ends[1]})", "ends": ends})


def in_points(reading: FigureReading) -> FigureReading:
    """A change of a percentage, said in percentage points."""
    points = f"{reading.shown.rstrip('%').strip()} percentage points"
    # where the sentence states the result (its bold and after its formula's '='), not a '10.48%' holding a '0.48%'
    shown = re.compile(rf"(?<=: |= ){re.escape(reading.shown)}(?![\d.])")
    return reading.model_copy(update={"sentence": shown.sub(points, reading.sentence), "shown": points,
                                      "formula": shown.sub(points, reading.formula)})


def beside(row: Row, column: str) -> list[tuple[str, str]]:
    """The other columns of ``column``'s group in ``row`` ('Legal › NaiveRAG' beside 'Legal ›
    LightRAG'): what tells apart blocks of a table whose rows and columns read alike."""
    group, _, _ = column.rpartition(" › ")
    return [(label, text) for label, text in row.cells.items()
            if label != column and label.rpartition(" › ")[0] == group and group and cell_value(text) is not None]


def besides(siblings: Sequence[tuple[str, str]]) -> str:
    """' beside NaiveRAG 16.4%': the other cells of a candidate's column group (``beside``)."""
    return "".join(f"; beside {label.rpartition(' › ')[2]} {text}" for label, text in siblings)


def cite(cell: CellRead) -> str:
    """A cell as an input of shown arithmetic: its figure as written and its passage's number."""
    return f"{cell.text.strip()} [{cell.passage}]"
