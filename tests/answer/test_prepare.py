"""The plan's answer steps before the model writes (``rag_core.answer.prepare``)."""

from __future__ import annotations

import pytest

from rag_core.answer.context import with_texts
from rag_core.answer.prepare import prepare
from rag_core.answer.scales import declared_unit
from rag_core.models import Passage
from rag_core.retrieval.plan import answering
from rag_core.settings import BudgetSettings
from rag_core.stages import Stage
from tests.fakes import WhitespaceTokenCounter

LOANS = Passage(n=1, document="bank-10k.pdf", page=161, tabular=True, table_chunks=(0,), text=(
    "The table below presents details about loans receivable.\n"
    "|  | As of December |  |\n| $ in millions | 2016 | 2015 |\n| Corporate loans | $24,837 | $20,740 |\n"
    "| Loans backed by commercial real estate | 4,761 | 5,271 |\n| Other loans | 2,890 | 3,533 |\n"
    "| Total loans receivable, gross | 50,181 | 45,821 |\n"
    "As of December 2016 and December 2015, the fair value of loans receivable was $49.80 billion and $45.19 "
    "billion, respectively, and the loans would have been classified in level 3 of the fair value hierarchy had "
    "they been carried at fair value, as the firm discusses in the notes on fair value measurements below.\n"))
QUESTION = "what percentage of total loans receivable gross in 2016 were loans backed by commercial real estate?"


def test_a_figure_read_by_code_keeps_its_table_whole_in_the_brief_form() -> None:
    budget = BudgetSettings()
    steps = answering("technical", "local", budget=budget, brief_form=True, figures=True)
    prepared = prepare(steps, QUESTION, [], [LOANS], WhitespaceTokenCounter(), (), budget, whole=False,
                       no_relevant=False)
    assert prepared is not None and prepared.figure is not None and prepared.figure.shown == "9.49%"
    assert "$ in millions" in prepared.passages[0].text, (
        "the row of years stays: the brief form's rows that answer left it out, and the figure with it")
    assert prepared.figure.sentence in prepared.budget.messages[-1]["content"], "settled in the prompt"
    assert [r.name for r in prepared.records] == [Stage.FIGURES, Stage.BUDGET]

    plain = prepare(steps, "What do the loans show?", [], [LOANS], WhitespaceTokenCounter(), (), budget,
                    whole=False, no_relevant=False)
    assert plain is not None and plain.figure is None and [r.name for r in plain.records] == [Stage.FIGURES,
                                                                                                Stage.BUDGET]
    nothing = prepare(steps, QUESTION, [], [LOANS], WhitespaceTokenCounter(), (), budget, whole=False,
                      no_relevant=True)
    assert nothing is not None and nothing.passages == [] and nothing.figure is None


def test_the_passage_a_figure_was_read_from_goes_first_and_survives_a_small_prompt() -> None:
    budget = BudgetSettings(local_prompt_tokens=700)
    steps = answering("qa", "local", budget=budget, brief_form=True, figures=True)
    prose = [Passage(n=n, document="bank-10k.pdf", page=n, text=" ".join(["The firm reviews its markets."] * 40))
             for n in range(1, 4)]
    loans = LOANS.model_copy(update={"n": 4, "page": 161})
    prepared = prepare(steps, QUESTION, [], [*prose, loans], WhitespaceTokenCounter(), (), budget, whole=False,
                       no_relevant=False)
    assert prepared is not None and prepared.figure is not None and prepared.figure.shown == "9.49%"
    assert prepared.passages[0].page == 161 and prepared.passages[0].n == 1, "renumbered from 1, the table first"
    assert prepared.figure.formula == "4,761 [1] / 50,181 [1] = 9.49%", "cited as the prompt numbers it"
    assert prepared.budget.cut, "the prose at the end is what the small prompt leaves out"


def _statement(n: int, page: int, title: str, rows: dict[str, str], filler: str) -> Passage:
    details = "".join(f"| {filler} item {k} | {k},{k:03d} | {k},{k + 1:03d} |\n" for k in range(1, 31))
    lines = "".join(f"| {label} | {value} |\n" for label, value in rows.items())
    return Passage(n=n, document="acme-10k.pdf", page=page, tabular=True,
                   text=f"{title} (in millions)\n| | 2022 | 2021 |\n{details}{lines}")


def test_a_figure_over_two_statements_keeps_both_in_a_prompt_too_small_for_both_whole() -> None:
    """The local model's prompt cap held the first statement whole and had no room for the second,
    so the figure read from both was not settled (PepsiCo's EBITDA margin: the P&L and the cash
    flow statement). The two now share the room: rows the figure was not read from leave."""
    income = _statement(1, 62, "Consolidated Statement of Income",
                        {"Net revenue": "86,392 | 79,474", "Operating profit": "11,512 | 11,162"}, "Selling cost")
    cash = _statement(2, 64, "Consolidated Statement of Cash Flows",
                      {"Depreciation and amortization": "2,763 | 2,710"}, "Other working capital")
    question = ("What is the FY2022 EBITDA margin? EBITDA margin is defined as: (FY2022 operating profit + FY2022 "
                "depreciation and amortization) / FY2022 net revenue.")
    config = BudgetSettings(local_prompt_tokens=520)
    steps = answering("technical", "local", budget=config, brief_form=True, figures=True)
    counter = WhitespaceTokenCounter()
    assert sum(counter.count_text(p.text) for p in (income, cash)) > 520, "the two do not fit whole"
    prepared = prepare(steps, question, [], [income, cash], counter, (), config, whole=False, no_relevant=False)
    assert prepared is not None and prepared.figure is not None
    assert prepared.figure.value == pytest.approx((11_512 + 2_763) / 86_392)
    kept = "\n".join(prepared.budget.passages)
    for row in ("| Net revenue | 86,392", "| Operating profit | 11,512", "| Depreciation and amortization | 2,763",
                "| | 2022 | 2021 |"):
        assert row in kept, f"{row!r}: a row the figure was read from, or the years above it"
    assert "Selling cost item 30" not in kept and "Other working capital item 30" not in kept, "details leave"
    assert prepared.figure.sentence in prepared.budget.messages[-1]["content"], "settled in the prompt"


def test_a_figure_whose_passages_the_budget_cannot_keep_says_so_in_its_record() -> None:
    config = BudgetSettings(local_prompt_tokens=120)
    steps = answering("technical", "local", budget=config, brief_form=True, figures=True)
    prepared = prepare(steps, QUESTION, [], [LOANS], WhitespaceTokenCounter(), (), config, whole=False,
                       no_relevant=False)
    assert prepared is not None and prepared.figure is None
    figures = next(r for r in prepared.records if r.name == Stage.FIGURES)
    assert figures.notes == ["the figure read from passages 1 is not settled: the prompt's budget keeps none of them"]


MD_AND_A = Passage(n=1, document="chips-10k.pdf", doc_id="chips", page=39, tabular=True, chunk_ids=("md",), text=(
    "Provision for Income Taxes\n| | 2009 | 2008 |\n"
    "| Provision for Income Taxes. . . . . . . | $50,036 | $140,925 |\n"
    "| Effective Income Tax Rate. . . . . . . | 16.8% | 21.2% |\n"))
INCOME = Passage(n=1, document="chips-10k.pdf", doc_id="chips", page=50, tabular=True, chunk_ids=("is",), text=(
    "Consolidated Statements of Income\n| (thousands, except per share amounts) | 2009 | 2008 |\n"
    "| Provision for income taxes: Payable currently . . . . Deferred . . . . | 38,441 11,595 | 152,294 (11,369) |\n"
    "| | 50,036 | 140,925 |\n"))


class Report:
    """The lookups of ``answer.figure_units.ReportTables`` over a report's passages, as ``ReportLookup`` answers them
    from the store: the tables holding the most of the amounts asked, and the passages that hold 'tabular'."""

    def __init__(self, *passages: Passage) -> None:
        self.passages = passages
        self.asked: list[tuple[str, str, list[str], list[str]]] = []

    def stating(self, doc_id: str, amounts: list[str], held: list[str]) -> list[Passage]:
        self.asked.append(("stating", doc_id, list(amounts), list(held)))
        held_by = [(sum(a in p.text.replace(",", "") for a in amounts), p) for p in self.passages
                   if p.doc_id == doc_id and not set(p.chunk_ids) & set(held)]
        return [p for count, p in sorted(held_by, key=lambda x: -x[0]) if count][:1]

    def declaring_units(self, doc_id: str, held: list[str]) -> list[Passage]:
        self.asked.append(("declaring", doc_id, [], list(held)))
        return [p for p in self.passages
                if p.doc_id == doc_id and declared_unit(p.text) and not set(p.chunk_ids) & set(held)]


QUESTION_TAX = "What was the provision for income taxes in fiscal 2009?"


def _prepared(question: str, passages: list[Passage], report: Report | None):  # type: ignore[no-untyped-def]
    budget = BudgetSettings()
    steps = answering("qa", "extractive", budget=budget, brief_form=False, figures=True)
    return prepare(steps, question, [], passages, WhitespaceTokenCounter(), (), budget, whole=False,
                   no_relevant=False, report=report)


def test_a_figure_from_a_table_without_a_unit_is_read_in_the_unit_of_its_reports_table_that_states_its_amounts(
) -> None:
    """ADI's MD&A states 'Provision for Income Taxes | $50,036' with no unit; its income statement states the
    same amounts in thousands, in an unlabelled total under 'Provision for income taxes: Payable currently'. The
    statement is looked for with the table's amounts, joins the passages and gives the unit (it said '$50,036')."""
    report = Report(INCOME)
    prepared = _prepared(QUESTION_TAX, [MD_AND_A], report)
    assert report.asked == [("stating", "chips", ["50036", "140925"], ["md"])], "its table's amounts, its chunk aside"
    assert prepared is not None and prepared.figure is not None
    assert prepared.figure.sentence == "**Provision for Income Taxes, 2009: $50,036 thousand** [1] (the unit of [2])"
    assert "the unit of 'Total Provision for income taxes' on p.50" in prepared.figure.cells[0].why
    assert [(p.n, p.page) for p in prepared.passages] == [(1, 39), (2, 50)], "the table its unit came from next"
    assert prepared.records[0].notes == ["chips-10k.pdf p.50 added for the figure's unit: a table of the same report "
                                         "that states amounts of the table it was read from, which states none"]

    changed = _prepared("By how much did the provision for income taxes fall from 2008 to 2009?", [MD_AND_A],
                        Report(INCOME))
    assert changed is not None and changed.figure is not None and changed.figure.shown == "-90,889 thousand"
    assert "= -90,889 thousand [1] ($140,925 [1] in the unit of [2]; $50,036 [1] in the unit of [2])" in (
        changed.figure.sentence), "a computed figure says which inputs were read in another passage's unit"

    stated = Report(INCOME)
    from_statement = _prepared(QUESTION_TAX, [INCOME.model_copy(update={"n": 1})], stated)
    assert stated.asked == [] and from_statement is not None and from_statement.figure is not None
    assert from_statement.figure.sentence == "**Total Provision for income taxes, 2009: 50,036 thousand** [1]", (
        "the total under the heading its first line's label opens with, not that line ('Payable currently': 38,441)")
    none = _prepared(QUESTION_TAX, [MD_AND_A], Report())
    assert none is not None and none.figure is not None and none.figure.shown == "$50,036", "none found: as written"
    assert [p.page for p in none.passages] == [39] and none.records[0].notes == []


NOTES_HEAD = Passage(n=1, document="chips-10k.pdf", doc_id="chips", page=55, chunk_ids=("nh",), text=(
    "NOTES TO CONSOLIDATED FINANCIAL STATEMENTS\n(all tabular amounts in thousands except per share amounts)\n"
    "1. Description of Business"))
MD_AND_A_HEAD = NOTES_HEAD.model_copy(update={"page": 32, "chunk_ids": ("mh",), "text": (
    "ITEM 7. MANAGEMENT'S DISCUSSION AND ANALYSIS (all tabular amounts in millions)")})
CASH_PAID = Passage(n=1, document="chips-10k.pdf", doc_id="chips", page=56, tabular=True, chunk_ids=("cp",), text=(
    "c. Supplemental Cash Flow Statement Information\n| | 2009 | 2008 |\n"
    "| Cash paid during the fiscal year for: | | |\n| Income taxes . . . . | $60,609 | $201,974 |\n"
    "| Interest . . . . | $ 2,502 | — |\n"))


def test_a_figure_from_a_table_without_a_unit_is_read_in_the_unit_its_report_declares_for_its_tables() -> None:
    """ADI's note states 'Interest | $2,502' with no unit, and no other table states its amounts; the notes' head
    says '(all tabular amounts in thousands except per share amounts)' (p.55): read in thousands, the nearest such
    statement before the table's page (the discussion's, p.32, says millions here to tell them apart)."""
    report = Report(MD_AND_A_HEAD, NOTES_HEAD)
    prepared = _prepared("How much interest did the company pay in fiscal 2009?", [CASH_PAID], report)
    assert [a[0] for a in report.asked] == ["stating", "declaring"]
    assert prepared is not None and prepared.figure is not None
    assert prepared.figure.sentence == "**Interest, 2009: $2,502 thousand** [1] (the unit of [2])"
    assert "the report's 'tabular amounts in thousands' on p.55" in prepared.figure.cells[0].why
    assert [p.page for p in prepared.passages] == [56, 55]
    assert prepared.records[0].notes == ["chips-10k.pdf p.55 added for the figure's unit: the report's statement of "
                                         "its tables' unit, which the table it was read from does not state"]
    titled = Report(NOTES_HEAD.model_copy(update={"text": (
        "Notes to the Consolidated Financial Statements\nYears ended December 31, 2022, 2021 and 2020\n"
        "(Dollars in millions, except otherwise stated)\nNote 1 – Summary of Significant Accounting Policies")}))
    read = _prepared("How much interest did the company pay in fiscal 2009?", [CASH_PAID], titled)
    assert read is not None and read.figure is not None and read.figure.shown == "$2,502 million", (
        "the notes' title over their unit declares it too")
    assert "the report's 'Dollars in millions' on p.55" in read.figure.cells[0].why
    later = Report(NOTES_HEAD.model_copy(update={"page": 80}))
    after = _prepared("How much interest did the company pay in fiscal 2009?", [CASH_PAID], later)
    assert after is not None and after.figure is not None and after.figure.shown == "$2,502", (
        "a statement after the table's page is not its")


def test_the_passage_a_figures_unit_was_read_in_goes_with_it_into_a_small_prompt() -> None:
    """The notes' head that gives a figure its unit is already in the context, before the prose and the figure's
    table: it goes right after that table (numbered after it) and survives the local model's small prompt, which cuts
    the prose (cut, the answer cited a passage the prompt did not hold: '(the unit of )' in the chat)."""
    budget = BudgetSettings(local_prompt_tokens=700)
    steps = answering("qa", "local", budget=budget, brief_form=True, figures=True)
    prose = [Passage(n=n, document="chips-10k.pdf", page=60 + n, text=" ".join(["The firm reviews its markets."] * 40))
             for n in range(2, 5)]
    passages = [NOTES_HEAD.model_copy(update={"n": 5}), *prose, CASH_PAID.model_copy(update={"n": 1})]
    prepared = prepare(steps, "How much interest did the company pay in fiscal 2009?", [], passages,
                       WhitespaceTokenCounter(), (), budget, whole=False, no_relevant=False, report=Report())
    assert prepared is not None and prepared.figure is not None
    assert prepared.figure.sentence == "**Interest, 2009: $2,502 thousand** [1] (the unit of [2])"
    assert [p.page for p in prepared.passages[:2]] == [56, 55] and prepared.budget.cut, "the prose is what is cut"
    kept = {p.n for p in with_texts(prepared.passages, prepared.budget.passages)}
    assert {1, 2} <= kept


def test_leader_dots_are_three_in_the_prompt_so_a_figure_over_two_dotted_statements_is_settled() -> None:
    """A filing's statements run each label into its figures with leader dots ('Depreciation . . . . .'), each dot a
    token: Analog Devices' cash flow statement alone took 1,517 of the local model's 1,800, and the EBITDA read from it
    and the income statement was not settled. Three dots still part the labels a table finder set into one cell."""
    dots = " ." * 40
    income = Passage(n=1, document="gears-10k.pdf", page=50, tabular=True, text=(
        "CONSOLIDATED STATEMENTS OF INCOME\n| (thousands) | 2009 2008 |\n"
        f"| Total revenue{dots} | 2,014,908 2,582,931 |\n| Operating income{dots} | 284,817 625,025 |\n"))
    cash = Passage(n=2, document="gears-10k.pdf", page=54, tabular=True, text=(
        "CONSOLIDATED STATEMENTS OF CASH FLOWS\n| (thousands) | 2009 2008 |\n"
        f"| Net income{dots} | 247,772 786,284 |\n"
        f"| Adjustments to reconcile net income to net cash provided by operations: Depreciation{dots} Amortization "
        f"of intangibles{dots} | 132,493 144,222 7,377 9,250 |\n"))
    question = "What is Gears Inc's FY2009 EBITDA (operating income plus depreciation and amortization)?"
    config = BudgetSettings(local_prompt_tokens=330)
    steps = answering("technical", "local", budget=config, brief_form=True, figures=True)
    prepared = prepare(steps, question, [], [income, cash], WhitespaceTokenCounter(), (), config, whole=False,
                       no_relevant=False)
    assert prepared is not None and prepared.figure is not None, [r.notes for r in prepared.records]
    assert prepared.figure.value == (284_817 + 132_493 + 7_377) * 1_000
    prompt = prepared.budget.messages[-1]["content"]
    assert prepared.figure.sentence in prompt and ". . ." not in prompt
    assert "Depreciation ... Amortization of intangibles ..." in prompt


def _report(table: str, prose: str) -> list[Passage]:
    return [Passage(n=1, document="acme-10k.pdf", page=80, tabular=True, table_chunks=(0,), text=table),
            Passage(n=2, document="acme-10k.pdf", page=86, text=prose)]


def _prepared_local(question: str, passages: list[Passage]):  # type: ignore[no-untyped-def]
    budget = BudgetSettings()
    steps = answering("technical", "local", budget=budget, brief_form=True, figures=True)
    prepared = prepare(steps, question, [], passages, WhitespaceTokenCounter(), (), budget, whole=False,
                       no_relevant=False)
    assert prepared is not None
    return prepared


def test_a_sentence_that_names_the_question_more_fully_than_the_row_overrules_the_cell() -> None:
    """CVS Health's 10-K: asked its loss on the long-term care business held for sale, code read '$41 million' of a
    row 'Loss on assets held for sale' (the Thailand business) and the local model settled it; a sentence states
    the $2.5 billion of 'its LTC business' (initials of the question's words). The sentence answers: no figure is
    settled, the prompt names the sentence (``STATED``) and the figures stage says why."""
    table = ("Other items (in millions)\n| | 2022 | 2021 |\n| Loss on assets held for sale | $ 41 | $ — |\n"
             "| Interest expense | 2,287 | 2,503 |\n")
    prose = ("During 2022, the Company recorded a loss on assets held for sale of approximately $2.5 billion related "
             "to the write-down of its LTC business.")
    question = "How large was the loss Acme recorded in 2022 on assets held for sale for its long-term care business?"
    prepared = _prepared_local(question, _report(table, prose))
    assert prepared.figure is None, "the sentence states what is asked; the row another figure"
    figures = next(r for r in prepared.records if r.name == Stage.FIGURES)
    assert "'Loss on assets held for sale' ($41 million) is left out" in figures.notes[0]
    assert f"states the figure the question asks for: \u201c{prose}\u201d" in prepared.budget.messages[-1]["content"]

    thailand = "During 2022, the Company recorded a $41 million loss on its Thailand business held for sale."
    kept = _prepared_local(question, _report(table, thailand)).figure
    assert kept is not None and kept.shown == "$41 million", "a sentence stating the figure read keeps it"


def test_a_total_of_agreements_in_force_is_not_overruled_by_the_sentence_of_one_ended() -> None:
    """FinanceBench's 8-K question: 'Effective May 26, 2023, … terminated the $3,800,000,000 five year unsecured
    revolving credit agreement …' names every word of the question, its date too, which no agreement's row says; the
    total was read from the sentences that size the agreements, that one among them, and stands."""
    terminated = ("Effective May 26, 2023, Drinks terminated the $3,800,000,000 five year unsecured revolving credit "
                  "agreement, dated as of May 27, 2022, among Drinks, as borrower, and Citibank, N.A., as "
                  "administrative agent.\n\nOn May 26, 2023, Drinks entered into a new $4,200,000,000 five year "
                  "unsecured revolving credit agreement among Drinks, as borrower, and Citibank, N.A.")
    new = ("On May 26, 2023, Drinks entered into a new $4,200,000,000 364 day unsecured revolving credit agreement "
           "among Drinks, as borrower, and Citibank, N.A., as administrative agent.")
    passages = [Passage(n=1, document="drinks-8k.pdf", page=2, text=terminated),
                Passage(n=2, document="drinks-8k.pdf", page=2, text=new)]
    question = ("As of May 26, 2023, what is the total amount Drinks may borrow under its unsecured revolving credit "
                "agreements?")
    figure = _prepared_local(question, passages).figure
    assert figure is not None and figure.value == 8_400_000_000, figure


def test_a_row_that_names_the_question_its_own_way_keeps_its_figure() -> None:
    """The eval's misses of a first rule, which a sentence naming more of the question's words overruled: a verb the
    question asks with ('spend') no row says; 'Diluted EPS' is 'diluted earnings per share' by its initials; a
    sentence stating only a rate does not overrule an amount."""
    table = ("Costs (in millions, except per share)\n| | 2019 | 2018 |\n| Sales and marketing | 926 | 1,062 |\n"
             "| Diluted EPS | $ 1.95 | $ 2.65 |\n")
    spent = ("The decrease in sales and marketing expenses for 2019, as compared to 2018, was due to a decrease of "
             "$107 million in marketing spending.")
    read = _prepared_local("How much did Acme spend on sales and marketing in 2018?", _report(table, spent)).figure
    assert read is not None and read.shown == "1,062 million"
    fell = ("In fiscal year 2019, our revenue decreased 22% from fiscal 2018 and our diluted earnings per share "
            "decreased by 26%.")
    eps = _prepared_local("What were Acme's diluted earnings per share in fiscal 2018?", _report(table, fell)).figure
    assert eps is not None and eps.shown == "$2.65"


def test_a_word_a_sentence_says_only_inside_a_proper_name_is_not_the_questions() -> None:
    """Analog Devices' 10-K: its balance of uncertain tax positions at October 31, 2009 ('Balance, October 31, 2009 |
    $18,161') was overruled by a sentence on the total liabilities for them ($26.2 million), which said 'balance' only
    in 'Consolidated Balance Sheet'. A question on the balance sheet's figure is still the sentence's."""
    table = ("The following is a reconciliation of our uncertain tax positions (in thousands)\n"
             "| | Uncertain Tax Positions |\n| Balance, November 1, 2008 | $13,750 |\n| Additions | 4,411 |\n"
             "| Balance, October 31, 2009 | $18,161 |\n")
    prose = ("As of October 31, 2009, our total liabilities associated with uncertain tax positions was $26.2 million, "
             "which are included in \u201cOther non-current liabilities\u201d in our Consolidated Balance Sheet "
             "contained in Item 8 of this Annual Report on Form 10-K.")
    read = _prepared_local("What was the balance of uncertain tax positions at October 31, 2009?",
                           _report(table, prose)).figure
    assert read is not None and read.shown == "$18,161 thousand", read
    sheet = "What was the balance sheet total of uncertain tax positions at October 31, 2009?"
    assert _prepared_local(sheet, _report(table, prose)).figure is None, "the sentence names the balance sheet"


def test_a_place_the_question_asks_of_that_the_row_does_not_name_is_the_sentences() -> None:
    """ABIOMED's 10-K: asked its income taxes for Germany, code read the whole income tax provision (1,048 thousand);
    the sentence states the $0.2 million 'for income taxes in Germany'. A name the question asks of after 'for', 'in'
    or 'from' counts as a word the row must name, when the sentence names it. Asked the whole, the row stays."""
    table = "Income taxes (in thousands)\n| | 2012 | 2011 |\n| Income tax provision | 1,048 | 950 |\n"
    prose = ("The Company also recorded $0.2 million in income taxes in fiscal 2012 for income taxes in Germany that "
             "it expects to pay in cash.")
    germany = _prepared_local("How much did Acme record in income taxes for Germany in fiscal 2012?",
                              _report(table, prose))
    assert germany.figure is None, germany.figure
    whole = _prepared_local("How much did Acme record in income taxes in fiscal 2012?", _report(table, prose)).figure
    assert whole is not None and whole.shown == "1,048 thousand", whole


def test_the_company_the_question_asks_of_after_for_is_no_place_the_row_must_name() -> None:
    """Stop 134's review: 'for Acme' is the company, which no row of its own statements names; a sentence that says
    the company and states another figure (Germany's) does not overrule the provision read. The company is known by
    the question's owner or by the document's name."""
    table = "Income taxes (in thousands)\n| | 2012 | 2011 |\n| Income tax provision | 1,048 | 950 |\n"
    prose = "Acme's income tax provision in fiscal 2012 included $0.2 million of income taxes paid in Germany."
    read = _prepared_local("What was the income tax provision for Acme in fiscal 2012?", _report(table, prose)).figure
    assert read is not None and read.shown == "1,048 thousand", read


def test_a_sentence_of_a_quarters_amount_or_one_saying_expense_a_row_leaves_unsaid_overrules_no_row() -> None:
    """ABIOMED's 10-K: its total stock-based compensation for fiscal 2011 ('Stock-based compensation | 5,421') was
    overruled by 'additional stock based compensation expense of approximately $0.6 million … recorded during the three
    months ended June 30, 2011', which names 'expense' the row leaves unsaid, and is a quarter's amount."""
    table = ("Cash flows (in thousands)\n| | 2012 | 2011 |\n| Stock-based compensation | 7,773 | 5,421 |\n")
    question = "What was Acme's total stock-based compensation expense in fiscal 2011?"
    quarter = ("This resulted in additional stock based compensation expense of approximately $0.6 million being "
               "recorded during the three months ended June 30, 2011 that should have been recorded during the year "
               "ended March 31, 2011.")
    read = _prepared_local(question, _report(table, quarter)).figure
    assert read is not None and read.shown == "5,421 thousand", read
    year = quarter.replace("three months ended June 30, 2011", "year ended March 31, 2011")
    read = _prepared_local(question, _report(table, year)).figure
    assert read is not None and read.shown == "5,421 thousand", "'expense' is no word the row misses"


def test_a_change_computed_from_signed_cells_yields_to_the_sentence_that_states_its_way() -> None:
    """ABIOMED's 10-K: its deferred tax table writes the valuation allowance as deductions, '(118,279)' and
    '(120,721)', from which code computed an increase; the note says 'a decrease of $2.4 million'. A computed
    figure yields to a sentence that names the question as fully and states another figure, or the same amount
    going the other way; one that agrees keeps it."""
    table = ("Deferred tax assets (in thousands)\n| | March 31, |  |\n| | 2012 | 2011 |\n"
             "| Net operating loss carryforwards | 90,112 | 95,030 |\n"
             "| Valuation allowance | (118,279) | (120,721) |\n")
    question = "What was the change in Acme's valuation allowance for fiscal 2012?"
    prose = ("The change in the valuation allowance was a decrease of $2.4 million for fiscal 2012 and an increase "
             "of $3.7 million for fiscal 2011, respectively.")
    assert _prepared_local(question, _report(table, "Acme makes kites.")).figure is not None, "read by code alone"
    assert _prepared_local(question, _report(table, prose)).figure is None, "the sentence says which way it went"
    agreeing = prose.replace("a decrease of", "an increase of")
    kept = _prepared_local(question, _report(table, agreeing)).figure
    assert kept is not None and kept.kind == "change", "the sentence states the change computed"


def test_a_sentence_that_overrules_the_row_gives_the_figure_it_states_by_years() -> None:
    """Goldman Sachs' 10-K: asked the total fair value of loans receivable for two years, code summed the carrying
    values of the row 'Total loans receivable' (95.08 billion); the sentence stating the fair values by years is the
    row asked, and its two figures are summed (94.99 billion)."""
    table = ("Loans receivable ($ in millions)\n| | As of December |  |\n| | 2016 | 2015 |\n"
             "| Total loans receivable | $49,672 | $45,407 |\n")
    prose = ("As of December 2016 and December 2015, the fair value of loans receivable was $49.80 billion and $45.19 "
             "billion, respectively.")
    question = "For December 2016 and December 2015, what was the total fair value of loans receivable in billions?"
    figure = _prepared_local(question, _report(table, prose)).figure
    assert figure is not None and figure.kind == "sum" and figure.shown == "94.99 billion"
    assert figure.cells[0].page == 86, "read from the sentence"


def test_the_words_of_the_rows_table_title_are_the_rows_against_a_sentence() -> None:
    """Analog Devices' 10-K: asked its non-U.S. plans' benefit obligation at the end of fiscal 2009, code read the
    row 'Benefit obligation at end of year' ($165,047) of the table titled 'Obligation and asset data of the Company's
    non-U.S. plans …', and a sentence on the plans whose obligation exceeds their assets ($42.5 million …) overruled
    it: its label says no 'non-U.S.' nor 'plans'. Its table's title does."""
    table = ("(in thousands)\n| | 2009 | 2008 |\n| Benefit obligation at beginning of year | $149,428 | $180,771 |\n"
             "| Service cost | 6,368 | 9,580 |\n| Benefit obligation at end of year | $165,047 | $149,428 |\n")
    prose = ("The projected benefit obligation, accumulated benefit obligation, and fair value of plan assets for "
             "non-U.S. pension plans with accumulated benefit obligation in excess of plan assets were $42.5 million, "
             "$38.7 million and $19.4 million, respectively, at October 31, 2009.")
    title = ("Acme 2009 › 14. Retirement Plans › Obligation and asset data of the Company’s non-U.S. plans at each "
             "fiscal year end is presented in the following table:")
    passages = [Passage(n=1, document="acme-10k.pdf", page=84, tabular=True, table_chunks=(0,), text=table,
                        caption=title), Passage(n=2, document="acme-10k.pdf", page=85, text=prose)]
    question = "What was the benefit obligation of Acme's non-U.S. plans at the end of fiscal 2009?"
    read = _prepared_local(question, passages).figure
    assert read is not None and read.shown == "$165,047 thousand", read
    untitled = [passages[0].model_copy(update={"caption": "Acme 2009 › 14. Retirement Plans"}), passages[1]]
    assert _prepared_local(question, untitled).figure is None, "a table titled by no plans is overruled as before"
