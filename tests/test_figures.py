"""A figure question answered from the cell that holds it, the arithmetic done by code and shown
(``rag_core.answer.figures``)."""

from __future__ import annotations

import pytest

from rag_core.answer.figures import read_figure
from rag_core.models import Passage

INCOME = Passage(n=1, document="acme-10k.pdf", page=56, tabular=True, text=(
    "Consolidated Statement of Income (in millions)\n"
    "| | 2018 | 2017 | 2016 |\n"
    "| Net sales | 32,765 | 31,657 | 30,109 |\n"
    "| Operating income | 7,207 | 7,820 | 7,223 |\n"
    "| Total current assets | 13,709 | 14,277 | 13,000 |\n"
    "| Total current liabilities | 7,244 | 7,687 | 6,219 |\n"))
CASH = Passage(n=2, document="acme-10k.pdf", page=60, tabular=True, text=(
    "Consolidated Statement of Cash Flows (Millions)\n"
    "| Years ended December 31 | 2018 | 2017 | 2016 |\n"
    "| Net income | 5,363 | 4,869 | 5,058 |\n"
    "| Depreciation and amortization | 1,488 | 1,544 | 1,474 |\n"
    "| Purchases of property, plant and equipment (PP&E) | (1,577) | (1,373) | (1,420) |\n"))
SEGMENTS = Passage(n=3, document="acme-10k.pdf", page=30, tabular=True, text=(
    "Capital spending by segment (in millions)\n"
    "| | 2018 | 2017 |\n"
    "| Safety capital spending | 406 | 380 |\n"))
PASSAGES = [SEGMENTS, INCOME, CASH]


def test_one_cell_is_read_from_the_statement_not_from_a_segment() -> None:
    figure = read_figure("What is the FY2018 capital expenditure amount (in USD millions) for Acme?", PASSAGES)
    assert figure is not None and figure.kind == "cell"
    assert figure.value == pytest.approx(-1_577e6), "the cell's value in the table's scale, its sign kept"
    assert figure.sentence.startswith("**Purchases of property, plant and equipment (PP&E), 2018: 1,577 million** [2]")
    cell = figure.cells[0]
    assert (cell.document, cell.page, cell.passage, cell.column, cell.text) == ("acme-10k.pdf", 60, 2, "2018",
                                                                                 "(1,577)")
    assert "how reports name it" in cell.why and "2018" in cell.why


def test_a_growth_rate_is_computed_and_shown_with_its_inputs() -> None:
    figure = read_figure("What is the year-over-year change in revenue from FY2017 to FY2018 for Acme?", PASSAGES)
    assert figure is not None and figure.kind == "growth"
    assert figure.value == pytest.approx((32_765 - 31_657) / 31_657 * 100)
    assert figure.shown == "3.5%"
    assert figure.formula == "(32,765 [1] − 31,657 [1]) / 31,657 [1] = 3.5%", "each input with its citation"


def test_a_textbook_ratio_rounds_as_asked() -> None:
    figure = read_figure("What is the FY2017 working capital ratio for Acme? Round to three decimal places.", PASSAGES)
    assert figure is not None and figure.shown == f"{14_277 / 7_687:.3f}"
    assert [c.row for c in figure.cells] == ["Total current assets", "Total current liabilities"]
    assert all(c.column == "2017" for c in figure.cells)


def test_a_formula_the_question_defines_is_evaluated_over_cited_cells() -> None:
    figure = read_figure("What is the FY2018 unadjusted EBITDA for Acme? Define unadjusted EBITDA as operating "
                         "income + depreciation and amortization. Answer in USD millions.", PASSAGES)
    assert figure is not None and figure.value == pytest.approx((7_207 + 1_488) * 1e6)
    assert figure.shown == "8,695 million" and "7,207 [1] + 1,488 [2]" in figure.formula


def test_an_average_over_years_reads_every_year() -> None:
    figure = read_figure("What is the FY2016 - FY2018 3 year average of net income for Acme?", PASSAGES)
    assert figure is not None and figure.kind == "average"
    assert figure.value == pytest.approx((5_058 + 4_869 + 5_363) / 3 * 1e6)


def test_a_missing_input_is_named_and_nothing_is_guessed() -> None:
    figure = read_figure("What is the FY2018 fixed asset turnover ratio? Fixed asset turnover ratio is defined as: "
                         "FY2018 revenue / (average PP&E between FY2017 and FY2018).", PASSAGES)
    assert figure is not None and figure.kind == "missing" and figure.value is None
    assert "PP&E for 2017" in figure.sentence, "the purchases of PP&E are not the PP&E on the balance sheet"


def test_no_figure_without_a_row_that_fits() -> None:
    assert read_figure("What is the FY2018 goodwill impairment for Acme?", PASSAGES) is None
    assert read_figure("Why did net sales grow in 2018?", PASSAGES) is None


def test_two_rows_that_fit_alike_are_both_given() -> None:
    other = Passage(n=4, document="acme-10k.pdf", page=80, tabular=True,
                    text="Quarterly data\n| | 2018 |\n| Net sales | 8,278 |\n")
    figure = read_figure("What were net sales in 2018?", [INCOME, other])
    assert figure is not None and figure.kind == "candidates" and figure.value is None
    assert "32,765" in figure.sentence and "8,278" in figure.sentence and "[1]" in figure.sentence
