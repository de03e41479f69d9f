"""Follow-up rewriting, intent, comparison sides and rephrasings: the pure parts of queries."""

from __future__ import annotations

import pytest

from rag_core.lexical.acronyms import abbreviates, name_acronyms, place_names
from rag_core.lexical.vocabulary import expansion
from rag_core.models import IntentReply, UnderstandReply
from rag_core.retrieval.question_cleanup import clean_query
from rag_core.retrieval.row_list import row_phrases
from rag_core.retrieval.understand import (
    classify_keywords,
    comparison_entities,
    parse_understanding,
    refers_back,
    search_phrasings,
    standalone_question,
    sure_intent,
    trim_history,
    understand,
)
from rag_core.runtime.llm import ChatSession
from rag_core.settings import LlmSettings, RetrievalSettings
from tests.fakes import ScriptedChatModel


def test_history_is_trimmed_to_recent_messages_and_chars() -> None:
    history = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i} " + "x" * 300} for i in range(20)
    ]
    kept = trim_history(history, 10, 2000)
    assert len(kept) <= 10 and sum(len(m["content"]) for m in kept) <= 2000
    assert kept[-1]["content"].startswith("message 19")


def test_a_long_answer_never_pushes_out_the_question_it_answered() -> None:
    """A follow-up ("And on the Mix dataset?") refers to the last question: an answer longer than
    the room is cut to its beginning, the question kept whole."""
    question = "What is the win rate of LightRAG over NaiveRAG on the Legal dataset?"
    history = [{"role": "user", "content": "Summarise the paper"}, {"role": "assistant", "content": "It says …"},
               {"role": "user", "content": question},
               {"role": "assistant", "content": "- Overall — Legal: NaiveRAG 15.2%, LightRAG 84.8% [2]\n" * 60}]
    kept = trim_history(history, 10, 2000)
    assert [m["role"] for m in kept] == ["user", "assistant"]
    assert kept[0]["content"] == question and kept[1]["content"].startswith("- Overall — Legal")
    assert sum(len(m["content"]) for m in kept) == 2000
    assert trim_history(history[:3], 10, 2000) == history[:3], "what fits is kept whole"
    assert trim_history(history, 10, 30)[0]["content"] == question[:30]


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("summary this document", "summary"),
        ("Give me an overview of the report", "summary"),
        ("compare LightRAG with GraphRAG", "comparison"),
        ("What is the difference between BM25 and dense retrieval?", "comparison"),
        ("Performance of ablated versions of LightRAG", "technical"),
        ("What was revenue growth in 2009?", "technical"),
        ("Who founded the company?", "qa"),
        # a differential is a line item ('Foreign rate differential'), not a difference asked
        ("What was Activision Blizzard's foreign rate differential in 2018?", "technical"),
    ],
)
def test_keyword_intents(question: str, intent: str) -> None:
    assert classify_keywords(question) == intent


@pytest.mark.parametrize(
    ("question", "entities"),
    [
        ("compare LightRAG with GraphRAG", ["LightRAG", "GraphRAG"]),
        ("LightRAG vs. GraphRAG vs NaiveRAG?", ["LightRAG", "GraphRAG", "NaiveRAG"]),
        ("What is the difference between BM25 and dense retrieval?", ["BM25", "dense retrieval"]),
        ("how does the hybrid mode compare", []),
    ],
)
def test_comparison_entities(question: str, entities: list[str]) -> None:
    assert comparison_entities(question) == entities


@pytest.mark.parametrize(
    ("raw", "source", "intent"),
    [
        ('{"intent": "technical", "search_queries": ["a", "b"]}', "llm", "technical"),
        ('Here you go: {"intent": "summary", "search_queries": ["x"]} hope it helps', "llm", "summary"),
        ('{"intent": "poetry", "search_queries": []}', "keywords", "qa"),
        ('{"intent": "qa", "search_queries": "not a list"}', "llm", "qa"),
        ("{broken json", "keywords", "qa"),
        ("[1, 2]", "keywords", "qa"),
        ("", "keywords", "qa"),
    ],
)
def test_parse_understanding_is_defensive(raw: str, source: str, intent: str) -> None:
    understood = parse_understanding(raw, "who wrote it?")
    assert (understood.source, understood.intent) == (source, intent)
    assert understood.queries[0] == "who wrote it?" and len(understood.queries) <= 3


@pytest.mark.parametrize(("question", "intent"), [
    ("Which banks are the Syndication Agents of Acme's 364-day credit agreement?", "qa"),
    ("Which state's law governs Acme's credit agreement?", "qa"),
    ("How does LightRAG compare with GraphRAG?", "comparison"),
    ("How does the 2023 agreement differ from the one it replaced?", "comparison"),
])
def test_a_comparison_the_model_reads_into_a_question_comparing_nothing_is_the_keywords_intent(
        question: str, intent: str) -> None:
    understood = parse_understanding('{"intent": "comparison", "search_queries": []}', question)
    assert (understood.source, understood.intent) == ("llm", intent)


CLEANUP = [
    # (in, out): instructions and role-play out, content and named statements kept
    ("What is the interest expense in 2009?", "What is the interest expense in 2009?"),
    ("who determines the size of the supreme court", "who determines the size of the supreme court"),
    (
        "What drove operating margin change as of FY2022 for Acme? If operating margin is not a useful metric "
        "for a company like this, then please state that and explain why.",
        "What drove operating margin change as of FY2022 for Acme?",
    ),
    (
        "What is the FY2019 asset turnover for Acme? Round your answer to two decimal places. Base your "
        "judgments on the information provided primarily in the statement of income and the balance sheet.",
        "What is the FY2019 asset turnover for Acme? statement of income balance sheet",
    ),
    (
        "What is the 3 year average of capex as a % of revenue? Answer in units of percents and round to one "
        "decimal place. Calculate (or extract) the answer from the cash flow statement.",
        "What is the 3 year average of capex as a % of revenue? cash flow statement",
    ),
    (
        "Assume that you are a public equities analyst. Answer the following question by primarily using "
        "information that is shown in the balance sheet: what is the year end FY2018 net PPE for Acme? "
        "Answer in USD billions.",
        "what is the year end FY2018 net PPE for Acme? balance sheet",
    ),
    ("You are a financial analyst. What was the revenue in 2021?", "What was the revenue in 2021?"),
    ("What was the net income in 2022, rounded to the nearest million?", "What was the net income in 2022?"),
    (
        "If we exclude the impact of M&A, which segment has dragged down growth in 2022?",
        "If we exclude the impact of M&A, which segment has dragged down growth in 2022?",
    ),
    (
        "Define EBITDA as operating income + D&A. What is EBITDA in FY2022? Answer in USD millions.",
        "Define EBITDA as operating income + D&A. What is EBITDA in FY2022?",
    ),
    (
        "We want to calculate a financial metric. Please help us compute it by basing your answers off of the "
        "cash flow statement and the income statement. Here's the question: what is the FY2019 dividend payout "
        "ratio (using total cash dividends paid and net income attributable to shareholders) for Acme? Round "
        "answer to two decimal places.",
        "what is the FY2019 dividend payout ratio (using total cash dividends paid and net income attributable to "
        "shareholders) for Acme? cash flow statement income statement",
    ),
    (
        "We need to calculate a reasonable approximation (or exact number if possible) of a financial metric. "
        "Basing your judgment by information plainly provided in the annual report, answer the following "
        "question. What is the FY2019 revenue for Acme?",
        "What is the FY2019 revenue for Acme?",
    ),
    (
        "We need to calculate a financial metric by using information only provided within the balance sheet. "
        "Please answer the following question: what is the year end FY2018 net PPE for Acme (in USD millions)?",
        "what is the year end FY2018 net PPE for Acme (in USD millions)? balance sheet",
    ),
    (
        "You are a financial analyst reviewing a 10-K. Using the relevant sections of the filing (do not use "
        "outside knowledge), please answer: who are the primary customers of Acme? Keep the answer short.",
        "who are the primary customers of Acme?",
    ),
    (
        "What is the year end FY2020 net AR for Acme? Address the question by adopting the perspective of a "
        "financial analyst who can only use the details shown within the balance sheet.",
        "What is the year end FY2020 net AR for Acme? balance sheet",
    ),
    (  # a question in lower case and without its '?' is a sentence of its own all the same
        "Basing your judgment on the annual report, answer the following question. how many judges are there in "
        "the united states supreme court Keep the answer short and cite the page.",
        "how many judges are there in the united states supreme court",
    ),
    (
        "Here is the question: who played the mother in the black stallion Please show your reasoning step by step.",
        "who played the mother in the black stallion",
    ),
    ("We want to calculate the FY2019 current ratio for Acme.",) * 2,  # it names its figure: the question itself
    ("Using the balance sheet, calculate the FY2019 current ratio.",) * 2,
    ("The question is: what was the revenue in 2021?", "what was the revenue in 2021?"),
    ("We want to know the revenue. What was it in 2021?", "We want to know the revenue. What was it in 2021?"),
    ("Help me find the revenue for 2021", "Help me find the revenue for 2021"),
    ("Summarize the paper.", "Summarize the paper."),
    ("Give me the revenue figures for 2020", "Give me the revenue figures for 2020"),
    ("Round your answer to two decimal places.", "Round your answer to two decimal places."),
]


@pytest.mark.parametrize(("question", "cleaned"), CLEANUP)
def test_clean_query(question: str, cleaned: str) -> None:
    assert clean_query(question) == cleaned


def test_search_phrasings_follow_the_settings() -> None:
    question = "Has the quick ratio improved for Acme in FY2022? Answer in USD millions."
    plain = RetrievalSettings(clean_queries=False, metric_vocabulary=False)
    assert search_phrasings([question], plain) == [(question, "question")]
    full = RetrievalSettings(clean_queries=True, keyword_phrasing=True, metric_vocabulary=True)
    found = search_phrasings([question, "quick ratio trend of Acme", ""], full)
    assert [source for _, source in found] == ["question", "rephrasing", "keywords", "vocabulary"]
    assert found[0][0] == "Has the quick ratio improved for Acme in FY2022?"
    assert found[2][0] == "quick ratio improved Acme FY2022"
    assert "total current liabilities" in found[3][0] and "balance sheet" in found[3][0]
    assert search_phrasings(["  "], full) == []


def test_the_keyword_phrasing_adds_the_initials_a_report_writes_a_name_with() -> None:
    """A segment's figures sit in rows labelled 'FLNA': the question names 'Frito-Lay North America'."""
    keywords = RetrievalSettings(clean_queries=True, keyword_phrasing=True, metric_vocabulary=False)
    found = dict((source, text) for text, source in search_phrasings(
        ["What was the operating profit of PepsiCo's Frito-Lay North America division in 2021?"], keywords))
    assert found["keywords"].endswith(" FLNA") and "PFLNA" not in found["keywords"]
    plain = dict((source, text) for text, source in search_phrasings(["What was Acme's revenue in 2021?"], keywords))
    assert plain["keywords"] == "Acme's revenue 2021", "no name of two capitalised words, no initials"


@pytest.mark.parametrize(("question", "initials"), [
    ("What was the operating profit of PepsiCo's Frito-Lay North America division in 2021?", ["FLNA"]),
    ("Using Boeing Commercial Airplanes' figures, what was its backlog?", ["BCA"]),
    ("Frito-Lay North America grew how much?", ["FLNA"]),
    ("What Is The Revenue Of Goldman Sachs?", []),
    ("How did Analog Devices do?", []),
])
def test_a_names_initials(question: str, initials: list[str]) -> None:
    assert name_acronyms(question) == initials


def test_vocabulary_names_inputs_and_statements_only_when_asked() -> None:
    assert expansion("What is the capital of France?") is None
    inventory = expansion("How did inventory turnover change?") or ""
    assert "cost of sales" in inventory and "inventories" in inventory
    statement = expansion("using the statement of financial position, what are total assets?") or ""
    assert "balance sheet" in statement
    words = (expansion("gross margin and operating margin") or "").split()
    assert len(words) == len(set(words)), "each term once"


@pytest.mark.parametrize(
    ("question", "intent"),
    [
        ("summary this document", "summary"),
        ("compare LightRAG with GraphRAG", "comparison"),
        ("Performance of ablated versions of LightRAG", "technical"),
        ("What was revenue growth in 2009?", "technical"),
        ("What is the main idea of LightRAG?", "summary"),  # the model read it as technical; asked: a few sentences
        ("What are the main ideas of the paper?", "summary"),
        ("What are the key findings?", "summary"),
        ("What is detail 12.3 about?", None),  # one item's content, not the document's
        ("how do the invoices differ?", None),  # a comparison, but of what: the LLM reads it
        ("Who founded the company?", None),  # no rule: any intent is possible
        ("Is the business subject to cyclicality?", "qa"),  # the small model read it as technical
        ("Has Boeing reported any materially important ongoing legal battles?", "qa"),
        ("Does 3M have an improving gross margin profile as of FY2022?", None),  # a ratio: figures may answer it
        ("Did net income rise in 2022?", None),
        ("Is the table's accuracy higher on Legal?", "technical"),
        # why a figure moved is said in the report's prose: as technical, the small model copied the figure's lines
        ("What drove operating margin change as of FY2022 for 3M? If operating margin is not a useful metric, "
         "then please state that and explain why.", "qa"),
        ("Why were Goldman Sachs' operating expenses lower in 2016?", "qa"),
        ("What were Goldman Sachs' operating expenses in 2016?", "technical"),
        # a ratio asked for in plain words is a figure, though it compares two lines
        ("How leveraged is PepsiCo: how does its debt compare with its shareholders' equity?", "technical"),
        ("How long does PepsiCo take to collect payment from its customers?", "technical"),
        # one figure's year against another's is its change, a figure; two things compared are a comparison
        ("How much did American Express's net income change in 2022 compared with 2021?", "technical"),
        ("How does Boeing's effective tax rate in FY2022 compare to FY2021?", "technical"),
        ("Did revenue in 2022 grow compared with 2021?", None),
        ("what was the difference in millions between the total cost of common shares repurchases from 2015 to "
         "2016?", "technical"),
        ("What was the change in its gross margin between FY2021 and FY2022?", "technical"),
        ("What is the difference between LightRAG and GraphRAG?", "comparison"),
    ],
)
def test_keywords_are_sure_only_where_they_leave_no_doubt(question: str, intent: str | None) -> None:
    assert sure_intent(question) == intent
    if intent is not None:
        assert classify_keywords(question) == intent, "a sure intent is the keyword classifier's"


@pytest.mark.parametrize(
    ("question", "refers"),
    [
        ("when was it paid?", True),
        ("What about GraphRAG?", True),
        ("and the second quarter?", True),
        ("why not?", True),
        ("in more detail please", True),
        ("compare LightRAG with GraphRAG", False),
        ("Performance of ablated versions of LightRAG", False),
        ("Revenue in 2023?", False),
        ("What does the cafeteria serve on Wednesdays?", False),
    ],
)
def test_a_question_refers_back_only_when_it_needs_the_conversation(question: str, refers: bool) -> None:
    assert refers_back(question) is refers


HISTORY = [
    {"role": "user", "content": "compare LightRAG with GraphRAG"},
    {"role": "assistant", "content": "- Approach: LightRAG uses a graph index [1]; GraphRAG uses communities [2]."},
]


def test_a_new_topic_is_kept_as_typed_without_a_model_call() -> None:
    model = ScriptedChatModel()
    standalone, note = standalone_question(
        "Performance of ablated versions of LightRAG", HISTORY, ChatSession(model, 0.1), LlmSettings()
    )
    assert standalone == "Performance of ablated versions of LightRAG"
    assert note is not None and "stands alone" in note
    assert model.calls == []


def test_a_follow_up_that_refers_back_is_rewritten_by_the_model() -> None:
    model = ScriptedChatModel()
    invoices = [{"role": "user", "content": "Which invoice is still open?"},
                {"role": "assistant", "content": "Invoice INV-2025-0492 is open [1]."}]
    standalone, note = standalone_question("when was it paid?", invoices, ChatSession(model, 0.1), LlmSettings())
    assert standalone == "When was invoice INV-2025-0492 paid?" and note is None
    assert [kind for kind, *_ in model.calls] == ["complete"]


def test_sure_keywords_spare_the_intent_call_and_the_rest_still_asks() -> None:
    model = ScriptedChatModel(understanding='{"intent": "qa"}')
    sure = understand("compare LightRAG with GraphRAG", ChatSession(model, 0.1), LlmSettings(), rephrase=False)
    assert sure.intent == "comparison" and sure.source == "keywords" and sure.error is None
    assert sure.entities == ["LightRAG", "GraphRAG"] and model.calls == []
    unsure = understand("Who founded the company?", ChatSession(model, 0.1), LlmSettings(), rephrase=False)
    assert unsure.source == "llm" and len(model.calls) == 1
    always = understand("compare LightRAG with GraphRAG", ChatSession(model, 0.1),
                        LlmSettings(sure_keywords=False), rephrase=False)
    assert always.source == "llm" and len(model.calls) == 2
    rephrased = understand("compare LightRAG with GraphRAG", ChatSession(model, 0.1), LlmSettings(), rephrase=True)
    assert rephrased.source == "llm" and len(model.calls) == 3, "rephrasings need the model whatever the intent"


def test_the_understanding_call_asks_for_its_schema_and_validates_the_reply() -> None:
    """Structured output: the reply's JSON schema goes with the call (both backends take it as
    ``response_format``), and a reply of that schema is read by the pydantic model itself."""
    reply = '{"intent": "comparison", "search_queries": ["pump against valve", "pump or valve"]}'
    model = ScriptedChatModel(understanding=reply)
    understood = understand("compare the pump with the valve", ChatSession(model, unknown_margin=0.1), LlmSettings())
    assert model.schemas == [UnderstandReply.model_json_schema()]
    assert UnderstandReply.model_json_schema()["required"] == ["intent", "search_queries"]
    assert (understood.source, understood.intent) == ("llm", "comparison")
    assert understood.queries == ["compare the pump with the valve", "pump against valve", "pump or valve"]
    intent_only = ScriptedChatModel(understanding='{"intent": "qa"}')
    understand("who wrote it?", ChatSession(intent_only, unknown_margin=0.1),
               LlmSettings(sure_keywords=False), rephrase=False)
    assert intent_only.schemas == [IntentReply.model_json_schema()]


def test_the_row_list_looks_for_a_divisions_initials() -> None:
    wording, _ = row_phrases("How much operating profit did PepsiCo Beverages North America report in 2022?", 2)
    assert ("pbna",) in wording and ("operating", "profit") in wording


@pytest.mark.parametrize(("short", "text", "expected"), [
    ("LatAm", "How much net revenue did PepsiCo's Latin America division generate in 2021?", True),
    ("AMESA", "What was the operating profit of PepsiCo's Africa, Middle East and South Asia division?", True),
    ("APAC", "What were net sales in Asia Pacific in 2022?", True),
    ("LatAm", "What was revenue in America, then Latin?", False),  # the words in the short form's order
    ("LaTam", "What was revenue in Latin America?", False),  # mixed case breaks at its capitals: 'La' 'Tam'
    ("EMEA", "What were revenues in Europe in 2022?", False),  # one word is no name's short form
    ("Total", "What were Total Operating Assets?", False),  # one capital: a word, not a short form
    ("NA", "What were revenues in North America?", False),  # fewer letters than a short form is read by
    ("PBNA", "What did PepsiCo report in 2022?", False),
])
def test_a_short_form_is_the_starts_of_a_names_words(short: str, text: str, expected: bool) -> None:
    assert abbreviates(short, text) is expected


@pytest.mark.parametrize(("question", "places"), [
    ("How much net revenue did Activision Blizzard generate in the Americas in 2019?", ["Americas"]),
    ("What were net sales in EMEA in FY2022?", ["EMEA"]),  # a name with a digit is a year's or a quarter's
    ("What is the FY2022 total revenue for PepsiCo?", []),  # 'for' names the company
    ("How much revenue did it earn in PepsiCo?", []),  # a name the documents are named by
    ("What were sales in Q4 2022?", []),
    ("What is the win rate of LightRAG on the Legal dataset?", []),  # 'of' and 'on' name no place
    ("What were PepsiCo's revenues in Latin America's largest market?", []),  # an owner's name is no place
])
def test_the_places_a_question_names(question: str, places: list[str]) -> None:
    assert place_names(question, besides=["PEPSICO_2022_10K.pdf", "ACTIVISIONBLIZZARD_2019_10K.pdf"]) == places


def test_a_rewrite_that_invents_a_figure_or_a_citation_is_not_used() -> None:
    """Seen in the app: after an answer that opened with a computed figure, the local model rewrote "And how much did
    it have in accounts receivable at March 31, 2012?" as a figure of its own with a citation mark; the search then ran
    on that. Such a rewrite is not used: a follow-up that continues ('And …') joins the question before it."""
    history = [{"role": "user", "content": "How much did ABIOMED hold in cash and short-term marketable securities "
                                           "combined at March 31, 2012?"},
               {"role": "assistant", "content": "cash and short-term marketable securities combined, 2012: 77,223 "
                                                "thousand [1]"}]
    invented = "accounts receivable, 2012: 1,234 thousand, computed from the document's figures: $1,234 [1]"
    follow_up = "And how much did it have in accounts receivable at March 31, 2012?"
    standalone, note = _rewritten(follow_up, history, invented)
    assert standalone.startswith(follow_up) and "cash and short-term marketable securities" in standalone
    assert note is not None and "unusable rewrite" in note
    good = "How much did ABIOMED have in accounts receivable at March 31, 2012?"
    kept, note = _rewritten(follow_up, history, good)
    assert kept == good and note is None, "a figure of the question itself (its date) is no invention"
    typed, note = standalone_question("when was it paid?", HISTORY,
                                      ChatSession(ScriptedChatModel(rewrite="It was paid on 3 March [2]."), 0.1),
                                      LlmSettings())
    assert typed == "when was it paid?" and note is not None and "unusable" in note


def test_a_continuation_rewritten_as_an_earlier_turn_s_question_joins_the_last_one() -> None:
    """Seen in the app: "And in fiscal 2008?" after "… diluted earnings per share in fiscal 2009?" (itself after "… net
    income in fiscal 2009?") came back from the local model as the net income of 2008. A rewrite that swaps the last
    question's words for words of neither is not used; one that keeps them is."""
    history = [{"role": "user", "content": "What was Analog Devices' net income in fiscal 2009?"},
               {"role": "assistant", "content": "Net income, 2009: 247,772 thousand [1]"},
               {"role": "user", "content": "What was Analog Devices' diluted earnings per share in fiscal 2009?"},
               {"role": "assistant", "content": "Earnings per share-diluted — Net income, 2009: $0.85 [1]"}]
    follow_up = "And in fiscal 2008?"
    strayed = "What was Analog Devices' net income in fiscal 2008?"
    standalone, note = _rewritten(follow_up, history, strayed)
    assert standalone.startswith(follow_up) and "diluted earnings per share in fiscal 2009" in standalone
    assert note is not None and "joined to the previous question" in note
    kept = "What was Analog Devices' diluted earnings per share in fiscal 2008?"
    standalone, note = _rewritten(follow_up, history, kept)
    assert standalone == kept and note is None


def _rewritten(question: str, history: list[dict[str, str]], rewrite: str) -> tuple[str, str | None]:
    """The standalone question and note when the model rewrites ``question`` as ``rewrite``."""
    return standalone_question(question, history, ChatSession(ScriptedChatModel(rewrite=rewrite), 0.1), LlmSettings())
