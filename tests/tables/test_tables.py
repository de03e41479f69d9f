"""The table round trip: a PDF table with a two-row header, parsed, labelled cell by cell for the
prompt, and shown as Markdown with the same cells."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from rag_core.answer.prompts import render_passages
from rag_core.ingest.parse import parse_path
from rag_core.models import Passage
from rag_core.settings import IngestSettings
from rag_core.tables.headers import named_per_year
from rag_core.tables.lines import cells
from rag_core.tables.merged import split_cells
from rag_core.tables.placing import signs_joined
from rag_core.tables.rows import (
    column_labels,
    headed_row_labels,
    labelled,
    lead_in_chains,
    markdown,
    row_headings,
    row_labels,
    split_table,
)

ROWS = [
    ["", "Agriculture", "", "Legal", ""],
    ["", "NaiveRAG", "LightRAG", "NaiveRAG", "LightRAG"],
    ["Comprehensiveness", "32.4%", "67.6%", "16.4%", "83.6%"],
    ["Diversity", "23.6%", "76.4%", "13.6%", "86.4%"],
    ["Empowerment", "32.4%", "67.6%", "16.4%", "83.6%"],
    ["Overall", "32.4%", "67.6%", "15.2%", "84.8%"],
]


def two_row_header_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 60), "Table 1: Win rates of LightRAG against NaiveRAG.", fontsize=10)
    widths = [130, 80, 80, 80, 80]
    for r, row in enumerate(ROWS):
        x = 50
        for c, cell in enumerate(row):
            page.draw_rect(pymupdf.Rect(x, 80 + r * 24, x + widths[c], 104 + r * 24), color=(0, 0, 0))
            page.insert_text((x + 3, 96 + r * 24), cell, fontsize=9)
            x += widths[c]
    doc.save(path)
    return path


def test_a_two_row_header_table_round_trips(tmp_path: Path) -> None:
    (page,) = parse_path(two_row_header_pdf(tmp_path / "wins.pdf"), IngestSettings()).pages
    (block,) = page.tables
    text = page.text[block.start : block.end]
    prompt = labelled(text)
    assert (
        "Overall — Agriculture: NaiveRAG 32.4%, LightRAG 67.6%; Legal: NaiveRAG 15.2%, LightRAG 84.8%"
    ) in prompt
    shown = markdown(text).splitlines()
    assert shown[0] == "|  | Agriculture › NaiveRAG | Agriculture › LightRAG | Legal › NaiveRAG | Legal › LightRAG |"
    assert shown[1] == "|---|---|---|---|---|"
    assert shown[2:] == ["| " + " | ".join(row) + " |" for row in ROWS[2:]], "the same cells, in order"
    passage = Passage(n=1, document="wins.pdf", page=1, text=text, tabular=True, table_chunks=(0,))
    assert "Diversity — Agriculture: NaiveRAG 23.6%" in render_passages([passage])


def test_a_later_chunk_takes_its_headers_from_the_repeated_rows() -> None:
    later = "| Overall | 32.4% | 67.6% |"
    assert labelled(later, "| | Agriculture | |\n| | NaiveRAG | LightRAG |") == (
        "Overall — Agriculture: NaiveRAG 32.4%, LightRAG 67.6%"
    )
    assert labelled(later) == later, "no headers known: the rows stay as they are"
    assert column_labels([["", "A", ""], ["", "x", "y"]], 3) == ["", "A › x", "A › y"]
    assert labelled("| | Revenue | | Margin |\n| | 2023 | 2024 | |\n| EMEA | 10 | 12 | 5% |").splitlines()[-1] == (
        "EMEA — Revenue: 2023 10, 2024 12; Margin: 5%"
    ), "cells under one upper header are grouped; a column without one keeps its own label"


def test_a_markdown_source_table_shows_its_rows_without_the_rule() -> None:
    from rag_core.tables.rows import markdown, split_table

    source = "| question | tokens |\n|---|:--:|\n| summary | 2058 |\n| compare | 3778 |"
    headers, rows = split_table(source)
    assert headers == [["question", "tokens"]] and rows == [["summary", "2058"], ["compare", "3778"]]
    assert "| --- | --- |" not in markdown(source).split("\n", 2)[2], "one rule, the rendered one"


def test_a_row_of_names_inside_a_table_starts_a_block_with_its_own_labels() -> None:
    from rag_core.tables.rows import labelled_rows

    text = (
        "| | Agriculture | | CS | |\n"
        "| | NaiveRAG | LightRAG | NaiveRAG | LightRAG |\n"
        "| Overall | 32.4% | 67.6% | 38.8% | 61.2% |\n"
        "| | NaiveRAG | -High | NaiveRAG | -High |\n"
        "| Overall | 35.2% | 64.8% | 44.0% | 56.0% |"
    )
    (first_labels, _), (block_labels, row) = labelled_rows(text)
    assert first_labels[2] == "Agriculture › LightRAG"
    assert block_labels[2] == "Agriculture › -High" and row[2] == "64.8%"
    assert labelled(text).splitlines() == [
        "Overall — Agriculture: NaiveRAG 32.4%, LightRAG 67.6%; CS: NaiveRAG 38.8%, LightRAG 61.2%",
        "Overall — Agriculture: NaiveRAG 35.2%, -High 64.8%; CS: NaiveRAG 44.0%, -High 56.0%",
    ], "the rows of names are said by every row they label, and not shown again"
    words = "| | LightRAG | GraphRAG |\n| Index | entity graph | community graph |\n| Retrieval | two levels | map |"
    assert labelled(words) == words, "a table of words: its rows label nothing and all stay"


def test_columns_the_table_finder_merged_are_split_again() -> None:
    """A PDF table finder that missed a column boundary leaves 'NaiveRAG LightRAG' over
    '40.0% 60.0%': every view reads two columns, each figure under its own name."""
    from rag_core.tables.merged import merged_columns
    from rag_core.tables.rows import labelled_rows

    text = (
        "| | Agriculture | | Mix |\n"
        "| | NaiveRAG | LightRAG | NaiveRAG LightRAG |\n"
        "| Overall | 32.4% | 67.6% | 40.0% 60.0% |\n"
        "| | NaiveRAG | -High | NaiveRAG -High |\n"
        "| Overall | 35.2% | 64.8% | 42.4% 57.6% |"
    )
    assert labelled(text).splitlines()[-1] == (
        "Overall — Agriculture: NaiveRAG 35.2%, -High 64.8%; Mix: NaiveRAG 42.4%, -High 57.6%"
    )
    assert markdown(text).splitlines()[0] == (
        "|  | Agriculture › NaiveRAG | Agriculture › LightRAG | Mix › NaiveRAG | Mix › LightRAG |"
    )
    (labels, row), _ = labelled_rows(text)
    assert labels[4] == "Mix › LightRAG" and row[4] == "60.0%"
    # one figure with its unit, or a name of two words over single figures, is not a merged column
    assert merged_columns([["", "Net income"], ["2023", "1,234"], ["2024", "1,300"]]) == {}
    assert merged_columns([["", "Sales"], ["EMEA", "$ 12"], ["APAC", "$ 15"]]) == {}
    assert merged_columns([["", "2009 2008"], ["Sales", "100 90"], ["Costs", "(40) (35)"]]) == {1: 2}


def test_merged_columns_whose_names_were_set_line_by_line_in_one_cell_are_split_under_those_names() -> None:
    """Goldman Sachs' RSU activity: the finder merged the fair value's two columns, their figures ('147.25 145.97')
    and their names, whose lines it set in one cell ('Future No Future Service Service Required Required'), under a
    title of many words. Nothing was split, and the fair value of the units with no future service required was read
    as '147.25 145.97'."""
    from rag_core.tables.merged import merged_columns
    from rag_core.tables.rows import labelled_rows

    text = ("|  | Restricted Stock Units Outstanding |  | Weighted Average Grant-Date Fair Value |\n"
            "|  | Future Service Required | No Future Service Required | Future No Future Service Service Required "
            "Required |\n| Outstanding, |  |  |  |\n| December 2015 | 5,649,156 | 22,082,601 | $159.82 $148.00 |\n"
            "| Granted | 4,452,358 | 11,071,140 | 138.48 134.90 |\n| Delivered | — | (14,541,074) | — 142.85 |")
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()]
    assert merged_columns(rows) == {3: 2}
    read = {row[0]: dict(zip(labels, row, strict=False)) for labels, row in labelled_rows(text)}
    assert read["Granted"]["Weighted Average Grant-Date Fair Value › No Future Service Required"] == "134.90", read
    assert read["Delivered"]["Weighted Average Grant-Date Fair Value › Future Service Required"] == "—", read
    assert read["Granted"]["Restricted Stock Units Outstanding › No Future Service Required"] == "11,071,140", read
    # a guard: a long name over figures in pairs, with no row naming the parts, is not split
    assert merged_columns([["", "Fair Value of Units Granted"], ["A", "1.5 2.5"], ["B", "3.5 4.5"]]) == {}


def test_merged_year_columns_under_a_title_are_split_with_their_signs() -> None:
    """A cash flow statement whose finder merged two years' columns: '$ 7,398 $ 6,083' is two figures, each with
    its sign, under '2016 2015'; the title above ('Year Ended December') stays whole and names no year."""
    from rag_core.tables.merged import merged_columns
    from rag_core.tables.rows import labelled_rows

    text = ("|  | Year Ended December |  |\n"
            "| $ in millions | 2016 2015 | 2014 |\n"
            "| Net earnings | $ 7,398 $ 6,083 | $ 8,477 |\n"
            "| Cash settlement of share-based awards | — (2) | (1) |\n"
            "| Dividends paid | (1,706) (1,681) | (1,454) |")
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()]
    assert merged_columns(rows) == {1: 2}
    read = {row[0]: dict(zip(labels, row, strict=False)) for labels, row in labelled_rows(text)}
    assert read["Dividends paid"]["Year Ended December › 2016"] == "(1,706)", read
    assert read["Dividends paid"]["Year Ended December › 2015"] == "(1,681)", read
    assert read["Net earnings"]["Year Ended December › 2014"] == "$ 8,477", read
    assert read["Cash settlement of share-based awards"]["Year Ended December › 2016"] == "—"
    assert labelled(text).splitlines()[-1] == (
        "Dividends paid — Year Ended December: 2016 (1,706), 2015 (1,681), 2014 (1,454)")
    # a title is not split into words even when it has as many as the parts, nor is a name of fewer words
    titled = [["", "Year Ended December", ""], ["", "2016 2015 2014", ""], ["Sales", "$ 1 $ 2 $ 3", "4"],
              ["Costs", "5 6 7", "8"]]
    assert merged_columns(titled) == {1: 3}
    assert split_cells(titled[0], {1: 3})[:4] == ["", "Year Ended December", "", ""]
    assert merged_columns([["", "Net Sales"], ["A", "$ 1 $ 2 $ 3"], ["B", "4 5 6"]]) == {}
    # a row whose figures alone were merged, the cells after it left empty: spread over them
    capital = ("|  | As of December |  |\n| $ in millions | 2016 | 2015 |\n| Tier 2 capital | 14,560 | 15,113 |\n"
               "| Total capital | $ 96,368 $ 94,573 |  |\n| Range of years | 15 - 44 |  |")
    lines = labelled(capital).splitlines()
    assert lines[1] == "Total capital — As of December: 2016 $96,368, 2015 $94,573", lines
    assert lines[2] == "Range of years — As of December: 2016 15 - 44", lines


def test_a_passage_of_two_tables_labels_each_under_its_own_header() -> None:
    """A page's chunks joined into one passage (Activision's tax note): a table whose finder set its cells askew, a
    sentence, then the rate reconciliation with a header of its own. Each table is read under its own header (the
    second's, askew over paired amounts and rates, leaves it as it is); read as one, the prompt showed both raw."""
    text = ("Income taxes are as follows (amounts in millions):\n"
            "|  |  | For | the Years Ended December 31, |  |  |\n|  | 2019 |  | 2018 |  | 2017 |\n"
            "| Current: |  |  |  |  |  |\n| Federal | $ | 136 | $(208) | $ | 696 |\n"
            "| Total current |  | 483 | 57 |  | 1,057 |\n"
            "The items accounting for the difference are as follows:\n"
            "|  |  |  | For the Years | Ended December 31, |  |  |\n|  | 2019 |  |  | 2018 | 2017 |  |\n"
            "| Federal income tax provision at statutory rate | $343 | 21 % | $394 | 21 % | $403 | 35 % |\n"
            "| Other | (20) | (1) | 10 | 1 | (10) | — |\n")
    lines = labelled(text).splitlines()
    assert "Total current — For the Years Ended December 31,: 2019 483, 2018 57, 2017 1,057" in lines, lines
    assert "The items accounting for the difference are as follows:" in lines
    assert not any(line.startswith("Other — For the Years Ended December 31,: 2019 (20), 2018 (1)") for line in lines)


def test_names_the_finder_put_in_one_cell_are_spread_over_their_columns() -> None:
    """The LightRAG paper's Table 1 as the finder reads it: the last pair of names in one cell with
    an empty one after it, 'Mix' over the second of them; the figures are in columns of their own.
    Each figure is read under its own name and the right dataset, in every block."""
    text = ("| | Agriculture | | Legal | | | Mix |\n"
            "| | NaiveRAG | LightRAG | NaiveRAG | LightRAG | NaiveRAG LightRAG | |\n"
            "| Overall | 32.4% | 67.6% | 15.2% | 84.8% | 40.0% | 60.0% |\n"
            "| | GraphRAG | LightRAG | GraphRAG | LightRAG | GraphRAG LightRAG | |\n"
            "| Overall | 45.2% | 54.8% | 47.2% | 52.8% | 50.4% | 49.6% |")
    assert labelled(text).splitlines() == [
        "Overall — Agriculture: NaiveRAG 32.4%, LightRAG 67.6%; Legal: NaiveRAG 15.2%, LightRAG 84.8%; "
        "Mix: NaiveRAG 40.0%, LightRAG 60.0%",
        "Overall — Agriculture: GraphRAG 45.2%, LightRAG 54.8%; Legal: GraphRAG 47.2%, LightRAG 52.8%; "
        "Mix: GraphRAG 50.4%, LightRAG 49.6%",
    ]
    words = "| | Name | Role |\n| A | Ann Lee | |\n| B | Bo Chan | |"
    assert [r for part in split_table(words) for r in part][-1] == ["B", "Bo Chan", ""], "no figures: names stay"


BLOCKS = (
    "| | Agriculture | | CS | |\n"
    "| | NaiveRAG | LightRAG | NaiveRAG | LightRAG |\n"
    "| Diversity | 23.6% | 76.4% | 38.0% | 62.0% |\n"
    "| Overall | 32.4% | 67.6% | 38.8% | 61.2% |\n"
    "| | NaiveRAG | -High | NaiveRAG | -High |\n"
    "| Diversity | 27.2% | 72.8% | 36.8% | 63.2% |\n"
    "| Overall | 35.2% | 64.8% | 44.0% | 56.0% |\n"
    "| | NaiveRAG | -Low | NaiveRAG | -Low |\n"
    "| Diversity | 28.0% | 72.0% | 39.6% | 60.4% |\n"
    "| Overall | 34.8% | 65.2% | 43.6% | 56.4% |"
)
"""A results table of blocks, each variant's rows under its own row of names, each ending in 'Overall'."""


def test_a_table_is_cut_in_its_details_first_and_a_block_leaves_with_its_names() -> None:
    from rag_core.tables.cuts import cut_order

    order, blocks = cut_order(BLOCKS)
    assert order == [8, 5, 2, 9, 6, 3], "details from the last up, then the Overall lines; never the header rows"
    assert blocks == {4: [5, 6], 7: [8, 9]}, "a row of names inside the table, with the rows it labels"
    asked, _ = cut_order(BLOCKS, question="How diverse are the answers of each variant?")
    assert asked == [9, 6, 3, 8, 5, 2], "the rows the question names are left out last"
    statement = ("| | 2023 | 2022 |\n| Revenue | 10 | 9 |\n| Costs | 6 | 5 |\n| Total expenses | 7 | 6 |\n"
                 "| Net | 3 | 3 |")
    assert cut_order(statement) == ([4, 2, 1, 3], {}), "a total is left out last"


def test_a_comparison_keeps_the_block_of_its_sides_longest() -> None:
    """'compare LightRAG with GraphRAG': every block has a LightRAG column, only the last a GraphRAG
    one; its rows leave after the other blocks' details and totals. The question alone asks for
    no block (an ablation question names LightRAG, whose block is one of several it wants)."""
    from rag_core.tables.cuts import cut_order

    baselines = "".join(
        f"| | {name} | LightRAG | {name} | LightRAG |\n| Diversity | 2{b}.6% | 7{b}.4% | 3{b}.0% | 6{b}.0% |\n"
        f"| Overall | 3{b}.4% | 6{b}.6% | 3{b}.8% | 6{b}.2% |\n"
        for b, name in enumerate(["NaiveRAG", "HyDE", "GraphRAG"]))
    table = "| | Agriculture | | CS | |\n" + baselines
    order, _ = cut_order(table, sides=["LightRAG", "GraphRAG"])
    assert order == [5, 2, 6, 3, 8, 9], "other details, other totals, then the side's block"
    assert cut_order(table, question="compare LightRAG with GraphRAG")[0] == [8, 5, 2, 9, 6, 3]
    assert cut_order(table, sides=["LightRAG", "RQ-RAG"])[0] == [8, 5, 2, 9, 6, 3], "no block of that side"


def test_the_lines_that_answer_are_those_the_question_names_else_each_blocks_summary() -> None:
    from rag_core.tables.cuts import answering_labels

    results = "Table 2: Performance of ablated versions of LightRAG.\n" + BLOCKS
    assert answering_labels(results, "Performance of ablated versions of LightRAG") == ["Overall"]
    assert answering_labels(results, "What is the main idea of LightRAG?") == [], "a question not about the table"
    assert answering_labels(BLOCKS, "How diverse are the answers of each variant?") == ["Diversity"]
    statement = "| | 2023 | 2022 |\n| Net income | 10 | 9 |\n| Total assets | 60 | 50 |\n| Total | 7 | 6 |"
    assert answering_labels(statement, "What was the net income in 2023?") == ["Net income"]
    assert answering_labels(statement, "What was the capital expenditure?") == [], "one total answers nothing asked"
    assert answering_labels(statement, "What is the total?") == [], "'Total' alone names no line"


def test_a_row_named_only_where_the_figure_is_answers_when_its_table_is_of_what_is_asked() -> None:
    """'How many of 3M's employees worked in the United States': an income table's 'United States' row is where the
    income was earned, not the employees (the local model read its $3,861 million as 3,861 employees); a table of
    employees by area, or one whose caption says what is asked, answers with that row."""
    from rag_core.tables.cuts import answering_labels

    rows = "| United States | $3,861 | $3,716 |\n| International | 2,531 | 3,488 |\n| Total | $6,392 | $7,204 |"
    income = "Income Before Income Taxes\n(Millions) 2022 2021\n" + rows
    employees = "Employees as of December 31\n| | 2022 | 2021 |\n" + rows
    asked = "How many of 3M's employees worked in the United States at the end of 2022?"
    assert answering_labels(income, asked) == []
    assert answering_labels(employees, asked) == ["United States"]
    assert answering_labels(income, "What was 3M's income before income taxes in the United States?") == [
        "United States"]
    assert answering_labels(rows, "How much operating income came from the United States?") == []
    assert answering_labels(rows, "How much operating income came from the United States?",
                            caption="Operating income by geographic area") == ["United States"]
    assert answering_labels(income, "What share of the total came from the United States?") == ["United States"], (
        "nothing before the phrase names a figure")
    sheet = "Consolidated Balance Sheets\n| | 2022 | 2021 |\n| Assets held for sale | 908 | — |"
    assert answering_labels(sheet, "What loss did CVS Health record on assets held for sale in 2022?") == []
    assert answering_labels(sheet, "How much did CVS Health hold in assets held for sale in 2022?") == [
        "Assets held for sale"]


def test_a_rows_label_is_its_first_cell_when_the_row_states_a_figure() -> None:
    text = ("TABLE 1: SUMMARY OF FINANCIAL PERFORMANCE\n"
            "| | 2022 | 2021 |\n|---|---|---|\n"
            "| Selected Metrics and Ratios | | |\n"
            "| Effective tax rate | 21.6 % | 24.6 % |\n"
            "| Net income (a) | $7,514 | $8,060 |\n"
            "| | 12 | 13 |\n")
    assert row_labels(text) == ["Effective tax rate", "Net income (a)"], "a heading row and an unlabelled row name none"
    assert row_labels("Prose with no table, 21.6 percent.") == []


def test_a_row_a_finder_set_askew_is_labelled_by_its_figures_in_order() -> None:
    """A summary table's rows carry a '%' or '$' in cells of their own and blanks between their figures, so by
    position '10.3' is 2022's and '%' 2021's. Labelled by their figures in order: each column its own, a ratio's
    row the years alone, a change column its amount and its rate; a row as long as its header stays by position."""
    columns = "| (Millions) | 2022 | 2021 | 2020 | 2022 vs. 2021 | 2021 vs. 2020 |"
    text = ("| Common Equity Tier 1 | 10.3 | % | 10.5 | % | 13.5 | % |  |  |  |  |\n"
            "| Total revenues | $52,862 |  | $42,380 |  | $36,087 | $10,482 | 25% | $6,293 |  | 17% |\n"
            "| Card Member loans | 107,964 | | 88,562 | 73,373 | | |")
    assert labelled(text, columns).splitlines() == [
        "Common Equity Tier 1 — 2022: 10.3%; 2021: 10.5%; 2020: 13.5%",
        "Total revenues — 2022: $52,862; 2021: $42,380; 2020: $36,087; 2022 vs. 2021: $10,482 25%; "
        "2021 vs. 2020: $6,293 17%",
        "Card Member loans — 2022: 107,964; 2021: 88,562; 2020: 73,373",
    ]
    margin = "|  | 2022 | 2021 | Change |\n| Operating margin | 13.3 | % | 14.0 | % | (0.7) |\n| Cash | 5 | | 7 |"
    assert labelled(margin).splitlines() == ["Operating margin — 2022: 13.3%; 2021: 14.0%; Change: (0.7)",
                                             "Cash — 2022: 5; Change: 7"]


def test_a_row_a_finder_set_askew_is_shown_under_the_columns_of_its_figures() -> None:
    """The table under an answer shows an askew row as the prompt labels it: '10.3%' under 2022 and '10.5%' under
    2021, not '%' under 2021 and the row running past its header; a row as long as its header is shown as it is."""
    columns = "| (Millions) | 2022 | 2021 | 2020 | 2022 vs. 2021 | 2021 vs. 2020 |"
    text = ("| Common Equity Tier 1 | 10.3 | % | 10.5 | % | 13.5 | % |  |  |  |  |\n"
            "| Total revenues | $52,862 |  | $42,380 |  | $36,087 | $10,482 | 25% | $6,293 |  | 17% |\n"
            "| Card Member loans | 107,964 | 88,562 | 73,373 | 19,402 | 15,189 |")
    assert markdown(text, columns).splitlines() == [
        "| (Millions) | 2022 | 2021 | 2020 | 2022 vs. 2021 | 2021 vs. 2020 |",
        "|---|---|---|---|---|---|",
        "| Common Equity Tier 1 | 10.3% | 10.5% | 13.5% |  |  |",
        "| Total revenues | $52,862 | $42,380 | $36,087 | $10,482 25% | $6,293 17% |",
        "| Card Member loans | 107,964 | 88,562 | 73,373 | 19,402 | 15,189 |",
    ]


def test_a_header_whose_numbers_are_names_labels_a_table_that_reads_cleanly_under_it() -> None:
    """'March 31,' and '1st Quarter' hold numbers that are names, not figures: such a header names the columns of a
    table whose rows hold one figure a named column; a title a finder spread over cells, ending in its date, spans
    them all. A row a finder set askew, its figures one a named column in order, reads under the header; a row of
    more figures than the header names stays as it is, and a row of words under the header is no row of figures."""
    quarters = ("|  |  | Fiscal Years Ended |  | March 31, |  |\n"
                "|  | 1st Quarter | 2nd Quarter | 3rd Quarter | 4th Quarter | Total Year |\n"
                "|  |  | (in $000’s) |  |  |  |\n"
                "| Total revenues | $27,355 | $29,478 | $32,198 | $37,344 | $126,375 |\n"
                "| Net income (loss) | $ (4,594) | $ 601 | $ 2,921 | $ 2,567 | $ 1,495 |")
    assert labelled(quarters).splitlines() == [
        "|  |  | (in $000’s) |  |  |  |",
        "Total revenues — Fiscal Years Ended March 31,: 1st Quarter $27,355, 2nd Quarter $29,478, 3rd Quarter $32,198, "
        "4th Quarter $37,344, Total Year $126,375",
        "Net income (loss) — Fiscal Years Ended March 31,: 1st Quarter $ (4,594), 2nd Quarter $ 601, "
        "3rd Quarter $ 2,921, 4th Quarter $ 2,567, Total Year $ 1,495"]
    askew = ("|  |  | Year ended December 31, |  |  |  |\n"
             "| (Millions) | 2022 |  | 2021 | 2020 |  |\n"
             "| Amortization expense | $ | 498 | $529 | $ | 537 |")
    assert labelled(askew) == "Amortization expense — Year ended December 31,: 2022 $498, 2021 $529, 2020 $537"
    unnamed = askew + " 38 |"
    assert labelled(unnamed) == unnamed


def test_a_header_of_dates_labels_a_balance_sheet_and_a_split_title_its_askew_rows() -> None:
    """'At December 31, 2019' names a balance sheet's column; an income statement's title a finder split over cells
    ('For | the | Years Ended December | 31,') spans its years, and a row it set askew ('| $ | 1,975 | $2,255 | | $ |
    2,110 |') gives its figures to the years in order, as the figure reader does."""
    sheet = ("|  | At December 31, 2019 | At December 31, 2018 |\n| Assets |  |  |\n"
             "| Cash and cash equivalents | $5,794 | $4,225 |")
    assert labelled(sheet).splitlines() == [
        "Assets", "Cash and cash equivalents — At December 31, 2019: $5,794; At December 31, 2018: $4,225"]
    statement = ("|  |  | For | the | Years Ended December | 31, |  |\n|  | 2019 |  |  | 2018 | 2017 |  |\n"
                 "| Product sales | $ | 1,975 | $2,255 |  | $ | 2,110 |\n"
                 "| Total net revenues |  | 6,489 |  | 7,500 |  | 7,017 |")
    assert labelled(statement).splitlines() == [
        "Product sales — For the Years Ended December 31,: 2019 $1,975, 2018 $2,255, 2017 $2,110",
        "Total net revenues — For the Years Ended December 31,: 2019 6,489, 2018 7,500, 2017 7,017"]
    title = "For the Years Ended December 31, › "
    assert markdown(statement).splitlines() == [
        f"|  | {title}2019 | {title}2018 | {title}2017 |", "|---|---|---|---|",
        "| Product sales | $1,975 | $2,255 | $2,110 |", "| Total net revenues | 6,489 | 7,500 | 7,017 |"]


def test_periods_under_a_header_of_names_are_its_second_row_and_a_title_alone_names_no_column() -> None:
    """'December 31, 2022 | December 31, 2021' under each of two names right below a one-row header is a second
    header row (it does not replace the names); a title ending in its date over a row of words labels nothing; an
    upper name spans no column past the names below it ('International' over 2022 and 2021, not the blank after
    them, so a row set askew reads in order)."""
    rates = ("|  | U.S. Unemployment Rate |  | U.S. GDP Growth |  |\n"
             "|  | December 31, 2022 | December 31, 2021 | December 31, 2022 | December 31, 2021 |\n"
             "| Fourth quarter of 2022 | 4% | 4% - 9% | (0.1)% | 2% -1% |")
    assert labelled(rates) == ("Fourth quarter of 2022 — U.S. Unemployment Rate: December 31, 2022 4%, December 31, "
                               "2021 4% - 9%; U.S. GDP Growth: December 31, 2022 (0.1)%, December 31, 2021 2% -1%")
    maturity = ("|  |  | By remaining | maturity as of December 31, 2022 |  |\n"
                "| (Millions) | 3 months or less | Over 3 months | Over 12 months | Total |\n"
                "| U.S. (a) | $ | 45 | $56 | $ | 448 |")
    assert labelled(maturity) == maturity
    plans = ("|  | U.S. |  | International |  |  |\n|  | 2022 | 2021 | 2022 | 2021 |  |\n"
             "| Service cost | 487 | 518 | 64 |  | 104 |")
    assert labelled(plans) == "Service cost — U.S.: 2022 487, 2021 518; International: 2022 64, 2021 104"
    # a date split over cells among other names ('December 31,' with its year in the next cell, then a change's
    # title) is a finder's garble: rows set askew under it stay as they are
    bookings = ("|  | For the Year Ended |  | December 31, | 2019 | Increase / (decrease) | 2019 v | 2018 |\n"
                "|  | Activision | Blizzard | King | Activision | Blizzard |  | King |\n"
                "| Segment operating income | $850 | $464 | $740 | $(161) | $(221) | $ | (10) |")
    assert labelled(bookings) == bookings


def test_a_dated_title_spans_the_names_below_it_and_a_header_of_dates_needs_rows_that_fit_it() -> None:
    """'December 31, 2019' over a debt table's names spans those names, not the blank column after them, so a row a
    finder set askew ('| $ | 648 |') reads in order; a header its dates made (a title over years and a column of
    words, 'Statement of Operations Classification') is taken only over rows that read cleanly under it."""
    debt = ("|  |  | December 31, 2019 |  |  |\n"
            "|  | Gross Carrying Amount | Unamortized Discount | Net Carrying Amount |  |\n"
            "| 2021 Notes | $650 | $(2) | $ | 648 |")
    assert labelled(debt) == ("2021 Notes — December 31, 2019: Gross Carrying Amount $650, Unamortized Discount $(2), "
                              "Net Carrying Amount $648")
    hedges = ("|  |  | For | the | Years Ended December 31, |  |  |\n"
              "|  | 2019 |  |  | 2018 | 2017 | Statement of Operations Classification |\n"
              "| Cash Flow Hedges | $ | 39 | $7 | $ | (1) | Net revenues |")
    assert labelled(hedges) == hedges


def test_names_set_over_the_middle_of_their_columns_label_the_columns_nearest_them() -> None:
    """A segment table's 'Net Revenue' sits over 2021 of 2022-2021-2020 and 'Operating Profit' over its 2022: each
    column is under the nearest name (the left one when two are as near), and neither name is split into words."""
    text = ("|  |  | Net Revenue |  | Operating Profit/(Loss) |  |  |  |\n"
            "|  | 2022 | 2021 | 2020 | 2022 (a) | 2021 |  | 2020 |\n"
            "| QFNA | 3,160 | 2,751 | 2,742 | 604 | 578 |  | 669 |")
    assert labelled(text) == ("QFNA — Net Revenue: 2022 3,160, 2021 2,751, 2020 2,742; Operating Profit/(Loss): "
                              "2022 (a) 604, 2021 578, 2020 669")


def test_a_row_whose_label_holds_a_note_in_parentheses_is_named_by_its_words() -> None:
    """'Net income (loss)' answers "net income in the third quarter": not the block's repeated 'Total revenues'."""
    from rag_core.tables.cuts import answering_labels
    quarters = ("|  | 1st Quarter | 2nd Quarter | 3rd Quarter | 4th Quarter |\n"
                "| Fiscal Year 2012 |  |  |  |  |\n"
                "| Total revenues | $27,355 | $29,478 | $32,198 | $37,344 |\n"
                "| Net income (loss) | $ (4,594) | $ 601 | $ 2,921 | $ 2,567 |\n"
                "| Fiscal Year 2011 |  |  |  |  |\n"
                "| Total revenues | $22,002 | $23,376 | $27,244 | $28,529 |\n")
    assert answering_labels(quarters, "What was ABIOMED's net income in the third quarter of fiscal 2012?") == [
        "Net income (loss)"]


def test_a_segment_tables_blocks_are_each_of_the_year_their_title_names() -> None:
    """A title of one period over the segments' names ('Year Ended December 31, 2019' over 'Arcade | Puzzle |
    …') is the header; the next block's title replaces it, so its rows are of its own year."""
    text = ("|  |  | Year Ended December 31, 2019 |  |  |\n"
            "|  | Arcade | Puzzle | Crown | Total |\n"
            "| Segment net revenues | $2,219 | $1,719 | $ 2,031 | $5,969 |\n"
            "|  | For the Year Ended |  | December 31, | 2018 |\n"
            "|  | Arcade | Puzzle | Crown | Total |\n"
            "| Segment net revenues | $2,458 | $2,291 | $ 2,086 | $6,835 |\n")
    assert labelled(text).splitlines() == [
        "Segment net revenues — Year Ended December 31, 2019: Arcade $2,219, Puzzle $1,719, Crown $ 2,031, "
        "Total $5,969",
        "Segment net revenues — For the Year Ended December 31, 2018: Arcade $2,458, Puzzle $2,291, Crown $ 2,086, "
        "Total $6,835"]


def test_a_currency_sign_before_a_dash_is_no_figure_and_a_lead_in_heads_its_rows() -> None:
    """'| Interest | $ 2,502 | $ | — | $ | — |': the finder set each sign in a cell of its own; the dashes state no
    figure, so the row is one figure a year, read by its years; its lead-in ('Cash paid during the fiscal year for:')
    is what the row list reads its label with."""
    assert signs_joined(["$ 2,502", "$", "—", "$", "—"]) == ["$2,502", "—", "—"]
    text = ("|  | 2009 |  | 2008 |  | 2007 |\n"
            "| Cash paid during the fiscal year for: |  |  |  |  |  |\n"
            "| Income taxes | $60,609 | $201,974 |  | $102,349 |  |\n"
            "| Interest | $ 2,502 | $ | — | $ | — |\n"
            "| Total | $63,111 | $201,974 |  | $102,349 |  |\n")
    assert headed_row_labels(text) == [("Cash paid during the fiscal year for:", "Income taxes"),
                                       ("Cash paid during the fiscal year for:", "Interest"),
                                       ("Cash paid during the fiscal year for:", "Total")]


def test_lead_ins_open_lists_inside_lists_and_totals_and_headings_close_them() -> None:
    """One reading of lead-ins for the row list, the figure reader and the answer check: a row after 'Total current'
    stands under the outer lead-in only, and a heading without a colon closes every list above it."""
    rows = [cells(line) for line in (
        "| Income tax expense (benefit): |  |  |", "| Current: |  |  |", "| Federal | $136 | $(208) |",
        "| Total current | 459 | 72 |", "| Change in valuation allowance | 95 | 12 |", "| Deferred: |  |  |",
        "| Foreign | (1,118) | 19 |", "|  | (337) | (134) |", "| Other | 4 | 5 |", "| Liabilities: |  |  |",
        "| Accrued | 7 | 8 |", "| Other liabilities |  |  |", "| Leases | 9 | 10 |")]
    assert lead_in_chains(rows) == [
        (), (), ("Current", "Income tax expense (benefit)"), ("Current", "Income tax expense (benefit)"),
        ("Income tax expense (benefit)",), (), ("Deferred", "Income tax expense (benefit)"),
        ("Deferred", "Income tax expense (benefit)"), (), (), ("Liabilities",), (), ()]
    text = "\n".join(f"| {' | '.join(row)} |" for row in rows)
    assert ("", "Other") in headed_row_labels(text) and ("", "Leases") in headed_row_labels(text)


def test_a_sections_total_closes_a_list_without_a_total_and_is_in_none() -> None:
    """PepsiCo's cash flow statement: 'Net Cash Provided by Operating Activities' read as an item of 'Change in assets
    and liabilities:', and every row of the statement's end (its cash at the end of the year) as one of 'Short-term
    borrowings, by original maturity:'."""
    rows = [cells(line) for line in (
        "| Change in assets and liabilities: |  |  |", "| Inventories | (1,142) | (582) |", "| Other, net | 5 | 6 |",
        "| Net Cash Provided by Operating Activities | 10,811 | 11,616 |",
        "| Short-term borrowings, by original maturity: |  |  |", "| Three months or less, net | 24 | (58) |",
        "| Net Cash Used for Financing Activities | (3,812) | (5,155) |",
        "| Net (Decrease)/Increase in Cash and Cash Equivalents | (1,234) | 1,176 |",
        "| Cash, End of Year | 5,100 | 6,334 |")]
    assert lead_in_chains(rows) == [
        (), ("Change in assets and liabilities",), ("Change in assets and liabilities",), (), (),
        ("Short-term borrowings, by original maturity",), (), (), ()]


def test_names_a_caption_repeats_once_a_year_are_the_tables_second_header_row() -> None:
    """A store written before the chunker set them as a header row keeps 'Amount Rate Amount Rate' in the caption: the
    table under an answer names each year's columns (``headers.named_per_year``), rows that fit them only."""
    header = "Planes 10-K › Reconciliation › Amount Rate Amount Rate\n|  | 2022 | 2021 |"
    rows = "| Income tax expense/(benefit) | $31 | (0.6)% | ($743) | 14.7% |"
    assert named_per_year(header, rows) == "|  | 2022 |  | 2021 |  |\n|  | Amount | Rate | Amount | Rate |"
    assert markdown(rows, named_per_year(header, rows)).splitlines()[0] == (
        "|  | 2022 › Amount | 2022 › Rate | 2021 › Amount | 2021 › Rate |")
    assert named_per_year(header, "| Widgets | 1 | 2 |") == "|  | 2022 | 2021 |"  # two figures a row: no such columns
    assert named_per_year("Doc › Amount Rate Amount Rate\n| Item | Q1 | Q2 |", rows) == "| Item | Q1 | Q2 |"


def test_the_heading_a_row_stands_under_is_a_label_alone_without_a_colon_until_a_total() -> None:
    """'| Expenses | | |' heads 'Marketing' and 'Total expenses' and no row after that total; a lead-in with a colon
    is a lead-in (``headed_row_labels``), no heading."""
    text = ("| | 2022 | 2021 |\n| Revenues | | |\n| Discount revenue | 3,070 | 2,456 |\n| Expenses | | |\n"
            "| Marketing | 310 | 284 |\n| Total expenses | 1,080 | 1,022 |\n| Pretax income | 990 | 800 |\n"
            "| Cash paid for: | | |\n| Interest | 41 | 39 |\n")
    assert row_headings(text) == ["Revenues", "Expenses", "Expenses", "", ""]
    assert [label for _, label in headed_row_labels(text)] == ["Discount revenue", "Marketing", "Total expenses",
                                                               "Pretax income", "Interest"]


def test_a_header_of_years_narrower_than_its_rows_names_the_columns_of_figures() -> None:
    """The line of years above a note's table, kept as the chunk's header '| | 2022 | 2021 | 2020 |', over rows with
    a column of useful lives before the years. Before, the header named the first columns: the receivables of 2022
    were labelled 2021's, for the prompt and the answer's reader alike; a row of one name inside the table ('Average
    Useful Life (Years)') then took the years' place for the rows below it. The table shown under an answer had the
    same header over the first columns: the user read $8,192 under 2021."""
    columns = "|  | 2022 | 2021 | 2020 |"
    text = ("| Trade receivables |  | $8,192 | $7,172 |  |\n| Allowance, end of year |  | 150 | 147 | $201 |\n"
            "| Property, plant and equipment, net | Average Useful Life (Years) |  |  |  |\n"
            "| Land |  | $1,142 | $1,123 |  |\n| Buildings and improvements | 15 - 44 | 10,816 | 10,279 |  |")
    assert labelled(text, columns).splitlines() == [
        "Trade receivables — 2022: $8,192; 2021: $7,172",
        "Allowance, end of year — 2022: 150; 2021: 147; 2020: $201",
        "Land — 2022: $1,142; 2021: $1,123",
        "Buildings and improvements — Average Useful Life (Years): 15 - 44; 2022: 10,816; 2021: 10,279"]
    shown = markdown(text, columns).splitlines()  # the table under the answer, as the app shows it
    assert shown[0] == "|  |  | 2022 | 2021 | 2020 |" and shown[2] == "| Trade receivables |  | $8,192 | $7,172 |  |"


def test_a_header_that_names_fewer_columns_than_a_row_has_figures_stays_where_it_is() -> None:
    """Guard: a maturity table whose header kept its years and lost 'Thereafter' and 'Total' has rows with more figures
    than it names; no move of it can be told right, so it stays over the first columns, as before."""
    columns = "| (Millions) | 2023 | 2024 | 2025 | 2026 | 2027 |"
    text = ("| Parent Company | $5,750 | $7,500 | $5,250 | $2,450 | $4,911 | $4,273 | $30,134 |\n"
            "| Credit Corporation | — | — | — | — | 339 | — | 339 |\n"
            "| Unamortized Underwriting Fees |  |  |  |  |  |  | (84) |\n"
            "| Unamortized Discount and Premium |  |  |  |  |  |  | (522) |\n"
            "| Fair Value Hedge Accounting |  |  |  |  |  |  | (236) |\n"
            "| Total Long-Term Debt |  |  |  |  |  |  | $42,573 |")
    assert labelled(text, columns).splitlines()[1] == (
        "Credit Corporation — 2023: —; 2024: —; 2025: —; 2026: —; 2027: 339; —; 339")


def test_a_row_of_a_period_alone_titles_the_rows_below_it() -> None:
    """A table whose header names no year and whose rows are in blocks, each under a row of its period alone (a
    quarterly stock price table's '| Fiscal Year Ended March 31, 2011 | | |'; a schedule of valuation accounts' '| At
    December 31, 2019 | …'): each row says its block's period. Before, the two years' 'First Quarter' rows read the
    same. A header of years is left as it is, and a quarter's row titles nothing, nor does a year's over its quarters'
    columns: their figures are no year's (guards: such a title adds nothing the years do not, or misleads)."""
    text = ("| | High | Low |\n| Fiscal Year Ended March 31, 2011 | | |\n| First Quarter | $10.46 | $8.50 |\n"
            "| Fiscal Year Ended March 31, 2012 | | |\n| First Quarter | $19.19 | $14.04 |")
    assert labelled(text).splitlines() == [
        "Fiscal Year Ended March 31, 2011", "First Quarter — Fiscal Year Ended March 31, 2011: High $10.46, Low $8.50",
        "Fiscal Year Ended March 31, 2012", "First Quarter — Fiscal Year Ended March 31, 2012: High $19.19, Low $14.04"]
    askew = ("| Description | | Balance at Beginning of Period | Additions | | Deductions "
             "| Balance at End of Period |\n| At December 31, 2019 | | | | | | |\n"
             "| Allowances for returns | $186 | | $11 | $(79) | | $118 |")
    assert labelled(askew).splitlines()[1] == (
        "Allowances for returns — At December 31, 2019: Balance at Beginning of Period $186, Additions $11, Deductions "
        "$(79), Balance at End of Period $118")
    years = "| | 2011 | 2010 |\n| At March 31, 2011 | | |\n| Cash | 5 | 4 |"
    assert labelled(years).splitlines()[1] == "Cash — 2011: 5; 2010: 4"
    quarter = "| | Net sales | Gross profit |\n| Three months ended March 31, 2012 | | |\n| Pumps | 50 | 20 |"
    assert labelled(quarter).splitlines()[1] == "Pumps — Net sales: 50; Gross profit: 20", "no year's block"
    quarters = "| | First Quarter | Second Quarter |\n| Fiscal Year Ended March 31, 2011 | | |\n| Revenue | 50 | 55 |"
    assert labelled(quarters).splitlines()[1] == "Revenue — First Quarter: 50; Second Quarter: 55", "a year's quarters"


def test_a_row_of_figures_not_applicable_names_no_columns() -> None:
    """'| Employee transactions (b) | — | $ | — | N/A | N/A |' is a row of figures: before, its marks were taken for the
    names of a next block's columns, and every row below it read under '—', '$' and 'N/A'."""
    from rag_core.tables.rows import labelled_rows

    text = ("| | Total Number of Shares Purchased | Average Price Paid Per Share | Maximum Number of Shares that May "
            "Yet Be Purchased |\n"
            "| Repurchase program (a) | — | — | 40,583,942 |\n"
            "| Employee transactions (b) | — | — | N/A |\n"
            "| Repurchase program (a) | 941,184 | $156.27 | 36,414,458 |\n")
    rows = labelled_rows(text)
    assert [labels for labels, _ in rows][-1] == ["", "Total Number of Shares Purchased",
                                                  "Average Price Paid Per Share",
                                                  "Maximum Number of Shares that May Yet Be Purchased"]
    assert len(rows) == 3


def test_a_schedules_later_years_column_is_a_name_of_its_own_header() -> None:
    """American Express's certificates of deposit by maturity: '| (Millions) | 2023 | … | 2027 | | After 5 years |
    Total |' was no header of its own (its '5' a figure), so the passage's header of another table named the columns
    and the line quoted above the answer read '2021: $6,554' for 2024's maturities."""
    table = ("| (Millions) | 2023 | 2024 | 2025 | 2026 | 2027 |  | After 5 years | Total |\n"
             "| Certificates of deposit | $5,790 | $6,554 | $2,939 | $27 | $786 | $ | — | $16,096 |")
    assert labelled(table, "| (Millions) | 2022 | 2021 |") == (
        "Certificates of deposit — 2023: $5,790; 2024: $6,554; 2025: $2,939; 2026: $27; 2027: $786; After 5 years: —; "
        "Total: $16,096")


def test_a_figure_set_in_a_blocks_blank_column_is_labelled_by_the_named_column_after_it() -> None:
    """PepsiCo's contributions to its plans: the total row's retiree medical figures sit one cell left, in the blank
    columns of the currency signs, each under the block's name alone; the prompt's line read 'Retiree Medical: $48;
    Retiree Medical: $47; Retiree Medical: $55', no year said."""
    table = ("|  |  | Pension |  |  | Retiree Medical |  |  |  |  |\n"
             "|  | 2022 | 2021 | 2020 |  | 2022 |  | 2021 |  | 2020 |\n"
             "| Non-discretionary | 176 | 213 | 168 |  | 48 |  | 47 |  | 55 |\n"
             "| Total | $336 | $738 | $507 | $48 |  | $47 |  | $55 |  |")
    assert labelled(table).splitlines()[-1] == ("Total — Pension: 2022 $336, 2021 $738, 2020 $507; Retiree Medical: "
                                                "2022 $48, 2021 $47, 2020 $55")
