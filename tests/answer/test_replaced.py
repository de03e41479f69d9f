"""Things a sentence sizes by an amount and says were ended or are new ('terminated the $3,800,000,000 five year …
credit agreement', 'entered into a new $4,200,000,000 five year … credit agreement'), read for how much a thing went up
when it was replaced and for the total of the things of a kind in force. Sentences of PepsiCo's 8-K of May 2023 (its
credit agreements replaced), the company's name changed, and of a 10-K's liquidity discussion written the other way."""

from __future__ import annotations

from rag_core.answer.figures import read_figure
from rag_core.answer.replaced import sized
from rag_core.models import Passage

_EVENTS = Passage(n=1, document="drinks-8k.pdf", page=2, text=(
    "Item 8.01. Other Events.\n\n"
    "Effective May 26, 2023, Drinks, Inc. (“Drinks”) terminated the $3,800,000,000 364 day unsecured revolving credit "
    "agreement, dated as of May 27, 2022, among Drinks, as borrower, the lenders party thereto, and Citibank, N.A., as "
    "administrative agent (the “2022 364 Day Credit Agreement”). There were no outstanding borrowings under the 2022 "
    "364 Day Credit Agreement at the time of its termination.\n\n"
    "On May 26, 2023, Drinks entered into a new $4,200,000,000 364 day unsecured revolving credit agreement (the “2023 "
    "364 Day Credit Agreement”) among Drinks, as borrower, the lenders party thereto, and Citibank, N.A., as "
    "administrative agent. The 2023 364 Day Credit Agreement enables Drinks and its borrowing subsidiaries to borrow "
    "up to $4,200,000,000 in U.S. Dollars and/or Euros, subject to customary terms and conditions, and expires on May "
    "24, 2024.\n\n"
    "Effective May 26, 2023, Drinks terminated the $3,800,000,000 five year unsecured revolving credit agreement, "
    "dated as of May 27, 2022, among Drinks, as borrower, the lenders party thereto, and Citibank, N.A., as "
    "administrative agent (the “2022 Five Year Credit Agreement”).\n\n"
    "On May 26, 2023, Drinks entered into a new $4,200,000,000 five year unsecured revolving credit agreement (the "
    "“2023 Five Year Credit Agreement”) among Drinks, as borrower, the lenders party thereto, and Citibank, N.A., as "
    "administrative agent. The 2023 Five Year Credit Agreement enables Drinks and its borrowing subsidiaries to borrow "
    "up to $4,200,000,000 in U.S. Dollars and/or Euros, including a $750,000,000 swing line subfacility for "
    "Euro-denominated borrowings permitted to be borrowed on a same day basis.\n"))
_LIQUIDITY = Passage(n=2, document="tools-10k.pdf", page=41, text=(
    "Liquidity and Capital Resources\n\n"
    "In March 2022, the Company replaced its $1.5 billion revolving credit facility with a new $2.0 billion revolving "
    "credit facility that expires in March 2027. The Company also maintains a $500 million commercial paper program, "
    "under which no amounts were outstanding at year end.\n"))


def test_what_a_sentence_sizes_is_named_by_the_words_after_its_amount_and_marked_ended_or_new() -> None:
    things = [(thing.name, thing.value, thing.state, thing.ended) for thing in sized([_EVENTS, _LIQUIDITY])]
    assert things == [
        ("364 day unsecured revolving credit agreement", "$3,800,000,000", "terminated", True),
        ("364 day unsecured revolving credit agreement", "$4,200,000,000", "new", False),
        ("five year unsecured revolving credit agreement", "$3,800,000,000", "terminated", True),
        ("five year unsecured revolving credit agreement", "$4,200,000,000", "new", False),
        ("swing line subfacility", "$750,000,000", "", False),
        ("revolving credit facility", "$1.5 billion", "replaced", True),
        ("revolving credit facility", "$2.0 billion", "new", False),
        ("commercial paper program", "$500 million", "", False),
    ]


def test_how_much_a_replaced_agreement_went_up_is_the_new_amount_less_the_ended_one() -> None:
    """FinanceBench's 8-K question, on the two agreements replaced alike: the one the question names by its term
    ('five year'), not the 364 day one; before, no figure was read and the local model answered $4,200,000,000."""
    figure = read_figure("By how much did Drinks increase its unsecured five year revolving credit agreement on May "
                         "26, 2023?", [_EVENTS])
    assert figure is not None and figure.kind == "change" and figure.value == 400_000_000, figure
    assert [(c.row, c.column, c.text) for c in figure.cells] == [
        ("Five year unsecured revolving credit agreement", "terminated", "$3,800,000,000"),
        ("Five year unsecured revolving credit agreement", "new", "$4,200,000,000")]
    assert "$4,200,000,000 [1] − $3,800,000,000 [1] = 400,000,000" in figure.sentence, figure.sentence


def test_how_much_larger_the_new_one_is_than_the_ended_one_is_the_same_change() -> None:
    """Asked as a comparison of the two ('how much bigger … than'), naming no figure: before, no figure was read."""
    for question, row in [
            ("How much bigger is the new five year agreement than the one it replaced?",
             "Five year unsecured revolving credit agreement"),
            ("How much larger is the new 364-day credit agreement than the terminated one?",
             "364 day unsecured revolving credit agreement")]:
        figure = read_figure(question, [_EVENTS])
        assert figure is not None and figure.value == 400_000_000 and figure.cells[0].row == row, (question, figure)


def test_a_facility_replaced_with_a_new_one_in_one_sentence_is_read_in_its_scale() -> None:
    figure = read_figure("How much did the Company increase its revolving credit facility in 2022?", [_LIQUIDITY])
    assert figure is not None and figure.kind == "change" and figure.value == 500_000_000, figure
    assert [c.column for c in figure.cells] == ["replaced", "new"]


def test_the_total_of_a_kind_is_the_sum_of_those_in_force() -> None:
    """FinanceBench's second 8-K question: the two new agreements summed, the two terminated left out ($8,400,000,000,
    not $16,000,000,000 nor $4,200,000,000, the local model's answer before)."""
    figure = read_figure("As of May 26, 2023, what is the total amount Drinks may borrow under its unsecured "
                         "revolving credit agreements?", [_EVENTS])
    assert figure is not None and figure.kind == "sum" and figure.value == 8_400_000_000, figure
    assert [c.row for c in figure.cells] == ["364 day unsecured revolving credit agreement",
                                             "Five year unsecured revolving credit agreement"]
    assert figure.sentence.startswith("**unsecured revolving credit agreements, total of those in force: "
                                      "8,400,000,000**"), figure.sentence


_LINES = Passage(n=3, document="planes-10k.pdf", page=45, text=(
    "At December 31, 2022, we had $14.6 billion of cash and $12.0 billion of unused borrowing capacity on revolving "
    "credit line agreements. In the third quarter of 2022, we entered into a $5.8 billion 364-day revolving credit "
    "agreement expiring in August 2023, a $3 billion three-year revolving credit agreement expiring in August 2025, "
    "and amended our $3.2 billion five-year revolving credit agreement, which expires in October 2024.\n"))
_NOTE = Passage(n=4, document="planes-10k.pdf", page=93, text=(
    "Revolving credit line agreements\n\n"
    "We have $12,000 currently available under credit line agreements: a $5,800 364-day revolving credit agreement, "
    "a $3,000 three-year revolving credit agreement and a $3,200 five-year revolving credit agreement.\n"))


def test_the_things_one_paragraph_sizes_are_summed_once_whatever_unit_another_states_them_in() -> None:
    """Boeing's three revolving credit agreements, one new and two not, in one sentence of its discussion ($12.0
    billion in all, as the sentence before says), and again in a note in millions: each agreement once."""
    figure = read_figure("What is the total amount of Planes' revolving credit agreements?", [_LINES, _NOTE])
    assert figure is not None and figure.kind == "sum" and figure.value == 12_000_000_000, figure
    assert [c.text for c in figure.cells] == ["$5.8", "$3", "$3.2"] and figure.shown == "12.00 billion"


def test_no_figure_is_read_where_the_sentences_do_not_settle_it() -> None:
    """A total of one thing is no total, nor one asked of a thing named in the singular; a question naming what no
    sentence replaced, or a kind sized twice apart with nothing saying which is in force, gets no figure from the
    sentences."""
    assert read_figure("What is the total amount of the Company's revolving credit facilities?", [_LIQUIDITY]) is None
    assert read_figure("As of May 26, 2023, what is the total amount Drinks may borrow under its unsecured revolving "
                       "credit agreement?", [_EVENTS]) is None, "one agreement named: no total of two"
    assert read_figure("By how much did Drinks increase its commercial paper program?", [_LIQUIDITY, _EVENTS]) is None
    assert read_figure("When does the 2023 Five Year Credit Agreement expire?", [_EVENTS]) is None, "asks no change"
    twice = Passage(n=3, document="tools-10k.pdf", page=42, text=(
        "The Company has a $300 million term loan facility. In 2021 the Company had a $250 million term loan facility "
        "and a $100 million delayed draw facility.\n"))
    assert read_figure("What is the total of the Company's term loan facilities?", [twice]) is None
    tape = [Passage(n=5, document="tape-10k.pdf", page=76, text=(
        "Credit Facilities\n\nTape has an amended and restated $3.0 billion five year revolving credit facility "
        "expiring in November 2024. In addition, Tape entered into a $1.25 billion 364-day credit facility.\n\n"
        "The debt commitments also included a $150 million revolving credit facility for the Food Safety business.\n"))]
    assert read_figure("What is the total size of Tape's credit facilities?", tape) is None, (
        "a facility of another paragraph, not said to be new: the business split off")
    own = [tape[0].model_copy(update={"text": tape[0].text.split("\n\nThe debt")[0]})]
    figure = read_figure("What is the total size of Tape's credit facilities?", own)
    assert figure is not None and figure.value == 4_250_000_000, "its own two facilities ('facilities': plural)"
