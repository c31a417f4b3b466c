"""Client strings as an error message or a log line may carry them: scrubbed, and bounded.

Messages name what a client sent ("no memory 'x'") so that it can see its mistake, but a client
may send a secret where an id belongs, or four megabytes of it: what comes back, and what the log
keeps, is never a credential and never longer than a line.
"""

from __future__ import annotations

from hippograph.kernel.text.scrub import scrub_credentials

# Characters of a message kept; the rest is cut, with a note of how long it was.
ECHO_CHARS = 400
# Scrubbed before cutting: a window this much longer, so that a secret the cut would halve (and
# the rules then no longer recognise) is either redacted whole or falls in the part cut away.
_WINDOW_CHARS = 4 * ECHO_CHARS


def echo(text: str, limit: int = ECHO_CHARS) -> str:
    scrubbed = scrub_credentials(text[:_WINDOW_CHARS]).text
    if len(text) <= _WINDOW_CHARS and len(scrubbed) <= limit:
        return scrubbed
    return f"{scrubbed[:limit]}… ({len(text)} characters, cut)"
