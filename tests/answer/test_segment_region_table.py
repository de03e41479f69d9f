"""A segment table by geographic region, as a finder leaves it (Activision Blizzard's 2019 10-K, p.106, its names
changed): no rule, its block's date title and its segments' names in the body, the names stacked a word a line and set
off by a cell ('Elimination of' over 'intersegment' over 'revenues (2)', 'Non-reportable' over 'segments'). A
question names a segment by its owner's name ("King's net revenues from EMEA"), or a segment and a region."""

from __future__ import annotations

import pytest

from rag_core.answer.figures import read_figure
from rag_core.models import Passage
from rag_core.tables.rows import labelled_rows

_TABLE = ("|  |  |  | Year Ended December 31, 2018 |  |  |  |  |  |\n"
          "|  |  |  |  |  |  |  | Elimination of |  |\n"
          "|  |  |  |  | Non-reportable |  |  | intersegment |  |\n"
          "|  | Arcade | Quest | Candy |  | segments |  | revenues (2) | Total |\n"
          "| Net revenues by geographic region: |  |  |  |  |  |  |  |  |\n"
          "| Americas | $1,622 | $1,004 | $1,269 | $13 |  | $(28) |  | $3,880 |\n"
          "| EMEA (1) | 897 | 692 | 599 |  | 446 |  | (16) | 2,618 |\n"
          "| Asia Pacific | 219 | 570 | 222 |  | — |  | (9) | 1,002 |\n"
          "| Total consolidated net revenues | $2,738 | $2,266 | $2,090 | $459 |  | $(53) |  | $7,500 |\n"
          "| Change in deferred revenues: |  |  |  |  |  |  |  |  |\n"
          "| Americas | $(163) | $15 | $(3) | $ | — | $ | — | $(151) |\n"
          "| EMEA (1) | (127) | 16 | (1) |  | 21 |  | — | (91) |\n"
          "| Total change in deferred revenues | $(280) | $25 | $(4) | $21 |  | $ | — | $(238) |\n"
          "| Segment net revenues: |  |  |  |  |  |  |  |  |\n"
          "| Americas | $1,459 | $1,019 | $1,266 | $13 |  | $(28) |  | $3,729 |\n"
          "| EMEA (1) | 770 | 708 | 598 |  | 467 |  | (16) | 2,527 |\n"
          "| Total segment net revenues | $2,458 | $2,291 | $2,086 | $480 |  | $(53) |  | $7,262 |\n")
_SEGMENTS = Passage(n=1, document="games-10k.pdf", page=106, tabular=True,
                    caption="Games 10-K › 15. Operating Segments and Geographic Regions", text=_TABLE)


def test_names_stacked_a_word_a_line_under_a_date_title_left_in_the_body_are_the_header() -> None:
    """Before, the first row of names was read as a row of the body and the next replaced it: the columns were
    'Year Ended December 31, 2018 › intersegment', the segments' unnamed."""
    labels, row = next((labels, row) for labels, row in labelled_rows(_TABLE) if row[0] == "EMEA (1)")
    named = dict(zip(labels, row, strict=True))
    assert named["Year Ended December 31, 2018 › Candy"] == "599", named
    assert named["Year Ended December 31, 2018 › Elimination of intersegment revenues (2)"] == "(16)", named
    assert named["Year Ended December 31, 2018 › Total"] == "2,618", named


@pytest.mark.parametrize(("question", "first", "segment"), [
    ("What were Candy's net revenues from EMEA in 2018?", 599.0, "Candy"),
    ("What were Quest's segment net revenues in the Americas in 2018?", 1_019.0, "Quest"),
])
def test_a_segment_named_by_its_owner_or_beside_a_region_is_read_in_its_column(
        question: str, first: float, segment: str) -> None:
    """The segment named as the question's owner ("Candy's") names its column, not only the metric's words ('revenues'
    of 'Elimination of intersegment revenues', read before); a segment and a region are the segment's column of the
    region's row (before, no row: neither named both). Candy's EMEA row under 'Net revenues by geographic region:'
    comes first, its row under 'Segment net revenues:' beside it (the question says neither heading's other words)."""
    figure = read_figure(question, [_SEGMENTS])
    assert figure is not None and figure.cells, figure
    assert {cell.column.rpartition(" › ")[2] for cell in figure.cells} == {segment}, figure
    assert figure.cells[0].value == first, figure


def test_a_total_change_a_row_states_is_read_not_computed() -> None:
    """'Total change in deferred revenues' states the change asked; before, the reader looked for the deferred revenues
    of 2017 and 2018 and found neither."""
    figure = read_figure("How much did Games' total change in deferred revenues amount to in 2018?", [_SEGMENTS])
    assert figure is not None and [c.row for c in figure.cells] == ["Total change in deferred revenues"], figure
    assert figure.value == -238.0 and figure.cells[0].column.endswith("Total"), figure
