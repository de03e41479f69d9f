"""A figure a passage's sentence gives one year, said of another: the answer check marks it with the year the
sentence gives it and the figure it gives for the year the statement names."""

from __future__ import annotations

import pytest

from rag_core.answer.attribution import attribute
from rag_core.answer.numbers import numbers
from rag_core.answer.said_years import year_said
from rag_core.models import Passage
from rag_core.settings import AttributionSettings

LOSSES = Passage(
    n=1, document="ABMD_2012.pdf", page=30,
    text="Since inception, we have incurred significant operating losses. For the years ended March 31, 2011 and "
    "2010, we incurred net losses of approximately $11.8 million and $19.0 million, respectively. We expect to "
    "continue to invest in research and development.",
)
AMORTIZATION = Passage(
    n=2, document="10-K.pdf", page=41,
    text="Amortization expense related to intangible assets was $7.4 million, $9.3 million and $9.2 million in "
    "fiscal 2009, 2008 and 2007, respectively.",
)
LOSS_TABLE = Passage(
    n=3, document="ABMD_2012.pdf", page=45, tabular=True,
    text="(in thousands)\n| | 2011 | 2010 |\n| Net loss | (11,800) | (19,000) |",
)
SPENDING_TABLE = Passage(
    n=3, document="ABMD_2012.pdf", page=45, tabular=True,
    text="(in thousands)\n| | 2011 | 2010 |\n| Research and development | 19,000 | 17,500 |",
)


def _notes(answer: str, passages: list[Passage]) -> tuple[bool, list[str], list[str]]:
    (statement,), _ = attribute(answer, passages, None, AttributionSettings())
    return statement.supported, statement.unverified_numbers, statement.number_notes


def test_a_figure_said_of_the_other_year_of_its_sentence_is_marked_with_the_years_figure() -> None:
    supported, unverified, notes = _notes("ABIOMED's net loss in fiscal 2011 was $19.0 million [1].", [LOSSES])
    assert not supported and unverified == ["$19.0 million"]
    assert notes == ["$19.0 million is given for 2010 in [1] (Net losses), not for 2011, whose figure there is "
                     "$11.8 million"]


@pytest.mark.parametrize("answer", [
    "ABIOMED's net loss in fiscal 2011 was $11.8 million [1].",
    "ABIOMED's net loss in fiscal 2010 was $19.0 million [1].",
    "Net losses were $11.8 million in fiscal 2011 and $19.0 million in fiscal 2010 [1].",
    "Net losses were $11.8 million and $19.0 million in fiscal 2011 and 2010, respectively [1].",
    "The net loss narrowed to $11.8 million in fiscal 2011 from $19.0 million [1].",
    "ABIOMED's net loss was $19.0 million [1].",
])
def test_a_figure_said_of_its_own_year_or_of_none_is_not_marked(answer: str) -> None:
    _, unverified, notes = _notes(answer, [LOSSES])
    assert unverified == [] and notes == []


def test_two_figures_whose_years_a_statement_swaps_are_both_marked() -> None:
    _, unverified, notes = _notes("Net losses were $19.0 million in fiscal 2011 and $11.8 million in fiscal 2010 [1].",
                                  [LOSSES])
    assert unverified == ["$19.0 million", "$11.8 million"]
    assert notes[1] == ("$11.8 million is given for 2011 in [1] (Net losses), not for 2010, whose figure there is "
                        "$19.0 million")


def test_a_figure_is_judged_only_for_a_year_its_sentence_gives() -> None:
    _, unverified, _ = _notes("Amortization expense was $9.3 million in fiscal 2010 [2].", [AMORTIZATION])
    assert "$9.3 million" not in unverified  # the sentence gives no figure for 2010
    _, unverified, notes = _notes("Amortization expense was $9.3 million in fiscal 2009 [2].", [AMORTIZATION])
    assert notes == ["$9.3 million is given for 2008 in [2] (Amortization expense related to intangible assets), not "
                     "for 2009, whose figure there is $7.4 million"]


def test_a_figure_a_table_holds_under_the_year_named_is_not_judged_by_the_sentence() -> None:
    _, _, notes = _notes("In fiscal 2011, research and development was $19.0 million [3].", [LOSSES, SPENDING_TABLE])
    assert not any("is given for" in note for note in notes)


def test_a_table_that_gives_the_figure_another_year_or_none_does_not_spare_it() -> None:
    """The table's '(19,000)' under 2010, or a table still plain text ('Net income (loss) $ 1,495 $ (11,755)
    $ (19,024)' in thousands, which rounds to the sentence's '$19.0 million'), says no year's figure is 2011's."""
    for table in (LOSS_TABLE, Passage(n=3, document="ABMD_2012.pdf", page=62, text=(
            "(in thousands, except per share data)\nNet income (loss)\n$ 1,495\n$ (11,755)\n$ (19,024)\n"))):
        _, unverified, notes = _notes("In fiscal 2011 the net loss was $19.0 million [1].", [LOSSES, table])
        assert unverified == ["$19.0 million"]
        assert notes[0].startswith("$19.0 million is given for 2010 in [1] (Net losses), not for 2011")


def test_the_year_a_statement_gives_a_figure() -> None:
    def year(statement: str, figure: str) -> str:
        (number,) = [n for n in numbers(statement) if n.text == figure]
        return year_said(statement, number)

    assert year("In fiscal 2011, the net loss was $19.0 million [1].", "$19.0 million") == "2011"
    assert year("Net losses were $11.8 million in 2011 and $19.0 million in 2010.", "$19.0 million") == "2010"
    assert year("Net losses were $11.8 million and $19.0 million in 2011 and 2010, respectively.",
                "$11.8 million") == "2011"
    assert year("Net losses decreased from $19.0 million in 2010 to $11.8 million in 2011.", "$11.8 million") == "2011"
    assert year("In 2011 the net loss was $11.8 million, compared with $19.0 million the year before.",
                "$19.0 million") == ""
    assert year("Cash at the beginning of fiscal 2012 was $23.1 million.", "$23.1 million") == "2011"
    assert year("The net loss was $19.0 million.", "$19.0 million") == ""


def test_a_year_set_against_the_prior_year_is_a_row_and_its_figures_keep_their_years() -> None:
    from rag_core.answer.figure_sentences import sentence_rows

    sentence = ("During fiscal 2011, we incurred a net loss of $11.8 million, or $0.32 per share compared to a net "
                "loss of $19.0 million, or $0.52 per share, for the prior fiscal year.")
    assert sentence_rows(sentence) == [("Net loss", {"2011": "$11.8", "2010": "$19.0"}, 1e6)]
    assert sentence_rows("In 2022, the Company recorded revenue of $5.2 billion compared with revenue of $4.9 billion "
                         "in the prior year.") == [("Revenue", {"2022": "$5.2", "2021": "$4.9"}, 1e9)]
    assert sentence_rows("During fiscal 2012, we incurred net income of $1.5 million, or $0.04 per basic and diluted "
                         "share, compared to a net loss of $11.8 million, or $0.32 per share, for the prior fiscal "
                         "year.") == []  # two lines, not one row's two years
    discussion = Passage(n=4, document="ABMD_2012.pdf", page=49, text=f"Net Loss\n\n{sentence}")
    _, unverified, notes = _notes("The net loss in fiscal 2011 was $19.0 million, which is reported on page 48 [4].",
                                  [discussion])
    assert unverified == ["$19.0 million"]
    assert notes == ["$19.0 million is given for 2010 in [4] (Net loss), not for 2011, whose figure there is "
                     "$11.8 million"]
