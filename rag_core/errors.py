"""Typed errors. Each message says what happened and what to do about it."""

from __future__ import annotations


class RagError(Exception):
    """Base of every error the engine raises on purpose."""

    def __init__(self, what: str, fix: str = "") -> None:
        self.what = what
        self.fix = fix
        super().__init__(f"{what} {fix}".strip())


class FileRejected(RagError):
    """An input file that will not be ingested. Nothing of it is stored."""


class EmptyFile(FileRejected):
    pass


class FileTooLarge(FileRejected):
    pass


class UnsupportedFileType(FileRejected):
    pass


class WrongFileType(FileRejected):
    """The bytes do not match the file's extension."""


class CorruptFile(FileRejected):
    pass


class EncryptedPdf(FileRejected):
    pass


class TooManyPages(FileRejected):
    pass


class ParseLimit(FileRejected):
    """Parsing the file would take more memory or time than allowed (e.g. a decompression bomb)."""


class NoTextLayer(FileRejected):
    """An image-only (scanned) PDF, or a file with no text at all."""


class SettingsError(RagError):
    """A setting (environment variable or secret) out of its range or of the wrong kind."""


class IndexingError(RagError):
    """Embedding or storing failed; the document was rolled back."""


class StoreError(RagError):
    pass


class StoreLocked(StoreError):
    pass


class StoreFolderRefused(StoreError):
    """The file system refused the store folder: it is a file, cannot be made, is read-only, is
    full, or is not ours to write."""

    def __init__(self, folder: object, error: OSError) -> None:
        import errno

        self.folder = folder
        reasons = {
            errno.ENOTDIR: ("a part of its path is a file, not a folder", "Give --store (or RAG_STORE_DIR) a folder."),
            errno.EEXIST: ("a part of its path is a file, not a folder", "Give --store (or RAG_STORE_DIR) a folder."),
            errno.ENOENT: ("it cannot be created there", "Give --store (or RAG_STORE_DIR) a folder on a disk you can "
                           "write to."),
            errno.EACCES: ("this user may not write there", "Give the folder to this user, or choose another."),
            errno.EPERM: ("this user may not write there", "Give the folder to this user, or choose another."),
            errno.EROFS: ("the disk is read-only, and the embedded store writes its lock and log beside its data",
                          "Copy the folder to a writable disk, or serve it with a Qdrant server (RAG_QDRANT_URL)."),
            errno.ENOSPC: ("the disk is full", "Free some space on that disk, or move the store; nothing was "
                           "changed."),
            errno.EDQUOT: ("this user's disk quota is used up", "Free some space, or move the store; nothing was "
                           "changed."),
        }
        reason, action = reasons.get(error.errno or 0, (error.strerror or str(error), "Check the folder and its disk."))
        super().__init__(f"The store folder {folder} cannot be used: {reason} ({error.strerror}: "
                         f"{error.filename or folder}).", action)


class DiskFull(StoreError):
    """The disk holding the embedded store has too little room for a write (a memory-mapped
    write that meets a full disk kills the process with SIGBUS, which nothing can catch: the room
    is checked before writing)."""

    def __init__(self, folder: object, free: int, spare: int, needed: int | None = None) -> None:
        megabytes = 1024 * 1024
        this = f" and this write needs about {max(1, needed // megabytes):,} MB" if needed else ""
        super().__init__(f"The disk holding the store folder {folder} is nearly full: {free // megabytes:,} MB free; "
                         f"the store keeps {spare // megabytes:,} MB spare{this}.",
                         "Free some space on that disk, or move the store (RAG_STORE_DIR) to a disk with room; nothing "
                         "was changed (RAG_MIN_FREE_MB sets the spare room).")


class StoreUnreachable(StoreError):
    """The configured Qdrant server did not answer, or refused the API key."""


class StoreDamaged(StoreError):
    """A part of the store cannot be read: its files were cut, overwritten or removed."""

    def __init__(self, folder: object, part: str, detail: str) -> None:
        self.folder = folder
        self.part = part
        self.detail = detail
        self.engine_output: tuple[str, ...] = ()
        """What the engine printed while failing (a Rust panic and its backtrace), kept off the screen."""
        super().__init__(
            f"The store in {folder} is damaged: {part} cannot be read ({detail}).",
            f"Run `python -m rag_core check --store {folder}` to see what is readable, and add --repair to "
            "keep it; or restore a backup of the folder, or move the folder aside to start an empty store.",
        )


class DocumentNotFound(RagError):
    pass


class LimitReached(RagError):
    """A per-visitor cap of the shared demo was hit. Nothing was stored or asked."""


class GenerationError(RagError):
    """The LLM could not produce (all of) an answer."""
