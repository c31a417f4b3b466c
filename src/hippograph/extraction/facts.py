"""Fact candidates: the sentences worth keeping as Facts, their kind, and their statement with the
speaker named.

Which sentences qualify and of which kind is data (``extract/fact_kinds.toml``, whose header gives
the order of the rules); the antonyms a contradiction check compares are in
``extract/polarity.toml``. Without a dependency parse (the rules-only pipeline) there is no telling
a question or a subject, so no sentence is kept.

This module decides; the rule file is compiled in ``fact_rules``, antonym pairs are read in
``polarity`` and the statement is worded in ``statement``.
"""

from __future__ import annotations

from collections.abc import Sequence

from spacy.tokens import Doc, Span, Token

from hippograph.extraction.clauses import clause_subjects, is_first_person, is_negated, is_past, is_question
from hippograph.extraction.coreference import MentionResolver
from hippograph.extraction.fact_rules import Cue, cues, matcher, settings
from hippograph.extraction.model import EntityType, FactCandidate, Mention, Relation
from hippograph.extraction.polarity import Polar, find_polar, states_polarity, subordinate
from hippograph.extraction.relation_settings import lexicon
from hippograph.extraction.statement import name_speaker
from hippograph.extraction.when import date_entities

_PEOPLE = (EntityType.PERSON, EntityType.AGENT)
_PERSONAL_PRONOUNS = frozenset({"you", "he", "she", "him", "her", "they", "them"})
_COMPLEMENT_DEPS = ("attr", "acomp")


def find_facts(
    doc: Doc, mentions: Sequence[Mention], relations: Sequence[Relation], speaker: str | None
) -> list[FactCandidate]:
    """One candidate per sentence worth keeping (fact_kinds.toml says which), in sentence order."""
    if not doc.has_annotation("DEP"):
        return []
    resolver = MentionResolver(doc, list(mentions))
    by_sentence: dict[int, list[Relation]] = {}
    for relation in relations:
        by_sentence.setdefault(relation.sentence, []).append(relation)
    hits = _cue_hits(doc)
    facts = []
    for index, sentence in enumerate(doc.sents):
        if is_question(sentence):
            continue
        fact = _fact(index, sentence, by_sentence.get(index, []), hits.get(sentence.start, []), resolver, speaker)
        if fact is not None:
            facts.append(fact)
    return facts


def _fact(
    index: int,
    sentence: Span,
    relations: list[Relation],
    hits: list[tuple[int, Token]],
    resolver: MentionResolver,
    speaker: str | None,
) -> FactCandidate | None:
    known = settings()
    cue, cue_token = _first_cue(hits, resolver)
    relation = _main_relation(relations, cue.kind if cue else None)
    polar = find_polar(sentence)
    if relation is None and not (cue and cue.kind == "identity") and not _says_something(sentence, resolver):
        return None
    relation_kind = known.relation_kinds.get(relation.predicate, "fact") if relation else "fact"
    if cue is not None:
        kind, confidence = cue.kind, cue.confidence
    elif relation is not None and relation_kind != "fact":
        kind, confidence = relation_kind, relation.confidence
    elif _event(sentence):
        kind, confidence = "event", known.event_confidence
    elif relation is not None or _about_someone(sentence.root, resolver) or states_polarity(sentence.root, polar):
        kind, confidence = "fact", known.statement_confidence
    else:
        return None
    statement = name_speaker(sentence, speaker)
    polarity = polar.member if polar else None
    if relation is not None:
        return FactCandidate(
            statement,
            kind,
            index,
            max(confidence, relation.confidence),
            subject=relation.subject,
            object=relation.object,
            predicate=relation.predicate,
            negated=relation.negated,
            polarity=polarity,
        )
    verb = _clause_verb(cue_token) if cue_token is not None else sentence.root
    subjects = clause_subjects(verb)
    subject = resolver.index_of(subjects[0]) if subjects else None
    return FactCandidate(
        statement,
        kind,
        index,
        confidence,
        subject=subject,
        object=_object(verb, subject, resolver),
        predicate=_predicate(verb, polar),
        negated=is_negated(verb),
        polarity=polarity,
    )


def _first_cue(hits: list[tuple[int, Token]], resolver: MentionResolver) -> tuple[Cue | None, Token | None]:
    """The cue of highest precedence whose subject condition holds, and the token it matched."""
    ordered = cues()
    for number, token in sorted(hits, key=lambda hit: (hit[0], hit[1].i)):
        if _holds(ordered[number].subject, token, resolver):
            return ordered[number], token
    return None, None


def _main_relation(relations: list[Relation], kind: str | None) -> Relation | None:
    """The relation the fact is about: one that fits the cue's kind, else the most confident."""
    kinds = settings().relation_kinds
    return max(relations, key=lambda r: (kinds.get(r.predicate) == kind, r.confidence), default=None)


def _holds(condition: str | None, token: Token, resolver: MentionResolver) -> bool:
    if condition is None:
        return True
    verb = _clause_verb(token)
    subjects = clause_subjects(verb)
    if condition == "thing":
        return not subjects or not _personal(subjects[0], resolver)
    if not subjects:  # an imperative: "Never deploy on Fridays"
        return verb.tag_ == "VB" and verb.dep_ == "ROOT"
    subject = subjects[0]
    return subject.lower_ in settings().conduct_subjects or not _personal(subject, resolver)


def _personal(token: Token, resolver: MentionResolver) -> bool:
    """Whether a subject is a person: "I", "she", "Anna", "my sister"."""
    if is_first_person(token) or token.lower_ in _PERSONAL_PRONOUNS:
        return True
    index = resolver.index_of(token)
    if index is not None:
        return resolver.mentions[index].type in _PEOPLE
    return token.lemma_.lower() in lexicon("people")


def _about_someone(root: Token, resolver: MentionResolver) -> bool:
    """A statement about the speaker ("I have two kids", "my daughter starts school") or a named
    person ("Anna has a new job")."""
    subjects = clause_subjects(root)
    if not subjects:
        return False
    subject = subjects[0]
    if is_first_person(subject) or any(c.dep_ == "poss" and is_first_person(c) for c in subject.children):
        return True
    index = resolver.index_of(subject)
    return index is not None and resolver.mentions[index].type in _PEOPLE


def _says_something(sentence: Span, resolver: MentionResolver) -> bool:
    known = settings()
    for token in sentence:
        index = resolver.index_of(token)
        if index is not None and resolver.mentions[index].role != "speaker":
            return True
        words = {token.lower_, token.lemma_.lower()}
        if token.pos_ in ("NOUN", "PROPN", "NUM") and not words & known.empty:
            return True
        if token.pos_ == "VERB" and not words & known.light_verbs:
            return True
    return False


def _event(sentence: Span) -> bool:
    """A dated happening: a time expression with a past or future clause, and no habit."""
    known = settings()
    words = {token.lower_ for token in sentence}
    if words & known.habitual:
        return False
    if not (words & known.temporal or date_entities(sentence)):
        return False
    root = sentence.root
    auxiliaries = [child for child in root.children if child.dep_ in ("aux", "auxpass")]
    going_to = root.lower_ == "going" and any(child.dep_ == "xcomp" for child in root.children)
    will = any(a.lower_ in known.future_auxiliaries for a in auxiliaries)
    future = bool(words & known.future) or going_to or will
    return is_past(root) or future


def _clause_verb(token: Token) -> Token:
    """The verb whose clause ``token`` is part of (an auxiliary's is the verb it helps)."""
    while token.pos_ not in ("VERB", "AUX") or token.dep_ in ("aux", "auxpass"):
        if token.head.i == token.i:
            break
        token = token.head
    return token


def _object(verb: Token, subject: int | None, resolver: MentionResolver) -> int | None:
    for token in verb.subtree:
        if token.i > verb.i:
            index = resolver.index_of(token)
            if index is not None and index != subject:
                return index
    return None


def _predicate(verb: Token, polar: Polar | None) -> str:
    """The verb's lemma; for a copula its complement ("vegetarian"). Where the polarity word is the
    predicate itself ("is enabled", "we deny"), the pair, so both sides share one predicate."""
    complements = [child for child in verb.children if child.dep_ in _COMPLEMENT_DEPS]
    if polar is not None and (polar.token.i == verb.i or polar.token in complements):
        return polar.label
    if verb.lemma_ == "be" and complements:
        return complements[0].lemma_.lower()
    return verb.lemma_.lower()


def _cue_hits(doc: Doc) -> dict[int, list[tuple[int, Token]]]:
    """Cue matches by the start of their sentence: (cue number, first token)."""
    hits: dict[int, list[tuple[int, Token]]] = {}
    for match_id, start, _end in matcher(doc.vocab)(doc):
        token = doc[start]
        if not subordinate(token):
            hits.setdefault(token.sent.start, []).append((int(doc.vocab.strings[match_id]), token))
    return hits
