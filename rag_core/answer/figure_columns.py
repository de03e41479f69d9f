"""Which column and cell of a named row a figure question reads (``column_of``: the year's, a column the question
names, else the year's 'Total'; ``cell_read``: the cell with why it was chosen), and what reads rows and columns
together: a change a row states (``stated_change``), the lines a cost of revenue or D&A is split into
(``split_lines``), the latest year of a metric (``latest_year``), an equity award row's count of shares and price per
share (``count_and_price``), whether a row states percentages (``in_percent``). The rows a question names are
``figure_rows``'."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..chunk_text import MONTH
from ..lexical.figure_name import YEAR
from ..lexical.line_items import COST_OF_REVENUE, DEPRECIATION, SELLING_GENERAL
from ..models import CellRead, FigureReading
from ..tables.rows import HEADER_JOIN
from .figure_cells import Row
from .figure_rows import When, covers, joined_item, named_under, rows_named
from .numbers import numbers
from .row_context import lead_ins, title_lines
from .row_words import GENERIC, QUALIFIERS, label_stems, stems
from .scales import scale_of
from .statement_lines import IN_PARENTHESES, cell_value, figures_of, is_percent
from .year_columns import within_a_year

_COST_WHOLE = re.compile(rf"\s*(?:total )?(?:{COST_OF_REVENUE})\b|\s*total cost of\b", re.IGNORECASE)
_COST_PART = re.compile(r"\s*cost of \w", re.IGNORECASE)
_DA_WHOLE = re.compile(r".*\bdepreciation\b.*\bamortization\b|.*\bamortization\b.*\bdepreciation\b", re.IGNORECASE)
_DA_PART = re.compile(r"\s*(?:depreciation|amortization)\b(?!.*\b(?:debt|financ\w*|discounts?|premiums?|issuance|"
                      r"leases?|right-of-use|deferred)\b)", re.IGNORECASE)
_SGA_WHOLE = re.compile(r".*\bselling\b.*\badministrative\b", re.IGNORECASE)
_SGA_PART = re.compile(r"\s*(?:sales and marketing|selling(?: and marketing)?|marketing(?: and sales)?|general and "
                       r"administrative)(?:\s+(?:expenses?|costs?))?(?:,\s*net)?\s*$", re.IGNORECASE)
_OPERATING = re.compile(rf"{_SGA_PART.pattern}|\s*(?:research|product development|restructuring|impairment)\b",
                        re.IGNORECASE)
"""An operating expense a statement lists after its cost of revenue, which no list of the cost's parts holds."""
_SPLIT = ((COST_OF_REVENUE, _COST_PART, _COST_WHOLE), (DEPRECIATION, _DA_PART, _DA_WHOLE),
          (SELLING_GENERAL, _SGA_PART, _SGA_WHOLE))
"""Lines a statement may split into parts it does not total, as (the metric's pattern, a part's row, the whole's
row): the cost of revenue ('Cost of products', 'Cost of services'); depreciation and amortization ('Depreciation',
'Amortization of intangibles': not the amortization of debt costs, discounts or leases, which are no D&A); selling,
general and administrative expenses ('Sales and marketing', 'General and administrative'; not 'Sales' alone, a
revenue)."""


def split_lines(rows: Sequence[Row], cell: CellRead, metric: str, year: When) -> list[CellRead]:
    """The other lines a cost of revenue, or depreciation and amortization, is split into, in the read cell's column,
    when its table states no total of them: Boeing's 'Cost of products' beside 'Cost of services' (the cost of goods
    sold is both: 63,078, not 53,969); Analog Devices' 'Depreciation' beside 'Amortization of intangibles'. None when
    the cell's row is the whole, or its table totals the parts."""
    split = next(((part, whole) for pattern, part, whole in _SPLIT if covers(pattern, metric)), None)
    line = joined_item(cell.row) or cell.row  # 'Depreciation' after 'Adjustments to reconcile …:'
    if split is None or split[1].match(line):
        return []
    part, whole = split
    table = [(joined_item(row.label) or row.label, row) for row in rows
             if row.passage.n == cell.passage and row.table == cell.table and not row.prose]
    if any(whole.match(label) for label, _ in table):
        return []
    # or the lines listed under lead-ins that name the whole ('Product costs' under 'Cost of revenues—product sales:',
    # beside those under 'Cost of revenues—subscription, …:'), up to the operating expenses that follow the last list
    headed: list[tuple[str, Row]] = []
    for label, row in table:
        if _OPERATING.match(label):
            break
        headed += [(label, row)] if (leads := lead_ins(row)) and whole.match(leads[0]) else []
    read = next((row for label, row in headed if row.label == cell.row and row.cells.get(cell.column) == cell.text),
                None)
    parts = [row for _, row in headed if row is not read] if read is not None else [
        row for label, row in table if row.label != cell.row and part.match(label)] if part.match(line) else []
    return [found for row in parts if cell.column in row.cells
            and (found := cell_read(row, (cell.column, row.cells[cell.column]), year, metric)) is not None]


_DEBT_ROW = re.compile(r"\b(?:debt|borrowings?|notes payable|commercial paper)\b", re.IGNORECASE)
_LONG_TERM_ONLY = re.compile(r"\s*long-term debt(?:,?\s*net)?\s*", re.IGNORECASE)
_CURRENT_PORTION = re.compile(r"\s*current (?:portion|maturities) of long-term debt\s*", re.IGNORECASE)
_SHORT_TERM = "short-term debt"


def unlisted_debt(rows: Sequence[Row], formula: str, missing: Sequence[str]) -> tuple[str, str] | None:
    """The formula with its short-term debt as the balance sheet lists it, when no row names it so, and what that
    assumes: a balance sheet in the passages lists its current liabilities whole ('Total current liabilities') and, of
    debt, its 'Long-term debt' alone (Analog Devices' 2009 total debt is its long-term debt, 379,626: the short-term
    debt left out) or with its 'Current portion of long-term debt' (CVS Health's 2022: 1,778 + 50,476). None
    otherwise: 'Commercial paper' or 'Notes payable' there is short-term debt not read by its name."""
    if not any(line.lower().startswith(_SHORT_TERM) for line in missing) or _SHORT_TERM not in formula.lower():
        return None
    tables = {(row.passage.n, row.table) for row in rows if row.passage.statement == "balance_sheet"
              and re.match(r"\s*total current liabilities\b", row.label, re.IGNORECASE)}
    for where in tables:
        debts = [joined_item(row.label) or row.label for row in rows  # 'Noncurrent Liabilities Long-term debt'
                 if (row.passage.n, row.table) == where and _DEBT_ROW.search(row.label)]
        current = [label for label in debts if _CURRENT_PORTION.fullmatch(label)]
        if not debts or not all(_LONG_TERM_ONLY.fullmatch(label) or label in current for label in debts):
            continue
        if current:
            return (re.sub(_SHORT_TERM, "current portion of long-term debt", formula, flags=re.IGNORECASE),
                    "its short-term debt the balance sheet's current portion of long-term debt")
        return (re.sub(rf"\(?\s*{_SHORT_TERM}\s*\+\s*(long-term debt)\s*\)?", r"\1", formula, flags=re.IGNORECASE),
                "the balance sheet lists no short-term debt")
    return None


def latest_year(rows: Sequence[Row], metric: str) -> int | None:
    """The latest year the best row of the metric has a figure for: what a question that names no year
    asks about ('how long did its customers take to pay, on average?' of the latest year and the one before)."""
    best = rows_named(rows, metric)[:1]
    cell = column_of(best[0][1], None, set()) if best else None  # no column named: the latest year's
    return max((int(y) for y in YEAR.findall(cell[0])), default=None) if cell else None


def column_of(row: Row, year: When, named: set[str], *, total: bool = False, owner: frozenset[str] = frozenset(),
              percent: bool = False) -> tuple[str, str] | None:
    """The cell of ``row`` in the column of ``year`` (its label names that year alone; a span's
    label its first and last year alone: '2008–2010 (November 2008 through June 2010)'), or with
    no year asked, the column the question names ('on the Legal dataset'), the row's only figure
    or its latest year's; with ``total``, its 'Total' column. A row of the year's date whose columns are no years gives
    the column the question names, else its 'Total'. Of two columns of the year, the one whose label the
    question names more of, else its 'Total', else the first. ``owner``: the words of the name the question gives the
    figure's owner, which name a column only whole ('LightRAG' of "LightRAG's win rate"; not 'Activision' of
    "Activision Blizzard's segment operating income", whose segments' columns are 'Activision', 'Blizzard', 'Total').
    Of a year's amount and its rate ('2022', '2022 › %'), the rate when ``percent`` (the question asks one)."""
    figures = [(label, text) for label, text in row.cells.items() if numbers(text) or cell_value(text) is not None]
    if not figures:
        return None
    if total:
        return next(((label, text) for label, text in figures if label.strip().lower() == "total"), None)
    chosen = [(label, text) for label, text in figures if (own := stems(label) - GENERIC)
              and own <= _naming(own, named, owner) and not YEAR.search(label)]
    if year is None and len(chosen) == 1:
        return chosen[0]
    if year is None:
        dated = [(max(int(y) for y in YEAR.findall(label)), label, text) for label, text in figures
                 if YEAR.findall(label)]
        if dated:
            _, label, text = max(dated, key=lambda d: d[0])
            return label, text
        return figures[0] if len(figures) == 1 else None
    wanted = set(year) if isinstance(year, tuple) else {year}
    of_date = {int(y) for y in YEAR.findall(row.label)} or {int(y) for y in _DATED.findall(" ".join(title_lines(row)))}
    if of_date == wanted and not any(YEAR.search(label) for label, _ in figures):
        # a row of its date ('Balance at December 31, 2022') in columns of parts: the part named, else the 'Total'; or
        # a row of a table titled by its date ('… rental payments required under … leases at October 31, 2009:')
        return chosen[0] if len(chosen) == 1 else column_of(row, None, named, total=True)
    of_year = [(label, text) for label, text in figures if {int(y) for y in YEAR.findall(label)} == wanted]
    if within_a_year([label for label, _ in of_year]):
        return None  # a quarter's or a half's column is no year's figure
    # of two blocks' columns of the year, the one the question names ('Operating Profit › 2021', not 'Net Revenue'); a
    # share's column names its whole ('% of 2016 Net Revenues' beside 2016's net revenues), not what it states
    # (then the one that says least the question does not: 'Net carrying amount', not 'Gross carrying amount')
    def rank(cell: tuple[str, str]) -> tuple[int, bool, int, bool]:
        said = stems(YEAR.sub(" ", _SHARE_OF.sub(" ", cell[0]))) - GENERIC
        return (len(_naming(said, named, owner)), _TOTAL_COLUMN.search(cell[0]) is not None, -len(said - named),
                is_percent(cell[1]) == percent)
    return max(of_year, key=rank, default=None)


_DATED = re.compile(rf"\b(?:at|as of)\s+(?:{MONTH}\.?\s+(?:\d{{1,2}},?\s+)?)?((?:19|20)\d\d)\b", re.IGNORECASE)
"""A table's title that dates its rows, the balances at a date ('… rental payments required under long-term operating
leases at October 31, 2009'); not a period's ('… income statement activity related to the Juice Transaction for the
year ended December 31, 2022', whose 'Operating profit' is the transaction's, not the year's)."""


def opening_column(row: Row, year: int) -> tuple[str, str] | None:
    """The cell of a row's block of the year after ``year`` that is its opening balance (``_OPENING``): the balance at
    the end of ``year``, when no row holds that year's block ('at the beginning of fiscal 2010' of a schedule whose
    first block is fiscal 2010's)."""
    return next(((label, text) for label, text in row.cells.items() if cell_value(text) is not None and _OPENING.search(
        label.rpartition(HEADER_JOIN)[2]) and {int(y) - 1 for y in YEAR.findall(label)} == {year}), None)


_OPENING = re.compile(r"\b(?:beginning|start)\s+of\s+(?:the\s+)?(?:period|year)\b", re.IGNORECASE)
"""A column of a block's opening balance ('Fiscal Year Ended March 31, 2010 › Balance at Beginning of Period'): the
balance at the end of the year before, which a question asks at the beginning of the block's year."""


def _naming(words: set[str], named: set[str], owner: frozenset[str]) -> set[str]:
    """The words of a column's label the question names, its owner's name counted only whole."""
    return words & (named if owner <= words else named - owner)


_TOTAL_COLUMN = re.compile(r"(?:^|›)\s*total\s*$", re.IGNORECASE)
"""A year's 'Total' column beside its parts' ('2018 › Activision', … '2018 › Total'): the whole, when the question
names no part more."""


_SHARE_OF = re.compile(r"%\s*of\b.*", re.IGNORECASE)
"""A share's column ('% of 2016 Net Revenues'): the words after '% of' name the whole it is a share of."""


def partly_named(row: Row, named: set[str]) -> list[tuple[str, str]]:
    """The row's columns the question names in part ('on Legal' names 'Legal › NaiveRAG' and
    'Legal › LightRAG'): the candidates when no column is named whole."""
    return [(label, text) for label, text in row.cells.items()
            if (stems(label) - GENERIC) & named and cell_value(text) is not None]


def said_when(year: When) -> str:
    """A year or a span as the answer says it ('2008–2010')."""
    return f"{year[0]}–{year[1]}" if isinstance(year, tuple) else str(year)


def as_written(cell: CellRead) -> str:
    """What the answer says after a cell's figure: how its table writes it when that is a negative ('(15,371)'), and
    the passage its unit was read from when its own table states none ('the unit of [2]')."""
    notes = [f"the table writes {cell.text}"] if IN_PARENTHESES.match(cell.text) else []  # '(15,371)', '$(11,755)'
    notes += [f"the unit of [{cell.unit_passage}]"] if cell.unit_passage and cell.unit_passage != cell.passage else []
    return f" ({'; '.join(notes)})" if notes else ""


def cell_read(row: Row, cell: tuple[str, str], year: When, metric: str) -> CellRead | None:
    """A row's cell read, with why it was chosen (None for a cell without a figure)."""
    value = cell_value(cell[1])
    if value is None or len(figures_of(cell[1])) > 1:  # rows a finder set into one cell are no one figure
        return None
    lead = named_under(row, stems(metric))
    lead = "" if stems(lead) <= stems(cell[0]) else lead  # the column says it ('Investment Management › 2015')
    under = f" under '{lead}'" if lead else ""
    why = (f"row '{row.label}'{under} named by the question" if stems(row.label) <= stems(metric)
           else f"row '{row.label}' of a table titled '{_title(row)}'" if label_stems(row.label) == stems("total")
           else f"row '{row.label}'{under} is how reports name it")
    why += f"; column '{cell[0]}'" + (f" holds {said_when(year)}" if year is not None else " (the latest year)"
                                      if YEAR.search(cell[0]) else "")
    why += f"; read in {row.unit_from}" if row.unit_from else ""
    return CellRead(document=row.passage.document, page=row.passage.page, passage=row.passage.n, table=row.table,
                    row=row.label, column=cell[0], text=cell[1].strip(), why=why,  # not '15%' in millions:
                    value=value * (1.0 if is_percent(cell[1]) else row.scale),
                    unit_passage=None if is_percent(cell[1]) else row.unit_passage or None, lead=lead)


def _title(row: Row) -> str:
    """The line of words that titles a row's table: the one above it, else its passage's caption's last part."""
    return next((line.strip() for line in title_lines(row)), row.passage.caption.split(" › ")[-1])


_STATED_CHANGE = re.compile(r"^\s*(?:net\s+|total\s+)?\(?(?:increase|decrease|change)\)?"
                            r"(?:\s*/?\s*\(?(?:increase|decrease)\)?)?\s+in\s+(?P<what>.+)$", re.IGNORECASE)
"""A row that states a figure's change in the year ('Net increase (decrease) in cash, cash equivalents and restricted
cash', 'Total change in deferred revenues'): the change asked, read rather than computed from balances a table may name
more briefly."""


def stated_change(rows: Sequence[Row], metric: str, years: Sequence[int]) -> CellRead | None:
    """The change of the metric in one year (or from the year before it), as a row states it, when a row's label
    names the metric's every word and no other, or when the row of the metric has a column of the year's change (a
    schedule of valuation accounts' 'Fiscal Year Ended March 31, 2012 › Net Change' beside 'Deferred Tax Asset
    Valuation Allowance'); None when none does."""
    wanted, asked = stems(metric) - GENERIC - QUALIFIERS, sorted(set(years))
    if not wanted or not asked or len(asked) > 2 or asked[-1] - asked[0] > 1:
        return None
    for row in rows:
        said = _STATED_CHANGE.match(row.label)
        if said is not None and label_stems(said.group("what")) - GENERIC - QUALIFIERS == wanted:
            cell = column_of(row, asked[-1], set())
        elif label_stems(row.label) - GENERIC - QUALIFIERS == wanted:
            cell = next(((label, text) for label, text in row.cells.items() if _CHANGE_COLUMN.fullmatch(
                label.rpartition(HEADER_JOIN)[2]) and {int(y) for y in YEAR.findall(label)} == {asked[-1]}), None)
        else:
            continue
        if cell is not None and (read := cell_read(row, cell, asked[-1], metric)) is not None:
            return read
    return None


_CHANGE_COLUMN = re.compile(r"\s*(?:net\s+)?(?:change|increase\s*(?:/\s*)?(?:\(decrease\))?|decrease)\s*",
                            re.IGNORECASE)
"""A column of a period's change in its row ('Net Change', 'Increase (Decrease)'), not its percentage."""


_COUNT = re.compile(r"\b(?:number|shares|units|options)\b", re.IGNORECASE)
_PRICE = re.compile(r"\bper (?:share|unit|option)\b|\bprice\b", re.IGNORECASE)


def count_and_price(row: Row) -> tuple[tuple[str, str, float], tuple[str, str]] | None:
    """A row's count of shares (with its column's scale: 'Number of Shares (in thousands)') and its
    price per share ('Weighted Average Grant Date Fair Value (per share)'), when it has both: an
    equity award table's row, whose value is the one times the other."""
    counts = [(label, text) for label, text in row.cells.items()
              if _COUNT.search(label) and not _PRICE.search(label) and cell_value(text) is not None]
    prices = [(label, text) for label, text in row.cells.items() if _PRICE.search(label) and cell_value(text)]
    if len(counts) != 1 or len(prices) != 1:
        return None
    (label, text), price = counts[0], prices[0]
    own = scale_of(label)
    return (label, text, own if own > 1 else row.scale), price


def in_percent(row: Row) -> bool:
    """Whether a row states percentages: its table is one of shares of revenue (``Row.shares``), its cells say so
    ('21.6 percent'), or its line in the table does ('| Effective tax rate | 21.6 | % |': the figures are read
    without the sign)."""
    if row.shares or any("%" in text or "percent" in text.lower() for text in row.cells.values()):
        return True
    # its line ends the label's cell there: 'Gross Margin' is not the line '| Gross Margin % | 55.5% |'
    ends = re.compile(rf"{re.escape(row.label[-_LABEL_TAIL:])}\s*(?:\||$)")
    return any(ends.search(line) and "%" in line for line in row.passage.text.splitlines())


_LABEL_TAIL = 24
"""Characters of a row's label its table line is found by (a label joined to its section's is longer
than the line's first cell)."""


def plainness(read: CellRead) -> tuple[int, int]:
    """How plainly a cell states its figure: the fewer levels its column's header has and the fewer words its row's
    label, the plainer ('Net income | 2009' of the income statement, not 'Net Income — 2009' under '2009 › Accumulated
    › Retained › Earnings' of the equity statement, for the same 247,772)."""
    return read.column.count(" › "), len(read.row.split())


def plainer(reading: FigureReading, rows: Sequence[Row], metric: str, year: int | None, named: set[str],
            owner: frozenset[str], amount: bool) -> CellRead | None:
    """A cell of another row the metric names (``rows``) that states the one figure read for the year under a plainer
    column (fewer levels of headers; the row the metric names best is kept otherwise), or None: ABIOMED's net loss of
    2010 is the statement of operations' 'Net income (loss) | $(19,024)', not the equity statement's 'Net loss' under
    '2010 › Total › Comprehensive Loss'. ``named``, ``owner``, ``amount``: the reader's, for ``column_of``."""
    if reading.kind != "cell" or len(reading.cells) != 1 or not reading.cells[0].value:
        return None
    best = first = reading.cells[0]
    for row in rows:
        cell = column_of(row, year, named, owner=owner, percent=not amount)
        other = cell_read(row, cell, year, metric) if cell is not None else None
        if other is not None and abs(other.value - best.value) <= 1e-9 and plainness(other)[0] < plainness(best)[0]:
            best = other
    return None if best is first else best
