"""The scale a text states for its figures: a caption's or a column's ('in thousands', '(Millions, except …)',
'(in $000’s)'; ``scale_of``), and the unit a report declares once for all its tables (``declared_unit``)."""

from __future__ import annotations

import re

SCALES = {"thousands": 1e3, "millions": 1e6, "billions": 1e9}  # a scale word as a number


def scale_of(text: str) -> float:
    """The scale a caption or a column's label states ('in thousands', '(Millions, except …)', '(in $000’s)',
    '($000)'), else 1."""
    match = re.search(r"\b(?:in|\$)\s*(thousands|millions|billions)\b|\((thousands|millions|billions)\b|"
                      r"(?:\(|\bin\s)\s*\$?\s*(000)(?:['’]?s)?(?![\d,.])", text, re.IGNORECASE)
    if match is None:
        return 1.0
    return SCALES["thousands"] if match.group(3) else SCALES[(match.group(1) or match.group(2)).lower()]


DECLARED = re.compile(r"\btabular (?:amounts|dollars|figures)\b[^.;()]{0,40}?\bin (thousands|millions|billions)\b|"
                      r"(?<!see )\bnotes to (?:the )?(?:consolidated )?financial statements\b[^()]{0,100}?"
                      r"\((?:dollars |amounts |\$ ?)?in (thousands|millions|billions)\b", re.IGNORECASE)
"""A report's statement of the unit of its tables that state none, from its page on ('(all tabular amounts in
thousands except per share amounts)', ADI's; 'Tabular dollars are in millions', PepsiCo's; its notes' title over
'(Dollars in millions, except otherwise stated)', Boeing's), not a pointer to its notes ('See Notes to …')."""


def declared_unit(text: str) -> tuple[str, float] | None:
    """The unit a report declares for its tables in ``text`` (``DECLARED``), with its words as a reading quotes them
    ('tabular amounts in thousands'; 'Dollars in millions' after the notes' title), or None."""
    found = DECLARED.search(text)
    if found is None:
        return None
    said = found.group(0)[found.group(0).rfind("(") + 1 if found.group(2) else 0:]
    return " ".join(said.split()), SCALES[(found.group(1) or found.group(2)).lower()]
