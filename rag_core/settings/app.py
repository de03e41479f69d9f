"""The shared app: what one visitor may add and ask, and the Streamlit shell."""

from __future__ import annotations

from pydantic import Field

from .base import Group


class LimitsSettings(Group):
    """Caps per owner for a shared demo. The app applies them to visitor sessions
    (``RAG_APP__SINGLE_USER=false``); the CLI and local single-user use do not. 0 means no cap."""

    max_documents: int = Field(20, ge=0, le=100_000, description="Most documents one visitor may keep.")
    max_pages: int = Field(
        400, ge=0, le=10_000_000, description="Most pages (text pages of PDFs, pages of text files) in total."
    )
    questions_per_minute: int = Field(8, ge=0, le=10_000, description="Most questions one visitor may ask in any 60 s.")
    max_conversations: int = Field(
        10, ge=0, le=100_000, description="Most conversations one visitor keeps; a new one past it removes the oldest."
    )


class AppSettings(Group):
    """The Streamlit shell."""

    single_user: bool = Field(
        True,
        description="Local use: every browser session is the default owner and sees the whole store. "
        "Set false for a shared demo: each session gets its own owner id.",
    )
    max_history_traces: int = Field(
        20, gt=0, le=10_000, description="Questions whose traces the debug page keeps per session."
    )
    stopped_answer_wait_s: float = Field(
        60.0,
        gt=0,
        le=3600,
        description="Longest a question waits for the local model to let go of the answer it stopped (one sent "
        "while another was written): that answer is cancelled and the model stops within one step of its prompt's "
        "reading, about a second here; past the wait the question is refused and can be asked again.",
    )
    source_chips: int = Field(
        6, gt=0, le=1000, description="Cited pages shown as chips under an answer; the rest behind 'more pages'."
    )
    stream_every_s: float = Field(
        0.5, ge=0, le=10, description="How often the chat redraws an answer as it streams, in seconds (0: at every "
        "token). Each redraw renders the whole answer again in the browser, which shares the machine's cores with "
        "the local model.",
    )
    page_zoom: float = Field(1.5, gt=0, le=8, description="A cited page's image, in multiples of 72 dpi.")
    max_set_questions: int = Field(
        200, gt=0, le=100_000, description="Most questions of a question set the debug page runs at once."
    )
