from __future__ import annotations

import subprocess
import sys

from tests.paths import ROOT_DIR

ROOT = ROOT_DIR


def test_core_never_imports_streamlit_or_loads_models_at_import() -> None:
    code = (
        "import sys, rag_core, rag_core.pipeline, rag_core.__main__;"
        "assert 'streamlit' not in sys.modules, 'streamlit imported';"
        "assert 'sentence_transformers' not in sys.modules, 'model library imported at import time';"
        # the app's server parses in a child: PyMuPDF (40-50 MB) only once it draws a cited page
        "assert 'pymupdf' not in sys.modules, 'PyMuPDF imported at import time'"
    )
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)
