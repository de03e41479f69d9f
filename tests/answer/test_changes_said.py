"""A change a sentence states by its amount ('During the year ended December 31, 2022, we increased the reach-forward
loss on the … program by $1,374 …'), read for a question of how much a figure went up or down when no table gives the
figure at both ends; the paragraph's heading, or what the paragraph said before it, names what the sentence leaves
out. Sentences of Boeing's, 3M's and PepsiCo's 2022 10-Ks, their names changed."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_question import read_question
from rag_core.answer.figures import read_figure
from rag_core.models import Passage

_PROGRAMS = Passage(n=1, document="planes-10k.pdf", page=91, text=(
    "KC-46A Tanker\n\n"
    "As of December 31, 2022, we had approximately $209 of capitalized precontract costs. During the year ended "
    "December 31, 2022, we increased the reach-forward loss on the KC-46A Tanker program by $1,374 primarily "
    "reflecting higher production and supply chain costs.\n\n"
    "Commercial Crew\n\n"
    "A crewed flight test is now expected to be completed in 2023. During the year ended December 31, 2022, we "
    "increased the reach-forward loss by $288 primarily reflecting increases to estimated costs.\n\n"
    "T-7A Red Hawk\n\n"
    "The production portion of the contract includes 11 production lots for aircraft and related services. In 2018, "
    "we recorded a loss of $400 associated with the 11 production lots. We increased the estimated reach-forward loss "
    "by $552 during the year ended December 31, 2022 primarily driven by ongoing supply chain negotiations.\n"))
_CASH = Passage(n=2, document="tape-10k.pdf", page=39, text=(
    "Cash Flows from Operating Activities\n\n"
    "In 2022, cash flows provided by operating activities decreased $1,863 million compared to the same period last "
    "year, with this decrease primarily due to lower net income. The non-service pension and postretirement net "
    "benefit decreased $49 million and increased $163 million in 2022 and 2021, respectively.\n\n"
    "Working capital decreased $1.2 billion compared with December 31, 2021.\n"))
_STATED = Passage(n=3, document="tape-10k.pdf", page=60, tabular=True, caption="Tape 10-K › Cash flows (millions)",
                  text=("| (Millions) | 2022 | 2021 |\n| Net cash provided by operating activities | 5,591 | 7,454 |\n"
                        "| Total working capital | 3,500 | 4,200 |\n"))


@pytest.mark.parametrize(("question", "row", "shown"), [
    ("How much did Planes increase the reach-forward loss on the KC-46A Tanker program in 2022?",
     "Increase in reach-forward loss on the KC-46A Tanker program", "$1,374"),
    ("How much did Planes increase the Commercial Crew reach-forward loss in 2022?",
     "Commercial Crew — increase in reach-forward loss", "$288"),
    ("By how much did Planes increase the estimated reach-forward loss on the T-7A Red Hawk production lots in 2022?",
     "T-7A Red Hawk — increase in estimated reach-forward loss", "$552"),
])
def test_a_change_the_company_made_is_read_from_the_sentence_its_paragraph_names(
        question: str, row: str, shown: str) -> None:
    """Of three like sentences, the one whose own words, heading or paragraph name the program asked; before, the
    question was read as the change of 'Planes increase the reach-forward loss …' from 2021, whose inputs no table
    holds."""
    figure = read_figure(question, [_PROGRAMS])
    assert figure is not None and [c.row for c in figure.cells] == [row], figure
    assert figure.shown == shown and figure.sentence.startswith(f"**{row}, 2022: {shown}** [1]"), figure.sentence


def test_the_company_that_moved_a_figure_is_no_part_of_its_name() -> None:
    asked = read_question("How much did Planes increase the reach-forward loss on the KC-46A Tanker program in 2022?")
    assert asked is not None and (asked.metric, asked.operation) == (
        "reach-forward loss on the KC-46A Tanker program", "change")
    credit = read_question("By how much did the company increase its revolving credit agreement?")
    assert credit is not None and credit.metric == "revolving credit agreement"


def test_a_change_of_a_year_is_dated_by_the_year_it_names_or_the_year_after_the_one_it_is_from() -> None:
    """'In 2022, … decreased $1,863 million compared to the same period last year' is 2022's; a change from December
    31, 2021 is 2022's too; a sentence of two years' changes ('decreased $49 million and increased $163 million in
    2022 and 2021, respectively') is no one change."""
    flows = read_figure("How much did Tape's cash flows provided by operating activities decrease in 2022?", [_CASH])
    assert flows is not None and flows.value == pytest.approx(1_863e6), flows
    assert flows.sentence.startswith("**Decrease in cash flows provided by operating activities, 2022: $1,863 "
                                     "million** [2]"), flows.sentence
    working = read_figure("By how much did Tape's working capital decrease in 2022?", [_CASH])
    assert working is not None and working.value == pytest.approx(1.2e9), working
    pension = read_figure("How much did Tape's non-service pension and postretirement net benefit decrease in 2022?",
                          [_CASH])
    assert pension is None or not pension.cells, pension


@pytest.mark.parametrize("question", [
    "How much did Planes decrease the reach-forward loss on the KC-46A Tanker program in 2022?",  # it increased it
    "How much did Planes increase the reach-forward loss on the KC-46A Tanker program in 2021?",  # 2022's
    "How much did Planes increase the reach-forward loss on the KC-46A Tanker program from 2020 to 2022?",
    "How much did Planes increase the reach-forward loss in 2022?",  # three programs' alike
])
def test_a_sentence_of_the_other_way_another_year_or_one_of_many_alike_states_no_change(question: str) -> None:
    figure = read_figure(question, [_PROGRAMS])
    assert figure is None or not figure.cells, figure


def test_a_table_of_both_ends_is_read_before_a_sentence() -> None:
    """Guard: the sentence is read only when no table gives the figure at both ends (here they agree)."""
    figure = read_figure("How much did Tape's net cash provided by operating activities decrease in 2022?",
                         [_CASH, _STATED])
    assert figure is not None and figure.kind == "change" and [c.row for c in figure.cells] == [
        "Net cash provided by operating activities"] * 2, figure


@pytest.mark.parametrize(("sentence", "question", "row", "value"), [
    ("Selling, general and administrative expenses for fiscal 2012 increased by $9.4 million, or 15%, to $71.7 "
     "million.", "How much did Heart's selling, general and administrative expenses increase in fiscal 2012?",
     "Increase in Selling, general and administrative expenses", 9.4e6),
    ("Basel III Advanced Market RWAs as of December 2016 decreased by $18.51 billion compared with December 2015, "
     "primarily reflecting a decrease in specific risk.", "By how much did Bank's Basel III Advanced Market RWAs "
     "decrease in 2016?", "Decrease in Basel III Advanced Market RWAs", 18.51e9),
])
def test_a_subject_may_hold_a_comma_and_its_date_is_no_word_of_its_name(
        sentence: str, question: str, row: str, value: float) -> None:
    """Sentences of ABIOMED's 2012 and Goldman Sachs' 2016 10-Ks: the subject from the sentence's start, its date
    ('for fiscal 2012', 'as of December 2016 … compared with December 2015') the change's year."""
    figure = read_figure(question, [Passage(n=1, document="report.pdf", page=47, text=sentence)])
    assert figure is not None and [c.row for c in figure.cells] == [row], figure
    assert figure.value == pytest.approx(value), figure


def test_what_changed_is_named_by_the_sentence_not_only_by_its_paragraph() -> None:
    """The paragraph names research and development expense; its sentence's change is of the cost of sales."""
    passage = Passage(n=1, document="planes-10k.pdf", page=30, text=(
        "Research and development expense was $2,852 in 2022. Cost of sales increased by $500 in 2022, primarily due "
        "to higher deliveries."))
    figure = read_figure("How much did Planes' research and development expense increase in 2022?", [passage])
    assert figure is None or not figure.cells, figure
    cost = read_figure("How much did Planes' cost of sales increase in 2022?", [passage])
    assert cost is not None and cost.value == 500.0, cost


_REMEDIATION = Passage(n=1, document="planes-10k.pdf", page=88, text=(
    "Environmental\n\nAs part of our estimating process, we develop a range of reasonably possible scenarios. "
    "At December 31, 2022 and 2021, the high end of the estimated range of reasonably possible remediation costs "
    "exceeded our recorded liabilities by $1,058 and $1,094.\n"))


@pytest.mark.parametrize(("question", "shown"), [
    ("By how much did the high end of Planes' reasonably possible remediation costs exceed its recorded liabilities at "
     "the end of 2022?", "$1,058"),
    ("By how much did the high end of Planes' reasonably possible remediation costs exceed its recorded liabilities at "
     "December 31, 2021?", "$1,094"),
])
def test_what_one_amount_exceeded_another_by_is_read_from_the_sentence_that_says_it(question: str, shown: str) -> None:
    """Boeing's 2022 10-K; before, no row named the question's 'exceed', and the passages answered."""
    figure = read_figure(question, [_REMEDIATION])
    assert figure is not None and figure.shown == shown, figure
    assert figure.cells[0].row == ("Excess of high end of the estimated range of reasonably possible remediation costs "
                                   "over our recorded liabilities"), figure


def test_an_excess_over_another_amount_is_not_read() -> None:
    figure = read_figure("By how much did the high end of Planes' reasonably possible remediation costs exceed its "
                         "insurance receivables at the end of 2022?", [_REMEDIATION])
    assert figure is None or not figure.cells, figure


@pytest.mark.parametrize(("amounts", "value"), [("$7.4 and $9.3 million", 7.4e6),
                                                ("$1.2 billion and $900 million", None)])
def test_an_excess_is_read_at_the_scale_its_amounts_share(amounts: str, value: float | None) -> None:
    """'$7.4 and $9.3 million' says its scale once, after the last amount; amounts of two scales give no reading."""
    passage = Passage(n=1, document="planes-10k.pdf", page=88, text=(
        "At December 31, 2022 and 2021, the high end of the estimated range of reasonably possible remediation costs "
        f"exceeded our recorded liabilities by {amounts}.\n"))
    figure = read_figure("By how much did the high end of Planes' reasonably possible remediation costs exceed its "
                         "recorded liabilities at the end of 2022?", [passage])
    if value is None:
        assert figure is None or not figure.cells, figure
    else:
        assert figure is not None and figure.value == value and figure.shown == "$7.4 million", figure
