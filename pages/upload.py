import streamlit as st

import app_state
import app_views
from rag_core import FORMATS, OCR_STAGE, RagError, unit_of
from rag_core.trace_views import counted

app_state.init_session()  # idempotent; a first-visit deep link may run this page without app.py

app_views.reindex_progress(app_state.reindexer())
st.title("Upload documents")
st.caption(
    "Accepted: " + ", ".join(f.label for f in FORMATS) + ". Files are parsed page by page (a Word file or web page "
    "by section, a spreadsheet by sheet), chunked, embedded and indexed on this machine."
)

with st.form("upload", clear_on_submit=True):
    files = st.file_uploader(
        "Files", type=[s.lstrip(".") for f in FORMATS for s in f.suffixes], accept_multiple_files=True
    )
    submitted = st.form_submit_button("Add to library", type="primary")

with app_state.uploading():
    for file in (files or []) if submitted else []:
        with st.status(f"{file.name}: parsing", expanded=False) as status:

            def progress(stage: str, done: int, total: int, name: str = file.name) -> None:
                if stage == OCR_STAGE:  # a scan: its pages are read one by one
                    status.update(label=f"{name}: OCR page {min(done + 1, total)} of {total}")
                else:
                    status.update(label=f"{name}: {stage}" + (f" {done}/{total} chunks" if total > 1 else ""))

            try:
                result = app_state.ingest(file.getvalue(), file.name, progress)
            except RagError as error:
                status.update(label=f"{file.name}: rejected", state="error", expanded=True)
                st.error(str(error))
                continue
            record = result.document
            if result.status == "duplicate":
                status.update(label=f"{file.name}: already in your library as {record.name}", state="complete")
                st.info("This exact file was uploaded before; nothing was added.")
            else:
                size = f"{counted(record.pages, unit_of(record.name))}, {counted(record.chunks, 'chunk')}"
                label = f"{file.name}: {size} in {result.seconds:.1f} s"
                if record.stage == "searchable":
                    label += (f"; searchable now, tables on {counted(len(record.table_pages_pending), 'page')} "
                              "are found in the background")
                    if record.provisional_chars is not None:
                        label += (f" (until then {app_views.waiting_passages(record)} on those pages match by "
                                  "their words and headings)")
                status.update(label=label, state="complete")
            if record.pages_without_text:
                st.warning(
                    f"Pages without a text layer were skipped (OCR is not supported): {list(record.pages_without_text)}"
                )

if submitted and files:
    app_state.preload_model()  # the chat comes next: the local model loads while the visitor gets there

records = app_state.documents()
st.subheader(f"Your documents ({len(records)})")
app_views.table_progress(records, app_state.table_passes())
if not records:
    st.info(
        "Your documents are being re-embedded; they appear here one by one."
        if app_state.reindexer().running
        else "No documents yet."
    )
for record in records:
    left, right = st.columns([6, 1])
    left.markdown(
        f"**{record.name}** · {counted(record.pages, unit_of(record.name))} · {counted(record.chunks, 'chunk')} · "
        f"{record.size_bytes / 1e6:.2f} MB · {record.created_at:%Y-%m-%d %H:%M} UTC · "
        f"{app_views.stage_line(record, app_state.table_passes())}"
    )
    with right.popover("Delete", use_container_width=True):
        st.write(f"Delete **{record.name}** and all its chunks?")
        if st.button("Yes, delete", key=f"delete-{record.doc_id}", type="primary"):
            app_state.delete(record)
            st.rerun()
