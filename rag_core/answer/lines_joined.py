"""The lines a figure's name joins with 'and' ('net revenue and net income'), or asks summed ('the sum of R&D and
SG&A'): split at an 'and' that joins no line item's own words ('research and development')."""

from __future__ import annotations

import re

from ..lexical.line_items import LINE_ITEMS


def parts_summed(name: str) -> list[str]:
    """The two lines a figure's name asks summed ('cash and short-term marketable securities combined', 'the
    sum of R&D and SG&A'), split as ``lines_asked`` splits them; [] when it asks for no sum."""
    asked = _COMBINED.fullmatch(name.strip())
    return lines_asked(asked.group("lines") or asked.group("after")) if asked is not None else []


def lines_asked(name: str) -> list[str]:
    """The two lines a figure's name joins with 'and' ('net revenue and net income'), split at the last 'and' that
    joins no line item's own words ('research and development', 'cash and cash equivalents'); [] for one line."""
    return list(next(iter(splits_at_and(name)), ()))


def splits_at_and(name: str) -> list[tuple[str, str]]:
    """Every way a figure's name may be two lines joined with 'and', from its last 'and' to its first, none at an 'and'
    that joins a line item's own words ('cost of sales and research, development and related expenses': at the
    second 'and', then at the first); the second line of what the first is of ('revenues of A and B': B's revenues)
    before it as written."""
    words, found = name.split(), list[tuple[str, str]]()
    for n in range(len(words) - 2, 0, -1):
        if words[n].lower() == "and" and f"{words[n - 1]} and {words[n + 1]}".lower().strip(",") not in _JOINED_WORDS:
            first, second = (_OF_WHOM.sub("", " ".join(side)).strip(" ,") for side in (words[:n], words[n + 1:]))
            of = re.match(r"(?P<head>.+?)\s+of\s+\S", first)
            if of is not None and not re.search(r"\sof\s", second):  # 'revenues of A and B': B's revenues too
                found.append((first, f"{of.group('head')} of {second}"))
            found.append((first, second))
    return found


_COMBINED = re.compile(r"(?:the\s+)?(?:combined|sum\s+of|total\s+of)\s+(?:the\s+)?(?P<lines>.+\sand\s.+)|"
                       r"(?P<after>.+\sand\s.+?)\s+(?:combined|together|altogether|taken together)", re.IGNORECASE)
_OF_WHOM = re.compile(r"\s+for\s+(?:[A-Z][\w&.'’-]*\s*)+$")
"""The company a line is named of, at its end ('short-term investments for PepsiCo')."""
_JOINED_WORDS = {m.group().lower() for labels in LINE_ITEMS.values() for label in labels
                 for m in re.finditer(r"\w+ and \w+", label)}
"""Words a line item joins with 'and' ('research and development'): not two lines summed."""
