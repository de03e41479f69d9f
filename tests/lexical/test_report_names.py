"""Which reports a question names (rag_core/lexical/report_names.py): by its file title's first word said as a name,
or by a short form of the name the report writes in words."""

from __future__ import annotations

from collections.abc import Iterator

from rag_core.lexical.report_names import report_key, reports_named, spelled

REPORTS = ["AMERICANEXPRESS_2022_10K.pdf", "BOEING_2022_10K.pdf", "PEPSICO_2022_10K.pdf", "PEPSICO_2023_8K.pdf"]
COVERS = {"AMERICANEXPRESS_2022_10K.pdf": "AMERICAN EXPRESS COMPANY\n(Exact name of registrant)",
          "BOEING_2022_10K.pdf": "THE BOEING COMPANY", "PEPSICO_2022_10K.pdf": "PepsiCo, Inc.",
          "PEPSICO_2023_8K.pdf": "PepsiCo, Inc."}


def covers(read: list[str]) -> object:
    def texts(document: str) -> Iterator[str]:
        read.append(document)
        yield COVERS[document]
    return texts


def test_a_report_is_named_by_its_titles_first_word_said_as_a_name() -> None:
    read: list[str] = []
    assert reports_named("What was Boeing's revenue in 2022?", REPORTS, covers(read)) == ["BOEING_2022_10K.pdf"]
    assert reports_named("What did American Express earn?", REPORTS, covers(read)) == [REPORTS[0]]
    assert reports_named("How much can PepsiCo borrow?", REPORTS, covers(read)) == REPORTS[2:], "both its reports"
    assert read == [], "no word of these questions may be a short form: no report's text is read"


def test_a_report_is_named_by_a_short_form_of_the_name_it_writes() -> None:
    read: list[str] = []
    assert reports_named("Does AMEX have an improving operating margin?", REPORTS, covers(read)) == [REPORTS[0]]
    assert "AMERICANEXPRESS_2022_10K.pdf" in read


def test_no_report_is_named_by_words_in_lower_case_nor_by_a_word_of_no_name() -> None:
    assert reports_named("what was boeing's revenue?", REPORTS, covers([])) == []
    assert reports_named("What was the revenue?", ["The_report.pdf", *REPORTS], covers([])) == []
    assert report_key("The_report.pdf") == "" and report_key("ACME_2022.pdf") == "acme"
    assert report_key("2022.pdf") == "" and report_key("A_2022.pdf") == ""


def test_a_name_is_spelled_as_the_report_writes_it_in_capitalised_words() -> None:
    assert spelled("americanexpress", ["the American Express Company"]) == "American Express"
    assert spelled("americanexpress", ["american express"]) == "", "not written as a name"
