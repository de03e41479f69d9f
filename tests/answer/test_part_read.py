"""A part of a line asked by what it is, read from the sentence that states it (``part_read``), never from the line's
row: 'How much of its lending commitments were held for sale …'; and a part's share of a whole a sentence states
(``shares_said``)."""

from __future__ import annotations

import pytest

from rag_core.answer.figure_sentences import sentence_rows
from rag_core.answer.figures import read_figure
from rag_core.models import Passage

HELD = ("In addition, as of December 2016 and December 2015, $6.87 billion and $9.92 billion, respectively, of the "
        "firm’s lending commitments were held for sale and were accounted for at the lower of cost or fair value.")
PAYABLE = ("At December 31, 2022 and 2021, Accounts payable included $2.5 billion and $2.3 billion payable to "
           "suppliers who have elected to participate in supply chain financing programs.")
BALANCE = Passage(n=1, document="10-K.pdf", page=57, table_chunks=(2,), statement="balance_sheet", text=(
    "| December 31, | 2022 | 2021 |\n| Accounts payable | 10,200 | 9,261 |\n"
    "| Accrued liabilities | 22,240 | 21,166 |\n"))
COMMITMENTS = Passage(n=1, document="GS_2016.pdf", page=182, text=(
    "Lending Commitments Held For Sale\nThe firm's lending commitments are recorded at fair value. " + HELD))
SUPPLIERS = Passage(n=2, document="10-K.pdf", page=43, text=PAYABLE)


@pytest.mark.parametrize(("sentence", "row"), [
    (HELD, ("Held for sale (of lending commitments)", {"2016": "$6.87", "2015": "$9.92"}, 1e9)),
    (PAYABLE, ("Payable to suppliers who have elected to participate in supply chain financing programs (of Accounts "
               "payable)", {"2022": "$2.5", "2021": "$2.3"}, 1e9)),
])
def test_a_sentence_stating_a_part_of_a_line_is_the_parts_row_with_its_line_in_brackets(
        sentence: str, row: tuple[str, dict[str, str], float]) -> None:
    """Both sentences were no row: their figures come before what they are of, or after 'included' with no
    'respectively'. The line is said in brackets, which a label's words leave out."""
    assert sentence_rows(sentence) == [row]


@pytest.mark.parametrize(("question", "passages", "sentence"), [
    ("How much of Goldman Sachs' lending commitments were held for sale as of December 2016?", [COMMITMENTS],
     "**Held for sale (of lending commitments), 2016: $6.87 billion** [1]"),
    ("How much of Boeing's accounts payable was payable to suppliers in supply chain financing programs at the end of "
     "2022?", [BALANCE, SUPPLIERS], "**Payable to suppliers who have elected to participate in supply chain financing "
     "programs (of Accounts payable), 2022: $2.5 billion** [2]"),
])
def test_a_part_of_a_line_asked_by_what_it_is_is_read_from_the_sentence_that_states_it(
        question: str, passages: list[Passage], sentence: str) -> None:
    """Goldman Sachs' everyday question read no figure: the answer listed passages."""
    figure = read_figure(question, passages)
    assert figure is not None and figure.sentence == sentence


def test_a_parts_row_is_never_the_whole_line_nor_a_part_of_another() -> None:
    """Guards (they pass before the change too): the whole line is its table's row, and a part asked of another line
    ('accrued liabilities') or of a line no sentence names reads nothing."""
    whole = read_figure("What were Boeing's accounts payable at the end of 2022?", [BALANCE, SUPPLIERS])
    assert whole is not None and whole.sentence == "**Accounts payable, 2022: 10,200** [1]"
    assert read_figure("What were Goldman Sachs' lending commitments as of December 2016?", [COMMITMENTS]) is None
    assert read_figure("How much of Boeing's accrued liabilities were payable to suppliers in supply chain financing "
                       "programs at the end of 2022?", [BALANCE, SUPPLIERS]) is None


SHARES = Passage(n=1, document="heart-10k.pdf", page=80, tabular=True, text=(
    "Revenue by type (in thousands)\n| | 2012 | 2011 | 2010 |\n| Product revenue | $125,000 | $101,000 | $85,000 |\n"
    "| Funded research and development | 1,400 | 1,300 | 1,200 |\n\nGeographic information. International sales (sales "
    "outside the U.S. and primarily in Europe) accounted for 8%, 8% and 9% of total product revenue during the fiscal "
    "years ended March 31, 2012, 2011, and 2010, respectively."))


def test_a_share_a_sentence_states_a_part_took_of_a_whole_is_read_for_that_share_alone() -> None:
    """ABIOMED's 10-K: asked what share of its total product revenue came from international sales in fiscal 2010,
    code found no international sales to divide ('No figure is computed'); the sentence states 9%. Its subject runs
    past the full stops of 'U.S.'. The part's amount is never the share (a guard: it read nothing before too), nor is
    another part's share."""
    figure = read_figure("What share of Heart's total product revenue came from international sales in fiscal 2010?",
                         [SHARES])
    assert figure is not None and figure.sentence == "**International sales (of total product revenue), 2010: 9%** [1]"
    assert read_figure("What were Heart's international sales in fiscal 2010?", [SHARES]) is None
    other = read_figure("What share of Heart's total product revenue came from U.S. sales in fiscal 2010?", [SHARES])
    assert other is None or other.value is None, other


def test_a_share_asked_by_what_a_part_accounted_for_is_the_share_that_came_from_it() -> None:
    """'What percentage of … did international sales account for' read the whole's product revenue ($101,000
    thousand): the question was read as no share."""
    figure = read_figure("What percentage of Heart's total product revenue did international sales account for in "
                         "fiscal 2011?", [SHARES])
    assert figure is not None and figure.sentence == "**International sales (of total product revenue), 2011: 8%** [1]"


def test_shares_said_before_what_their_part_is_are_read_for_that_share() -> None:
    """PepsiCo's 10-K, a footnote: 'Approximately 9% and 7% of the inventory cost in 2022 and 2021, respectively, were
    computed using the LIFO method.' The share read nothing ('the passages' tables do not give computed using the LIFO
    method')."""
    note = Passage(n=1, document="snacks-10k.pdf", page=111, tabular=True, text=(
        "Balance Sheet (in millions)\n| | 2022 | 2021 |\n| Raw materials and packaging | $2,142 | $1,696 |\n"
        "| Finished goods | 1,764 | 1,524 |\n| Inventories | $5,222 | $4,347 |\n\n(e) Increase reflects higher "
        "commodity costs in 2022. Approximately 9% and 7% of the inventory cost in 2022 and 2021, respectively, were "
        "computed using the LIFO method. The differences between LIFO and FIFO methods of valuing these inventories "
        "were not material."))
    figure = read_figure("What share of Snacks' inventory cost was computed using the LIFO method in 2021?", [note])
    shown = "**Computed using the LIFO method (of inventory cost), 2021: 7%** [1]"
    assert figure is not None and figure.sentence == shown, figure


@pytest.mark.parametrize(("question", "text", "sentence"), [
    ("What were Card's accumulated goodwill impairment losses as of December 31, 2022?",
     "| Goodwill | $3,786 | $3,804 |\n\nAccumulated impairment losses were $221 million as of both December 31, 2022 "
     "and 2021.", "**Accumulated impairment losses, 2022: $221 million** [1]"),
    ("What was Card's repatriation tax liability as of December 31, 2021?",
     "| Income tax liability (c) | 1,651 | 1,576 |\n\n(c) Includes repatriation tax liability of $1,012 million as of "
     "both December 31, 2022 and 2021, which represents our remaining obligation under the Tax Act.",
     "**Repatriation tax liability, 2021: $1,012 million** [1]"),
])
def test_one_figure_a_sentence_states_at_two_dates_is_the_rows_figure_at_each(question: str, text: str,
                                                                                sentence: str) -> None:
    """American Express's 10-K: 'as of both December 31, 2022 and 2021' was no row, so the impairment losses read the
    goodwill balance ($3,786 million) and the repatriation tax liability read nothing."""
    passage = Passage(n=1, document="card-10k.pdf", page=121, tabular=True, text=(
        f"Summary (Millions)\n| | 2022 | 2021 |\n{text}"))
    figure = read_figure(question, [passage])
    assert figure is not None and figure.sentence == sentence, figure


def test_a_part_that_was_a_share_of_a_whole_by_years_is_read_for_that_share() -> None:
    """Activision Blizzard's 2019 10-K: 'The Company's net revenues in the U.S. were 46%, 46%, and 45% of consolidated
    net revenues for the years …, respectively'; before, only 'accounted for' said a share, and the reader looked for
    U.S. revenues to divide ('No figure is computed')."""
    passage = Passage(n=1, document="games-10k.pdf", page=106, tabular=True, text=(
        "|  | Year Ended December 31, 2017 |\n| Net revenues by geographic region: |  |\n| Americas | $3,607 |\n"
        "| EMEA (1) | 2,464 |\n| Total consolidated net revenues | $7,017 |\n\n"
        "The Company’s net revenues in the U.S. were 46%, 46%, and 45% of consolidated net revenues for the years "
        "ended December 31, 2019, 2018, and 2017, respectively. No other country’s net revenues exceeded 10% of "
        "consolidated net revenues."))
    figure = read_figure("What share of Games' consolidated net revenues came from the U.S. in 2018?", [passage])
    assert figure is not None and figure.value == 46.0 and figure.cells[0].column == "2018", figure
