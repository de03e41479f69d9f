"""What the CLI shows while it ingests: a progress bar on a terminal, a line now and then in a log."""

from __future__ import annotations

import sys
from typing import Any


def progress_bar(total: int) -> Any:
    if not sys.stderr.isatty():
        return None
    from tqdm import tqdm

    return tqdm(total=total, unit="file", file=sys.stderr)


PROGRESS_EVERY_S = 10.0
"""Without a terminal (a log, a pipe), a long ingest prints a progress line at most this often."""


def stage_reporter(bar: Any, name: str) -> Any:
    """Progress on the bar; without a terminal, a line on stderr now and then ('progress a.pdf:
    embed 120/500 after 30 s'), so a log shows a long ingest is alive."""
    import time

    from ..models import display_name

    started = last = time.monotonic()

    def report(stage: str, done: int, total: int) -> None:
        nonlocal last
        if bar is not None:
            bar.set_postfix_str(f"{stage} {done}/{total}" if total > 1 else stage)
            return
        now = time.monotonic()
        if now - last >= PROGRESS_EVERY_S:
            last = now
            print(display_name(f"progress {name}: {stage} {done}/{total} after {now - started:.0f} s"),
                  file=sys.stderr, flush=True)

    return report


def say(line: str, bar: Any, stream: Any = None) -> None:
    if bar is not None:
        bar.write(line, file=stream or sys.stdout)
    else:
        print(line, file=stream or sys.stdout)
