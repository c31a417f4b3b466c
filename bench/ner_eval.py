"""Entity P/R/F1 for person, place and organization, the bare spaCy model beside the extractor, on
two sets: WNUT-17 test (noisy web text) and our chat-register set ``bench/data/ner_chat.jsonl``
(see ``bench/data/README.md``).

* **bare model**: the spaCy model's own entities (``doc.ents`` of the same model the extractor
  loads, without the dictionary), typed through ``extract/ner_labels.toml``;
* **extractor**: the real ``Extractor``'s mentions (dictionary, NER, regex rules and the entity type
  rules), without a speaker.

Scoring is ``ner_wnut17.py``'s: exact character spans, micro P/R/F1 per Hippograph type. WNUT's
corporation and group both count as organization, location as place; the chat set's ORG, LOC and PER
map to organization, place and person. Only these three types are reported here (the chat set
annotates no others); ``ner_wnut17.py`` still reports WNUT's product types.

``--ablate NAME`` (repeatable) turns one of the extractor's rules off for the run (``bench/ablation.py``:
``trim``, ``designators``, ``arguments``, ...), to measure what each adds.

    python bench/ner_eval.py [--ablate designators] [--out bench/results/ner_eval.json]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "bench"))

import ablation
from ner_wnut17 import Document, read_conll, score, wnut17_test

CHAT = REPO / "bench" / "data" / "ner_chat.jsonl"
TYPES = ("organization", "place", "person")
WNUT_TYPES = {"person": "person", "location": "place", "corporation": "organization", "group": "organization"}
CHAT_TYPES = {"PER": "person", "LOC": "place", "ORG": "organization"}

Runner = Callable[[list[str]], list[list[tuple[int, int, str]]]]


def read_chat(path: Path) -> list[Document]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [Document(row["text"], tuple((e["start"], e["end"], e["type"]) for e in row["entities"])) for row in rows]


def bare_runner() -> Runner:
    import spacy

    from hippograph.extraction.nlp import MODELS, span_label

    nlp = next(_loaded(spacy, MODELS))

    def run(texts: list[str]) -> list[list[tuple[int, int, str]]]:
        out = []
        for doc in nlp.pipe(texts, batch_size=64):
            labels = [(ent, span_label(ent.label_)) for ent in doc.ents]
            out.append([(ent.start_char, ent.end_char, label.type.value) for ent, label in labels if label])
        return out

    return run


def _loaded(spacy: Any, names: tuple[str, ...]) -> Any:
    for name in names:
        try:
            yield spacy.load(name)
        except OSError:
            continue


def extractor_runner() -> Runner:
    from hippograph.extraction.pipeline import Extractor, Turn

    extractor = Extractor()

    def run(texts: list[str]) -> list[list[tuple[int, int, str]]]:
        return [
            [(m.start, m.end, m.type.value) for m in extraction.mentions]
            for extraction in extractor.extract_many([Turn(text) for text in texts])
        ]

    return run


def evaluate(documents: list[Document], gold_types: dict[str, str], run: Runner) -> dict[str, Any]:
    predicted = run([document.text for document in documents])
    pairs = []
    for document, found in zip(documents, predicted, strict=True):
        gold = {(s, e, gold_types[t]) for s, e, t in document.gold if t in gold_types}
        pairs.append(({span for span in found if span[2] in TYPES}, gold))
    scores = score(pairs)
    keep = {
        key: scores.get(key, {"precision": 0.0, "recall": 0.0, "f1": 0.0, "tp": 0, "predicted": 0, "gold": 0})
        for key in TYPES
    }
    return keep


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wnut", type=Path, help="default: the WNUT-17 test set in the evaluation data folder")
    parser.add_argument("--chat", type=Path, default=CHAT)
    parser.add_argument("--ablate", action="append", default=[])
    parser.add_argument("--no-bare", action="store_true", help="skip the bare model's run")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    ablation.apply(args.ablate)
    sets = {
        "WNUT-17 test": (read_conll(args.wnut or wnut17_test()), WNUT_TYPES),
        "chat (ner_chat.jsonl)": (read_chat(args.chat), CHAT_TYPES),
    }
    runners = {"extractor": extractor_runner()}
    if not args.no_bare:
        runners = {"bare model": bare_runner(), **runners}
    results: dict[str, Any] = {"ablated": args.ablate}
    lines = []
    for set_name, (documents, types) in sets.items():
        results[set_name] = {name: evaluate(documents, types, run) for name, run in runners.items()}
        lines += [
            f"### {set_name}: {len(documents)} documents"
            + (f" (ablated: {', '.join(args.ablate)})" if args.ablate else ""),
            "",
            "| type | runner | P | R | F1 | tp | predicted | gold |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for kind in TYPES:
            for name, table in results[set_name].items():
                row = table[kind]
                lines.append(
                    f"| {kind} | {name} | {row['precision']:.3f} | {row['recall']:.3f} | {row['f1']:.3f} "
                    f"| {row['tp']} | {row['predicted']} | {row['gold']} |"
                )
        lines.append("")
    print("\n".join(lines))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
