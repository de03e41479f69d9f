"""What a question wants (summary, comparison, technical, qa) and how to search for it.

A follow-up that refers back ("when was it paid?", "what about GraphRAG?") is first rewritten to
stand alone; a question that stands alone is kept as typed, so a new topic stays new. The intent
comes from keywords where they are sure (``sure_intent``: a summary request, a comparison with its
sides, a question about figures) and from one small LLM call only where they are not; that call
returns ``{"intent": ..., "search_queries": [two rephrasings]}``. Its reply is parsed defensively;
on failure, timeout or garbage, the keyword classifier and the original question take over. That
path also runs alone without an LLM.

Before search, every phrasing is cleaned (``clean_query``): role-play ("Assume that you are an
analyst…") and answer-format instructions ("Round your answer to two decimal places", "Answer in
USD millions") are taken out, and the statements they name are kept. ``search_phrasings`` then adds
the deterministic phrasings the settings ask for: the content words, and the inputs of the ratios
and statements the question names (``vocabulary``).
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Sequence
from typing import get_args

from pydantic import ValidationError

from ..errors import GenerationError
from ..lexical.acronyms import name_acronyms
from ..lexical.paraphrase import named_metrics
from ..lexical.terms import STOPWORDS, tokenize
from ..lexical.vocabulary import asks_why, expansion, statements_named
from ..models import Intent, IntentReply, Message, Understanding, UnderstandReply
from ..runtime.llm import ChatSession
from ..settings import LlmSettings, RetrievalSettings
from ..text import CITATION, following_up
from ..trace import ms_since
from .question_cleanup import clean_query
from .reading_prompts import intent_messages, rewrite_messages, understand_messages

INTENTS: tuple[str, ...] = get_args(Intent)

_COMPARISON = re.compile(
    r"\b(compar\w*|versus|vs\.?|differen(?!tials?\b)\w*|differ|contrast\w*|better than|worse than|similarit\w*|"
    r"distinguish\w*|pros and cons)\b",
    re.IGNORECASE,
)
_SUMMARY = re.compile(
    r"\b(summar\w*|overview|tl;?dr|"
    r"main (points|ideas|contributions?|findings?|takeaways?)|"
    r"key (points|takeaways?|ideas|findings?|contributions?)|"
    r"what is (this|the) (document|paper|report|file|article) about|outline of|abstract of|recap)\b",
    re.IGNORECASE,
)
_TECHNICAL = re.compile(
    r"\b(tables?|figures?|performance|results?|metrics?|accuracy|precision|recall|f1|scores?|ablat\w*|"
    r"benchmarks?|latency|throughput|parameters?|hyperparameters?|percent\w*|how (many|much)|numbers?|"
    r"revenue|cost|costs|expenses?|growth|rate|ratio|statistics?|configuration|settings?|versions?|"
    r"dataset sizes?|tokens?)\b|%",
    re.IGNORECASE,
)
_YEAR_AGAINST_YEAR = re.compile(
    r"(?<!\d)(?:19|20)\d\d\b.*\b(?:compar\w*(?:\s+(?:with|to|against))?|versus|vs\.?|against)\s+\(?(?:the\s+)?"
    r"(?:fiscal\s+(?:year\s+)?|fy\s?'?)?(?:19|20)\d\d\b", re.IGNORECASE)
"""One figure of one year compared with another's ('net income in 2022 compared with 2021', 'its tax rate in
FY2022 compare to FY2021'): the change of a figure, asked as a comparison."""
_DIFFERENCE_OF_YEARS = re.compile(
    r"\b(?:difference|change)\b.*\b(?:from|between)\s+(?:(?:fiscal\s+(?:year\s+)?|fy\s?'?)?(?:19|20)\d\d)\s+(?:to|and)\s+"
    r"(?:fiscal\s+(?:year\s+)?|fy\s?'?)?(?:19|20)\d\d\b", re.IGNORECASE)
"""A figure's difference between two years ('the difference in millions between the total cost of common share
repurchases from 2015 to 2016'): its change, not a comparison of two things."""
_YES_NO = re.compile(r"^\s*(?:is|are|was|were|does|do|did|has|have|had|can|could|will|would|should)\b",
                     re.IGNORECASE)
"""How a yes/no question opens ('Is the business subject to cyclicality?')."""
_ENTITY_SPLIT = re.compile(r"\s+(?:with|and|to|against|versus|vs\.?|or|from)\s+", re.IGNORECASE)
_FOLLOW_UP = re.compile(r"\b(it|its|they|them|their|this|that|these|those|he|she|his|her|the same|also)\b", re.I)
_CONTINUATION = re.compile(
    r"^\s*(?:and|but|or|also|so|then|what about|how about|what else|why not|same for|and what)\b", re.IGNORECASE
)
_STANDS_ALONE_WORDS = 5
"""A follow-up this short without a name of its own refers back (fixed: a rule of reading, not a tuning)."""
_COMPARE_LEAD = re.compile(
    r"^(?:please\s+)?(?:compare|contrast|what(?:'s| is| are) the (?:differences?|similarit\w+) between|"
    r"how does|how do|difference between|differences between)\s+",
    re.IGNORECASE,
)


_ONE_IDEA = re.compile(
    r"\b(gist|in a nutshell|main (idea|point|argument|message)|key (idea|message)|central idea|core idea)\b",
    re.IGNORECASE,
)


def asks_one_idea(question: str) -> bool:
    """Whether a question asks for a document's main idea, its gist, in a nutshell."""
    return bool(_ONE_IDEA.search(question))


def classify_keywords(question: str) -> Intent:
    """Deterministic intent: a ratio asked for in plain words (technical: "how does its debt compare with its
    equity?" asks for a figure, not two sides) or one figure's years compared, comparison, then summary, then a
    question of what drove a change (qa: the report's prose says why, ``vocabulary.asks_why``), then technical,
    else qa."""
    if _asks_ratio(question) or _years_compared(question):
        return "technical"
    if _COMPARISON.search(question):
        return "comparison"
    if _SUMMARY.search(question) or asks_one_idea(question):
        return "summary"
    if asks_why(question):
        return "qa"
    if _TECHNICAL.search(question):
        return "technical"
    return "qa"


def _asks_ratio(question: str) -> bool:
    """Whether a question asks for a ratio in plain words, not yes or no ("how long do its customers take to pay?")."""
    return bool(named_metrics(question)) and not _YES_NO.match(question)


def _years_compared(question: str) -> bool:
    """Whether a question compares one figure's years, not two things (``_YEAR_AGAINST_YEAR``), and is no yes/no."""
    return bool(_YEAR_AGAINST_YEAR.search(question) or _DIFFERENCE_OF_YEARS.search(question)) and not _YES_NO.match(
        question)


def sure_intent(question: str) -> Intent | None:
    """The intent when the keywords leave no doubt, else None (then the LLM reads it): a summary request; a
    comparison whose sides can be named; a question of what drove a change, answered in the report's words (qa: as
    technical, the small model copied the table lines of the figure that moved and not why); a question about
    figures, tables or results that is none of these (a ratio asked for in plain words first, whatever it compares,
    and one figure's year against another's: its change);
    a yes/no question that names no figure, statement or ratio, which the text answers in a sentence (the small
    model read "Is the business subject to cyclicality?" as technical, and its intent call costs seconds). A
    question after a document's main idea is a summary (its prompt asks for a few sentences: ``asks_one_idea``). A
    bare question ("who founded the company?") is not sure: it may be any."""
    if _asks_ratio(question) or _years_compared(question):
        return "technical"
    if _COMPARISON.search(question):
        return "comparison" if len(comparison_entities(question)) >= 2 else None
    if _SUMMARY.search(question) or asks_one_idea(question):
        return "summary"
    if asks_why(question):
        return "qa"
    if _TECHNICAL.search(question):
        return "technical"
    if _YES_NO.match(question) and not re.search(r"\d", question) and not statements_named(question):
        return "qa"
    return None


def refers_back(question: str) -> bool:
    """Whether a question needs the conversation to be understood: a pronoun or reference ("it",
    "these", "the same"), an opening that continues ("and", "what about"), or a few words that name
    nothing ("why?", "in more detail"). "Performance of ablated versions of LightRAG" and "compare
    LightRAG with GraphRAG" do not: each starts its own topic.

    >>> refers_back("when was it paid?"), refers_back("what about GraphRAG?"), refers_back("why not?")
    (True, True, True)
    >>> refers_back("compare LightRAG with GraphRAG"), refers_back("Performance of ablated versions of LightRAG")
    (False, False)
    """
    if _FOLLOW_UP.search(question) or _CONTINUATION.match(question):
        return True
    words = re.findall(r"[\w'-]+", question)
    names = any(
        any(ch.isdigit() for ch in word) or (i > 0 and word[0].isupper()) or any(ch.isupper() for ch in word[1:])
        for i, word in enumerate(words)
    )
    return len(words) < _STANDS_ALONE_WORDS and not names


def comparison_entities(question: str) -> list[str]:
    """The sides of a comparison, e.g. 'compare LightRAG with GraphRAG' -> both names."""
    text = _COMPARE_LEAD.sub("", question.strip().rstrip("?.! "))
    text = re.sub(r"\s+(compare|differ)\w*\b.*$", "", text, flags=re.IGNORECASE)
    parts = [p.strip(" ,;:'\"") for p in _ENTITY_SPLIT.split(text) if p.strip(" ,;:'\"")]
    if len(parts) < 2:
        return []
    return [p for p in parts if len(p) <= 80][:4]


_QUESTION_WORDS = frozenset(["tell", "show", "give", "list", "explain", "describe", "please", "does", "did", "do"])


def keyword_query(question: str) -> str | None:
    """A deterministic second phrasing: the question's content words only ("what is the interest
    expense in 2009?" -> "interest expense 2009"), or None when that changes nothing."""
    words = re.findall(r"[\w%.,'-]+", question)
    kept = [w.strip(".,'") for w in words if w.lower().strip(".,'") not in STOPWORDS | _QUESTION_WORDS]
    query = " ".join(w for w in kept if w)
    return query if query and query.casefold() != question.strip().rstrip("?.! ").casefold() else None


def search_phrasings(phrasings: Sequence[str], settings: RetrievalSettings) -> list[tuple[str, str]]:
    """The phrasings to search with, each with where it came from: the first given phrasing (the
    question) and its rephrasings, cleaned when ``settings.clean_queries``; then the content words
    (``keyword_phrasing``) with the initials of its names (``name_acronyms``: a report's segment tables
    write 'Frito-Lay North America' as 'FLNA') and the ratio and statement vocabulary
    (``metric_vocabulary``) of the question. Each phrasing once."""
    clean = clean_query if settings.clean_queries else str.strip
    given = [clean(p) for p in phrasings if p.strip()]
    if not given:
        return []
    found = [(given[0], "question"), *((p, "rephrasing") for p in given[1:])]
    words = keyword_query(given[0])
    if short := " ".join(name_acronyms(given[0])):  # 'Frito-Lay North America' as its report writes it, 'FLNA'
        words = f"{words or given[0]} {short}"
    if settings.keyword_phrasing and words:
        found.append((words, "keywords"))
    terms = expansion(given[0]) if settings.metric_vocabulary else None
    if terms:
        found.append((f"{words or given[0]} {terms}", "vocabulary"))
    unique: dict[str, tuple[str, str]] = {}
    for phrasing, source in found:
        unique.setdefault(phrasing.casefold(), (phrasing, source))
    return list(unique.values())


def keyword_understanding(question: str, error: str | None = None, raw: str | None = None) -> Understanding:
    intent = classify_keywords(question)
    entities = comparison_entities(question) if intent == "comparison" else []
    return Understanding(intent=intent, queries=[question], source="keywords", error=error, raw=raw, entities=entities)


def parse_understanding(raw: str, question: str) -> Understanding:
    """Read the model's JSON: a reply of the asked schema (``UnderstandReply``) is validated as is;
    else, defensively, the first {...} in the reply, a known intent, and up to two non-empty string
    queries (a runtime that ignores the schema). Anything else falls back to keywords, with the
    reason kept."""
    try:
        valid = UnderstandReply.model_validate_json(raw)
        return _understanding(valid.intent, valid.search_queries, question, raw)
    except ValidationError:
        pass
    match = re.search(r"\{.*\}", raw, re.DOTALL)
    if not match:
        return keyword_understanding(question, error="the reply held no JSON object", raw=raw)
    try:
        data = json.loads(match.group(0))
    except json.JSONDecodeError as exc:
        return keyword_understanding(question, error=f"the reply was not valid JSON ({exc.msg})", raw=raw)
    if not isinstance(data, dict):
        return keyword_understanding(question, error="the JSON was not an object", raw=raw)
    intent = str(data.get("intent", "")).strip().lower()
    if intent not in INTENTS:
        return keyword_understanding(question, error=f"unknown intent {intent!r}", raw=raw)
    queries = data.get("search_queries")
    return _understanding(intent, [q for q in queries if isinstance(q, str)] if isinstance(queries, list) else [],
                          question, raw)


def _understanding(intent: str, queries: Sequence[str], question: str, raw: str) -> Understanding:
    """The model's reading: the question first, then up to two of its rephrasings (non-empty, not
    the question again, at most 300 characters); a comparison's sides from the question. A comparison of a question
    that names no two sides and no word of comparing is the keywords' intent: the small model called "Which banks
    are the Syndication Agents of …?" a comparison, and its answer then wrote strengths, weaknesses and a verdict."""
    rephrasings = [q.strip()[:300] for q in queries if q.strip() and q.strip().casefold() != question.casefold()]
    entities = comparison_entities(question) if intent == "comparison" else []
    if intent == "comparison" and len(entities) < 2 and not _COMPARISON.search(question):
        intent = classify_keywords(question)  # 'Which banks are the Syndication Agents …?' compares nothing
    return Understanding(intent=intent, queries=[question, *rephrasings[:2]], source="llm", raw=raw,
                         entities=entities)


def trim_history(history: Sequence[Message], max_messages: int, max_chars: int) -> list[Message]:
    """The most recent messages, at most ``max_messages`` and ``max_chars`` characters in all. The
    last question asked is always kept (a follow-up refers to it): an answer after it that is too
    long for the room left is cut to its beginning, and so is the oldest message kept."""
    recent = list(history)[-max_messages:] if max_messages else []
    asked = next((i for i in range(len(recent) - 1, -1, -1) if recent[i]["role"] == "user"), -1)
    held = min(len(recent[asked].get("content", "")), max_chars) if asked >= 0 else 0
    kept: list[Message] = []
    used = 0
    for i in range(len(recent) - 1, -1, -1):
        content = recent[i].get("content", "")
        room = max_chars - used - (held if i > asked else 0)
        if len(content) > room:
            if room > 0:
                kept.append({"role": recent[i]["role"], "content": content[:room]})
                used += room
            if i > asked:
                continue  # the last question still comes
            break
        kept.append({"role": recent[i]["role"], "content": content})
        used += len(content)
    return list(reversed(kept))


def standalone_question(
    question: str, history: Sequence[Message], chat: ChatSession, llm: LlmSettings
) -> tuple[str, str | None]:
    """A follow-up rewritten to stand alone (the user still sees what they typed), and a note
    saying what was done. The first turn, and a question that does not refer back (``refers_back``),
    are kept as typed: no model call, and a new topic is not bent towards the previous one."""
    if not history:
        return question, None
    if not refers_back(question):
        return question, "the question stands alone (no reference to earlier turns): kept as typed"
    if chat.model is not None:
        try:
            raw = chat.complete(
                rewrite_messages(question, history),
                max_tokens=llm.rewrite_max_tokens,
                timeout_s=llm.understand_timeout_s,
            )
        except GenerationError as exc:
            return question, f"follow-up rewrite failed: {exc}"
        rewritten = raw.strip().strip('"').splitlines()[0].strip() if raw.strip() else ""
        unchanged = rewritten.rstrip("?.! ").casefold() == question.strip().rstrip("?.! ").casefold()
        usable = 3 <= len(rewritten) <= 4 * len(question) + 200 and not _invented(rewritten, question, history) and \
            not (_CONTINUATION.match(question) and _of_another_turn(rewritten, question, history))
        if (unchanged or not usable) and _CONTINUATION.match(question) and _previous_question(history):
            # "And on the Mix dataset?" continues the previous question whatever the model made of it
            return (_joined(question, history),
                    f"the model {'kept the follow-up as typed' if unchanged else 'gave an unusable rewrite'}; one "
                    "that continues ('and …', 'what about …') was joined to the previous question")
        if usable:
            return rewritten, None
        return question, "follow-up rewrite gave an unusable reply; kept the question as typed"
    if _previous_question(history) and (_FOLLOW_UP.search(question) or len(question.split()) <= 4):
        return _joined(question, history), "follow-up joined to the previous question (no LLM)"
    return question, None


def _invented(rewritten: str, question: str, history: Sequence[Message]) -> bool:
    """Whether a rewrite says what was never said: a citation mark, or a figure neither the follow-up nor the turns
    before it hold (told "And how much did it have in accounts receivable?" after an answer that opened with a
    computed figure, the local model wrote "accounts receivable, 2012: 1,234 thousand, computed from … [1]"); an
    invoice's number the answer before it gave is no invention."""
    asked = set(_FIGURE.findall(" ".join((question, *(m["content"] for m in history)))))
    return bool(CITATION.search(rewritten)) or not set(_FIGURE.findall(rewritten)) <= asked


_FIGURE = re.compile(r"\d[\d,.]*\d|\d")


def _of_another_turn(rewritten: str, question: str, history: Sequence[Message]) -> bool:
    """Whether a continuation's rewrite swaps words of the question it continues, the last one asked, for words of
    neither: told "And in fiscal 2008?" after "What was Analog Devices' diluted earnings per share in fiscal 2009?",
    the local model wrote "What was Analog Devices' net income in fiscal 2008?", the question two turns back. A rewrite
    that keeps the last question's words but those the follow-up puts in their place ('How much did ABIOMED have in
    accounts receivable …' after its cash) is the follow-up's."""
    last, follow_up, said = _words(_previous_question(history)), _words(question), _words(rewritten)
    return bool(said - follow_up - last) and bool({w for w in last - said - follow_up if not w.isdigit()})


def _words(text: str) -> set[str]:
    return {w for w in tokenize(text) if w not in STOPWORDS and len(w) > 1}


def _previous_question(history: Sequence[Message]) -> str:
    return next((m["content"] for m in reversed(history) if m["role"] == "user"), "")


def _joined(question: str, history: Sequence[Message]) -> str:
    return following_up(question, _previous_question(history)[:300])


def understand(question: str, chat: ChatSession, llm: LlmSettings, *, rephrase: bool = True) -> Understanding:
    """Intent and search phrasings for a question: the LLM's when configured, else keywords.
    Without ``rephrase`` the LLM is asked for the intent alone (a reply of a few tokens), and not
    at all when the keywords are sure of it (``llm.sure_keywords``)."""
    if chat.model is None or not llm.understand_with_llm:
        return keyword_understanding(question)
    if not rephrase and llm.sure_keywords and sure_intent(question) is not None:
        return keyword_understanding(question)
    messages, max_tokens, reply = (
        (understand_messages(question), llm.understand_max_tokens, UnderstandReply)
        if rephrase
        else (intent_messages(question), llm.intent_max_tokens, IntentReply)
    )
    try:
        raw = chat.complete(messages, max_tokens=max_tokens, timeout_s=llm.understand_timeout_s,
                            schema=reply.model_json_schema())
    except GenerationError as exc:
        return keyword_understanding(question, error=f"LLM unavailable ({exc})")
    understanding = parse_understanding(raw, question)
    return understanding if rephrase else understanding.model_copy(update={"queries": [question]})


def read_question(
    typed: str, recent: Sequence[Message], chat: ChatSession, llm: LlmSettings, *, rephrase: bool
) -> tuple[str, Understanding, dict[str, float], list[str]]:
    """The question made to stand alone (``standalone_question``), its intent and phrasings
    (``understand``), the milliseconds of each, and notes for the trace on how they were read."""
    clock = time.perf_counter()
    standalone, rewrite_note = standalone_question(typed, recent, chat, llm)
    timings = {"rewrite": ms_since(clock)}
    clock = time.perf_counter()
    understanding = understand(standalone, chat, llm, rephrase=rephrase)
    timings["understand"] = ms_since(clock)
    sure = (understanding.source == "keywords" and understanding.error is None and chat.model is not None
            and llm.understand_with_llm)
    sure_note = f"intent {understanding.intent} from keywords, which are sure of it: no LLM call"
    return standalone, understanding, timings, [n for n in (rewrite_note, sure_note if sure else None,
                                                              understanding.error) if n]
