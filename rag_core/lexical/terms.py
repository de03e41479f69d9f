"""How text becomes search terms, for questions and chunks alike: the tokenizer (identifiers, codes
and numbers kept whole, their parts added, plurals folded), the stopwords, the rare exact terms a
question names, and the terms the store keeps for each chunk."""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence

import Stemmer

from ..models import Chunk

_TOKEN = re.compile(r"\w+(?:(?:[-./:+#'’]|(?<=\d),(?=\d{3}\b))\w+)*%?")
_PART = re.compile(r"[^\W_]+")
_NUMERIC = re.compile(r"^[\d.,:/%+-]+$")

STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being below between
    both but by can could did do does doing down during each few for from further had has have having he her
    here hers herself him himself his how i if in into is it its itself just me more most my myself no nor
    not now of off on once only or other our ours ourselves out over own same she should so some such than
    that the their theirs them themselves then there these they this those through to too under until up
    very was we were what when where which while who whom why will with would you your yours yourself
    yourselves s t
    """.split()  # noqa: SIM905 - read as prose, not as a line of 1,000 characters
)


PERIOD_WORDS = frozenset(
    """
    fiscal fy year years yearly annual quarter quarters quarterly month months monthly week weeks period periods
    ended ending end january february march april may june july august september october november december
    """.split()  # noqa: SIM905 - read as prose
)
"""Words that name a period, not what happened in it: "fiscal 2012", "the year ended March 31" head a report's
results as its years do (their tokens: ``PERIOD_TERMS``)."""


def tokenize(text: str) -> list[str]:
    """Lowercase tokens for BM25: identifiers and numbers whole, plus their word parts.

    >>> tokenize("Invoice INV-2025-0492 grew 84.8% on GPT-4o-mini")
    ['invoice', 'inv-2025-0492', 'inv', '2025', '0492', 'grew', '84.8%', 'gpt-4o-mini', 'gpt', '4o', 'mini']
    """
    tokens: list[str] = []
    for match in _TOKEN.finditer(text.lower()):
        token = match.group().replace("’", "'")
        if token.endswith(("'s", "'")):
            token = token.rsplit("'", 1)[0]
        token = re.sub(r"(?<=\d),(?=\d)", "", token)
        parts = _PART.findall(token)
        if len(parts) > 1 and not _NUMERIC.match(token):
            tokens.append(token)
            tokens.extend(_stem(p) for p in parts if p not in STOPWORDS)
        elif len(parts) > 1 or token.endswith("%"):
            tokens.append(token)
        elif token and token not in STOPWORDS:
            tokens.append(_stem(token))
    return tokens


_QUOTED = re.compile(r'"([^"]{2,200})"|“([^”]{2,200})”')
_SHORT_NUMBER = 4
"""Digit strings this short (years, counts, page numbers) are too ordinary to name one thing."""


def exact_terms(text: str) -> list[tuple[str, ...]]:
    """The parts of a question that name one thing exactly, as BM25 terms: identifiers and codes (a
    token with a digit: ``INV-2023-48213``, ``BQ4471-23``, ``FY2018``, ``14.2``, ``48213``; not a
    bare number of up to four digits, nor a percentage: "more than 20%" is a threshold), proper
    names (capitalised words that do not open a sentence; adjacent ones form one name), and quoted
    phrases (all of their terms, as one group). Whether they are rare enough to count is the index's
    to say (``Bm25Index.exact_matches``).

    >>> exact_terms('Is invoice INV-2023-48213 from Acme paid? Ask Priya Raman about "late fee" in 2023.')
    [('late', 'fee'), ('inv-2023-48213',), ('acme',), ('priya', 'raman')]
    """
    found: list[tuple[str, ...]] = []
    for match in _QUOTED.finditer(text):
        phrase = tuple(dict.fromkeys(tokenize(match.group(1) or match.group(2))))
        if phrase:
            found.append(phrase)
    plain = _QUOTED.sub(" ", text)
    name: list[str] = []  # the words of the proper name being read ("Priya Raman": one group)
    last_end = -1
    for match in _TOKEN.finditer(plain):
        raw = match.group()
        whole = tokenize(raw)[:1]
        if not whole:
            continue
        term = whole[0]
        digits = sum(ch.isdigit() for ch in term)
        before = plain[: match.start()].rstrip()
        opens_sentence = not before or before[-1] in ".?!:"
        if not opens_sentence and raw[0].isupper() and raw[1:].islower() and raw.isalpha() and len(raw) > 2:
            if name and plain[last_end : match.start()].strip():
                found.append(tuple(name))
                name = []
            name.append(term)
            last_end = match.end()
            continue
        if name:
            found.append(tuple(name))
            name = []
        if digits and not term.endswith("%") and (not term.isdigit() or digits > _SHORT_NUMBER):
            found.append((term,))
    if name:
        found.append(tuple(name))
    return list(dict.fromkeys(found))


_PIECE = re.compile(r"[^\W_]+")
_SEPARATOR = re.compile(r"^[\s./#:_-]*$")
_PREFIX_LETTERS = 4
"""Most letters of a prefix an identifier is also found without ('inv-2023-48213' as '202348213';
fixed: a rule of how codes are written, not a tuning)."""
_PREFIX = re.compile(rf"^([a-z]{{1,{_PREFIX_LETTERS}}})[./#:_-]+(?=\d)")
"""A code's letter prefix set off by a separator ('inv-' of 'inv-2023-48213', 'wo-' of 'wo-779022'):
people drop it ('invoice 2023-48213') or glue it ('INV2023-48213')."""
_LONGEST_TYPED = 4
"""Most pieces a typed identifier is written in ('inv 2023 48213' is three)."""
_SHORTEST_TYPED = 5
"""Fewest letters and digits a typed identifier has: '2023' or 'q3' name nothing alone."""
_TYPED_DIGITS = 4
"""Fewest digits a typed identifier has: an invoice, order or part number. Short codes typed
another way ('MEK 1/2', 'TCR/CD3', '400mg') are left alone: on SciFact they misled (nDCG@10 0.6906
against 0.6921 without them)."""


def normal_forms(term: str) -> list[str]:
    """The forms an identifier is matched by, whatever its case and separators: its letters and
    digits alone ('inv-2023-48213' -> 'inv202348213'), and without a prefix set off by a separator
    ('202348213'). Only for a term with a digit; digit groups stay in order, so a twin with two
    digits swapped has other forms.

    >>> normal_forms("inv-2023-48213"), normal_forms("bq4471-23"), normal_forms("revenue")
    (['inv202348213', '202348213'], ['bq447123'], [])
    """
    if not any(ch.isdigit() for ch in term):
        return []
    forms = ["".join(_PIECE.findall(term))]
    prefix = _PREFIX.match(term)
    if prefix is not None:
        forms.append("".join(_PIECE.findall(term[prefix.end():])))
    return [form for form in dict.fromkeys(forms) if len(form) >= _SHORTEST_TYPED]


def typed_forms(question: str) -> list[tuple[str, str]]:
    """Each run of one to four adjacent pieces of the question, separated by nothing but spaces,
    dashes, dots, slashes, '#' or ':', that holds four digits or more: as written, and in its normal form
    (``normal_forms``). 'invoice inv 2023 48213?' gives ('inv 2023 48213', 'inv202348213'),
    ('2023 48213', '202348213'), …

    >>> [form for _, form in typed_forms("Status of inv 2023 48213?")]
    ['inv2023', 'inv202348213', '202348213', '48213']
    """
    pieces = list(_PIECE.finditer(question.lower()))
    found: list[tuple[str, str]] = []
    for start in range(len(pieces)):
        for end in range(start, min(start + _LONGEST_TYPED, len(pieces))):
            if end > start and not _SEPARATOR.match(question[pieces[end - 1].end():pieces[end].start()]):
                break
            run = pieces[start:end + 1]
            words = [m.group() for m in run if m.group().isalpha()]
            if words and (run[0].group() != words[0] or len(words) > 1 or len(words[0]) > _PREFIX_LETTERS
                          or words[0] in STOPWORDS):
                break  # a prefix ('inv', 'wo') opens a code; a word does not
            form = "".join(m.group() for m in run)
            if sum(ch.isdigit() for ch in form) >= _TYPED_DIGITS and len(form) >= _SHORTEST_TYPED:
                found.append((question[run[0].start():run[-1].end()], form))
    return list(dict.fromkeys(found))


def holds_exactly(text: str, group: Sequence[str]) -> bool:
    """Whether ``text`` holds an exact term: its one term, or a phrase's terms side by side (the
    index only knows which terms a chunk holds, not where: "Ingrid Sorensen … Anton Achebe" holds
    the words of "Anton Sorensen" but not the name)."""
    tokens = tokenize(text)
    if len(group) == 1:
        return group[0] in tokens
    width = len(group)
    return any(tuple(tokens[i : i + width]) == tuple(group) for i in range(len(tokens) - width + 1))


_CLAUSE = re.compile(r"[;:?!()\[\]\"“”]|\.\s|\s[-–—]\s")
"""What ends a run of words that may name one thing: a sentence's or a clause's punctuation, a dash
set apart; not a comma ('purchases of property, plant and equipment' is one label)."""
_LONGEST_LABEL = 8
"""Most content terms of a row label matched whole ('purchases of property, plant and equipment' is
five; fixed: labels longer than this are sentences, not names of a line)."""


def label_terms(text: str) -> tuple[str, ...]:
    """A row label's content terms in order, a parenthesis's words and figures aside: 'Effective tax
    rate (a)' and 'Net income (loss)' read as ('effective', 'tax', 'rate') and ('net', 'income').
    How a table's row label and a run of a question's words are compared (``phrases``)."""
    plain = SHARE_CLASS.sub(" ", re.sub(r"\([^()]*(?:\)|$)", " ", text))  # a note a cut left open too
    return tuple(t for t in tokenize(plain) if not any(ch.isdigit() for ch in t))


def label_key(terms: Sequence[str]) -> tuple[str, ...]:
    """Row label terms as two labels are compared: a plural that ends in '-es' after a hissing sound read as its
    singular ('taxe' of 'Income taxes' is 'tax', 'losse' is 'loss', 'approache' is 'approach'), which the plural
    rule of ``tokenize`` keeps apart; both sides alike, so 'cache' and 'caches' still agree."""
    return tuple(_HISSED_E.sub(r"\g<stem>", term) for term in terms)


_AND_OTHERS = re.compile(r"\s+and\s+other\s+(?P<kind>[\w\s’'-]+?)\s*$", re.IGNORECASE)
"""A label's closing 'and other …' ('… and other allowances'), what the others are the group 'kind'."""


def others_alike(label: str) -> str:
    """A row label without the others of its own kind it ends with ('Allowances for sales returns and price protection
    and other allowances': the allowances for sales returns and price protection, and smaller ones beside them); any
    other label as it is ('Prepaid expenses and other current assets' names the assets too)."""
    found = _AND_OTHERS.search(label)
    kind = set(label_key(label_terms(found.group("kind")))) if found else set()
    return label[: found.start()] if found and kind and kind <= set(label_key(label_terms(label[: found.start()]))) \
        else label


def plural_forms(term: str) -> tuple[str, ...]:
    """The index terms a label term may be written as (``label_key``): 'tax' and 'taxe', as 'tax' and 'taxes' are
    indexed; a term with no such plural, itself alone."""
    key, = label_key((term,))
    return (key, f"{key}e") if _HISSED_E.match(f"{key}e") else (term,)


_HISSED_E = re.compile(r"^(?P<stem>[a-z]{2,}(?:x|ss|sh|ch))e$")
"""A term whose last 'e' follows a hissing sound (x, ss, sh, ch): the plural's ('taxe' of 'taxes')."""


SHARE_CLASS = re.compile(r"\s+[-–—]\s+(?:common|preferred|class [a-c])\s*$", re.IGNORECASE)
"""The class of shares a row label names after a dash ('Share repurchases - common'): the line is its
name before it."""


def phrases(text: str) -> list[tuple[str, ...]]:
    """Every run of two to ``_LONGEST_LABEL`` consecutive content terms of ``text`` (``label_terms``
    of each clause, figures and stopwords left out), longest first: what a table's row label may
    be, as the question names it ('effective tax rate', 'tax rate' in "How much has the effective
    tax rate changed between FY2021 and FY2022?").

    >>> phrases("Has the effective tax rate changed?")
    [('effective', 'tax', 'rate', 'changed'), ('effective', 'tax', 'rate'), ('tax', 'rate', 'changed'), \
('effective', 'tax'), ('tax', 'rate'), ('rate', 'changed')]
    """
    found: list[tuple[str, ...]] = []
    asides = re.findall(r"\(([^()]*)\)", text)  # read on their own, and the words around them as one run:
    for clause in [*_CLAUSE.split(re.sub(r"\s*\([^()]*\)", "", text)), *asides]:  # 'other expense (income), net'
        terms = label_terms(clause)
        found += [terms[i:i + n] for n in range(2, min(_LONGEST_LABEL, len(terms)) + 1)
                  for i in range(len(terms) - n + 1)]
    return sorted(dict.fromkeys(found), key=len, reverse=True)


COMPARED_LETTERS = 5
"""Letters of a word compared where words are matched by their start, stems without a stemmer
('expenditures' and 'expenditure', 'comprehensive' and 'Comprehensiveness' agree; fixed: the row
labels matched and the rows kept depend on it)."""


def word_prefixes(text: str, *, shortest: int, content_only: bool) -> list[str]:
    """The words of a text (``shortest`` letters or more, '&' among them: 'R&D'), in order, each by
    its first ``COMPARED_LETTERS`` letters; without stopwords when ``content_only``. The one way
    answering matches a question's words to a table's labels."""
    words = re.findall(rf"[a-z&]{{{shortest},}}", text.lower())
    return [w[:COMPARED_LETTERS] for w in words if not (content_only and w in STOPWORDS)]


def _stem(word: str) -> str:
    """Harman's S-stemmer: fold plurals, nothing more aggressive."""
    if len(word) <= 3 or not word.isalpha():
        return word
    if word.endswith("ies") and not word.endswith(("eies", "aies")):
        return word[:-3] + "y"
    if word.endswith("es") and not word.endswith(("aes", "ees", "oes")):
        return word[:-1]
    if word.endswith("s") and not word.endswith(("us", "ss")):
        return word[:-1]
    return word


_STEMMERS = threading.local()


def word_stem(term: str) -> str:
    """A term as BM25 matches it when words are matched by their stem (``RAG_RETRIEVAL__STEM_WEIGHT``):
    a word's Snowball English stem ('cyclicality' and 'cyclical' -> 'cyclic', 'profitability' ->
    'profit'); a term with a digit or a separator (an identifier, a code, a figure) stays whole, so
    that 'inv-2023-48213' matches nothing but itself.

    >>> word_stem("cyclicality"), word_stem("cyclical"), word_stem("inv-2023-48213")
    ('cyclic', 'cyclic', 'inv-2023-48213')
    """
    if not term.isalpha():
        return term
    stemmer = getattr(_STEMMERS, "english", None)
    if stemmer is None:  # a stemmer object is not to be shared between threads: one each
        stemmer = _STEMMERS.english = Stemmer.Stemmer("english")
    return str(stemmer.stemWord(term))


def chunk_terms(chunks: Sequence[Chunk]) -> list[str]:
    """Each chunk's BM25 terms as the store keeps them (space-separated), from the text it is
    indexed by (``Chunk.indexed_text``: its contextual header and its text)."""
    return [" ".join(tokenize(chunk.indexed_text())) for chunk in chunks]


PERIOD_TERMS = frozenset(token for word in PERIOD_WORDS for token in tokenize(word))
"""``PERIOD_WORDS`` as ``tokenize`` writes them."""
