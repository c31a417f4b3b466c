"""Every Extraction of the benchmark texts as one JSON file, to tell whether a change moved extraction.

Two checkouts that extract alike write byte-identical files: run this in each and compare them
with ``cmp``. A refactor of the extraction modules must leave the file unchanged; the figures of
``relations_eval.py`` and ``ner_eval.py`` only summarise what this records in full (every mention,
relation, fact and concept, with offsets and confidences).

Texts: the relation sets (``bench/data/relations_gold.jsonl``, ``relations_heldout.jsonl``, as
``relations_eval.py`` extracts them: a speaker's turn with its "Speaker: " label), the chat NER set
(``bench/data/ner_chat.jsonl``, no speaker) and every LoCoMo turn (as consolidation extracts it).

    python bench/extraction_snapshot.py --out /tmp/extraction.json [--locomo PATH]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "bench"))

from harness import load_turns, locomo_dev

DATA = REPO / "bench" / "data"


def texts(locomo: Path) -> list[tuple[str, str | None]]:
    """(text, speaker) of every benchmark text, in a fixed order."""
    out: list[tuple[str, str | None]] = []
    for name in ("relations_gold.jsonl", "relations_heldout.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            speaker = item.get("speaker")
            out.append((f"{speaker}: {item['text']}" if speaker else item["text"], speaker))
    for line in (DATA / "ner_chat.jsonl").read_text(encoding="utf-8").splitlines():
        out.append((json.loads(line)["text"], None))
    for turn in load_turns(json.loads(locomo.read_text(encoding="utf-8"))):
        out.append((f"{turn.speaker}: {turn.text}", turn.speaker))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--locomo", type=Path, help="the LoCoMo dev set (default: locomo-dev.json in the evaluation data folder)"
    )
    args = parser.parse_args()

    from hippograph.extraction.model import Turn
    from hippograph.extraction.pipeline import Extractor

    extractions = Extractor().extract_many(
        [Turn(text, speaker) for text, speaker in texts(args.locomo or locomo_dev())]
    )
    records = [dataclasses.asdict(extraction) for extraction in extractions]
    args.out.write_text(json.dumps(records, indent=0, default=str), encoding="utf-8")
    relations = sum(len(record["relations"]) for record in records)
    facts = sum(len(record["facts"]) for record in records)
    print(f"{len(records)} texts, {relations} relations, {facts} facts -> {args.out}")


if __name__ == "__main__":
    main()
