"""PyMuPDF's layout model is loaded only where tables are found (rag_core/runtime/layout.py): a
process that imports rag_core and then PyMuPDF (the app's server, which draws cited pages) holds no
layout model; the table finder loads it before its first page, so its tables are those found with
it; a process without rag_core gets PyMuPDF's own behaviour, so the check can fail."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.paths import ROOT_DIR

PROBE = """
import gc, json, sys
if sys.argv[1] == "rag_core":
    import rag_core.store.files
import onnxruntime, pymupdf
def sessions():
    return sum(isinstance(o, onnxruntime.InferenceSession) for o in gc.get_objects())
seen = {"at_import": [pymupdf._get_layout is not None, sessions()]}
from rag_core.ingest.parse.pdf_tables import find_tables
doc = pymupdf.open()
page = doc.new_page()
for row, (name, value) in enumerate([("Revenue", "1,200"), ("Costs", "800"), ("Profit", "400")]):
    page.insert_text((72, 100 + 20 * row), name)
    page.insert_text((300, 100 + 20 * row), value)
find_tables(page)
seen["after_finder"] = [pymupdf._get_layout is not None, sessions()]
print(json.dumps(seen))
"""


def _run(how: str) -> dict[str, list[int]]:
    done = subprocess.run([sys.executable, "-c", PROBE, how], cwd=ROOT_DIR, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_layout_model_loads_with_the_table_finder_not_with_pymupdf() -> None:
    deferred = _run("rag_core")
    assert deferred["at_import"] == [False, 0]
    plain = _run("plain")
    assert plain["at_import"][0] and plain["at_import"][1] > 0  # PyMuPDF's own: loaded as it is imported
    # the finder then holds what PyMuPDF's own import would have loaded
    assert deferred["after_finder"] == plain["after_finder"] == plain["at_import"]


DRAW = """
import json, sys
from rag_core.store.files import render_pdf_page
import pymupdf
doc = pymupdf.open()
doc.new_page().insert_text((72, 72), "Revenue grew 12% to 1,200 dollars.")
png = render_pdf_page(doc.tobytes(), 1, "Revenue grew", zoom=1.0)
print(json.dumps([png[:4] == b"\\x89PNG", pymupdf._get_layout is not None]))
"""


def test_a_cited_page_is_drawn_without_the_layout_model() -> None:
    done = subprocess.run([sys.executable, "-c", DRAW], cwd=ROOT_DIR, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == [True, False]
