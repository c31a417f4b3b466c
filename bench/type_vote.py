"""What the type vote decides on the LoCoMo dev conversations, without a store: every turn is
extracted as consolidation extracts it ("{speaker}: {text}", speaker = the speaker), mentions are
grouped by conversation and canonical key (``consolidation.keys.canonical_key``), and for each name
mentioned under more than one of the vote's types (``extract/entity_types.toml`` [vote]) it counts
how many entities it would make without the vote (one per type) and with it (one), and which type
the weighted vote gives it.

    python bench/type_vote.py [--locomo PATH]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from consolidation import locomo_captures
from harness import LOCOMO

from hippograph.extraction.pipeline import Extractor, Turn
from hippograph.kernel.keys import canonical_key
from hippograph.resolution import types


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--locomo", type=Path, default=LOCOMO)
    args = parser.parse_args()
    captures = locomo_captures(args.locomo)
    extractions = Extractor().extract_many([Turn(c.content, speaker=c.agent) for c in captures])
    votes: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    names: dict[tuple[str, str], str] = {}
    for capture, extraction in zip(captures, extractions, strict=True):
        for mention in extraction.mentions:
            if mention.type.value in types.vote().types:
                key = (capture.namespace, canonical_key(mention.name))
                votes[key][mention.type.value] += types.weight(mention.source)
                names[key] = mention.name
    mixed = {key: counts for key, counts in votes.items() if len(counts) > 1}
    print(f"{len(captures)} turns; {len(votes)} names of the vote's types; {len(mixed)} named under several of them")
    print(f"entities for those names: {sum(len(c) for c in mixed.values())} without the vote, {len(mixed)} with it")
    for key, counts in sorted(mixed.items()):
        print(f"  {names[key]!r}: {dict(counts)} -> {types.choose(counts)}")


if __name__ == "__main__":
    main()
