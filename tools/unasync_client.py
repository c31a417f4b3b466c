"""Write the synchronous client from the asynchronous one, so there is one source for both.

python tools/unasync_client.py          # rewrite src/hippograph/client/_sync_client.py
python tools/unasync_client.py --check  # exit 1 if it is out of date (tests run this)
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "hippograph" / "client"
SOURCE = PACKAGE / "_async_client.py"
TARGET = PACKAGE / "_sync_client.py"

HEADER = '''"""The synchronous client. Generated from ``_async_client.py`` by ``tools/unasync_client.py``;
do not edit: change that file and run the tool."""
'''
# Applied in order, each everywhere: async syntax first, then the names that differ.
RULES: list[tuple[str, str]] = [
    (r"\basync def ", "def "),
    (r"\basync with ", "with "),
    (r"\bawait ", ""),
    (r"^import anyio\n", ""),
    (r"^from __future__ import annotations\n\n", "from __future__ import annotations\n\nimport time\n"),
    (r"\banyio\.sleep\b", "time.sleep"),
    (r"\bAsyncClient\b", "Client"),
    (r"\bAsyncBaseTransport\b", "BaseTransport"),
    (r"\bAsyncHTTPTransport\b", "HTTPTransport"),
    (r"\b__aenter__\b", "__enter__"),
    (r"\b__aexit__\b", "__exit__"),
    (r"\baclose\b", "close"),
]


def generate(source: str) -> str:
    docstring_end = source.index('"""', 3) + 4
    text = HEADER + source[docstring_end:]
    for pattern, replacement in RULES:
        text = re.sub(pattern, replacement, text, flags=re.MULTILINE)
    return text


def main(argv: list[str]) -> int:
    wanted = generate(SOURCE.read_text(encoding="utf-8"))
    if "--check" in argv:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != wanted:
            print(f"{TARGET} is out of date: run python tools/unasync_client.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(wanted, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
