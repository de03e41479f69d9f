"""What an answer's figures mean: arithmetic it shows, figures computed without showing how, and a
table's value said to be a change, judged by the answer check on fixed passages."""

from __future__ import annotations

import pytest

from rag_core.answer.attribution import attribute
from rag_core.answer.meaning import derivation, shown_arithmetic
from rag_core.answer.numbers import numbers
from rag_core.models import Passage
from rag_core.settings import AttributionSettings

TERMS_ONLY = AttributionSettings()
HEDGES = Passage(
    n=1, document="10-K.pdf", page=60,
    text="The total notional amount of derivative instruments designated as hedging instruments is $375 million "
    "of interest rate swap agreements and $128.0 million of foreign currency forward contracts.",
)
WIN_RATES = Passage(
    n=2, document="paper.pdf", page=7, tabular=True,
    text="Table 1: Win rates (%) of baselines v.s. LightRAG.\n"
    "| | Agriculture | | Legal | |\n"
    "| | NaiveRAG | LightRAG | NaiveRAG | LightRAG |\n"
    "| Overall | 32.4% | 67.6% | 15.2% | 84.8% |",
)
CHANGES = Passage(
    n=3, document="10-K.pdf", page=31, tabular=True,
    text="| | 2009 | 2008 | % Change |\n| Net revenue | 2,014 | 2,583 | (22)% |\n| Gross margin % | 58.8% | 61.1% | |",
)


def _one(answer: str, passages: list[Passage]) -> tuple[list[str], list[str]]:
    (statement,), _ = attribute(answer, passages, None, TERMS_ONLY)
    return statement.unverified_numbers, statement.number_notes


def test_arithmetic_the_answer_shows_is_evaluated() -> None:
    (shown,) = shown_arithmetic("The difference is $375 million − $128.0 million = $247 million [1].")
    assert shown.holds and shown.value == pytest.approx(247.0)
    (growth,) = shown_arithmetic("(6,069 − 4,195) / 4,195 = 44.7%")
    assert growth.holds and growth.value == pytest.approx(44.67, abs=0.01)
    (wrong,) = shown_arithmetic("1,001,425 / 577,464 = 1.93")
    assert not wrong.holds
    assert shown_arithmetic("Revenue was 2,014 in 2009 and 2,583 in 2008 [3].") == []


def test_arithmetic_in_brackets_two_deep_is_read_whole_and_a_result_below_nought_follows() -> None:
    """A cash conversion cycle worked out by its three defined terms: each term's brackets two deep. The pattern
    gave a closing bracket two places (a term's end, the next's start), and this sentence, which the code writes,
    held the answer check for minutes; and '= -8.13%' was said not to follow from arithmetic that gives -8.13."""
    cycle = ("**cash conversion cycle, 2009: 119.45**, computed from the document's figures: (365 × ((314,629 [1] + "
             "253,161 [1]) / 2) / (896,271 [3])) + (365 × (($315,290 [2] + $301,036 [2]) / 2) / (2,014,908 [3])) − "
             "(365 × (($130,451 [1] + $107,334 [1]) / 2) / (896,271 [3] + (253,161 [1] − 314,629 [1]))) = 119.45 "
             "[1][3][2]")
    (shown,) = shown_arithmetic(cycle)
    assert shown.holds and shown.value == pytest.approx(119.45, abs=0.01)
    unclosed = shown_arithmetic(cycle.replace(" = 119.45", " is 119.45") + " (" * 40 + "1 + 2 + 3 + 4 + 5 + 6 ) x")
    assert unclosed == []
    (fell,) = shown_arithmetic("(132,493 [1] − 144,222 [1]) / 144,222 [1] = -8.13%")
    assert fell.holds and fell.value == pytest.approx(-8.13, abs=0.01)


def test_a_figure_computed_and_shown_right_over_the_passages_figures_is_verified() -> None:
    unverified, notes = _one("The net difference is $375 million - $128.0 million = $247 million [1].", [HEDGES])
    assert unverified == [] and notes == []


def test_a_figure_whose_shown_arithmetic_does_not_give_it_is_marked_with_what_it_gives() -> None:
    unverified, notes = _one("The net difference is $375 million - $128.0 million = $250 million [1].", [HEDGES])
    assert unverified == ["$250 million"]
    assert notes == ["$250 million does not follow from the arithmetic shown, which gives 247"]


def test_a_shown_computation_over_a_figure_no_passage_holds_is_marked() -> None:
    unverified, notes = _one("The difference is $375 million - $130 million = $245 million [1].", [HEDGES])
    assert unverified == ["$130 million", "$245 million"]
    assert notes[1] == "$245 million is computed from $130 million, which no passage holds"


def test_arithmetic_is_evaluated_in_the_scale_each_side_says() -> None:
    """'$4.2 billion − $3.8 billion = $400 million' was evaluated as 4.2 − 3.8 and said not to give 400; inputs said
    without a scale word may be in a table's unit, a power of a thousand from the result's."""
    assert all(e.holds for e in shown_arithmetic("It rose by $4.2 billion − $3.8 billion = $400 million [1]."))
    assert all(e.holds for e in shown_arithmetic("3,017 × $10.85 = $32.7 million, and 2.5 billion − 1.5 billion = 1.0"))
    (wrong,) = shown_arithmetic("It rose by $4.2 billion − $3.8 billion = $300 million [1].")
    assert not wrong.holds and wrong.value == pytest.approx(400.0)


OPTIONS = Passage(
    n=6, document="10-K.pdf", page=74, tabular=True,
    text="Stock option activity (in thousands, except per share data):\n"
    "| | Number of Options | Weighted Average Exercise Price | Aggregate Intrinsic Value |\n"
    "| Outstanding at March 31, 2012 | 5,398 | $10.42 | $50,341 |\n"
    "| Exercisable at March 31, 2012 | 3,017 | $10.85 | $34,230 |",
)


def test_a_passage_figure_given_as_the_result_of_wrong_arithmetic_is_marked() -> None:
    """The local model wrote the table's intrinsic value as the product of the count and the price, which gives
    32,734: the figure is the passage's, the working is not, and the check had passed the result (only its inputs
    were marked, as figures of other columns)."""
    answer = "The aggregate intrinsic value of the exercisable options was 3,017 × $10.85 = $34,230 thousand [6]."
    (statement,), _ = attribute(answer, [OPTIONS], None, TERMS_ONLY)
    assert statement.unverified_numbers[-1] == "$34,230 thousand" and not statement.supported
    assert statement.number_notes[-1] == (
        "$34,230 thousand does not follow from the arithmetic shown, which gives 32,734")
    said = "The aggregate intrinsic value of the exercisable options was $34,230 thousand [6]."
    assert _one(said, [OPTIONS]) == ([], [])  # a guard: the figure said without working


def test_a_figure_computed_without_showing_how_is_marked_with_the_step_that_gives_it() -> None:
    unverified, notes = _one("The net difference between the hedging instruments is $247 million [1].", [HEDGES])
    assert unverified == ["$247 million"]
    assert notes == ["$247 million is in no passage; it is $375 million − $128.0 million, computed without showing how"]


def test_a_step_is_named_only_when_one_step_gives_the_figure() -> None:
    figures = [numbers("Sales were 40 and 60, costs 10 and 30.")]
    assert derivation(numbers("20")[0], figures) == ""  # 60 − 40 and 30 − 10: a coincidence, no step named
    assert derivation(numbers("50.0%")[0], figures) == "(60 − 40) / 40"
    assert derivation(numbers("7,777")[0], figures) == ""


@pytest.mark.parametrize("answer", [
    "On the Legal dataset the ablation shows a performance improvement of 84.8% [2].",
    "LightRAG improves by 84.8% on Legal [2].",
    "On Legal, LightRAG is 84.8% higher than NaiveRAG [2].",
])
def test_a_tables_value_said_to_be_a_change_is_marked(answer: str) -> None:
    unverified, notes = _one(answer, [WIN_RATES])
    assert unverified == ["84.8%"]
    assert notes[0].startswith("84.8% is a value in the table (under Legal › LightRAG, row Overall), not ")


@pytest.mark.parametrize("answer,passages", [
    ("On the Legal dataset LightRAG's overall win rate is 84.8% [2].", [WIN_RATES]),
    ("LightRAG's win rate on Legal rose to 84.8% [2].", [WIN_RATES]),  # a level it rose to
    ("Net revenue decreased by 22% [3].", [CHANGES]),  # the table's column is a change
    ("The gross margin fell to 58.8% in 2009 [3].", [CHANGES]),
])
def test_a_value_said_as_a_value_or_a_change_read_from_a_change_column_is_verified(answer: str,
                                                                                    passages: list[Passage]) -> None:
    assert _one(answer, passages) == ([], [])


ROLL_FORWARD = Passage(
    n=5, document="10-K.pdf", page=148, tabular=True,
    text="The following table presents changes in unrecognized tax benefits:\n(Millions) 2022 2021 2020\n"
    "| Balance, January 1 | $1,236 | $1,149 | $1,064 |\n| Increases: | | | |\n"
    "| Current year tax positions | 103 | 112 | 127 |\n| Decreases: | | | |\n"
    "| Lapse of statute of limitations | (104) | (17) | (58) |\n| Balance, December 31 | $1,235 | $1,236 | $1,149 |",
)


@pytest.mark.parametrize("answer", [
    "The unrecognized tax benefits decreased by $104 million in 2022 due to lapse of statute of limitations [5].",
    "They increased by 103 million in 2022 from current year tax positions [5].",
])
def test_a_change_read_from_a_row_under_its_heading_of_changes_is_verified(answer: str) -> None:
    """A roll-forward's line under 'Decreases:' is a change: the check marked '$104 million' as 'a value in the table
    (under row Decreases — Lapse of statute of limitations), not a change'."""
    assert _one(answer, [ROLL_FORWARD]) == ([], [])


def test_a_change_the_prose_states_is_not_judged_by_a_cell() -> None:
    prose = WIN_RATES.model_copy(update={"text": WIN_RATES.text + "\nOn Legal, LightRAG improves by 84.8% over it."})
    assert _one("LightRAG improves by 84.8% on Legal [2].", [prose]) == ([], [])


REVENUES = Passage(
    n=4, document="10-K.pdf", page=46, tabular=True,
    text="The following table sets forth our revenues (in $000’s):\n"
    "| | Fiscal Years Ended March 31, | |\n| | 2012 | 2011 |\n"
    "| Impella product revenue | $ 106,925 | $ 71,373 |\n| Total revenues | $ 126,375 | $ 101,283 |",
)


@pytest.mark.parametrize("answer,note", [
    ("Total revenues in fiscal 2012 were $126,375 million [4].",
     "$126,375 million: the table gives $126,375 in thousands (under Total revenues), which is 126.4 million"),
    ("Total revenues in fiscal 2012 were $126.4 billion [4].",
     "$126.4 billion: the table gives $126,375 in thousands (under Total revenues), which is 0.126 billion"),
    ("The notional amount of swaps is $375 billion [1].", "$375 billion: the passage says $375 million"),
])
def test_a_figure_said_in_a_unit_its_passage_does_not_give_is_marked_with_what_it_is(answer: str, note: str) -> None:
    unverified, notes = _one(answer, [HEDGES, REVENUES])
    assert notes == [note] and unverified == [note.split(":")[0]]


@pytest.mark.parametrize("answer", [
    "Total revenues in fiscal 2012 were $126,375 thousand [4].",
    "Total revenues in fiscal 2012 were $126.4 million [4].",
    "Total revenues in fiscal 2012 were $126,375,000 [4].",  # written out in full
    "Total revenues in fiscal 2012 were $126,375 [4].",  # no scale word: not judged
    "The notional amount of swaps is $375 million [1].",
])
def test_a_figure_said_in_its_own_unit_or_without_one_is_verified(answer: str) -> None:
    assert _one(answer, [HEDGES, REVENUES]) == ([], [])


def test_a_unit_is_not_judged_where_the_table_states_none() -> None:
    unitless = REVENUES.model_copy(update={"text": REVENUES.text.replace(" (in $000’s)", "")})
    assert _one("Total revenues in fiscal 2012 were $126,375 million [4].", [unitless]) == ([], [])


def test_a_figure_repeated_in_a_table_of_no_stated_unit_is_still_judged_by_the_unit_stated_for_it() -> None:
    quarters = Passage(n=5, document="10-K.pdf", page=81, tabular=True,
                       text="| | Q1 | Q2 | Q3 | Q4 | Fiscal year |\n"
                       "| Total revenues | $27,355 | $29,478 | $32,198 | $37,344 | $126,375 |")
    (statement,), _ = attribute("Total revenues in fiscal 2012 were $126,375 million [4].", [REVENUES, quarters], None,
                                TERMS_ONLY)
    assert statement.unverified_numbers == ["$126,375 million"]
    assert _one("Total revenues in fiscal 2012 were $126,375,000 [4].", [REVENUES, quarters]) == ([], [])


def test_a_table_still_in_plain_text_is_judged_by_the_one_unit_its_passage_states() -> None:
    plain = Passage(n=4, document="10-K.pdf", page=46, text="Our revenues are comprised of the following:\n"
                    "Year Ended March 31,\n2012\n2011\n(in $000’s)\nImpella product revenue\n$106,925\n$ 78,230\n"
                    "Total revenues\n$126,375\n$101,151")
    assert _one("Total revenues in fiscal 2012 were $126,375 million [4].", [plain]) == (
        ["$126,375 million"], ["$126,375 million: the passage gives $126,375 in thousands, which is 126.4 million"])
    assert _one("Total revenues in fiscal 2012 were $126.4 million [4].", [plain]) == ([], [])
    two_units = plain.model_copy(update={"text": plain.text + "\n(in millions)\nBacklog\n42"})
    assert _one("Total revenues in fiscal 2012 were $126,375 million [4].", [two_units]) == ([], [])


@pytest.mark.parametrize("text,stated", [
    ("This figure is found in Passage 1 on page 46 [4].", []),  # the local model's way of pointing to its source
    ("See pages 46-47 and p. 12.", []),
    ("Revenue on page 46 was $126,375 thousand.", ["$126,375 thousand"]),
    ("The report has 46 pages.", ["46"]),
])
def test_the_pages_and_passages_an_answer_points_to_are_no_figures(text: str, stated: list[str]) -> None:
    assert [n.text for n in numbers(text)] == stated


RND = Passage(n=6, document="devices-10k.pdf", page=49, text=(
    "Research and development expenses for fiscal 2011 increased by $0.7 million, or 3%, to $26.7 million from "
    "$26.0 million in fiscal 2010. Research and development expenses for fiscal 2011 and 2010 included $8.8 million "
    "and $7.4 million, respectively, in clinical trial expenses primarily associated with our pump trials."))


def test_a_figure_put_in_the_place_of_another_in_a_sentence_it_repeats_is_marked() -> None:
    """Found using the app: the local model's '… increased by $8.8 million, or 3%, to $26.7 million …'
    was counted as checked, since $8.8 million is a figure of the passage (of another sentence)."""
    unverified, notes = _one("Research and development expenses for fiscal 2011 increased by $8.8 million, or 3%, to "
                             "$26.7 million from $26.0 million in fiscal 2010 [6].", [RND])
    assert unverified == ["$8.8 million"]
    assert notes == ["$8.8 million: the sentence this repeats [6] says $0.7 million there"]


@pytest.mark.parametrize("answer", [
    "Research and development expenses for fiscal 2011 increased by $0.7 million, or 3%, to $26.7 million from "
    "$26.0 million in fiscal 2010 [6].",  # the sentence as it is
    "Research and development expenses rose to $26.7 million in fiscal 2011 from $26.0 million, and included "
    "$8.8 million of clinical trial expenses [6].",  # figures of two sentences, joined
    "In fiscal 2011, clinical trial expenses of $8.8 million were part of the $26.7 million spent on research [6].",
])
def test_a_statement_that_keeps_its_sentences_figures_or_joins_two_is_not_marked(answer: str) -> None:
    assert _one(answer, [RND]) == ([], [])


def test_the_years_a_statement_shares_with_a_sentence_do_not_make_it_a_repetition() -> None:
    """Found by running the check over code-read answers: a table line of years and one figure was
    'a repetition' of a schedule's heading that names the same years."""
    schedule = Passage(n=7, document="chips-10k.pdf", page=101, text=(
        "SCHEDULE II — VALUATION AND QUALIFYING ACCOUNTS Years ended October 31, 2009, November 1, 2008 and "
        "November 3, 2007 (Thousands)"))
    licence = Passage(n=1, document="chips-10k.pdf", page=50, text="Revenue from one-time IP license was 35,000.")
    assert _one("— 2009: —; 2008: —; 2007: 35,000 [1]", [schedule, licence]) == ([], [])
