"""A table row's words as the figure reader compares them: the content words of a text by their first letters
(``stems``; a rank such as 'level 3' a word too), a row label's own words (``label_stems``: no notes, no sign word, no
class of shares, nor the shares dividends are paid on), the words that name no line item (``GENERIC``) or only qualify
one (``QUALIFIERS``), those of an amount before something is taken from it (``BEFORE``), a tax's benefit said by its
provision (``with_tax_benefit``), and whether a label's words are those of a report name (``in_words``)."""

from __future__ import annotations

import re
from os.path import commonprefix

from ..chunk_text import MONTH
from ..lexical import line_items
from ..lexical.terms import COMPARED_LETTERS, SHARE_CLASS, STOPWORDS, others_alike, word_prefixes
from ..tables.lines import PERIOD_END, PERIOD_START

_SHORTEST = 2
"""Letters of the shortest word a line item's name is read by ('fy', 'r&d'; fixed with the labels below)."""


def _per_share_earnings(found: re.Match[str]) -> str:
    """'EPS' or a statement's name of the figure per share ('Net income (loss) per') as 'earnings per share'."""
    return "earnings per share" if found.group(0).lower() == "eps" else "earnings per"


def stems(text: str) -> set[str]:
    """The content words of a text by their first letters, numbers left out; words reports use alike for one line
    item's name are one ('restructuring costs' is 'Restructuring charges', 'United States' 'U.S.')."""
    text = _UNITED_STATES.sub("U.S.", text)
    plain = _BEFORE_TAXES.sub(lambda m: f"before {m.group('income') or m.group('its') or ''}taxes",
                              _EPS.sub(_per_share_earnings, _EFFECTS.sub("impact", text)))
    found = {ALIKE.get(stem, stem) for stem in word_prefixes(plain, shortest=_SHORTEST, content_only=True)}
    found |= {f"{rank.group('of').lower()} {rank.group('n')}" for rank in RANKED.finditer(text)}
    found |= {_US_WORD} if _US.search(text) else set()
    return found | {"other"} if _OTHER.search(text) else found


_US = re.compile(r"(?<![\w-])U\.S\.?(?!\w)")
"""'U.S.', whose letters are too short to be read as a word: a word of its own ('U.S. loss before income taxes' names
the 'U.S.' row), never of 'non-U.S.'."""
_US_WORD = "us"  # as "US" is read
_UNITED_STATES = re.compile(r"\bUnited States\b", re.IGNORECASE)
"""'U.S.' written out: the 'United States' row of a table of income before income taxes is the 'U.S.' income."""


RANKED = re.compile(r"\b(?P<of>level|tier|stage)\s*(?P<n>[1-3])\b", re.IGNORECASE)
"""A line item named by its rank ('Total level 3 financial assets', 'Tier 1 capital', 'Stage 2 loans'): its number,
which ``stems`` otherwise leaves out, is a word of its name with the rank's ('level 3', beside 'level')."""


def ranked(words: set[str]) -> set[str]:
    """The ranks among a text's ``stems`` ('level 3'): no words of their own, beside the word they rank."""
    return {word for word in words if " " in word}


_EFFECTS = re.compile(r"\beffects?\b", re.IGNORECASE)
"""'Effects' starts as 'effective' does: 'net of federal income tax effects' is no effective tax rate."""
_EPS = re.compile(r"\bEPS\b|\b(?:net\s+)?(?:income|earnings|loss)(?:\s*\((?:loss|income)\))?\s+per(?=\s+(?:basic\s+|"
                  r"diluted\s+)?(?:common\s+)?share)", re.IGNORECASE)
"""'Diluted EPS' is the row of 'diluted earnings per share'; so are 'Diluted net income (loss) per share' and 'Basic
loss per share' (a loss per share is the earnings per share below nought)."""
_BEFORE_TAXES = re.compile(r"\bbefore\s+(?:(?:the\s+)?provision\s+for\s+(?P<income>(?:income\s+)?)taxes|"
                           r"(?P<its>(?:income\s+)?)tax\s+(?:provision|expense))\b", re.IGNORECASE)
"""The tax an amount is before, by the tax's line ('Income (loss) before provision for income taxes', 'Income before
income tax expense'): the amount before income taxes."""
_OTHER = re.compile(r"\bother\b", re.IGNORECASE)
"""'Other income, net' is not net income: 'other' names a line item apart, though a stop word elsewhere."""
ALIKE = {"cost": "costs", "charg": "costs", "tax": "taxes", "openi": "begin", "closi": "endin", "payme": "paid"}
"""Stems reports use alike for one line item's name ('costs' and 'charges'; an 'opening balance' is the beginning one,
a 'closing balance' the ending one)."""

GENERIC = {"total", "net", "amoun", "figur", "value", "fisca", "year", "years", "conso", "compa", "fy", "usd",
           "milli", "thous", "billi", "what", "answe", "round", "decim", "place", "chang", "growt", "rate",
           "avera", "perce", "ratio", "incre", "decre", "betwe", "unadj", "repor", "gaap", "quant", "expec"}
"""Stems that name no line item: a label matched on these alone is no match."""

QUALIFIERS = {"net", "total", "gross", "conso", "inc", "corp", "ltd", "llc", "plc"}
"""Words a report's row label may add to a line item's name without naming another line (a
company's 'Inc' beside its name: 'ABIOMED, Inc' is the row of 'ABIOMED')."""
BEFORE = re.compile(r"\bbefore\b|\bpre-?tax", re.IGNORECASE)
"""An amount before something is taken from it ('Income before income tax provision', 'Pre-tax
earnings'): the row of neither the amount after it nor what is taken, unless the metric says so too."""


def same_side(label: str, metric: str) -> bool:
    """Whether a label and a metric are on one side of what is taken (``BEFORE``): both before it, or neither. A
    label that names each word of a metric on the other side names it not, so it needs no table to say the rest:
    'International income taxes - net' (a rate's reconciliation) is no 'international income before income taxes',
    which the 'Income Before Income Taxes' table's 'International' row is."""
    return bool(BEFORE.search(label)) == bool(BEFORE.search(metric))


_AFTER = re.compile(r"\b(?:after|net\s+of)\s+(?P<taken>[^,;()]+)", re.IGNORECASE)
"""An amount after something is taken from it ('Deferred tax assets after valuation allowance', 'Receivables, net
of allowance')."""


def after_taken(label: str, metric: str) -> bool:
    """Whether a row's label names an amount after what the metric asks is taken from it ('Deferred tax assets after
    valuation allowance' is not the 'valuation allowance on deferred tax assets'; 'Net income after taxes' is still
    net income), unless the metric says 'after' or 'net of' too."""
    found = _AFTER.search(label)
    if found is None or _AFTER.search(metric):
        return False
    taken = label_stems(found.group("taken")) - QUALIFIERS
    return bool(taken) and taken <= stems(metric) and not taken <= label_stems(label[:found.start()])


def other_side(heading: str, metric: str) -> bool:
    """Whether a row's heading names one side of a tax provision and the metric asks a tax of the other ('State and
    local' under 'Current taxes' is no 'deferred state and local tax expense', where 'Deferred taxes' lists one too);
    a balance sheet's 'Current liabilities:' is no side of a tax ('Deferred revenues' under it are deferred)."""
    said, asked = stems(_NOT_CURRENTLY.sub(" ", heading)), stems(metric)
    return asked >= _TAX and not said & _BALANCES and any(
        side <= said and not side <= asked and other <= asked for side, other in (_SIDES, _SIDES[::-1]))


_NOT_CURRENTLY = re.compile(r"\bnot\s+currently\s+(?:deductible|taxable)\b", re.IGNORECASE)
"""What a deferred tax asset's heading says of its items ('Accruals not currently deductible'): no current side."""


def no_side(named: str, metric: str) -> bool:
    """Whether a row, by its label and heading (``named``), is a tax provision's whole where the metric asks one side
    of it ('Total Provision for income taxes' is no 'total current income tax provision'; 'Provision for income taxes:
    Payable currently' is): it names the tax and neither side."""
    said, asked = stems(named), stems(metric)
    return asked >= _TAX and bool(asked & _CHARGED) and said >= _TAX and any(side <= asked for side in _SIDES) and not (
        any(side <= said for side in _SIDES))


_SIDES, _TAX, _BALANCES = (stems("current"), stems("deferred")), stems("tax"), stems("assets liabilities")
_CHARGED = stems("provision expense benefit")
"""What a tax charged to the year is called: a provision's side is its current or deferred part."""


_CLOSING = re.compile(rf"^\s*(?:ending|closing)\s+balances?\b|(?:^|\s)balances?\b[,\s]*(?:at\s+|as\s+of\s+)?"
                      rf"(?:(?:the\s+)?end\b|{MONTH}\s+3[01]\b)|\s[-–—]\s*{MONTH}\s+3[01]\s*$|{PERIOD_END.pattern}",
                      re.IGNORECASE)
"""A roll-forward's closing row: 'Ending balance', 'Balance at end of year', 'Balance, December 31', 'Gross UTB Balance
at December 31', 'Unrecognized tax benefits – December 31', 'Allowance, end of year' (not 'Balance, January 1')."""
_OPENING = re.compile(r"^\s*(?:beginning|opening)\s+balances?\b|(?:^|\s)balances?\b[,\s]*(?:at\s+|as\s+of\s+)?"
                      rf"(?:(?:the\s+)?(?:beginning|start)\b|january\s+1\b)|\s[-–—]\s*january\s+1\s*$|{PERIOD_START.pattern}",
                      re.IGNORECASE)
"""A roll-forward's opening row: 'Beginning balance', 'Balance, beginning of year', 'Unrecognized tax benefits –
January 1': the balance at the end of the year before."""


def closes(label: str) -> bool:
    """Whether a row's label is a roll-forward's closing balance (``_CLOSING``): what its table's title names, at the
    end of its column's year."""
    return _CLOSING.search(label) is not None


def opens(label: str, question: str) -> bool:
    """Whether a row's label is a roll-forward's opening balance (``_OPENING``) and the question asks no opening: its
    figure under a year is the balance at the end of the year before ('at the end of 2022' is not 'Unrecognized tax
    benefits – January 1 | 2022')."""
    return _OPENING.search(label) is not None and not re.search(r"\b(?:beginning|opening|start|january\s+1)\b",
                                                                question, re.IGNORECASE)


_AT_DATE = re.compile(r"(?:\s+(?:at|as of)|,)\s+(?:the\s+)?(?:(?:fiscal\s+)?(?:period|year)[- ]end|"
                      r"end of (?:the\s+)?(?:fiscal\s+)?(?:year|period))\b|,?\s+ending balance\b", re.IGNORECASE)
"""When a row's figure is taken ('Total staff at period-end', 'Cash …, ending balance'): not what it is of."""


def at_period_end(label: str) -> bool:
    """Whether a row states its figure at the period's end ('Cash and cash equivalents and restricted cash at end of
    period'): a balance, wherever its table is, not the change in it."""
    return _AT_DATE.search(label) is not None


_PAID_ON = re.compile(r"(?<=\bpaid)\s+on\s+(?:(?:common|preferred|ordinary|capital|stock|shares?|share-based|awards?|"
                      r"and|,)\s*)+$", re.IGNORECASE)
"""What dividends are paid on, listed after them ('Dividends and dividend equivalents paid on common stock, preferred
stock and share-based awards'): the line is the dividends paid."""
_AND_RELATED = re.compile(r"\s+and related(?=\s+(?:expenses?|costs?|charges?)\b)", re.IGNORECASE)
"""'… and related expenses' after a line's name ('Research, development and related expenses'): that line's expense."""
_TRANSLATION = re.compile(r"(?<=\btranslation)\s+adjustments?\b", re.IGNORECASE)
"""'Foreign currency translation adjustment': the foreign currency translation, which is an adjustment."""


def label_stems(text: str) -> set[str]:
    """A row label's words, without its notes' marks, when it is taken, its class of shares, a sign word before it
    and what is 'related' to its line ('Inventories(1)', 'at period-end', '- common', 'Less', 'and related'), nor a
    note a cut left open ('Long-term debt (includes debt issued by consolidated variable interest entities'); 'U.S.'
    only when it is the label's one word ('U.S.', not 'U.S. federal')."""
    text = others_alike(_PAID_ON.sub("", _AND_RELATED.sub("", _SIGN_WORD.sub("", _TRANSLATION.sub("", text)))))
    found = stems(_AT_DATE.sub(" ", SHARE_CLASS.sub(" ", re.sub(r"\([^)]*(?:\)|$)", " ", text))))
    return found - {_US_WORD} or found  # 'U.S. federal' is the federal line whether the question says 'U.S.' or not


def other_way(label: str) -> str:
    """A label that states either way of a figure read the way in parentheses ('Net cash provided/(used) by investing
    activities': 'Net cash used by investing activities'; 'Net Cash (Used for)/Provided by Financing Activities': 'Net
    Cash Used for Financing Activities'), which ``label_stems`` leaves out with every note; '' for any other label."""
    turned = _TWO_WAYS.sub(lambda found: found.group("after") or found.group("before") + (found.group("prep") or ""),
                             label)
    return turned if turned != label else ""


def shortened(label: str) -> str:
    """A label with the words its parentheses abbreviate said as the abbreviation ('Foreign Derived Intangible Income
    (FDII)': 'FDII'; 'Tax on Global Intangible Low-Taxed Income (GILTI), net': 'Tax on GILTI, net'), which
    ``label_stems`` leaves out with every note; '' for a label with none ('Inventories (LIFO)' abbreviates nothing)."""
    found = _ABBREVIATION.search(label)
    if found is None:
        return ""
    letters = found.group("short").replace("&", "")
    words = [(at.start(), at.group()) for at in re.finditer(r"[A-Za-z]+", label[:found.start()])
             if at.group().lower() not in _SMALL_WORDS][-len(letters):]
    if len(words) < len(letters) or "".join(word[0] for _, word in words).upper() != letters:
        return ""
    return f"{label[:words[0][0]]}{found.group('short')}{label[found.end():]}".strip()


_ABBREVIATION = re.compile(r"\s*\((?P<short>[A-Z][A-Z&]{1,7})\)")
_SMALL_WORDS = {"of", "and", "the", "for", "on", "in", "to"}


_TWO_WAYS = re.compile(r"\w+\s*/\s*\((?P<after>\w+(?:\s+(?:for|by|in))?)\)|"
                         r"\((?P<before>\w+)(?P<prep>\s+(?:for|by|in))?\)\s*/\s*\w+(?(prep)\s+(?:for|by|in)\b)")
"""Two ways a label names its figure, the second in parentheses ('provided/(used)', '(Used for)/Provided by')."""
_SIGN_WORD = re.compile(r"^\s*(?:less|add|plus|deduct)\b:?\s*", re.IGNORECASE)
"""A word that opens a row to say it is taken away or added ('Less accumulated depreciation', 'Add: …'): no word of
its name."""


def with_tax_benefit(words: set[str]) -> set[str]:
    """A text's words (``stems``) with what they say of a tax: the income tax provision (or expense) says its benefit
    too (``line_items.with_tax_benefit``)."""
    return line_items.with_tax_benefit(words, key=lambda word: min(stems(word)))


def stem_only(label: str, metric: str) -> bool:
    """Whether a label of one content word meets the metric only in the first letters words are compared by, the rest
    of the two words apart ('Translation' and 'Transportation' share 'trans'): no such word of the metric shares all
    its letters but the last two ('revenues' of 'revenue', 'operating' of 'operations')."""
    own = [w for w in re.findall(r"[a-z&]{2,}", label.lower()) if w not in STOPWORDS]
    if len(own) != 1:
        return False
    word = own[0]
    alike = [w for w in re.findall(r"[a-z&]{2,}", metric.lower()) if w[:COMPARED_LETTERS] == word[:COMPARED_LETTERS]]
    return bool(alike) and not any(len(commonprefix([word, w])) >= min(len(word), len(w)) - 2 for w in alike)


def in_words(label: str, name: str, *, loose: bool = False) -> bool:
    """Whether each word of a label beyond the qualifiers is a word of a report name, not one that starts alike
    ('Intersegment net revenues' is no part of 'revenues net of interest expense': 'inter' of both). ``loose``: a
    shorter word is one with any word it starts ('stock' with 'stockholders')."""
    said = re.findall(r"[a-z&]+", name.lower())
    return all(any(word[:n] == other[:n] and (loose or n == _SAME_LETTERS or abs(len(word) - len(other)) <= _ENDING)
                   for other in said if (n := min(_SAME_LETTERS, len(word), len(other))))
               for word in re.findall(r"[a-z&]+", re.sub(r"\([^)]*\)", " ", _PAID_ON.sub("", label.lower())))
               if stems(word) - QUALIFIERS and not stems(word) & set(ALIKE.values()))


_SAME_LETTERS, _ENDING = 7, 2
"""Letters two words share at their start to be one ('operating' and 'operations', 'revenue' and 'revenues'; not
'intersegment' and 'interest', which share the five a stem keeps); a shorter word is one with a word it starts only
when the other adds a plural's ending at most ('tax' and 'taxes'; not 'stock' and 'stockholders': 'Common stock
dividends', an equity statement's dividends declared, is a part of 'dividends paid to common stockholders' only
loosely, a word less than the cash flow statement's 'Dividends paid')."""


OF = re.compile(r"\s+(?:of|on|for|per|from|to|in)\s+", re.IGNORECASE)
"""The word between a figure and what it is of ('dividends on common stock', 'earnings per share')."""


def metric_parts(metric: str) -> tuple[set[str], set[str]]:
    """A metric's head and what it is of ('dividends' and 'common stock' of 'dividends on common
    stock'; a part of the company it ends with, ``_COMPANY_PART``), as stems beyond the generic; two empty sets when it
    names no such part."""
    part = _COMPANY_PART.search(metric)  # 'amortization of intangible assets for its Europe division'
    parts = [metric[: part.start()], part.group("part")] if part else OF.split(metric, maxsplit=1)
    if len(parts) < 2:
        return set(), set()
    tail = stems(parts[1]) - GENERIC
    head = stems(parts[0]) - GENERIC | tail & _DILUTION  # 'earnings per diluted share' are the diluted earnings
    tail -= _DILUTION
    return (head, tail - head) if head and tail - head else (set(), set())


_COMPANY_PART = re.compile(r"\s+(?:of|for|from|in)\s+(?:the\s+|its\s+|their\s+)?(?P<part>(?:(?!\b(?:of|for|from|in)\s)"
                           r"[^,])+?\s+(?:segment|division)s?)\s*$", re.IGNORECASE)
"""A segment or division a metric ends with, which it is of: the 'Europe division' of 'amortization of intangible
assets for its Europe division', not the 'intangible assets for its Europe division' (a 'business' may be a line's
own: 'loss on assets held for sale for its long-term care business')."""
_DILUTION = stems("basic diluted")
"""Which of a figure per share's two a metric asks, said after its 'per' ('earnings per diluted share'): the
figure's, not what it is of."""
