"""Web pages (.html, .htm): the article, not the page. trafilatura finds the main content and leaves
navigation, cookie banners, scripts, styles, sidebars and footers out; its Markdown keeps the
headings, lists and tables, which then become sections as in a Word document."""

from __future__ import annotations

from ...errors import NoTextLayer
from ...formats import PageProgress, TablePlan
from ...models import ParsedDocument
from ...settings import IngestSettings
from .text import markdown_sections, text_document


def parse_html(
    data: bytes, name: str, sha256: str, settings: IngestSettings, progress: PageProgress | None = None,
    tables: TablePlan = "inline",
) -> ParsedDocument:
    """A saved web page: one "page" per top-level section of its main content."""
    import trafilatura

    markdown = trafilatura.extract(
        data,
        output_format="markdown",
        include_tables=True,
        include_formatting=True,  # headings as '#', which the sections follow
        include_links=False,
        include_images=False,
        include_comments=False,
        favor_recall=True,
        deduplicate=False,
    )
    if not markdown or not markdown.strip():
        raise NoTextLayer(
            f"{name} has no article text: the page is empty, all navigation, or drawn by scripts.",
            "Save the page after it has loaded (File > Save as, 'complete'), or print it to PDF, and upload that.",
        )
    return text_document("\f".join(markdown_sections(markdown)), name, sha256, len(data), "html", settings)
