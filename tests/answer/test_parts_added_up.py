"""A table titled by a line item's name alone whose rows add up to its 'Total' lists that line's parts: 'International'
under 'Income Before Income Taxes' is the income before income taxes from international operations
(``row_context.parts_of``, ``row_completed.completed_by_table``)."""

from __future__ import annotations

from rag_core.answer.figure_cells import table_rows
from rag_core.answer.figures import read_figure
from rag_core.answer.prompts import quoted_lines
from rag_core.answer.row_context import adds_up
from rag_core.models import Passage
from tests.answer.test_lead_in_rows import _STATEMENT as _GAMES_STATEMENT
from tests.answer.test_lead_in_rows import _TAXES

_STATEMENT = Passage(n=1, document="widget-10k.pdf", page=48, tabular=True, statement="income",
                     caption="Widget 10-K › Consolidated Statement of Income", columns="|  | 2022 | 2021 | 2020 |",
                     text=("| Operating income | 6,539 | 7,369 | 7,161 |\n"
                           "| Income before income taxes | 6,392 | 7,204 | 6,795 |\n"
                           "| Provision for income taxes | 612 | 1,285 | 1,337 |\n"))
_BY_COUNTRY = ("| United States | $3,861 | $3,716 | $3,795 |\n"
               "| International | 2,531 | 3,488 | 3,000 |\n"
               "| Total | $6,392 | $7,204 | $6,795 |\n")
_PROVISION = ("Provision for Income Taxes\n\n"
              "(Millions) 2022 2021 2020\n"
              "| Currently payable |  |  |  |\n"
              "| Federal | $606 | $756 | $720 |\n"
              "| International | 621 | 597 | 632 |\n"
              "| Deferred |  |  |  |\n"
              "| Federal | (612) | (219) | (44) |\n"
              "| International | (2) | 72 | (77) |\n"
              "| Total | $612 | $1,285 | $1,337 |\n")


def _taxes(by_country: str) -> Passage:
    """The income taxes note's page of tables (3M's 2022 10-K, page 71): each table under a title line of its own."""
    return Passage(n=2, document="widget-10k.pdf", page=71, tabular=True,
                   caption="Widget 10-K › NOTE 10. Income Taxes › Income Before Income Taxes › (Millions) 2022 2021 "
                           "2020", text=("NOTE 10. Income Taxes\n\nIncome Before Income Taxes\n\n"
                                         f"(Millions) 2022 2021 2020\n{by_country}{_PROVISION}"))


def test_a_row_of_a_table_its_rows_add_up_to_is_a_part_of_the_line_its_title_names() -> None:
    """3M's 'income before income taxes from international operations' read the income statement's whole line (7,204
    million): the note's table says no 'components of', only its title and rows that add up to its 'Total'."""
    passages = [_STATEMENT, _taxes(_BY_COUNTRY)]
    for question in ("What was Widget's income before income taxes from international operations in 2021?",
                     "What was Widget's international income before income taxes in 2021?",
                     "How much income before income taxes did Widget generate from international operations in 2021?"):
        figure = read_figure(question, passages)
        assert figure is not None and figure.sentence.startswith(
            "**Income Before Income Taxes — International, 2021: 3,488 million**"), (question, figure)
    whole = read_figure("What was Widget's income before income taxes in 2021?", passages)
    assert whole is not None and "7,204" in whole.sentence, whole


def test_rows_that_do_not_add_up_to_the_total_are_no_parts_of_it() -> None:
    """Rows that do not add up to the table's 'Total' (a selection, or a total of other rows) are not read as its
    parts: the question's whole line comes from the statement."""
    apart = _BY_COUNTRY.replace("| International | 2,531 | 3,488 |", "| International | 2,531 | 3,188 |")
    figure = read_figure("What was Widget's income before income taxes from international operations in 2021?",
                         [_STATEMENT, _taxes(apart)])
    assert figure is None or "3,188" not in figure.sentence, figure


def test_parts_under_heading_rows_are_not_read_as_adding_up_to_the_total() -> None:
    """The provision's table lists its parts under heading rows ('Currently payable', 'Deferred'): its rows are read
    under those headings, not as parts that add up to the 'Total' below them."""
    rows = table_rows([_taxes(_BY_COUNTRY)])
    first = [row for row in rows if row.label == "International"]
    assert [adds_up(row) for row in first] == [True, False, False], [(row.label, row.cells) for row in first]
    assert not adds_up(next(row for row in rows if row.label == "Total")), "the total is no part of itself"


def test_a_share_of_a_line_named_with_before_is_the_parts_line_over_the_whole() -> None:
    """"What share of 3M's 2022 income before income taxes came from the United States?" named the part's line by the
    whole's last word ('United States taxes'), which the 'United States' row, a part of the income before income
    taxes, is not: the part is named by the whole's every word when a word joins its head to what it is of."""
    figure = read_figure("What share of Widget's 2022 income before income taxes came from the United States?",
                         [_STATEMENT, _taxes(_BY_COUNTRY)])
    assert figure is not None and figure.sentence.startswith(
        "**United States income before income taxes as a % of income before income taxes, 2022: 60.4%**"), figure
    assert "3,861" in figure.sentence and "6,392" in figure.sentence, figure


_LOSS_BY_COUNTRY = Passage(n=3, document="planes-10k.pdf", page=76, tabular=True, table_chunks=(0,),
                           caption="Planes 10-K › Note 4 – Income Taxes › Years ended December 31, 2022 2021 2020",
                           columns="|  | 2022 | 2021 | 2020 |",
                           text=("Note 4 – Income Taxes\n\nThe components of Loss before income taxes were:\n\n"
                                 "Years ended December 31, 2022 2021 2020\n"
                                 "| U.S. | ($5,457) | ($5,475) | ($14,882) |\n"
                                 "| Non-U.S. | 435 | 442 | 406 |\n"
                                 "| Total | ($5,022) | ($5,033) | ($14,476) |\n"))
_LOSS_STATEMENT = Passage(n=1, document="planes-10k.pdf", page=55, tabular=True, statement="income", table_chunks=(0,),
                          caption="Planes 10-K › Consolidated Statements of Operations",
                          columns="|  | 2022 | 2021 | 2020 |", text="| Loss before income taxes | (5,022) | (5,033) | "
                                                                    "(14,476) |\n")


def test_a_part_named_with_a_full_stop_before_operations_is_its_row() -> None:
    """Boeing's "loss before income taxes from non-U.S. operations" read the statement's whole loss (5,033): the
    metric's 'operations' after 'non-U.S.' was looked for right after the row's label, which keeps no full stop."""
    figure = read_figure("What was Planes' loss before income taxes from non-U.S. operations in 2021?",
                         [_LOSS_STATEMENT, _LOSS_BY_COUNTRY])
    assert figure is not None and figure.value == 442 and "Non-U.S" in figure.sentence, figure


def test_a_label_ending_in_initials_keeps_their_full_stop_so_its_line_is_quoted() -> None:
    """The reader kept 'Non-U.S' of 'Non-U.S.', so the local model's answer quoted no line of that row (the lines are
    found by the row's label) and quoted the statement's 'Loss before income taxes' line under the right lead."""
    passages = [_LOSS_STATEMENT, _LOSS_BY_COUNTRY]
    question = "What was Planes' loss before income taxes from non-U.S. operations in 2021?"
    figure = read_figure(question, passages)
    assert figure is not None and figure.sentence.startswith("**Loss before income taxes — Non-U.S., 2021: 442"), figure
    quoted = quoted_lines(question, passages, rows=[cell.row for cell in figure.cells])
    assert quoted is not None and quoted.lines == [(3, "Non-U.S. — 2022: 435; 2021: 442; 2020: 406")], quoted


def test_us_is_a_word_of_its_own_that_names_the_us_row() -> None:
    """'U.S.' has no letters long enough to be read as a word, so "Boeing's U.S. loss before income taxes" named no row
    and read the statement's whole loss (5,022); 'non-U.S.' still names the 'Non-U.S.' row alone."""
    figure = read_figure("What was Planes' U.S. loss before income taxes in 2022?", [_LOSS_STATEMENT, _LOSS_BY_COUNTRY])
    assert figure is not None and figure.sentence.startswith("**Loss before income taxes — U.S., 2022: "), figure
    assert abs(figure.value or 0) == 5457, figure


_GAMES_TAXES = _TAXES.model_copy(update={"n": 4, "text": (
    "Domestic and foreign income (loss) before income taxes and details of the income tax expense (benefit) are as "
    "follows (amounts in millions):\n"
    "| Domestic | $ | 328 | $432 | $ | 185 |\n"
    "| Income before income tax expense: |  |  |  |\n"
    "| Foreign | 1,305 | 1,445 | 966 |\n"
    "| Total Income before income tax expense | $1,633 | $1,877 | $1,151 |\n")})
"""Activision Blizzard's tax note as its finder left it: '$' cells set the 'Domestic' row apart, above its heading."""


def test_a_row_its_tables_title_names_with_the_rest_of_the_metric_is_that_part() -> None:
    """Activision Blizzard's 'Domestic' row, which its finder's '$' cells set apart from the heading below it, in a
    table titled 'Domestic and foreign income (loss) before income taxes …': how much of the income before taxes came
    from domestic operations read the statement's whole (1,633) once the part was named with its whole's every word."""
    figure = read_figure("How much of Games' 2019 income before taxes came from domestic operations?",
                         [_GAMES_STATEMENT, _GAMES_TAXES])
    assert figure is not None and figure.sentence.startswith("**Domestic, 2019: $328 million**"), figure


def test_a_title_that_names_the_whole_is_said_as_written() -> None:
    """The part's lead said the title 'Provision for Income Taxes' as 'Provision Income Taxes': the words that tell a
    name from a sentence ('for', 'of', a unit) were cut from the name said too."""
    provision = _taxes(_BY_COUNTRY).model_copy(update={"text": (
        "NOTE 10. Income Taxes\n\nProvision for Income Taxes\n\n(Millions) 2022 2021 2020\n" + _BY_COUNTRY)})
    figure = read_figure("What was Widget's international provision for income taxes in 2021?", [provision])
    assert figure is not None and figure.sentence.startswith(
        "**Provision for Income Taxes — International, 2021: 3,488 million**"), figure
