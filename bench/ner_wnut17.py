"""Entity extraction against the WNUT-17 test set: exact-span precision, recall and F1, and speed.

WNUT-17 is noisy user text (tweets, Reddit, YouTube and Stack Overflow comments) annotated with six
types. Each document's tokens are joined with single spaces into the text the extractor sees; a
predicted mention counts only when it starts and ends exactly on the gold entity's token boundaries.
Documents are run through the real ``Extractor`` without a speaker (or, while the relation and fact
modules do not exist yet, through ``load_pipeline`` and ``find_mentions`` directly: the same
mentions).

Hippograph has fewer types than WNUT, so the gold types are mapped onto Hippograph's:

* primary score, by Hippograph type: corporation and group both count as organization (spaCy's ORG
  does not tell a company from a band or a team, and neither does Hippograph), creative-work and
  product both as product (WORK_OF_ART maps to product), location as place, person as person;
* strict WNUT: organization predicts corporation and product predicts product only, so group and
  creative-work can never be found: a floor, for comparison with WNUT-17 system papers;
* spans only: boundaries right, type ignored.

Mentions of types WNUT does not annotate (event, concept, domain, agent, project, other: NORP and
LAW spans, URLs, quoted and Capitalized-Phrase guesses) are not scored; their counts are reported.
The rules are not tuned to this set: it is a test set.

    python bench/ner_wnut17.py [--data PATH] [--out bench/results/ner_wnut17.json]

Results go to stdout as Markdown and, with ``--out``, as JSON.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from spacy.language import Language

from hippograph.extraction.model import Mention

sys.path.insert(0, str(REPO / "bench"))
from harness import bench_data

# Gold WNUT type -> the Hippograph type it counts as (primary score).
MERGED = {
    "person": "person",
    "location": "place",
    "corporation": "organization",
    "group": "organization",
    "product": "product",
    "creative-work": "product",
}
# Hippograph type -> the one WNUT type it predicts (strict score).
STRICT = {"person": "person", "place": "location", "organization": "corporation", "product": "product"}

Span = tuple[int, int, str]  # start and end character offsets in the document's text, type


@dataclass(frozen=True)
class Document:
    text: str  # the tokens joined with single spaces
    gold: tuple[Span, ...]  # WNUT types; offsets on token boundaries, so equal offsets = equal tokens


def read_conll(path: Path) -> list[Document]:
    documents, tokens, tags = [], [], []
    for line in [*path.read_text(encoding="utf-8").splitlines(), ""]:
        if line.strip():
            token, tag = line.rsplit("\t", 1)
            tokens.append(token)
            tags.append(tag)
        elif tokens:
            documents.append(document(tokens, tags))
            tokens, tags = [], []
    return documents


def document(tokens: Sequence[str], tags: Sequence[str]) -> Document:
    starts, position = [], 0
    for token in tokens:
        starts.append(position)
        position += len(token) + 1
    gold = tuple((starts[first], starts[last] + len(tokens[last]), kind) for first, last, kind in bio_spans(tags))
    return Document(" ".join(tokens), gold)


def bio_spans(tags: Sequence[str]) -> Iterable[tuple[int, int, str]]:
    """(first token, last token, type) from BIO tags; an I- that does not continue a span of its
    type starts one."""
    start, kind = -1, ""
    for index, tag in enumerate([*tags, "O"]):
        prefix, _, tag_kind = tag.partition("-")
        if start >= 0 and (prefix != "I" or tag_kind != kind):
            yield start, index - 1, kind
            start = -1
        if prefix == "B" or (prefix == "I" and start < 0):
            start, kind = index, tag_kind


def mention_runner() -> tuple[str, Language, Callable[[list[str]], list[list[Mention]]]]:
    """What runs the documents: the Extractor when it can be imported, else its mention stage."""
    try:
        from hippograph.extraction.pipeline import Extractor, Turn
    except ImportError:  # relations/facts not written yet: the mentions are the same either way
        from hippograph.extraction.mentions import find_mentions
        from hippograph.extraction.model import EntityType
        from hippograph.extraction.nlp import load_pipeline

        nlp = load_pipeline()

        def direct(texts: list[str]) -> list[list[Mention]]:
            return [find_mentions(doc, None, EntityType.PERSON) for doc in nlp.pipe(texts, batch_size=64)]

        return "load_pipeline + find_mentions", nlp, direct
    extractor = Extractor()

    def full(texts: list[str]) -> list[list[Mention]]:
        return [list(extraction.mentions) for extraction in extractor.extract_many([Turn(text) for text in texts])]

    return "Extractor", extractor.nlp, full


@dataclass
class Score:
    tp: int = 0
    predicted: int = 0
    gold: int = 0

    def row(self) -> dict[str, float | int]:
        precision = self.tp / self.predicted if self.predicted else 0.0
        recall = self.tp / self.gold if self.gold else 0.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return {
            "precision": precision,
            "recall": recall,
            "f1": f1,
            "tp": self.tp,
            "predicted": self.predicted,
            "gold": self.gold,
        }


def score(pairs: Iterable[tuple[set[Span], set[Span]]]) -> dict[str, dict[str, float | int]]:
    """Micro scores overall and per type from (predicted, gold) span sets per document."""
    scores: dict[str, Score] = {"overall": Score()}
    for predicted, gold in pairs:
        for spans, field in ((predicted, "predicted"), (gold, "gold"), (predicted & gold, "tp")):
            for span in spans:
                for key in ("overall", span[2]):
                    entry = scores.setdefault(key, Score())
                    setattr(entry, field, getattr(entry, field) + 1)
    return {key: value.row() for key, value in sorted(scores.items(), key=lambda item: item[0] != "overall")}


def evaluate(documents: list[Document], mentions: list[list[Mention]]) -> dict[str, Any]:
    merged, strict, spans = [], [], []
    unscored: Counter[str] = Counter()
    for document, found in zip(documents, mentions, strict=True):
        predicted: list[Span] = []
        for mention in found:
            if mention.type.value in STRICT:
                predicted.append((mention.start, mention.end, mention.type.value))
            else:
                unscored[mention.type.value] += 1
        merged.append(({*predicted}, {(s, e, MERGED[t]) for s, e, t in document.gold}))
        strict.append(({(s, e, STRICT[t]) for s, e, t in predicted}, {*document.gold}))
        spans.append(({(s, e, "span") for s, e, _ in predicted}, {(s, e, "span") for s, e, _ in document.gold}))
    return {
        "by_hippograph_type": score(merged),
        "strict_wnut": score(strict),
        "spans_only": score(spans)["overall"],
        "unscored_mentions": dict(unscored.most_common()),
    }


def markdown(results: dict[str, Any]) -> str:
    lines = [
        (
            f"WNUT-17 test: {results['documents']} documents, {results['gold_entities']} gold entities; "
            f"runner: {results['runner']}; model: {results['model']}"
        ),
        "",
        (
            f"Throughput: {results['docs_per_s']:.1f} docs/s ({results['seconds']:.2f} s; pipeline load "
            f"{results['load_s']:.2f} s, not counted)"
        ),
        "",
    ]
    for title, table in (
        ("By Hippograph type (primary)", results["by_hippograph_type"]),
        ("Strict WNUT types", results["strict_wnut"]),
        ("Spans only", {"overall": results["spans_only"]}),
    ):
        lines += [f"### {title}", "", "| type | P | R | F1 | tp | predicted | gold |", "|---|---|---|---|---|---|---|"]
        lines += [
            f"| {key} | {row['precision']:.3f} | {row['recall']:.3f} | {row['f1']:.3f} | {row['tp']} "
            f"| {row['predicted']} | {row['gold']} |"
            for key, row in table.items()
        ]
        lines.append("")
    unscored = ", ".join(f"{key} {count}" for key, count in results["unscored_mentions"].items())
    lines.append(f"Not scored (types WNUT does not annotate): {unscored or 'none'}")
    return "\n".join(lines)


def wnut17_test() -> Path:
    """The WNUT-17 test set in CoNLL form."""
    return bench_data() / "ner" / "wnut17_test.annotated.conll"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--data", type=Path, help="default: ner/wnut17_test.annotated.conll in the evaluation data folder"
    )
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    args.data = args.data or wnut17_test()
    documents = read_conll(args.data)
    began = time.perf_counter()
    runner, nlp, run = mention_runner()
    load_s = time.perf_counter() - began
    texts = [document.text for document in documents]
    began = time.perf_counter()
    mentions = run(texts)
    seconds = time.perf_counter() - began

    meta = nlp.meta
    results = {
        "benchmark": "ner_wnut17",
        "at": datetime.now(UTC).isoformat(timespec="seconds"),
        "data": str(args.data),
        "runner": runner,
        "model": f"{meta.get('lang')}_{meta.get('name')} {meta.get('version')}",
        "python": platform.python_version(),
        "documents": len(documents),
        "gold_entities": sum(len(document.gold) for document in documents),
        "load_s": load_s,
        "seconds": seconds,
        "docs_per_s": len(documents) / seconds,
        **evaluate(documents, mentions),
    }
    print(markdown(results))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
