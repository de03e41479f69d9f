"""Which reports a question names: by the first word of the report's file title, said as a capitalised name ("PepsiCo's"
of 'PEPSICO_2022_10K.pdf', 'American Express' of 'AMERICANEXPRESS_2022_10K.pdf', 'ACME' of 'ACME_2022.pdf'), or by a
short form of that name as the report writes it in words ('AMEX' of 'American Express', ``acronyms.abbreviates``). The
search keeps to the reports a question names (``retrieval.scope``); the figure reader reads a figure from them alone
(``answer.figure_scope.of_named_reports``)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from ..chunk_text import document_title
from .acronyms import abbreviates
from .terms import STOPWORDS

_NAME_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9&-]*")
"""A word of a question, its possessive taken off first ('PepsiCo' of "PepsiCo's")."""
_NAME_WORDS = 3
"""Most words of a company's name written apart that a report's title writes as one ('American Express')."""
_SHORT_FORM = re.compile(r"[A-Za-z]*[A-Z][A-Za-z]*[A-Z][A-Za-z]*")
"""A word that may be a short form of a name: letters only, two capitals or more ('AMEX', 'BofA')."""


def reports_named(question: str, documents: Sequence[str], texts: Callable[[str], Iterable[str]]) -> list[str]:
    """The ``documents`` (file names) the question names, in their order: by their title's first word
    (``report_key``) said as a run of capitalised words, or by a short form of the name the document's ``texts``
    write it as in words (``spelled``; read only when the question holds a word that may be one, two capitals or
    more and no report's own title word: 'AMEX', not 'PepsiCo'). [] when it names none."""
    words = _NAME_WORD.findall(re.sub(r"['’]s\b", "", question))
    runs = (words[i:i + n] for n in range(1, _NAME_WORDS + 1) for i in range(len(words) - n + 1))
    said = {letters("".join(run)) for run in runs if all(word[:1].isupper() or word[:1].isdigit() for word in run)}
    keys = {document: report_key(document) for document in documents}
    named = [document for document in documents if keys[document] and keys[document] in said]
    short = [word for word in words if _SHORT_FORM.fullmatch(word) and letters(word) not in keys.values()]
    return [document for document in documents if document in named or (
        short and keys[document] and (name := spelled(keys[document], texts(document)))
        and any(abbreviates(word, name) for word in short))]


def spelled(key: str, texts: Iterable[str]) -> str:
    """A report's name as ``texts`` write it in two words or more, each capitalised ('American Express' of
    'americanexpress'); '' when they never do."""
    for text in texts:
        words = _NAME_WORD.findall(text)
        for n in range(2, _NAME_WORDS + 1):
            for i in range(len(words) - n + 1):
                if all(word[:1].isupper() for word in words[i:i + n]) and letters("".join(words[i:i + n])) == key:
                    return " ".join(words[i:i + n])
    return ""


def report_key(document: str) -> str:
    """The first word of a report's title, letters and digits only, casefolded ('pepsico' of 'PEPSICO_2022_10K.pdf');
    '' when it holds no letter, is one letter long or is a word of no name ('The_report.pdf')."""
    key = letters((document_title(document).split() or [""])[0])
    return key if len(key) >= 2 and re.search(r"[a-z]", key) and key not in STOPWORDS else ""


def letters(name: str) -> str:
    """A name's letters and digits, casefolded: 'cocacola' of 'Coca-Cola' and of 'COCA-COLA'."""
    return re.sub(r"[^0-9a-z]", "", name.casefold())
