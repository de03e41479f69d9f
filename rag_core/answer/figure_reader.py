"""How the figure reader finds a question's cell among the passages' rows (its line item, its year or period, the
column the question names) and computes what is asked of it (a change, growth, average, sum, a formula, what shares are
worth), each computation shown with its inputs (``figure_saying.Saying``); ``figures.read_figure`` chooses which."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import partial

from ..lexical.figure_name import YEAR, owner
from ..lexical.line_items import beyond_whole, derived_formula, spent
from ..models import CellRead, FigureReading
from .balance_rows import balance_moved
from .figure_cells import END, START, Row
from .figure_columns import (
    as_written,
    cell_read,
    column_of,
    count_and_price,
    latest_year,
    opening_column,
    partly_named,
    plainer,
    plainness,
    said_when,
    split_lines,
    unlisted_debt,
)
from .figure_question import ASKS_PERCENT, TOTAL_OF, Asked
from .figure_rows import When, alike_first, amounts_first, rows_named
from .figure_saying import (
    SCALE_NAMES,
    Saying,
    as_amounts,
    beside,
    besides,
    cite,
    in_points,
    paid,
    row_named,
    said_column,
    said_row,
    went,
)
from .formula import Missing, evaluate, formula_tokens
from .row_completed import totals_first
from .row_words import GENERIC, stems
from .statement_lines import BALANCE_AT, cell_value, is_percent

# what a figure is compared with ('against RQ-RAG'): the column beside it names it, not its own
_AGAINST = re.compile(r"\b(?:against|vs\.?|versus|compared (?:to|with)|relative to)\s+(?P<who>[\w&.-]+)", re.IGNORECASE)
_LISTED = 3  # most candidates an ambiguous figure question is given

_APART = 2
"""Places two years' values of a ratio are said to when their own places say them alike (16.9% and 16.9%)."""


class CellReader(Saying):
    def __init__(self, rows: list[Row], asked: Asked) -> None:
        super().__init__(rows, decimals=asked.decimals, wanted_scale=asked.scale, question=asked.question)
        self.years, self.periods = list(asked.years), asked.periods
        against = _AGAINST.search(asked.question)
        self.against = stems(against.group("who")) if against else set()
        self.named = stems(asked.question) - self.against
        who, after = owner(asked.question)  # 'Activision Blizzard' names no segment's column, unless said again
        self.owner = frozenset(stems(who) - stems(after))
        self.amount = ASKS_PERCENT.search(asked.question) is None  # which a table of shares of revenue states not
        self.question = asked.question
        self.asked = asked
        # the cells one evaluation of a formula read, each with its operand: two operands are two cells
        self.operands: dict[tuple[int, str, str], str] = {}

    # --- finding a row and a column ---------------------------------------------------------

    def read(self, metric: str, year: When, *, total: bool = False) -> CellRead | None:
        """One cell: the best row with a figure in the asked column (its 'Total' with ``total``), ``alike_first``; for
        an amount asked, no percentage ('% of 2016 Net Revenues' beside a year the finder merged with two others); of a
        balance, never its change in a year ('Accounts receivable | (122)' of a cash flow statement, ``balance_moved``).
        """
        named = [row for _, row in rows_named(self.rows, metric, owner=self.owner, said=self.question)
                 if not balance_moved(row, metric, self.question)]
        for row in alike_first(named, self.rows, self.cells):
            cell = column_of(row, year, self.named, total=total, owner=self.owner)
            if cell is None or (self.amount and is_percent(cell[1])):
                continue
            read = cell_read(row, cell, year, metric)
            if read is None:
                continue
            self.cells.append(read)
            return read
        what = ("the total of " if total else "") + metric.strip() + (f" for {said_when(year)}" if year is not None
                                                                     and not total else "")
        self.missing.append(what)
        return None

    # --- what the question asks of the cells --------------------------------------------------

    def cell(self, metric: str) -> FigureReading | None:
        year = self.years[-1] if self.years else None
        found = totals_first(metric, rows_named(self.rows, metric, question=self.question, owner=self.owner))
        found = [(score, row) for score, row in found if not (self.amount and row.shares)] or found  # an amount
        for level in dict.fromkeys(score for score, _ in found):  # the best rows that hold the asked column
            reading = self._cell_among([row for score, row in found if score == level], metric, year)
            if reading and reading.kind == "cell" and (parts := split_lines(self.rows, reading.cells[0], metric, year)):
                self.cells += [reading.cells[0], *parts]  # a cost of revenue split into lines it does not total
                value, shown = paid([reading.cells[0], *parts])
                return self._computed("sum", value, shown, percent=False, what=f"{metric}, {reading.cells[0].column}",
                                      scale=self._row_scale(reading.cells[0]))
            if reading is not None:
                plain = plainer(reading, [row for _, row in found], metric, year, self.named, self.owner, self.amount)
                return reading if plain is None else self.one(plain)
        return self._balance(metric, year)

    def _balance(self, metric: str, year: int | None) -> FigureReading | None:
        """An equity statement's figure: its columns are the parts of equity ('Total › Stockholders'
        Equity') and its rows what changed them, between rows of the balance at each date ('Balance,
        March 31, 2011'). The column the metric names, fewest other words first, in the balance row of
        the asked year (else the latest)."""
        asked = stems(metric) - GENERIC
        dated = [(max(int(y) for y in YEAR.findall(row.label)), row) for row in self.rows
                 if BALANCE_AT.match(row.label) and YEAR.search(row.label)]
        if not asked or not dated:
            return None
        wanted = year if year is not None else max(y for y, _ in dated)
        for row in [row for y, row in dated if y == wanted]:
            named = sorted((len(stems(label) - GENERIC - asked), label, text) for label, text in row.cells.items()
                           if asked <= stems(label) and cell_value(text) is not None)
            read = cell_read(row, named[0][1:], wanted, metric) if named else None
            if read is not None:
                return self.one(read)
        return None

    def _cell_among(self, rows: list[Row], metric: str, year: int | None) -> FigureReading | None:
        """The asked cell among rows that name the metric equally well; the candidates when more than one fits."""
        tied: list[CellRead] = []
        siblings: dict[int, list[tuple[str, str]]] = {}
        whole = {id(row): cell for row in rows
                 if (cell := column_of(row, year, self.named, owner=self.owner, percent=not self.amount)) is not None}
        whole = whole or {id(row): cell for row in rows if year is not None and (cell := opening_column(row, year))}
        for row in rows:  # a column named whole anywhere outranks one named in part ('Legal' of 'Legal › X')
            options = [whole[id(row)]] if id(row) in whole else partly_named(row, self.named) if not (
                whole or year) else []
            for option in options:
                read = cell_read(row, option, year, metric)
                if read is None:
                    continue
                same = next((i for i, c in enumerate(tied) if abs(c.value - read.value) <= 1e-9), None)
                if same is None:
                    tied.append(read)
                elif plainness(read) < plainness(tied[same]):
                    tied[same] = read  # one figure two tables state: read where it is said plainest
                else:
                    continue
                siblings[id(read)] = beside(row, option[0])
        named = [c for c in tied if any((stems(label.rpartition(" › ")[2]) - GENERIC) <= self.against
                                        for label, _ in siblings.get(id(c), []))]
        tied = named if len(named) == 1 else amounts_first(tied, metric, amount=self.amount)  # 'against RQ-RAG
        if not tied:
            return None
        if len(tied) > 1:
            listed = "; ".join(f"{self._said(c)} ({row_named(c, said=False)}, {said_column(c.column)}"
                               f"{besides(siblings.get(id(c), []))}) [{c.passage}]" for c in tied[:_LISTED])
            return FigureReading(kind="candidates", sentence=f"The passages give more than one figure for this: "
                                 f"{listed}.", cells=tied[:_LISTED], notes=["rows or columns that fit equally well"])
        return self.one(tied[0])

    def one(self, only: CellRead) -> FigureReading:
        """One cell read as the answer, said as its row and column write it."""
        shown = self._said(only)
        return FigureReading(kind="cell", sentence=f"**{row_named(only)}, {said_column(only.column)}: {shown}** "
                             f"[{only.passage}]{as_written(only)}",
                             value=only.value, shown=shown, cells=[only], notes=[only.why])

    def change(self, metric: str, *, relative: bool) -> FigureReading | None:
        if len(self.periods) == 2:  # 'from the period 2008-2010 to 2010-2014'
            old, new = self.read(metric, self.periods[0]), self.read(metric, self.periods[1])
            if old is None or new is None:
                return self._missing()
            return self.difference(old, new, relative=relative, what=f"{row_named(new)}, change "
                                   f"{said_when(self.periods[0])} to {said_when(self.periods[1])}")
        if len(set(self.years)) <= 1 and (during := self.during(metric, relative=relative)) is not None:
            return during
        later = max(self.years) if self.years else latest_year(self.rows, metric)  # of none: the latest year's
        if later is None:
            return None
        earlier = min(self.years) if len(set(self.years)) > 1 else later - 1
        old, new = self.read(metric, earlier), self.read(metric, later)
        if old is None or new is None:
            return self._missing()
        if isinstance(aligned := self._aligned([old, new]), FigureReading):
            return aligned
        old, new = as_amounts(*aligned)
        summed, whole = self.summed(metric, [(old, earlier), (new, later)])  # a split line's parts summed
        return self.difference(old, new, relative=relative, what=f"{whole or row_named(new)}, change {earlier} to "
                               f"{later}", summed=summed)

    def compound(self, metric: str) -> FigureReading | None:
        """The growth a year, compounded, from the earliest year asked to the latest ('the CAGR of its revenue from
        2020 to 2022': (66,608 / 58,158)^(1/2) − 1 = 7.02%); None from nought or a figure below it."""
        first, last = min(self.years), max(self.years)
        old, new = self.read(metric, first), self.read(metric, last)
        if old is None or new is None:
            return self._missing()
        if isinstance(aligned := self._aligned([old, new]), FigureReading):
            return aligned
        old, new = as_amounts(*aligned)
        (was, now), whole = self.summed(metric, [(old, first), (new, last)])
        return self.compounded(was, now, first, last, whole or row_named(new))

    def during(self, metric: str, *, relative: bool) -> FigureReading | None:
        """A roll-forward's change within one period (its END less its START), when one of the best rows is one."""
        found = rows_named(self.rows, metric)
        best = found[0][0] if found else 0.0
        row = next((r for score, r in found if score >= best and {START, END} <= set(r.cells)), None)
        if row is None:
            return None
        old, new = (cell_read(row, (column, row.cells[column]), None, metric) for column in (START, END))
        if old is None or new is None or (relative and old.value == 0):
            return None
        self.cells += [old, new]
        return self.difference(old, new, relative=relative, what=f"{said_row(row.label)}, change during the period")

    def average(self, metric: str, *, formula: str = "", percent: bool = False) -> FigureReading | None:
        first, last = min(self.years), max(self.years)
        if formula:  # the average of a ratio over the years ('3 year average of capex as a % of revenue')
            each = self._each_year(formula, range(first, last + 1), percent=percent)
            if not isinstance(each, list):
                return each
            values, shown = [value for value, _, _ in each], [text for _, text, _ in each]
            amount = not percent and all(unit == 1 for _, _, unit in each)  # free cash flow, not a ratio of two
            return self._computed("average", sum(values) / len(values), f"({' + '.join(shown)}) / {len(values)}"
                                  + (" × 100" if percent else ""), percent=percent, what=f"{metric}, {first}–{last}",
                                  scale=self._row_scale(self.cells[0]) if amount and self.cells else 1.0)
        read = [self.read(metric, year) for year in range(first, last + 1)]
        if any(r is None for r in read):
            return self._missing()
        aligned = self._aligned([r for r in read if r is not None])
        if isinstance(aligned, FigureReading):
            return aligned
        got = as_amounts(*aligned)
        years, whole = self.summed(metric, list(zip(got, range(first, last + 1), strict=True)))  # split: parts summed
        formula = f"({' + '.join(shown for _, shown in years)}) / {len(years)}"
        return self._computed("average", sum(v for v, _ in years) / len(years), formula, percent=False,
                              what=f"{whole or row_named(got[0])}, average {first}–{last}",
                              scale=self._row_scale(got[0]))

    def _each_year(self, formula: str, years: Sequence[int], *, percent: bool) -> list[tuple[float, str, int]] | \
            FigureReading | None:
        """A formula evaluated for each year (in percent with ``percent``), each shown with its inputs and its
        dimension (``formula.evaluate``'s); the missing inputs named, or None for a formula that cannot be read."""
        out = []
        for year in years:
            self.operands = {}
            try:
                value, text, unit = evaluate(formula_tokens(formula), partial(self._operand, year=year))
            except Missing:
                return self._missing()
            except (ValueError, ZeroDivisionError):
                return None
            out.append((value * (100 if percent else 1), text, unit))
        return out

    def ratio_change(self, metric: str, formula: str, *, percent: bool) -> FigureReading | None:
        """The change of a ratio between two years ('the FY2019 - FY2020 change in operating
        margin'): the later year's less the earlier's, in points when it is a percentage; each year's value worked out
        as ``formula`` works it for one year (a line no row states derived from its parts: gross profit), and said."""
        if len(set(self.years)) < 2:
            return self.formula(formula, percent=percent, name=metric)
        first, last = min(self.years), max(self.years)

        def read(places: int | None) -> tuple[FigureReading | None, FigureReading | None]:
            old, new = (CellReader(self.rows, replace(self.asked, years=(year,), decimals=places)).formula(
                formula, percent=percent, name=metric) for year in (first, last))
            return old, new

        old, new = read(self.asked.decimals)
        if old is None or new is None or old.value is None or new.value is None:
            return next((r for r in (old, new) if r is not None and r.kind == "missing"), None)
        change = new.value - old.value
        if self.asked.decimals is None and old.shown == new.shown and change:
            again, now = read(_APART)  # each year's value to the places that tell them apart ('16.93%', '16.88%')
            if again is not None and now is not None:
                old, new = again, now
        self.cells = [*old.cells, *new.cells]
        amount = not percent and new.kind == "formula"  # an amount (free cash flow), not a ratio of two
        reading = self._computed("change", change, f"{last}: {new.formula}; {first}: {old.formula}; "
                                 f"{new.shown} − {old.shown}", percent=percent,
                                 what=f"{metric}, change {first} to {last}",
                                 scale=self._row_scale(new.cells[0]) if amount and new.cells else 1.0)
        reading = went(reading, change, old.shown, new.shown) if not amount else reading
        return in_points(reading) if percent else reading

    def total(self, metric: str) -> FigureReading | None:
        """The sum of a row over the years the question names; of a line split in parts, each year's (``summed``)."""
        each = sorted(set(self.years))
        read = [self.read(metric, year) for year in each]
        got = [r for r in read if r is not None]
        if len(got) < len(read):
            return self._missing()
        if isinstance(aligned := self._aligned(got), FigureReading):
            return aligned
        summed = as_amounts(*aligned)  # capital expenditures written '(131)' summed as the amounts spent
        years, whole = self.summed(metric, list(zip(summed, each, strict=True)))
        return self._computed("sum", sum(v for v, _ in years), " + ".join(shown for _, shown in years), percent=False,
                              what=f"{whole or row_named(summed[0])}, {' + '.join(map(str, each))}",
                              scale=self._row_scale(got[0]))

    def product(self, metric: str) -> FigureReading | None:
        """What a row's shares are worth: its number of shares times its price per share."""
        for _, row in rows_named(self.rows, metric):
            if (pair := count_and_price(row)) is None:
                continue
            (label, text, scale), price = pair
            count, each = cell_read(row, (label, text), None, metric), cell_read(row, price, None, metric)
            if count is None or each is None:
                continue
            count = count.model_copy(update={"value": abs(cell_value(text) or 0.0) * scale})  # the column's scale
            each = each.model_copy(update={"value": cell_value(price[1]) or 0.0})  # a price per share is not scaled
            self.cells += [count, each]
            shares = f"{text.strip('() ')} {SCALE_NAMES.get(scale, '')}".strip()
            return self._computed("product", count.value * each.value, f"{shares} [{count.passage}] × {cite(each)}",
                                  percent=False, what=f"{said_row(row.label)}, value", scale=scale)
        return None

    def formula(self, text: str, *, percent: bool, name: str, in_units: bool = False) -> FigureReading | None:
        """A formula's value for the latest year asked; ``in_units``: its amounts already read in one unit."""
        if formula_tokens(text) == [text.strip()]:  # one line, read in the place of another ('interest expense' for
            read = self.cell(text)  # 'interest paid'), saying what it assumed ('the balance sheet lists no …')
            return read.model_copy(update={"sentence": f"{read.sentence} ({'; '.join(self.assumed)})"}) if (
                read is not None and self.assumed) else read
        year = max(self.years) if self.years else None
        self.operands = {}
        try:
            tokens = formula_tokens(text)
            value, shown, unit = evaluate(tokens, lambda operand: self._operand(operand, year))
        except Missing:
            unlisted = unlisted_debt(self.rows, text, self.missing)  # a balance sheet that lists no short-term debt
            if (again := derived_formula(text, self.missing) or (unlisted[0] if unlisted else None)) is None:
                return self._missing()
            self.cells, self.missing = [], []  # 'gross profit': revenue less its cost
            self.assumed = [unlisted[1]] if unlisted and again == unlisted[0] else []
            return self.formula(again, percent=percent, name=name)
        except (ValueError, ZeroDivisionError):
            return None
        if not self.cells:
            return None
        if not in_units and self.in_one_unit():  # a note's amounts in its statements' unit, read again
            return self.formula(text, percent=percent, name=name, in_units=True)
        value *= 100 if percent else 1
        if percent and beyond_whole(text, value):
            return None  # a margin above its revenue: its inputs are of two wholes (a segment's revenue)
        what = name + (f", {year}" if year is not None else "")
        return self._computed("formula" if unit or percent else "ratio", value, shown, percent=percent, what=what,
                              scale=self._row_scale(self.cells[0]) if unit == 1 and not percent else 1.0)

    def _operand(self, phrase: str, year: int | None) -> tuple[float, str]:
        """An operand of a formula: 'average X (between FY A and FY B)', 'change in X', or 'X'
        (with its own year, else the question's)."""
        own = [int(y) for y in YEAR.findall(phrase)]
        metric = YEAR.sub(" ", phrase)
        if phrase.strip().lower().startswith(TOTAL_OF):
            total = self.read(metric.strip()[len(TOTAL_OF):], None, total=True)
            if total is None:
                raise Missing(phrase)
            return total.value, cite(total)
        if re.search(r"\baverage\b", phrase, re.IGNORECASE):
            name = re.sub(r"\baverage\b|\bbetween\b|\band\b", " ", metric, flags=re.IGNORECASE)
            last = max(own) if own else year if year is not None else latest_year(self.rows, name)
            first = min(own) if len(set(own)) > 1 else (last - 1 if last is not None else None)
            if last is None or first is None:
                raise Missing(phrase)
            cells = [self.read(name, y) for y in (first, last)]
            if any(c is None for c in cells):
                raise Missing(phrase)
            got = as_amounts(*(c for c in cells if c is not None))
            return sum(c.value for c in got) / 2, f"({' + '.join(cite(c) for c in got)}) / 2"
        if re.search(r"\bchange in\b", phrase, re.IGNORECASE):
            name = re.sub(r"\bchange in\b|\bbetween\b|\band\b", " ", metric, flags=re.IGNORECASE)
            last = max(own) if own else year if year is not None else latest_year(self.rows, name)
            if last is None:
                raise Missing(phrase)
            first = min(own) if len(set(own)) > 1 else last - 1
            new, old = self.read(name, last), self.read(name, first)
            if new is None or old is None:
                raise Missing(phrase)
            return new.value - old.value, f"({cite(new)} − {cite(old)})"
        cell = self.read(metric, own[-1] if own else year)
        if cell is None:
            raise Missing(phrase)
        where = (cell.passage, cell.row, cell.column)
        if self.operands.setdefault(where, metric.strip().lower()) != metric.strip().lower():
            self.cells.remove(cell)
            self.missing.append(metric.strip() + (f" for {said_when(own[-1] if own else year)}" if (own or year)
                                                  else ""))
            raise Missing(phrase)
        parts = split_lines(self.rows, cell, metric, own[-1] if own else year)
        self.cells += parts
        return paid([as_amounts(cell)[0] if spent(metric, cell.row) else cell, *parts])  # an expense asked: 2,533
