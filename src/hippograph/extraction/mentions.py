"""The mentions of one Doc: the speaker, the ruler's and the NER's entity spans, and the regex rules'
candidates, without overlaps, in text order."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import replace

from spacy.tokens import Doc, Span, Token

from hippograph.extraction import designators
from hippograph.extraction.model import EntityType, Mention
from hippograph.extraction.model_types import model_type
from hippograph.extraction.nlp import SpanLabel, span_label
from hippograph.extraction.regex_rules import find_candidates

# Where two candidates overlap, the lower rank wins; within a rank, the earlier regex rule, then
# the longer candidate, then the earlier one. The dictionary is curated, so it beats everything;
# the exact regex rules (URLs, handles) beat the statistical model, which misreads them; the model
# beats the guessing rules (quoted text, Capitalized Phrases).
_DICTIONARY, _EXACT_RULE, _MODEL, _GUESS = range(4)


def find_mentions(doc: Doc, speaker: str | None, speaker_type: EntityType) -> list[Mention]:
    """Mentions sorted by start, each with the index of its sentence in ``list(doc.sents)``; when
    there is a ``speaker``, mention 0 is the speaker, who is in every sentence (index -1)."""
    starts = [sentence.start_char for sentence in doc.sents]
    mentions = [replace(mention, sentence=bisect_right(starts, mention.start) - 1) for mention in _resolve(doc)]
    if not speaker:
        return mentions
    return [Mention(speaker, 0, 0, speaker_type, None, "speaker", role="speaker", sentence=-1), *mentions]


def find_names(doc: Doc) -> list[Mention]:
    """The names to look up in ``doc``, a recall query, sorted by start: the dictionary's and the
    regex rules' mentions, and every other capitalized word that is not a stop word ("When did
    *Caroline* join the *LGBTQ* group?"). The Doc needs no statistical component.

    A query's names are looked up, never minted, so they may over-generate: the store's entities
    decide which are names. The statistical recognizer, trained on news prose, was the wrong tool
    here: it costs CPU per question while holding the GIL against the keyword search, misses names
    at the start of questions ("Would Caroline still want to..."), and its types send names to
    stray entities ("Maria" as a concept instead of the person); docs/benchmarks.md compares them."""
    mentions = _resolve(doc)
    taken = bytearray(len(doc.text))
    for mention in mentions:
        taken[mention.start : mention.end] = b"\x01" * (mention.end - mention.start)
    words = [
        Mention(token.text, token.idx, token.idx + len(token), EntityType.OTHER, None, "query:capitalized")
        for token in doc
        if _may_name(token) and not taken[token.idx]
    ]
    return sorted([*mentions, *words], key=lambda mention: mention.start)


def _may_name(token: Token) -> bool:
    return token.is_alpha and len(token) > 1 and (token.is_title or token.is_upper) and not token.is_stop


def _resolve(doc: Doc) -> list[Mention]:
    ranked = sorted(_candidates(doc), key=lambda item: (item[0], item[1], item[2].start - item[2].end, item[2].start))
    taken = bytearray(len(doc.text))  # 1 where an accepted mention lies
    kept = []
    for _, _, mention in ranked:
        if not any(taken[mention.start : mention.end]):
            taken[mention.start : mention.end] = b"\x01" * (mention.end - mention.start)
            kept.append(mention)
    return sorted(kept, key=lambda mention: mention.start)


def _candidates(doc: Doc) -> Iterator[tuple[int, int, Mention]]:
    """(rank, rule order, mention) for every entity span and regex candidate."""
    for span in doc.ents:
        label = span_label(span.label_)
        if label is None:
            continue
        if label.source != "ner":
            # The ruler's pattern id is the canonical name.
            yield _DICTIONARY, 0, _span_mention(span, label, span.ent_id_)
        elif (trimmed := _model_span(span)) is not None:
            extended = designators.extend(trimmed)
            kind, source = model_type(extended, label.type, span.label_)
            yield _MODEL, 0, _typed(_span_mention(extended, SpanLabel(kind, source), None))
    for candidate in find_candidates(doc.text):
        mention = _typed(candidate.mention) if candidate.mention.type is EntityType.OTHER else candidate.mention
        if mention.source == designators.DESIGNATOR:
            # A Capitalized Phrase that ends in a designator names the organization whole, where the
            # model may have split it ("Cancer Research" + "UK") or left the designator out.
            yield _MODEL, -1, mention
        else:
            yield (_EXACT_RULE if candidate.over_ner else _GUESS), candidate.order, candidate.mention


def _typed(mention: Mention) -> Mention:
    """The mention with the type its own words give it ("Globex Corporation" is an organization
    whatever the context made the model say), marked as typed by its designator."""
    if designators.names_organization(mention.text.split()):
        return replace(mention, type=EntityType.ORGANIZATION, source=designators.DESIGNATOR)
    return mention


def _span_mention(span: Span, label: SpanLabel, canonical: str | None) -> Mention:
    return Mention(span.text, span.start_char, span.end_char, label.type, canonical, label.source)


def _model_span(span: Span) -> Span | None:
    """The statistical model's span without the punctuation it sometimes takes along at its edges
    ("Sunrise'"); None when it holds an e-mail address or URL, which no name contains and the
    model, never trained on them, mistakes for people and companies."""
    if any(token.like_email or token.like_url for token in span):
        return None
    trimmed = designators.trim(span)
    if trimmed is None:
        return None
    span = trimmed
    start, end = span.start, span.end
    while start < end and span.doc[start].is_punct:
        start += 1
    while end > start and span.doc[end - 1].is_punct:
        end -= 1
    return span.doc[start:end] if start < end else None
