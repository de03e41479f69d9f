"""The one tokenizer, the exact terms of a question, a phrase held word by word, words by their start."""

from __future__ import annotations

import pytest

from rag_core.lexical.terms import (
    exact_terms,
    holds_exactly,
    label_key,
    label_terms,
    phrases,
    plural_forms,
    tokenize,
    word_prefixes,
)


@pytest.mark.parametrize(
    ("text", "must_contain"),
    [
        ("Invoice INV-2025-0492 is due", ["inv-2025-0492", "inv", "2025", "0492", "invoice"]),
        ("Accuracy rose to 84.8% overall", ["84.8%", "accuracy"]),
        ("We use GPT-4o-mini for rewriting", ["gpt-4o-mini", "gpt", "4o", "mini"]),
        ("Revenue was $1,234,567.89 in 2024", ["1234567.89", "2024", "revenue"]),
        ("The models' results", ["model", "result"]),
        ("version v2.1.3 of snake_case_name", ["v2.1.3", "snake_case_name"]),
    ],
)
def test_identifiers_and_numbers_stay_whole(text: str, must_contain: list[str]) -> None:
    tokens = tokenize(text)
    for token in must_contain:
        assert token in tokens


def test_lowercases_and_drops_stopwords() -> None:
    assert tokenize("The CAT and the Hat") == ["cat", "hat"]
    assert tokenize("") == []
    assert tokenize("... !!!") == []


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("What is the status of invoice INV-2023-48213?", [("inv-2023-48213",)]),
        ("How much does part BQ4471-23 cost?", [("bq4471-23",)]),
        ("What did Priya Raman agree to do?", [("priya", "raman")]),
        ('Where does the report say "late delivery fee"?', [("late", "delivery", "fee")]),
        ("What does clause 3.12.4 require?", [("3.12.4",)]),
        ("Which account received 48213 dollars?", [("48213",)]),
        ("What was revenue in 2023 and in Q3?", [("q3",)]),  # a year alone is ordinary; Q3 is a code
        ("Which categories are more than 20% of revenue?", []),  # a percentage is a threshold, not a name
        ("Summarize the document. Which section covers pricing?", []),  # sentence openers are no names
    ],
)
def test_exact_terms_are_identifiers_names_and_quoted_phrases(question: str, expected: list[tuple[str, ...]]) -> None:
    assert exact_terms(question) == expected


def test_a_phrase_is_held_only_with_its_words_side_by_side() -> None:
    assert holds_exactly("On hiring, Anton Sorensen agreed.", ("anton", "sorensen"))
    assert not holds_exactly("Ingrid Sorensen and Anton Achebe agreed.", ("anton", "sorensen"))
    assert holds_exactly("Invoice INV-7 is open.", ("inv-7",))


def test_words_compared_by_their_start() -> None:
    assert word_prefixes("Expenditures on R&D and the expenditure", shortest=2, content_only=True) == [
        "expen", "r&d", "expen"]
    assert word_prefixes("of the Comprehensiveness", shortest=3, content_only=False) == ["the", "compr"]


def test_a_row_label_reads_without_its_parenthesis_and_figures() -> None:
    assert label_terms("Effective tax rate (a)") == ("effective", "tax", "rate")
    assert label_terms("Net income (loss)") == ("net", "income")
    assert label_terms("Purchases of property, plant and equipment") == ("purchase", "property", "plant", "equipment")
    assert label_terms("Fiscal Year Ended March 31, 2012") == ("fiscal", "year", "ended", "march")
    # the class of shares after a dash is no word of the line's name; a kind of earnings per share is
    assert label_terms("Share repurchases - common") == ("share", "repurchase")
    assert label_terms("Net income per share - diluted")[-1] == "diluted"


def test_a_questions_phrases_are_its_runs_of_words_within_a_clause_longest_first() -> None:
    found = phrases("How much has the effective tax rate changed between FY2021 and FY2022?")
    assert ("effective", "tax", "rate") in found and ("tax", "rate") in found
    assert all(len(p) >= 2 for p in found), "a word alone names no line"
    assert [len(p) for p in found] == sorted((len(p) for p in found), reverse=True)
    assert not any("fy2021" in p or "2021" in p for p in found), "figures and years are no label's words"
    # a clause's end parts phrases; a comma does not ('property, plant and equipment' is one label)
    assert ("revenue", "net", "income") not in phrases("What was revenue? Net income?")
    assert ("purchase", "property", "plant", "equipment") in phrases("Purchases of property, plant and equipment")
    assert phrases("Revenue?") == []


def test_a_question_s_words_around_a_parenthesis_are_one_run_as_a_label_s_are() -> None:
    """'other expense (income), net' names the row 'Other expense (income), net', whose terms leave the parenthesis
    out; the words inside it are a run of their own too."""
    assert ("expense", "net") in phrases("What was 3M's other expense (income), net, in 2020?")
    assert label_terms("Other expense (income), net") == ("expense", "net")
    assert ("operating", "income") in phrases("What is the EBITDA (operating income plus depreciation)?")


def test_a_plural_in_es_after_a_hissing_sound_is_compared_as_its_singular() -> None:
    assert label_terms("Deferred income taxes") == ("deferred", "income", "taxe"), "the index's plural rule"
    assert label_key(label_terms("Deferred income taxes")) == label_key(label_terms("deferred income tax"))
    assert label_key(label_terms("Net losses")) == label_key(label_terms("net loss")) == ("net", "loss")
    assert label_key(label_terms("Approaches")) == ("approach",)
    assert label_key(label_terms("Cache")) == label_key(label_terms("caches")), "both sides alike"
    assert label_key(label_terms("Operating expenses")) == ("operating", "expense"), "no hissing sound: as it was"
    assert plural_forms("tax") == plural_forms("taxe") == ("tax", "taxe")
    assert plural_forms("loss") == ("loss", "losse")
    assert plural_forms("income") == ("income",) and plural_forms("axe") == ("axe",)
