"""Checking answers: statements, numbers, and attribution on fixed passages."""

from __future__ import annotations

import pytest

from rag_core.answer.attribution import attribute, cited_numbers, split_statements
from rag_core.answer.numbers import Cell, number_in, numbers
from rag_core.models import Passage
from rag_core.settings import AttributionSettings


def test_statements_of_bullets_numbered_lists_and_tables() -> None:
    answer = (
        "The ablations are below.\n\n"
        "- -High reached 65.2% in Agriculture [1].\n"
        "* -Low reached 64.0%.\n"
        "1. Hybrid is best, e.g. in Legal. It wins [2].\n"
        "2) Naive loses.\n\n"
        "| Variant | Agriculture |\n|---|---|\n| -Origin | 75.2% |\n"
        "## Notes\n"
        "Accuracy was 84.8% on the test set (Table 2). Costs fell. [3] Done."
    )
    assert split_statements(answer) == [
        "The ablations are below.",
        "-High reached 65.2% in Agriculture [1].",
        "-Low reached 64.0%.",
        "Hybrid is best, e.g. in Legal.",
        "It wins [2].",
        "Naive loses.",
        "| -Origin | 75.2% |",  # the header row above the rule names columns: no statement
        "Accuracy was 84.8% on the test set (Table 2).",
        "Costs fell. [3]",
        "Done.",
    ]


def test_a_lead_in_line_is_not_a_statement() -> None:
    answer = "Most relevant passages (extractive answer, no LLM):\n- Revenue grew [1].\n- **Strengths**:\n  - Fast [2]."
    assert split_statements(answer) == ["Revenue grew [1].", "Fast [2]."]


def test_a_citation_after_the_last_full_stop_stays_with_its_sentence() -> None:
    answer = "- Cash flow was $432 million. [3]\n- Revenue fell 22%. [5, 6]\nIt recovered. [2]"
    statements = split_statements(answer)
    assert statements == ["Cash flow was $432 million. [3]", "Revenue fell 22%. [5, 6]", "It recovered. [2]"]
    assert [cited_numbers(s) for s in statements] == [[3], [5, 6], [2]]


def test_abbreviations_and_initials_do_not_end_a_sentence() -> None:
    text = "Smith et al. report 3.5 points, i.e. a gain. The U.S. market grew."
    assert split_statements(text) == ["Smith et al. report 3.5 points, i.e. a gain.", "The U.S. market grew."]


def test_an_abbreviation_after_a_hyphen_does_not_end_a_sentence() -> None:
    """An answer's lead line 'Non-U.S. — 2022: (309) …' was cut after 'Non-U.S.', and the check marked 'Non-U.S.'
    alone as a statement no passage supports."""
    text = "- Non-U.S. — 2022: (309); 2021: 41 [1]\nThe non-U.S. Benefit grew. It was $309 million [1]."
    assert split_statements(text) == ["Non-U.S. — 2022: (309); 2021: 41 [1]", "The non-U.S. Benefit grew.",
                                      "It was $309 million [1]."]


def test_citation_numbers() -> None:
    assert cited_numbers("A [2] and B [1, 3] and [2; 4].") == [2, 1, 3, 4]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,399", [1399.0]),
        ("610 × 1,000", [610.0, 1000.0]),
        ("84.8%", [84.8]),
        ("84.8 %", [84.8]),
        ("$34,229 million", [34229.0]),
        ("(2,724)", [2724.0]),
        ("2 variants in 3 steps [4], 2022", [2022.0]),
        ("1. Revenue grew 12.5 percent", [12.5]),
        ("restricted stock units were $7,1 million", [7.1]),  # a decimal comma, not '1 million' (a local model's)
        ("a margin of 12,5% in 2016, 2015", [12.5, 2016.0, 2015.0]),
    ],
)
def test_numbers(text: str, expected: list[float]) -> None:
    assert [n.value for n in numbers(text)] == expected


def test_number_matching() -> None:
    (stated,) = numbers("84.8%")
    assert number_in(stated, numbers("accuracy 84.8 % overall"))
    assert number_in(stated, numbers("accuracy 84.83%"))
    assert not number_in(stated, numbers("accuracy 48.8%"))
    (amount,) = numbers("1,399")
    assert number_in(amount, numbers("| Revenue | $1,399 |"))
    (scaled,) = numbers("$1.4 billion")
    assert number_in(scaled, numbers("Revenue (in millions) 1,399"))
    assert not number_in(scaled, numbers("Revenue (in millions) 1,299"))
    (written,) = numbers("26,200,000")
    assert number_in(written, numbers("liabilities of $26.2 million"))
    assert not number_in(written, numbers("liabilities of $26.3 million"))


PASSAGES = [
    Passage(n=1, document="paper.pdf", page=8, text="Table 2: win rates. | -High | Agriculture 65.2% | Legal 76.4% |",
            tabular=True),
    Passage(n=2, document="paper.pdf", page=9, text="Table 3: a case study of answers about the Olympic games."),
    Passage(n=3, document="paper.pdf", page=3, text="Graph indexing extracts entities and relations from chunks."),
]
TERMS_ONLY = AttributionSettings(support_threshold=0.3)


def test_a_true_sentence_with_a_wrong_citation_is_reattributed() -> None:
    (statement,), summary = attribute("The -High variant reached 65.2% in Agriculture [2].", PASSAGES, None, TERMS_ONLY)
    assert statement.cited == [2] and statement.cited_supported == [False]
    assert statement.attributed == [1]
    assert statement.supported and not statement.unverified_numbers
    assert summary.statements == 1 and summary.supported == 1 and summary.numbers_verified == 1


def test_an_invented_number_is_flagged_and_a_sentence_without_support_is_marked() -> None:
    found, summary = attribute(
        "The -High variant reached 91.3% in Agriculture [1]. Revenue of the bakery doubled in spring.",
        PASSAGES, None, TERMS_ONLY,
    )
    invented, unsupported = found
    assert invented.unverified_numbers == ["91.3%"]
    assert unsupported.cited == [] and unsupported.attributed == [] and not unsupported.supported
    assert summary.numbers == 1 and summary.numbers_verified == 0


def test_a_supported_citation_is_kept_alone() -> None:
    (statement,), _ = attribute("Graph indexing extracts entities and relations [3].", PASSAGES, None, TERMS_ONLY)
    assert statement.cited == [3] and statement.cited_supported == [True] and statement.attributed == []


def test_nothing_to_check() -> None:
    assert attribute("", PASSAGES, None, TERMS_ONLY)[0] == []
    assert attribute("Some answer.", [], None, TERMS_ONLY)[0] == []


WIN_RATES = Passage(
    n=1, document="paper.pdf", page=8, tabular=True,
    text="Table 2: win rates of LightRAG against each baseline.\n"
    "| | Agriculture | | CS | |\n"
    "| | NaiveRAG | LightRAG | NaiveRAG | LightRAG |\n"
    "| Comprehensiveness | 32.4% | 67.6% | 38.4% | 61.6% |\n"
    "| Diversity | 23.6% | 76.4% | 38.0% | 62.0% |",
)


def test_a_number_taken_from_another_column_is_unverified_with_the_column_it_is_under() -> None:
    (wrong,), summary = attribute("LightRAG reaches 32.4% comprehensiveness in Agriculture [1].", [WIN_RATES],
                                  None, TERMS_ONLY)
    assert wrong.unverified_numbers == ["32.4%"]
    assert wrong.number_notes == ["32.4% is in the table under Agriculture › NaiveRAG, row Comprehensiveness"]
    assert summary.numbers == 1 and summary.numbers_verified == 0


def test_a_statement_whose_figure_has_another_meaning_in_the_table_is_not_supported() -> None:
    """Seen in the app: under the lead 'cash and short-term marketable securities combined: $5,990 + 71,233 = 77,223',
    the local model wrote that the company held $5,990 thousand in the two combined; the number was marked, the
    sentence still counted as supported. A figure the passages give another meaning makes the statement not theirs;
    one they state nowhere (a sum written out, say) is judged by the words."""
    balance = Passage(n=1, document="heart-10k.pdf", page=61, tabular=True, text=(
        "Consolidated Balance Sheets (in thousands)\n"
        "| | March 31, | |\n| | 2012 | 2011 |\n"
        "| Cash and cash equivalents | $ 5,990 | $ 5,831 |\n"
        "| Short-term marketable securities | 71,233 | 54,481 |\n"))
    (wrong,), summary = attribute("At March 31, 2012, Heart Co held $5,990 thousand in cash and short-term marketable "
                                  "securities combined [1].", [balance], None, TERMS_ONLY)
    assert wrong.unverified_numbers == ["$5,990 thousand"] and not wrong.supported
    assert wrong.notes and "row Cash and cash equivalents" in wrong.notes[0]
    assert summary.supported == 0
    (right,), _ = attribute("At March 31, 2012, Heart Co held $5,990 thousand in cash and cash equivalents [1].",
                            [balance], None, TERMS_ONLY)
    assert right.supported and right.unverified_numbers == []


@pytest.mark.parametrize(
    "statement",
    [
        "LightRAG reaches 67.6% comprehensiveness in Agriculture [1].",
        "In Agriculture, LightRAG beats NaiveRAG on comprehensiveness, 67.6% to 32.4% [1].",
        "Diversity in CS is 62.0% [1].",  # names no method: nothing to contradict
        "The win rate is 61.6% [1].",
    ],
)
def test_a_number_read_from_the_cell_the_statement_names_is_verified(statement: str) -> None:
    (checked,), _ = attribute(statement, [WIN_RATES], None, TERMS_ONLY)
    assert checked.unverified_numbers == [] and checked.number_notes == []


def test_a_number_taken_from_another_row_is_unverified() -> None:
    (wrong,), _ = attribute("LightRAG's diversity in CS is 61.6% [1].", [WIN_RATES], None, TERMS_ONLY)
    assert wrong.unverified_numbers == ["61.6%"]
    assert "row Comprehensiveness" in wrong.number_notes[0]


def test_a_number_also_written_in_prose_is_not_judged_by_its_cell() -> None:
    prose = WIN_RATES.model_copy(update={"text": WIN_RATES.text + "\nLightRAG scored 32.4% on one run."})
    (checked,), _ = attribute("LightRAG reaches 32.4% comprehensiveness in Agriculture [1].", [prose], None,
                              TERMS_ONLY)
    assert checked.unverified_numbers == []


def test_the_table_a_statement_names_is_the_one_its_number_is_read_in() -> None:
    ablations = Passage(
        n=2, document="paper.pdf", page=8, tabular=True,
        text="| | Legal | | Mix | |\n| | NaiveRAG | -Origin | NaiveRAG | -Origin |\n"
        "| Comprehensiveness | 16.4% | 83.6% | 44.4% | 55.6% |",
    )
    other = Passage(n=3, document="paper.pdf", page=7, tabular=True,
                    text="| | Legal | | Mix | |\n| | NaiveRAG | LightRAG | NaiveRAG | LightRAG |\n"
                    "| Comprehensiveness | 16.4% | 83.6% | 38.8% | 61.2% |")
    (wrong,), _ = attribute("The -Origin variant reaches 16.4% comprehensiveness on Legal [2].", [ablations, other],
                            None, TERMS_ONLY)
    assert wrong.unverified_numbers == ["16.4%"], "the other table names nothing of it and does not vouch for it"
    assert "Legal › NaiveRAG" in wrong.number_notes[0]


def test_a_statement_quoted_word_for_word_is_supported_by_its_passage() -> None:
    (quoted,), _ = attribute("Graph indexing extracts entities and relations [3].", PASSAGES, None,
                             AttributionSettings(support_threshold=0.99))
    assert quoted.supported and quoted.cited_supported == [True] and quoted.support == 1.0


def test_a_quotation_keeps_its_figures_verified() -> None:
    """An extractive answer quotes across rows: the figures of the first row sit beside the
    second row's name, and are still the passage's own."""
    quote = "38.4% | 61.6% | | Diversity | 23.6% | 76.4% [1]"
    (quoted,), summary = attribute(quote, [WIN_RATES], None, TERMS_ONLY)
    assert quoted.unverified_numbers == [] and summary.numbers_verified == summary.numbers == 4
    (unquoted,), _ = attribute("Diversity is 38.4% [1]", [WIN_RATES], None, TERMS_ONLY)
    assert unquoted.unverified_numbers == ["38.4%"], "the same figure, not quoted, is judged by its cell"


def test_a_note_shows_names_without_dot_leaders() -> None:
    ledger = Passage(n=1, document="r.pdf", page=3, tabular=True,
                     text="| | 2009 | 2008 |\n| Interest expense . . . . . . . | 4,094 | — |")
    (wrong,), _ = attribute("Interest expense in 2008 was 4,094 [1].", [ledger], None, TERMS_ONLY)
    assert wrong.number_notes == ["4,094 is in the table under 2009, row Interest expense"]


def test_a_year_a_change_is_said_since_names_no_column_of_its_figures() -> None:
    """The local model wrote 'Total revenues have increased by 14.5% since 2020, from $58,158 million to $66,608
    million': $66,608 million was marked as the 2022 column's, said of 2020."""
    statement = Passage(n=1, document="planes.pdf", page=55, tabular=True,
                        text="| | 2022 | 2021 | 2020 |\n| Total revenues | 66,608 | 62,286 | 58,158 |")
    (since,), _ = attribute("Total revenues have increased since 2020, from $58,158 million to $66,608 million [1].",
                            [statement], None, TERMS_ONLY)
    assert since.unverified_numbers == [], since.number_notes
    (wrong,), _ = attribute("Total revenues were $66,608 million in 2020 [1].", [statement], None, TERMS_ONLY)
    assert wrong.number_notes == ["$66,608 million is in the table under 2022, row Total revenues"]


def test_a_comparison_turned_round_is_unsupported_however_alike_its_words() -> None:
    passage = Passage(n=1, document="paper.pdf", page=7, text=(
        "While both LightRAG and GraphRAG use graph-based retrieval mechanisms, LightRAG consistently outperforms "
        "GraphRAG, particularly in larger datasets with complex language contexts."))
    answer = ("LightRAG consistently outperforms GraphRAG, particularly in larger datasets [1].\n"
              "GraphRAG consistently outperforms LightRAG, particularly in larger datasets [1].")
    lenient = AttributionSettings(support_threshold=0.4)  # no embedder here: the terms alone score 0.49
    right, turned = attribute(answer, [passage], None, lenient)[0]
    assert right.supported and right.notes == []
    assert not turned.supported and turned.cited_supported == [False] and turned.attributed == []
    assert turned.notes == ["the passages say LightRAG does better than GraphRAG, not the other way round"]
    assert "notes" in turned.to_json()
    unchecked = attribute(answer, [passage], None, lenient.model_copy(update={"claims": False}))[0][1]
    assert unchecked.supported and unchecked.notes == [], "the terms alone support it: the claims check decides"


def test_a_statement_of_a_figure_computed_by_code_is_supported_by_its_cells() -> None:
    from rag_core.answer.computed import Computed

    income = Passage(n=1, document="acme.pdf", page=1, tabular=True,
                     text="| | 2018 | 2017 |\n| Net sales | 32,765 | 31,657 |\n| Operating income | 7,207 | 7,820 |")
    computed = [Computed("3.5%", "Net sales", (1,))]
    answer = ("Net sales grew by 3.5% from 2017 to 2018 [1]. Operating income grew by 3.5% in 2018 [1]. "
              "Net sales grew by 9.9% [1].")
    grew, other_row, wrong = attribute(answer, [income], None, TERMS_ONLY, computed=computed)[0]
    assert grew.supported and grew.cited_supported == [True], "the figure code computed from the rows it names"
    assert other_row.unverified_numbers == ["3.5%"] and "computed for Net sales" in other_row.number_notes[0], (
        "the figure computed for one row, stated of another, is marked")
    assert wrong.unverified_numbers == ["9.9%"] and not wrong.supported


def test_the_inputs_of_a_computation_code_wrote_out_are_read_from_their_cells_whatever_rows_its_words_name() -> None:
    from rag_core.answer.computed import Computed

    flows = Passage(n=1, document="acme.pdf", page=52, tabular=True, text=(
        "| | 2022 | 2021 |\n| Dividends paid to shareholders | (3,369) | (3,420) |\n| Other — net | (60) | (20) |"))
    income = Passage(n=2, document="acme.pdf", page=48, tabular=True,
                     text="| | 2022 | 2021 |\n| Net income | 5,777 | 5,921 |")
    computed = [Computed("58.3%", "Dividends paid to shareholders Net income", (1, 2),
                         "3,369 [1] / 5,777 [2] = 58.3%")]
    answer = ("**dividend payout ratio, the share of net income paid out as dividends, 2022: 58.3%**, computed from "
              "the document's figures: 3,369 [1] / 5,777 [2] = 58.3% [1][2]. Other net costs were 3,369 [1].")
    code, other = attribute(answer, [flows, income], None, TERMS_ONLY, computed=computed)[0]
    assert code.unverified_numbers == [] and code.supported, "'net income' and 'Other — net' do not move 3,369"
    assert other.unverified_numbers == ["3,369"], "a sentence that does not write the computation is judged as before"
    formula = "365 × 3,369 [1] / 5,777 [2] = 212.86"
    days = [Computed("212.86", "Dividends paid to shareholders Net income", (1, 2), formula)]
    written = attribute(f"Days: 212.86, computed from the document's figures: {formula} [1][2]. "
                        "A year has 365 days [1].", [flows, income], None, TERMS_ONLY, computed=days)[0]
    assert written[0].unverified_numbers == [] and written[1].unverified_numbers == ["365"], (
        "a constant of the formula code wrote out, not a figure of the passages elsewhere")


def test_where_a_cell_is_names_its_row_alone_when_its_column_has_no_name() -> None:
    """Seen in the app: 'in the table under , row Total stockholders' equity'."""
    assert Cell(None, ("Total stockholders’ equity", "", ""), 0).where() == "row Total stockholders’ equity"
    assert Cell(None, ("Revenue", "Fiscal year", "2012"), 0).where() == "Fiscal year › 2012, row Revenue"


def test_a_lead_with_a_change_and_its_rate_computed_by_code_is_supported_whole() -> None:
    """A change said with its rate beside it ('(up 8.70%)'): both figures code computed from the cells
    are the lead's own, not numbers no passage holds (the app's answer check marked such a lead)."""
    from rag_core.answer.computed import computed_of
    from rag_core.answer.figures import read_figure

    income = Passage(n=1, document="snacks.pdf", page=62, tabular=True, text=(
        "Consolidated Statement of Income (in millions)\n| | 2022 | 2021 |\n| Net Revenue | $86,392 | $79,474 |"))
    for question in ("By how much did Snacks Co's net revenue increase in 2022?",
                     "How much did Snacks Co's net revenue grow in 2022?"):
        figure = read_figure(question, [income])
        assert figure is not None and figure.beside, figure
        lead = attribute(figure.sentence, [income], None, TERMS_ONLY, computed=computed_of(figure))[0]
        assert all(s.supported and not s.unverified_numbers for s in lead), [s.unverified_numbers for s in lead]
        bare = attribute(figure.sentence, [income], None, TERMS_ONLY, computed=computed_of(figure)[:1])[0]
        assert any(s.unverified_numbers for s in bare), "without the figure said beside, the check cannot place it"


def test_a_figure_computed_for_a_line_no_row_names_is_supported_where_it_is_named() -> None:
    """'gross profit, 2012: 101,868 thousand, computed from the document's figures: (126,375 [1] − 24,507 [1])': a
    line the statement does not state, computed from 'Total Revenue' and 'Cost of product revenue'; the lead writes
    the computation out, and the model's sentence names the gross profit, neither row (the app's check marked it
    'computed for Total Revenue and Cost of product revenue')."""
    from rag_core.answer.computed import computed_of
    from rag_core.answer.figures import read_figure

    income = Passage(n=1, document="heart.pdf", page=62, tabular=True, text=(
        "Consolidated Statements of Operations (in thousands)\n| | 2012 | 2011 |\n"
        "| Total Revenue | 126,375 | 101,151 |\n| Cost of product revenue | 24,507 | 21,977 |\n"))
    figure = read_figure("What was Heart Co's gross profit in fiscal 2012?", [income])
    assert figure is not None and figure.value == 101_868_000, figure
    answer = f"{figure.sentence}\n\nHeart Co's gross profit in fiscal 2012 was $101,868 thousand [1]."
    statements = attribute(answer, [income], None, TERMS_ONLY, computed=computed_of(figure))[0]
    assert len(statements) == 2 and all(s.supported and not s.unverified_numbers for s in statements), [
        (s.text, s.supported, s.unverified_numbers) for s in statements]


def test_a_computed_figure_said_of_its_line_by_another_name_reports_give_it_is_supported() -> None:
    """Seen in the app: 'The difference in millions between 3M's capital expenditures from 2021 to 2022 was 146
    million [1] (up 9.11%).' restates the change code computed from 'Purchases of property, plant and equipment
    (PP&E)', a line reports also call capital expenditures; the check had marked both figures 'computed for Purchases
    of property, plant and equipment …, not for what this names' and the sentence unsupported. Said of another line,
    they are still marked."""
    from rag_core.answer.computed import computed_of
    from rag_core.answer.figures import read_figure

    flows = Passage(n=1, document="acme.pdf", page=52, tabular=True, statement="cash_flows", text=(
        "Consolidated Statement of Cash Flows (Millions)\n| | 2022 | 2021 |\n"
        "| Depreciation and amortization | 1,831 | 1,915 |\n"
        "| Purchases of property, plant and equipment (PP&E) | (1,749) | (1,603) |\n"))
    figure = read_figure("What was the difference in millions between Acme's capital expenditures from 2021 to "
                         "2022?", [flows])
    assert figure is not None and figure.shown == "146 million", figure
    answer = (f"{figure.sentence}\n\nThe difference between Acme's capital expenditures from 2021 to 2022 was 146 "
              "million [1] (up 9.11%). Its depreciation and amortization rose 146 million [1].")
    statements = attribute(answer, [flows], None, TERMS_ONLY, computed=computed_of(figure))[0]
    assert statements[1].unverified_numbers == [] and statements[1].supported, statements[1]
    assert statements[2].unverified_numbers == ["146 million"], statements[2]

def test_a_sentence_that_restates_a_computation_in_its_own_words_is_supported() -> None:
    """The local model's 'This figure was computed by dividing $106,925 [1] by $126,375 [1], resulting in a
    percentage of 84.6% [1].' under the lead that computed it: every figure of the computation, so supported, though
    it names neither row; a sentence that gives the result to another line is not."""
    from rag_core.answer.computed import computed_of
    from rag_core.answer.figures import read_figure

    revenue = Passage(n=1, document="heart.pdf", page=46, tabular=True, text=(
        "Our revenues are comprised of the following (in thousands):\n| | 2012 | 2011 |\n"
        "| Impella product revenue | $106,925 | $78,230 |\n| Total revenues | $126,375 | $101,151 |\n"))
    figure = read_figure("What percentage of Heart Co's total revenues came from Impella products in fiscal 2012?",
                         [revenue])
    assert figure is not None and figure.shown == "84.6%", figure
    answer = (f"{figure.sentence}\n\nThis figure was computed by dividing $106,925 [1] by $126,375 [1], resulting in "
              "a percentage of 84.6% [1]. Heart Co's gross margin was 84.6% [1].")
    statements = attribute(answer, [revenue], None, TERMS_ONLY, computed=computed_of(figure))[0]
    restated = next(s for s in statements if s.text.startswith("This figure"))
    assert restated.supported and not restated.unverified_numbers, restated
    other = next(s for s in statements if "gross margin" in s.text)
    assert other.unverified_numbers, other


MERGED = Passage(n=1, document="adi.pdf", page=51, tabular=True, columns="| (thousands) | 2009 2008 |", text=(
    "| LIABILITIES AND SHAREHOLDERS’ EQUITY Current Liabilities Accounts payable . . . . . . . . . . Deferred income "
    "on shipments to distributors. . . . . . . . . Income taxes payable . . . . . . . . . . Current liabilities of "
    "discontinued operations . . . . . . . . | $ 107,334 $ 130,451 149,278 175,358 6,445 52,546 — 18,454 |\n"
    "| Total current liabilities. . . . . . . . . | 386,613 569,058 |"))
"""A balance sheet whose rows a PDF's table finder set into one: the labels in one cell, each row's two years'
figures in turn in another (ADI's 10-K, seen in the app)."""


def test_a_figure_of_rows_a_finder_set_into_one_is_judged_by_its_own_row_and_year() -> None:
    """The local model said income taxes payable fell 'from $130,451 to $6,445': 130,451 is accounts payable's, and
    the check, reading the merged cell as one row named by every label, let it pass."""
    (wrong,), _ = attribute("Income taxes payable fell from $130,451 [1] to $6,445 [1].", [MERGED], None, TERMS_ONLY)
    assert wrong.unverified_numbers == ["$130,451"] and not wrong.supported
    assert "under 2008, row LIABILITIES AND SHAREHOLDERS’ EQUITY Current Liabilities Ac" in wrong.number_notes[0]
    (right,), _ = attribute("Income taxes payable fell from $52,546 [1] to $6,445 [1].", [MERGED], None, TERMS_ONLY)
    assert right.unverified_numbers == []
    (year,), _ = attribute("Current liabilities of discontinued operations were $18,454 in 2009 [1].", [MERGED], None,
                           TERMS_ONLY)
    assert year.number_notes[0].startswith("$18,454 is in the table under 2008"), "a dash holds 2009's place"



TAX_NOTE = Passage(n=1, document="games-10k.pdf", page=115, tabular=True, text=(
    "| | For the Years Ended December 31, | |\n| | 2019 | 2018 |\n"
    "| Income before income tax expense: | | |\n| Domestic | $ 328 | $ 432 |\n| Foreign | 1,305 | 1,445 |\n"
    "| | $ 1,633 | $ 1,877 |\n"
    "| Income tax expense (benefit): | | |\n| Current: | | |\n| Federal | $ 136 | $ (208) |\n"
    "| Foreign | 323 | 280 |\n| Total current | 459 | 72 |\n"
    "| Deferred: | | |\n| Federal | 781 | (153) |\n| Foreign | (1,118) | 19 |\n| Total deferred | (337) | (134) |\n"
    "| Income tax expense | $ 122 | $ (62) |"))
"""An income tax note of lists under lead-ins, the first list's total without a label (Activision Blizzard's 10-K)."""


@pytest.mark.parametrize(("statement", "note"), [
    ("The total current income tax expense in 2019 was $1,633 million [1].",
     "$1,633 million is in the table under For the Years Ended December 31, › 2019, row Income before income tax "
     "expense"),
    ("The current foreign income tax expense for 2019 was $1,118 million [1].",
     "$1,118 million is in the table under For the Years Ended December 31, › 2019, row Deferred — Foreign"),
    ("Foreign income tax expense in 2019 was $1,305 million [1].",
     "$1,305 million is in the table under For the Years Ended December 31, › 2019, row Income before income tax "
     "expense — Foreign"),
])
def test_a_row_under_a_lead_in_is_judged_by_it(statement: str, note: str) -> None:
    """Seen in the app: the local model wrote 'The total current income tax expense in 2017 was $1,151 million', the
    unlabelled total of the income before tax listed above, and the check let it pass: a row without a label had no
    name to judge it by, and 'Foreign' under 'Deferred:' was any 'Foreign'."""
    (wrong,), _ = attribute(statement, [TAX_NOTE], None, TERMS_ONLY)
    assert wrong.number_notes == [note] and not wrong.supported


@pytest.mark.parametrize("statement", [
    "The total current income tax expense in 2019 was $459 million [1].",
    "Income before income tax expense in 2019 was $1,633 million [1].",
    "Pre-tax income from foreign operations was $1,305 million in 2019 [1].",
    "The deferred foreign income tax benefit for 2019 was $1,118 million [1].",
    "The current foreign income tax expense for 2019 was $323 million [1].",
    "Foreign income tax in 2018 was $280 million [1].",  # names no list: any 'Foreign' after tax
    "Income tax expense in 2019 was $122 million [1].",
    "Foreign — 2019: 1,305; 2018: 1,445 [1]",  # the row under its lead-in, as the extractive answer quotes it
])
def test_a_row_read_under_its_lead_in_is_verified(statement: str) -> None:
    (right,), _ = attribute(statement, [TAX_NOTE], None, TERMS_ONLY)
    assert right.unverified_numbers == [] and right.supported


PROVISION = Passage(n=1, document="snacks.pdf", page=83, tabular=True, columns="|  | 2022 | 2021 |",
                    caption="Note 5 — Income Taxes › The provision for income taxes consisted of the following:",
                    text="|  | 2022 | 2021 |\n| Current: |  |  |\n| U.S. Federal | $1,137 | $702 |\n"
                         "| Foreign | 1,027 | 955 |\n| State | 246 | 44 |\n|  | 2,410 | 1,701 |\n"
                         "| Deferred: |  |  |\n| U.S. Federal | 22 | 375 |\n| Foreign | (709) | (14) |\n"
                         "| State | 4 | 80 |\n|  | (683) | 441 |\n|  | $1,727 | $2,142 |")
"""PepsiCo's tax note: two lists and their totals without labels, then the grand total, the provision its title names
as the whole the rows are the parts of."""


@pytest.mark.parametrize("statement", [
    "The total current provision for income taxes in 2022 was $1,727 million [1].",
    "The foreign provision for income taxes was $1,727 million in 2022 [1].",
    "U.S. Federal taxes were $1,727 million in 2022 [1].",
])
def test_a_grand_total_said_of_one_list_or_row_is_misread(statement: str) -> None:
    """Seen in the app: the local model wrote that the total current provision for income taxes was $1,727 million,
    the grand total below both lists, and the check let it pass: a row without a label had no name to judge it by."""
    (wrong,), _ = attribute(statement, [PROVISION], None, TERMS_ONLY)
    assert wrong.number_notes == ["$1,727 million is in the table under 2022, row Provision for income taxes"], wrong
    assert not wrong.supported


@pytest.mark.parametrize("statement", [
    "The provision for income taxes in 2022 was $1,727 million [1].",
    "The total provision for income taxes was $1,727 million in 2022, of which current taxes were $2,410 million "
    "[1].",
    "The current provision for income taxes in 2022 was $2,410 million [1].",
    "The deferred provision for income taxes was a benefit of $683 million in 2022 [1].",
    "Income tax expense in 2022 was $1,727 million [1].",
])
def test_a_grand_total_said_of_the_whole_is_verified(statement: str) -> None:
    (right,), _ = attribute(statement, [PROVISION], None, TERMS_ONLY)
    assert right.unverified_numbers == [] and right.supported, right


def test_a_figure_code_read_from_its_cell_is_supported_where_stated_of_its_row() -> None:
    """A cell read by code, said as its row names it, is supported by its passage however little its words look like
    the table's (an unlabelled list total named 'Total Deferred'); said of another row, it is not."""
    from rag_core.answer.computed import computed_of
    from rag_core.models import CellRead, FigureReading

    taxes = Passage(n=1, document="snacks.pdf", page=83, tabular=True, columns="|  | 2022 | 2021 |",
                    caption="Note 5 — Income Taxes › The provision for income taxes consisted of the following:",
                    text="|  | 2022 | 2021 |\n| Current: |  |  |\n| Foreign | 1,027 | 955 |\n|  | 2,410 | 1,701 |\n"
                         "| Deferred: |  |  |\n| Foreign | (709) | (14) |\n|  | (683) | 441 |\n|  | $1,727 | $2,142 |")
    read = FigureReading(kind="cell", sentence="**Total Deferred, 2022: 683 million** [1]", value=-683e6,
                         shown="683 million", cells=[CellRead(document="snacks.pdf", page=83, passage=1, table=0,
                                                              row="Total Deferred", column="2022", text="(683)",
                                                              value=-683e6, why="")])
    strict = AttributionSettings(support_threshold=0.99)  # no statement is supported by its words alone
    lead, other = attribute("**Total Deferred, 2022: 683 million** [1] (the table writes (683)). Foreign taxes were "
                            "683 million in 2022 [1].", [taxes], None, strict, computed=computed_of(read))[0]
    assert lead.supported and lead.cited_supported == [True], lead
    assert not other.supported, other
    assert not attribute("**Total Deferred, 2022: 683 million** [1].", [taxes], None, strict)[0][0].supported, (
        "without the reading, words alone decide")



def test_a_figure_code_read_said_again_with_another_scale_word_is_marked() -> None:
    """Seen in a batch with the local model: under code's '**Opioid litigation charges, 2022: 5,803 million**' it
    wrote 'Opioid litigation charges in 2022 were $5.8 million', and the check called it the figure code read (5,803
    could be thousands, and the report's '$5.8 billion' has the same digits). An amount said with a scale word is the
    amount code read only in that amount."""
    from rag_core.answer.computed import computed_of
    from rag_core.models import CellRead, FigureReading

    costs = Passage(n=1, document="pharmacy.pdf", page=108, tabular=True, columns="|  | 2022 | 2021 |",
                    text="Operating costs (in millions)\n|  | 2022 | 2021 |\n"
                         "| Opioid litigation charges | 5,803 | 484 |\n"
                         "During 2022, the Company recorded $5.8 billion of opioid litigation charges.")
    read = FigureReading(kind="cell", sentence="**Opioid litigation charges, 2022: 5,803 million** [1]", value=5803e6,
                         shown="5,803 million", cells=[CellRead(document="pharmacy.pdf", page=108, passage=1, table=0,
                                                                row="Opioid litigation charges", column="2022",
                                                                text="5,803", value=5803e6, why="")])
    for said in ("Opioid litigation charges in 2022 were $5.8 billion [1].",
                 "Opioid litigation charges in 2022 were $5,803 million [1]."):
        (right,), _ = attribute(said, [costs], None, TERMS_ONLY, computed=computed_of(read))
        assert right.unverified_numbers == [], right.number_notes
    (wrong,), _ = attribute("Opioid litigation charges in 2022 were $5.8 million [1].", [costs], None, TERMS_ONLY,
                            computed=computed_of(read))
    assert wrong.unverified_numbers == ["$5.8 million"], wrong
    assert wrong.number_notes == ["$5.8 million: the table gives 5,803 in millions (under Opioid litigation charges), "
                                  "which is 5,803 million"], wrong.number_notes


def test_the_table_a_statement_speaks_of_is_the_one_whose_names_cover_most_of_its_words() -> None:
    """'Shares' over a column of an equity statement adds no word to its row 'Share repurchases': the cash flow
    statement's 'Share repurchases - common' names more of the statement, so its cell verifies the figure."""
    cash_flows = Passage(n=1, document="snacks.pdf", page=65, tabular=True, columns="|  | 2022 | 2021 |",
                         text="|  | 2022 | 2021 |\n| Cash dividends paid | (6,172) | (5,815) |\n"
                              "| Share repurchases - common | (1,500) | (106) |")
    equity = Passage(n=2, document="snacks.pdf", page=67, tabular=True,
                     text="|  | 2022 |  |\n|  | Shares | Amount |\n| Share repurchases | (8) | (1,500) |")
    (said,), _ = attribute("Share repurchases - common were 1,500 million in 2022 [1].", [cash_flows, equity], None,
                           TERMS_ONLY)
    assert said.unverified_numbers == [], said.number_notes


PLANES = Passage(n=1, document="planes-10k.pdf", page=57, tabular=True, statement="balance", text=(
    "Consolidated Statements of Financial Position (Dollars in millions)\n| | 2022 | 2021 |\n"
    "| Total current assets | 109,523 | 108,666 |\n| Total current liabilities | 90,052 | 81,992 |\n"
    "| Total revenues | 66,608 | 62,286 |\n| Cost of products | (53,969) | (49,954) |\n"
    "| Cost of services | (9,109) | (9,283) |\n"))


@pytest.mark.parametrize(("question", "statement", "supported"), [
    ("Is Planes Co's current ratio improving?", "Yes, Planes Co's current ratio is improving from 1.33 to 1.22.",
     False),
    ("Is Planes Co's current ratio improving?", "No, Planes Co's current ratio is not improving.", True),
    ("Is Planes Co's current ratio improving?", "Planes Co's current ratio declined in 2022.", True),
    ("Does Planes Co have an improving gross margin profile as of FY2022?",
     "Yes, Planes Co has an improving gross margin profile as of FY2022.", True),
    ("Does Planes Co have an improving gross margin profile as of FY2022?",
     "Planes Co's gross margin fell in 2022.", False),
])
def test_a_figures_course_is_judged_by_the_change_code_computed(question: str, statement: str,
                                                                 supported: bool) -> None:
    """Seen in the app: told the current ratio's change (1.33 to 1.22), the local model wrote "Yes, Boeing's current
    ratio is improving", and the check marked it unsupported with no reason; "Yes, … an improving gross margin profile",
    which the computed change bears out, was marked too (its words alone back nothing)."""
    from rag_core.answer.computed import computed_of
    from rag_core.answer.figures import read_figure

    figure = read_figure(question, [PLANES])
    assert figure is not None and figure.kind == "change", figure
    strict = AttributionSettings(support_threshold=0.99)  # no statement is supported by its words alone
    (said,), _ = attribute(statement, [PLANES], None, strict, computed=computed_of(figure))
    assert said.supported is supported, said
    assert said.unverified_numbers == [], "a ratio's two ends are code's, like the change"
    assert any("went " in note and "not the way this says" in note for note in said.notes) is not supported, said


def test_the_years_a_table_passage_holds_in_its_column_headers_verify_the_years_a_statement_names() -> None:
    """A passage that is a later part of a statement's table keeps its header of years apart (``columns``), not in its
    text: the figure's own line ("Purchases of treasury stock, 2021: 2,199 million") had its year marked as in none of
    the passages, and every statement of the answer unsupported."""
    flows = Passage(n=1, document="tape-10k.pdf", page=52, tabular=True, statement="cash_flows",
                    columns="| (Millions) | 2022 | 2021 | 2020 |", text=(
                        "| Cash Flows from Financing Activities |  |  |  |\n"
                        "| Purchases of treasury stock | (1,464) | (2,199) | (368) |\n"
                        "| Dividends paid to shareholders | (3,369) | (3,420) | (3,388) |\n"))
    found, summary = attribute("**Purchases of treasury stock, 2021: 2,199 million** [1]\n\n"
                               "- Purchases of treasury stock — 2022: (1,464); 2021: (2,199); 2020: (368) [1]",
                               [flows], None, TERMS_ONLY)
    assert [statement.unverified_numbers for statement in found] == [[], []], found
    assert summary.numbers_verified == summary.numbers


RECONCILIATION = Passage(n=1, document="planes-10k.pdf", page=77, tabular=True,
                         caption="Planes 10-K › Note 4 – Income Taxes", columns="|  | 2022 |  | 2021 |  |", text=(
                             "|  | 2022 |  | 2021 |  |\n"
                             "|  | Amount | Rate | Amount | Rate |\n"
                             "| Federal statutory tax | ($1,055) | 21.0 % | ($1,057) | 21.0 % |\n"
                             "| Research and development credits | (204) | 4.1 | (189) | 3.8 |\n"))


def test_a_statement_pointing_back_is_of_the_year_the_one_before_it_names() -> None:
    """Seen with the local model (Boeing's 10-K): "… credits for Boeing in 2021 were -189 million dollars. This credit
    was driven by a 4.1% rate …": 4.1 is 2022's rate, and the second sentence, naming no year, was marked supported."""
    first, wrong, right, general = attribute(
        "Research and development credits for Planes in 2021 were -189 million [1]. This credit was driven by a 4.1% "
        "rate on research and development expenses [1]. It was a rate of 3.8% [1]. Federal statutory tax is 21.0% "
        "of income [1].", [RECONCILIATION], None, TERMS_ONLY)[0]
    assert first.unverified_numbers == [] and right.unverified_numbers == [] and general.unverified_numbers == []
    assert wrong.number_notes == ["4.1% is in the table under 2022 › Rate, row Research and development credits"]
    before = attribute("Research and development credits were -189 million in 2021 and -204 million in 2022 [1]. "
                       "This credit was driven by a 4.1% rate [1].", [RECONCILIATION], None, TERMS_ONLY)[0]
    assert before[1].unverified_numbers == [], "the statement before names two years: none is carried"


def test_a_closing_row_is_named_by_its_balance_without_its_time() -> None:
    """'Allowance, end of year' is the row of 'the allowance for receivables at the end of 2021'; its time is no word
    the statement must say. Before, only 'Other receivables' counted as a row the statement names, and the right cell
    was marked as read from the wrong one. A statement that gives 2021's opening figure as 2022's end is still marked
    (a guard)."""
    note = Passage(n=1, document="drinks.pdf", page=110, tabular=True, columns="|  | 2022 | 2021 |",
                   text="|  | 2022 | 2021 |\n| Accounts and notes receivable |  |  |\n"
                        "| Trade receivables | 8,192 | 7,172 |\n| Other receivables | 2,121 | 1,655 |\n"
                        "| Allowance, beginning of year | 147 | 201 |\n| Deductions | (12) | (25) |\n"
                        "| Allowance, end of year | 150 | 147 |\n| Net receivables | 10,163 | 8,680 |")
    (said,), _ = attribute("The allowance for receivables at the end of 2021 was $147 million [1].", [note], None,
                           TERMS_ONLY)
    assert said.unverified_numbers == [], said.number_notes
    (wrong,), _ = attribute("The allowance for receivables at the end of 2022 was $201 million [1].", [note], None,
                            TERMS_ONLY)
    assert wrong.number_notes, "201 is the allowance at the beginning of 2021, not at the end of 2022"


def test_a_schedules_row_named_by_its_period_is_its_accounts() -> None:
    """A schedule of valuation accounts names each row by its period under the account's heading ('| Fiscal Year
    Ended March 31, 2012 | | $120,721 | $(1,554) | …' under 'Deferred Tax Asset Valuation Allowance'): the row is the
    account's, in that year. Before, the local model's right "the net change in the deferred tax asset valuation
    allowance in fiscal 2012 was a decrease of $1,554 thousand" was marked as read from the row 'Fiscal Year Ended
    March 31, 2012', and so was the figure the code read. A statement of another year's change is still marked (a
    guard)."""
    schedule = Passage(n=1, document="pumps.pdf", page=82, tabular=True,
                       text="| Description | Balance at Beginning of Period | Net Change | Balance at End of Period |\n"
                            "| Deferred Tax Asset Valuation Allowance |  |  |  |\n"
                            "| Fiscal Year Ended March 31, 2011 | $117,047 | $ 3,674 | $120,721 |\n"
                            "| Fiscal Year Ended March 31, 2012 | $120,721 | $(1,554) | $119,167 |")
    (said,), _ = attribute("The net change in the deferred tax asset valuation allowance in fiscal 2012 was a decrease "
                           "of $1,554 thousand [1].", [schedule], None, TERMS_ONLY)
    assert said.unverified_numbers == [], said.number_notes
    (wrong,), _ = attribute("The net change in the deferred tax asset valuation allowance in fiscal 2012 was $3,674 "
                            "thousand [1].", [schedule], None, TERMS_ONLY)
    assert wrong.number_notes, "3,674 is fiscal 2011's change"
