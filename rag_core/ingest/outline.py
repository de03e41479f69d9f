"""A document's outline where its typography is flat: sections that repeat one run of sub-headings are nested
under the heading that opens each of them.

A 10-K's segment discussion sets every heading in one bold style: "Commercial Airplanes", then "Business Environment
and Trends", "Results of Operations", "Revenues", "Backlog"; then "Defense, Space & Security" and the same run again.
Read by size and weight they are all siblings, so the page that discusses Commercial Airplanes' margins sits under
"Results of Operations" alone, a title the other three segments use too, and a question that names the segment finds
no word of it in the chunk's header. The repetition itself says what the type does not: a run of sub-headings that
recurs, each time after a heading of its own, is that heading's section. The nesting is read from the headings alone,
so it holds for every format that has headings, and it only adds a level: nothing is taken out of a heading path.
A report's numbered notes say the same by their numbers: "Note 13 — Acquisitions and Divestitures" holds the
headings set like it up to the next note.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence

from ..models import FILING_ITEM, Heading

_LOOK_AHEAD = 2
"""A heading of its own (not one of the recurring run) stays inside the section when one of the run's headings not yet
seen in it comes within this many headings after it: "United States Government Defense Environment Overview" between
"Business Environment and Trends" and "Results of Operations". Further than that, the section has ended (after Boeing
Capital's "Earnings From Operations", "Financial Position" and "Liquidity and Capital Resources" are the company's)."""
_OPENINGS = 3
"""A recurring heading opens a section when it does so this many times at least, each time after a different heading
of its own: a run that comes back once may be a topic the discussion and the notes both treat (critical estimates,
then the accounting policies, each a sibling), three sections that open alike are an outline."""
_RUN = 2
"""A section holds at least this many of the recurring headings: one title that comes back ("New Accounting
Pronouncements" in the discussion and again in the notes) is a section of its own, not a sub-heading."""


_STRAY_AFTER = 3
"""A heading set larger than its siblings is stray only after this many of them: one line set small between a part's
title and its first section ("Abstract" before "1 Introduction") says nothing about the part's outline."""


def nested_levels(headings: Sequence[Heading]) -> list[int]:
    """Each heading's level once repeated sections are nested, in the order given (the document's reading order).

    A heading whose title recurs at its level belongs to a run; where such a heading follows one that does not recur,
    at the same level, the one before opens a section, and the run after it (up to a title already seen in the
    section, a heading set higher, the next section's opening, or a stretch without the run's headings) moves one
    level down, with everything under it. The title that opens most sections is read first, and a section it found
    is not opened again by another: Boeing's "Backlog" comes back after a heading of its own too, inside the segments
    that "Business Environment and Trends" opens.
    """
    keys = [(heading.level, _fold(heading.title)) for heading in headings]
    counts = Counter(keys)
    recurring = [counts[key] > 1 for key in keys]
    starts = [i for i in range(1, len(headings))
              if recurring[i] and not recurring[i - 1] and headings[i - 1].level == headings[i].level]
    by_key: dict[tuple[int, str], list[int]] = defaultdict(list)
    for i in starts:
        by_key[keys[i]].append(i)
    levels = [heading.level for heading in headings]
    taken: set[int] = set()  # the headings of the sections found, and the ones opening them
    for key in sorted(by_key, key=lambda k: -len(by_key[k])):  # stable: a tie keeps reading order
        group = [i for i in by_key[key] if not {i - 1, i} & taken]
        if len(group) < _OPENINGS:
            continue
        stops = taken | {i - 1 for i in group}
        for start in group:
            end, seen = _section(headings, keys, recurring, stops, start)
            if len(seen) >= _RUN:
                taken.update(range(start - 1, end))
                for i in range(start, end):
                    levels[i] += 1
    return levels


def settle_strays(headings: Sequence[Heading]) -> list[Heading]:
    """The headings with a stray one set among its siblings: a heading set larger than those around it that would
    otherwise hold the rest of its parent's section.

    ABIOMED's 10-K sets every heading from "ITEM 1. BUSINESS" on at one size, under the company's name; in Item 5 the
    stock graph's title, "COMPARISON OF 5 YEAR CUMULATIVE TOTAL RETURN*", is set a size larger, and read by size it
    opened a section that held Items 6 to 15 and every note: each of their chunks said "› COMPARISON OF 5 YEAR
    CUMULATIVE TOTAL RETURN* ›" in its header. A heading is stray when it is the first of its level inside its
    parent's section, at least ``_STRAY_AFTER`` headings (all set smaller) came before it there, and none of its level
    follows it before a heading set larger: nothing in the document says it opens a part. It takes the level of the
    headings before it. A heading with no parent (a document's title, the name over a cover page) is never stray.
    """
    levels = [heading.level for heading in headings]
    before = _nearest_at_most(levels)
    after = [None if j is None else len(levels) - 1 - j for j in reversed(_nearest_at_most(levels[::-1]))]
    settled = list(headings)
    for i, level in enumerate(levels):
        parent, following = before[i], after[i]  # the nearest headings set as large or larger, before and after
        if parent is None or levels[parent] == level or i - parent - 1 < _STRAY_AFTER:
            continue  # no parent, a sibling before it, or too few headings under the parent to say
        if following is not None and levels[following] == level:
            continue  # a sibling after it: a part of its own
        settled[i] = headings[i].model_copy(update={"level": min(levels[parent + 1 : i])})
    return settled


def nest_in_notes(headings: Sequence[Heading]) -> list[int]:
    """Each heading's level once a report's notes hold the headings set like them: a note's own sub-headings,
    in the order given (the document's reading order).

    PepsiCo's 10-K sets "Note 13 — Acquisitions and Divestitures" and the "Juice Transaction" under it in one bold
    style, so read by type the sub-heading closes the note and the page that says what the company sold sits under
    "Juice Transaction" alone: a question on its divestitures finds no word of them in the chunk's header. The note's
    number says what the type does not. Where at least ``_OPENINGS`` headings of one level are numbered notes ("Note
    13 —", "NOTE 4.", "Note 2."), each note holds the headings of its level after it, with everything under them, up
    to the next note, a heading set larger, or one that closes the notes (``_AFTER_NOTES``: "Item 9.", the auditor's
    report, the signatures, a schedule or exhibit).
    """
    levels = [heading.level for heading in headings]
    notes = Counter(heading.level for heading in headings if _NOTE.match(heading.title))
    for level, count in notes.items():
        if count < _OPENINGS:
            continue
        inside = False
        for i, heading in enumerate(headings):
            if heading.level < level or (heading.level == level and _AFTER_NOTES.match(heading.title)):
                inside = False
            elif heading.level == level and _NOTE.match(heading.title):
                inside = True
            elif inside:
                levels[i] += 1
    return levels


_NOTE = re.compile(r"^note\s+\d{1,3}[a-z]?\b(?!\s*(?:to|of|on)\b)", re.IGNORECASE)
"""A numbered note of a report's financial statements: "Note 13 — Acquisitions and Divestitures", "NOTE 4.", not
"Notes to Consolidated Financial Statements" nor a sentence that refers to one ("Note 2 to the financial
statements …")."""
_AFTER_NOTES = re.compile(
    rf"{FILING_ITEM.pattern}|^part\s+[ivx]+\b|^(?:the\s+)?report\s+of\s+independent|^signatures?\b|^schedule\b|"
    r"^exhibits?\b|^index\s+to\b|^glossary\b", re.IGNORECASE)
"""A heading that closes a report's notes: the filing's next part ("Item 9. Changes in and Disagreements with
Accountants", "PART III"), the auditor's report after them, the signatures, a financial statement schedule, the
exhibits, a glossary."""


def _nearest_at_most(levels: Sequence[int]) -> list[int | None]:
    """For each heading, the nearest one before it set as large or larger (a smaller or equal level), if any."""
    open_: list[int] = []
    nearest: list[int | None] = []
    for i, level in enumerate(levels):
        while open_ and levels[open_[-1]] > level:
            open_.pop()
        nearest.append(open_[-1] if open_ else None)
        open_.append(i)
    return nearest


def _section(headings: Sequence[Heading], keys: Sequence[tuple[int, str]], recurring: Sequence[bool],
             stops: set[int], start: int) -> tuple[int, set[tuple[int, str]]]:
    """Where the section whose run begins at ``start`` ends (exclusive), and the recurring titles it holds."""
    level = headings[start].level
    seen: set[tuple[int, str]] = set()
    end = start
    while end < len(headings):
        heading = headings[end]
        if heading.level < level or end in stops:
            break
        if heading.level == level:
            if recurring[end] and keys[end] in seen:
                break
            if recurring[end]:
                seen.add(keys[end])
            elif not _run_continues(headings, keys, recurring, seen, stops, end):
                break
        end += 1
    return end, seen


def _run_continues(headings: Sequence[Heading], keys: Sequence[tuple[int, str]], recurring: Sequence[bool],
                   seen: set[tuple[int, str]], stops: set[int], at: int) -> bool:
    """Whether a recurring heading not yet seen in the section comes within ``_LOOK_AHEAD`` headings after ``at``,
    before the next section opens."""
    level = headings[at].level
    for i in range(at + 1, min(at + 1 + _LOOK_AHEAD, len(headings))):
        if headings[i].level < level or i in stops:
            return False
        if headings[i].level == level and recurring[i] and keys[i] not in seen:
            return True
    return False


def _fold(title: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", title.casefold()).split())
