"""Relation and fact extraction measured against a hand-labelled gold set.

Runs the real extractor (``hippograph.extraction.pipeline.Extractor``) over every item of
``bench/data/relations_gold.jsonl`` (chat turns, engineering notes, CRM notes; see
``bench/data/README.md``) and measures:

* typed relations: micro precision, recall and F1, overall, per relation type and per register,
  plus an untyped diagnostic (right subject and object, whatever the predicate and negation);
* facts: detection (an item with at least one predicted FactCandidate vs a gold fact) as precision,
  recall and F1; kind accuracy where both exist, by the first predicted fact's kind (headline) and
  by any predicted fact's kind; a confusion table of gold kind vs first predicted kind;
* throughput of ``Extractor.extract_many`` (items/s and sentences/s, median of a few passes).

Matching rules (why: gold names are written as they appear in the text; the extractor may keep a
shorter or longer span, or a canonical form):

* a predicted relation matches a gold one when the predicate and ``negated`` are equal and the
  subject and object names match; MARRIED_TO, FRIEND_OF and SIBLING_OF are symmetric, so for them
  either direction matches;
* names are normalised: case-folded, a possessive 's dropped, punctuation turned into spaces,
  leading determiners and possessive pronouns ("the", "a", "my", "our", ...) dropped;
* two normalised names match when one contains the other as whole words ("Acme" matches
  "Acme Robotics", "payments team" matches "the payments team"; "Acme" does not match "Acmes");
  a predicted mention offers both its surface text and its canonical name;
* each gold relation is matched to at most one prediction (maximum bipartite matching); identical
  predicted triples within an item are counted once.

Chat items with a speaker are extracted as production episodes look: ``"{speaker}: {text}"`` with
``speaker=speaker``, so first-person statements resolve to the speaker's name.

Run from a checkout (prints Markdown, writes JSON):

    python bench/relations_eval.py [--gold bench/data/relations_gold.jsonl]
                                   [--out bench/results/relations_eval.json]
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import statistics
import subprocess
import sys
import time
import tomllib
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEFAULT_GOLD = REPO / "bench" / "data" / "relations_gold.jsonl"
DEFAULT_OUT = REPO / "bench" / "results" / "relations_eval.json"
RELATION_TYPES = REPO / "extract" / "relation_types.toml"

REGISTERS = ("chat", "eng", "crm")
FACT_KINDS = ("fact", "preference", "decision", "procedure", "status", "identity", "task", "event")
SYMMETRIC = frozenset({"MARRIED_TO", "FRIEND_OF", "SIBLING_OF"})
# Dropped from the front of a name: the gold writes "payments team" where the text says
# "the payments team", and a rule may keep either.
LEADING_WORDS = frozenset(
    ["the", "a", "an", "my", "our", "your", "his", "her", "their", "its", "this", "that", "these", "those"]
)
NONE_KIND = "(none)"  # confusion-table label for "no fact" on either side
THROUGHPUT_PASSES = 3
WARMUP_ITEMS = 16


# ---------------------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Triple:
    """A relation as names: gold has one name per side, a prediction may offer several."""

    subject: tuple[str, ...]
    predicate: str
    object: tuple[str, ...]
    negated: bool

    def label(self) -> str:
        neg = "NOT " if self.negated else ""
        return f"{self.subject[0]} {neg}{self.predicate} {self.object[0]}"


@dataclass(frozen=True)
class GoldItem:
    id: str
    register: str
    speaker: str | None
    text: str
    relations: tuple[Triple, ...]
    fact_kind: str | None


@dataclass(frozen=True)
class Prediction:
    """What the extractor said about one item, reduced to what the scorer compares."""

    relations: tuple[Triple, ...]
    fact_kinds: tuple[str, ...]  # in the extractor's order: the first one is the headline kind
    sentences: int = 1


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, other: Counts) -> None:
        self.tp += other.tp
        self.fp += other.fp
        self.fn += other.fn

    def scores(self) -> dict[str, float | int]:
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0.0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        return {
            "tp": self.tp,
            "fp": self.fp,
            "fn": self.fn,
            "precision": round(p, 4),
            "recall": round(r, 4),
            "f1": round(f, 4),
        }


def load_relation_types(path: Path = RELATION_TYPES) -> frozenset[str]:
    with path.open("rb") as f:
        return frozenset(t["name"] for t in tomllib.load(f)["types"])


def load_gold(path: Path, relation_types: frozenset[str]) -> list[GoldItem]:
    """Read and validate the gold set: a typo in a label would silently skew every number."""
    items: list[GoldItem] = []
    seen: set[str] = set()
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        where = f"{path.name}:{lineno} ({row.get('id')})"
        if row["id"] in seen:
            raise ValueError(f"{where}: duplicate id")
        seen.add(row["id"])
        if row["register"] not in REGISTERS:
            raise ValueError(f"{where}: unknown register {row['register']!r}")
        relations = []
        for rel in row["relations"]:
            if rel["predicate"] not in relation_types:
                raise ValueError(f"{where}: {rel['predicate']!r} is not in the closed vocabulary")
            if not isinstance(rel["negated"], bool):
                raise TypeError(f"{where}: negated must be true or false")
            relations.append(Triple((rel["subject"],), rel["predicate"], (rel["object"],), rel["negated"]))
        fact = row["fact"]
        kind = None if fact is None else fact["kind"]
        if kind is not None and kind not in FACT_KINDS:
            raise ValueError(f"{where}: unknown fact kind {kind!r}")
        items.append(GoldItem(row["id"], row["register"], row["speaker"], row["text"], tuple(relations), kind))
    return items


# ------------------------------------------------------------------------------------ matching


def normalize_name(name: str) -> tuple[str, ...]:
    """Words of a name for comparison: "The Acme Robotics's" -> ("acme", "robotics")."""
    text = unicodedata.normalize("NFKC", name).casefold()
    text = re.sub(r"['\u2019]s\b", "", text)  # possessive: "Dana's" names Dana
    words = re.sub(r"[^\w]+", " ", text).split()
    while words and words[0] in LEADING_WORDS:
        words = words[1:]
    return tuple(words)


def _contains(outer: tuple[str, ...], inner: tuple[str, ...]) -> bool:
    n = len(inner)
    return any(outer[i : i + n] == inner for i in range(len(outer) - n + 1))


def names_match(a: Iterable[str], b: Iterable[str]) -> bool:
    """True when some name of a and some name of b match as whole words, one inside the other."""
    norm_b = [w for w in (normalize_name(x) for x in b) if w]
    for x in a:
        wa = normalize_name(x)
        if wa and any(_contains(wa, wb) or _contains(wb, wa) for wb in norm_b):
            return True
    return False


def triples_match(pred: Triple, gold: Triple, typed: bool = True) -> bool:
    """typed=False is the diagnostic: right entity pair, whatever predicate or negation."""
    if typed and (pred.predicate != gold.predicate or pred.negated != gold.negated):
        return False
    if names_match(pred.subject, gold.subject) and names_match(pred.object, gold.object):
        return True
    # Symmetric types hold both ways; untyped pairs are compared unordered for the same reason
    # (a rule that reverses a pair still found the pair).
    if not typed or gold.predicate in SYMMETRIC:
        return names_match(pred.subject, gold.object) and names_match(pred.object, gold.subject)
    return False


def match_relations(pred: Sequence[Triple], gold: Sequence[Triple], typed: bool = True) -> list[tuple[int, int]]:
    """Maximum one-to-one matching (pred index, gold index). Lenient name containment can let
    one prediction fit two gold relations; a greedy pass could then miss a better pairing."""
    edges = [[g for g, gt in enumerate(gold) if triples_match(pt, gt, typed)] for pt in pred]
    owner: dict[int, int] = {}  # gold index -> pred index

    def augment(p: int, visited: set[int]) -> bool:
        for g in edges[p]:
            if g in visited:
                continue
            visited.add(g)
            if g not in owner or augment(owner[g], visited):
                owner[g] = p
                return True
        return False

    for p in range(len(pred)):
        augment(p, set())
    return sorted((p, g) for g, p in owner.items())


def dedupe(triples: Sequence[Triple]) -> list[Triple]:
    """One relation stated twice in an item (or found by two rules) is one prediction."""
    seen: set[tuple[Any, ...]] = set()
    out = []
    for t in triples:
        key = (
            tuple(sorted(map(normalize_name, t.subject))),
            t.predicate,
            tuple(sorted(map(normalize_name, t.object))),
            t.negated,
        )
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out


# ------------------------------------------------------------------------------------- scoring


def score_relations(gold: Sequence[GoldItem], preds: Sequence[Prediction]) -> dict[str, Any]:
    overall, untyped = Counts(), Counts()
    per_type: dict[str, Counts] = defaultdict(Counts)
    per_register: dict[str, Counts] = defaultdict(Counts)
    errors = []
    for item, pred in zip(gold, preds, strict=True):
        predicted = dedupe(pred.relations)
        pairs = match_relations(predicted, item.relations)
        hit_pred = {p for p, _ in pairs}
        hit_gold = {g for _, g in pairs}
        item_counts = Counts(len(pairs), len(predicted) - len(pairs), len(item.relations) - len(pairs))
        overall.add(item_counts)
        per_register[item.register].add(item_counts)
        for _, g in pairs:
            per_type[item.relations[g].predicate].tp += 1
        for p, t in enumerate(predicted):
            if p not in hit_pred:
                per_type[t.predicate].fp += 1
        for g, t in enumerate(item.relations):
            if g not in hit_gold:
                per_type[t.predicate].fn += 1
        n_untyped = len(match_relations(predicted, item.relations, typed=False))
        untyped.add(Counts(n_untyped, len(predicted) - n_untyped, len(item.relations) - n_untyped))
        if item_counts.fp or item_counts.fn:
            errors.append(
                {
                    "id": item.id,
                    "text": item.text,
                    "missed": [t.label() for g, t in enumerate(item.relations) if g not in hit_gold],
                    "spurious": [t.label() for p, t in enumerate(predicted) if p not in hit_pred],
                }
            )
    return {
        "overall": overall.scores(),
        "untyped_pairs": untyped.scores(),
        "per_register": {r: per_register[r].scores() for r in REGISTERS if r in per_register},
        "per_type": {t: per_type[t].scores() for t in sorted(per_type)},
        "errors": errors,
    }


def score_facts(gold: Sequence[GoldItem], preds: Sequence[Prediction]) -> dict[str, Any]:
    detection = Counts()
    per_register: dict[str, Counts] = defaultdict(Counts)
    both = first_right = any_right = 0
    confusion: dict[str, Counter[str]] = defaultdict(Counter)  # gold kind -> first predicted kind
    per_kind: dict[str, Counter[str]] = defaultdict(Counter)  # gold kind -> {"n", "first", "any"}
    errors = []
    for item, pred in zip(gold, preds, strict=True):
        has_gold, has_pred = item.fact_kind is not None, bool(pred.fact_kinds)
        c = Counts(int(has_gold and has_pred), int(has_pred and not has_gold), int(has_gold and not has_pred))
        detection.add(c)
        per_register[item.register].add(c)
        first = pred.fact_kinds[0] if has_pred else NONE_KIND
        confusion[item.fact_kind or NONE_KIND][first] += 1
        if has_gold and has_pred:
            both += 1
            per_kind[item.fact_kind]["n"] += 1
            first_right += first == item.fact_kind
            any_right += item.fact_kind in pred.fact_kinds
            per_kind[item.fact_kind]["first"] += first == item.fact_kind
            per_kind[item.fact_kind]["any"] += item.fact_kind in pred.fact_kinds
        if (item.fact_kind or NONE_KIND) != first:
            errors.append(
                {"id": item.id, "text": item.text, "gold": item.fact_kind, "predicted": list(pred.fact_kinds)}
            )
    return {
        "detection": detection.scores(),
        "detection_per_register": {r: per_register[r].scores() for r in REGISTERS if r in per_register},
        "kind_accuracy_first": round(first_right / both, 4) if both else 0.0,
        "kind_accuracy_any": round(any_right / both, 4) if both else 0.0,
        "kind_scored_items": both,
        "kind_per_gold_kind": {
            k: {"n": v["n"], "first": v["first"], "any": v["any"]} for k, v in sorted(per_kind.items())
        },
        "confusion_first": {g: dict(row) for g, row in sorted(confusion.items())},
        "errors": errors,
    }


# ----------------------------------------------------------------------------------- extractor


def turn_text(item: GoldItem) -> str:
    # Production episodes of a conversation carry the speaker's name in front of the turn.
    return f"{item.speaker}: {item.text}" if item.speaker else item.text


def to_prediction(extraction: Any) -> Prediction:
    """An Extraction (hippograph.extraction.model) as names. Both the surface text and the
    canonical name are offered, since the gold writes names as the text has them."""

    def names(index: int) -> tuple[str, ...]:
        m = extraction.mentions[index]
        return tuple(dict.fromkeys(n for n in (m.text, m.canonical) if n))

    relations = tuple(
        Triple(names(r.subject), r.predicate, names(r.object), bool(r.negated)) for r in extraction.relations
    )
    return Prediction(relations, tuple(f.kind for f in extraction.facts), max(1, len(extraction.sentences)))


def _import_extractor() -> tuple[Any, Any]:
    try:
        from hippograph.extraction.pipeline import Extractor, Turn
    except ModuleNotFoundError as e:
        if e.name != "hippograph":  # a missing dependency or module inside it is a real error
            raise
        # Not installed: run from the checkout's source tree.
        sys.path.insert(0, str(REPO / "src"))
        from hippograph.extraction.pipeline import Extractor, Turn
    return Extractor, Turn


def run_extractor(gold: Sequence[GoldItem]) -> tuple[list[Prediction], dict[str, Any]]:
    Extractor, Turn = _import_extractor()
    t0 = time.perf_counter()
    extractor = Extractor()
    load_s = time.perf_counter() - t0
    turns = [Turn(text=turn_text(item), speaker=item.speaker) for item in gold]
    # Warm-up: the first Doc pays for lazy initialisation that a long-running worker pays once.
    extractor.extract_many(turns[:WARMUP_ITEMS])
    timings, extractions = [], []
    for _ in range(THROUGHPUT_PASSES):
        t0 = time.perf_counter()
        extractions = extractor.extract_many(turns)
        timings.append(time.perf_counter() - t0)
    preds = [to_prediction(e) for e in extractions]
    seconds = statistics.median(timings)
    sentences = sum(p.sentences for p in preds)
    throughput = {
        "items": len(turns),
        "sentences": sentences,
        "passes": THROUGHPUT_PASSES,
        "seconds_median": round(seconds, 4),
        "items_per_s": round(len(turns) / seconds, 1),
        "sentences_per_s": round(sentences / seconds, 1),
        "extractor_load_s": round(load_s, 2),
    }
    return preds, {"throughput": throughput, "pipeline": _pipeline_info(extractor)}


def _pipeline_info(extractor: Any) -> dict[str, Any]:
    nlp = getattr(extractor, "nlp", None)
    meta = getattr(nlp, "meta", {}) or {}
    info: dict[str, Any] = {
        "model": f"{meta.get('lang', '?')}_{meta.get('name', '?')}",
        "version": meta.get("version"),
    }
    info["components"] = list(getattr(nlp, "pipe_names", []) or [])
    try:
        import spacy

        info["spacy"] = spacy.__version__
    except ImportError:
        info["spacy"] = None
    return info


# ------------------------------------------------------------------------------------ reporting


def gold_summary(gold: Sequence[GoldItem]) -> dict[str, Any]:
    return {
        "items": len(gold),
        "per_register": dict(Counter(i.register for i in gold)),
        "relations": sum(len(i.relations) for i in gold),
        "negated_relations": sum(t.negated for i in gold for t in i.relations),
        "per_type": dict(sorted(Counter(t.predicate for i in gold for t in i.relations).items())),
        "per_fact_kind": dict(Counter(i.fact_kind or NONE_KIND for i in gold)),
    }


def _prf_row(name: str, s: dict[str, Any]) -> str:
    return (
        f"| {name} | {s['tp'] + s['fn']} | {s['tp'] + s['fp']} | {s['tp']} | "
        f"{s['precision']:.3f} | {s['recall']:.3f} | {s['f1']:.3f} |"
    )


def markdown(result: dict[str, Any]) -> str:
    rel, fac = result["relations"], result["facts"]
    head = "| | gold | predicted | matched | P | R | F1 |\n|---|---:|---:|---:|---:|---:|---:|"
    g = result["gold"]
    out = [
        f"## Relation extraction ({g['items']} items, {g['relations']} gold relations)",
        "",
        head,
        _prf_row("typed (all)", rel["overall"]),
        _prf_row("untyped pairs", rel["untyped_pairs"]),
    ]
    out += [_prf_row(r, s) for r, s in rel["per_register"].items()]
    out += ["", "### Per relation type", "", head]
    out += [_prf_row(t, s) for t, s in rel["per_type"].items()]
    out += ["", "## Facts", "", head.replace("| | gold", "| detection | gold"), _prf_row("all", fac["detection"])]
    out += [_prf_row(r, s) for r, s in fac["detection_per_register"].items()]
    out += [
        "",
        (
            f"Kind accuracy on {fac['kind_scored_items']} items with gold and predicted facts: "
            f"first predicted kind {fac['kind_accuracy_first']:.3f}, "
            f"any predicted kind {fac['kind_accuracy_any']:.3f}."
        ),
        "",
        "| gold kind | n | first right | any right |",
        "|---|---:|---:|---:|",
    ]
    out += [f"| {k} | {v['n']} | {v['first']} | {v['any']} |" for k, v in fac["kind_per_gold_kind"].items()]
    labels = [*FACT_KINDS, NONE_KIND]
    out += [
        "",
        "### Confusion (rows: gold kind, columns: first predicted kind)",
        "",
        "| gold \\ predicted | " + " | ".join(labels) + " |",
        "|---|" + "---:|" * len(labels),
    ]
    for g in labels:
        row = fac["confusion_first"].get(g, {})
        if row:
            out.append(f"| {g} | " + " | ".join(str(row.get(p, 0) or "") for p in labels) + " |")
    if "throughput" in result:
        t = result["throughput"]
        out += [
            "",
            "## Throughput of extract_many",
            "",
            (
                f"{t['items']} items, {t['sentences']} sentences: median of {t['passes']} passes "
                f"{t['seconds_median']:.3f} s = "
                f"**{t['items_per_s']} items/s, {t['sentences_per_s']} sentences/s** "
                f"(extractor load {t['extractor_load_s']} s)."
            ),
        ]
        pipe = result.get("pipeline", {})
        out.append(
            f"Pipeline: {pipe.get('model')} {pipe.get('version')}, spaCy {pipe.get('spacy')}, "
            f"components {', '.join(pipe.get('components', []))}."
        )
    return "\n".join(out)


def _git(*args: str) -> str | None:
    try:
        return subprocess.run(
            ["git", "-C", str(REPO), *args], capture_output=True, text=True, check=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None


def _extractor_dirty() -> bool | None:
    # The commit alone does not identify the rules measured when they have uncommitted edits.
    out = _git("status", "--porcelain", "--", "src/hippograph/extraction", "extract")
    return None if out is None else bool(out)


def evaluate(gold: Sequence[GoldItem], preds: Sequence[Prediction]) -> dict[str, Any]:
    return {
        "gold": gold_summary(gold),
        "relations": score_relations(gold, preds),
        "facts": score_facts(gold, preds),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gold", type=Path, default=DEFAULT_GOLD)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--ablate", action="append", default=[], help="a rule to turn off (bench/ablation.py)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO / "bench"))
    import ablation

    ablation.apply(args.ablate)

    gold = load_gold(args.gold, load_relation_types())
    preds, run_info = run_extractor(gold)
    result = {
        "generated_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "commit": _git("rev-parse", "HEAD"),
        "extractor_uncommitted_changes": _extractor_dirty(),
        "python": platform.python_version(),
        "gold_file": str(args.gold),
        "ablated": args.ablate,
        **evaluate(gold, preds),
        **run_info,
    }
    print(markdown(result))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"\nwrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
