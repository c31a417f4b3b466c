"""Fact candidates: the sentences worth keeping as Facts, their kind, and their statement with the
speaker named.

Which sentences qualify and of which kind is data (``extract/fact_kinds.toml``, whose header gives
the order of the rules); the antonyms a contradiction check compares are in
``extract/polarity.toml``. Without a dependency parse (the rules-only pipeline) there is no telling
a question or a subject, so no sentence is kept.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from spacy.matcher import Matcher
from spacy.tokens import Doc, Span, Token
from spacy.vocab import Vocab

from hippograph.extraction.model import EntityType, FactCandidate, Mention, Relation
from hippograph.extraction.relations import (
    MentionResolver,
    clause_subjects,
    is_first_person,
    is_negated,
    is_question,
    lexicon,
)
from hippograph.kernel.rules import load_rules

_PEOPLE = (EntityType.PERSON, EntityType.AGENT)
_PERSONAL_PRONOUNS = frozenset({"you", "he", "she", "him", "her", "they", "them"})
_COMPLEMENT_DEPS = ("attr", "acomp")
# How a polarity word can hang on the predicate and still be what the sentence says about it.
_POLAR_PREDICATE_DEPS = ("acomp", "attr", "prt", "advmod")
_SUBORDINATE_DEPS = ("advcl", "relcl", "acl")
# Where a polarity word is no polarity: "on the team", "disabled users", "looks like rain".
_NOT_POLAR_DEPS = ("prep", "amod", "pobj")


@dataclass(frozen=True, slots=True)
class _Cue:
    kind: str
    confidence: float
    subject: str | None  # "conduct", "thing" or no condition


@dataclass(frozen=True, slots=True)
class _Settings:
    statement_confidence: float
    event_confidence: float
    empty: frozenset[str]
    light_verbs: frozenset[str]
    conduct_subjects: frozenset[str]
    temporal: frozenset[str]
    future: frozenset[str]
    future_auxiliaries: frozenset[str]
    habitual: frozenset[str]
    relation_kinds: Mapping[str, str]
    pronouns: Mapping[str, str]
    verbs: Mapping[str, str]


@dataclass(frozen=True, slots=True)
class _Side:
    member: str
    label: str
    only: frozenset[str]  # dependency labels under which the word is polar; empty: any


@dataclass(frozen=True, slots=True)
class _Polar:
    member: str  # the canonical side the sentence states, e.g. "disabled"
    label: str  # the pair, "enabled/disabled": a predicate both sides share
    token: Token


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


def opposite_polarity(member: str) -> str | None:
    """The other side of ``member``'s antonym pair ("enabled" -> "disabled"), None if it has none."""
    return _polarity()[1].get(member)


def _fact(
    index: int,
    sentence: Span,
    relations: list[Relation],
    hits: list[tuple[int, Token]],
    resolver: MentionResolver,
    speaker: str | None,
) -> FactCandidate | None:
    settings = _settings()
    cue, cue_token = _first_cue(hits, resolver)
    relation = _main_relation(relations, cue.kind if cue else None)
    polar = _polar(sentence)
    if relation is None and not (cue and cue.kind == "identity") and not _says_something(sentence, resolver):
        return None
    relation_kind = settings.relation_kinds.get(relation.predicate, "fact") if relation else "fact"
    if cue is not None:
        kind, confidence = cue.kind, cue.confidence
    elif relation is not None and relation_kind != "fact":
        kind, confidence = relation_kind, relation.confidence
    elif _event(sentence):
        kind, confidence = "event", settings.event_confidence
    elif relation is not None or _about_someone(sentence.root, resolver) or _states_polarity(sentence.root, polar):
        kind, confidence = "fact", settings.statement_confidence
    else:
        return None
    statement = _statement(sentence, speaker)
    polarity = polar.member if polar else None
    if relation is not None:
        return FactCandidate(
            statement, kind, index, max(confidence, relation.confidence), subject=relation.subject,
            object=relation.object, predicate=relation.predicate, negated=relation.negated, polarity=polarity,
        )
    verb = _clause_verb(cue_token) if cue_token is not None else sentence.root
    subjects = clause_subjects(verb)
    subject = resolver.index_of(subjects[0]) if subjects else None
    return FactCandidate(
        statement, kind, index, confidence, subject=subject, object=_object(verb, subject, resolver),
        predicate=_predicate(verb, polar), negated=is_negated(verb), polarity=polarity,
    )


def _first_cue(hits: list[tuple[int, Token]], resolver: MentionResolver) -> tuple[_Cue | None, Token | None]:
    """The cue of highest precedence whose subject condition holds, and the token it matched."""
    cues = _cues()
    for number, token in sorted(hits, key=lambda hit: (hit[0], hit[1].i)):
        if _holds(cues[number].subject, token, resolver):
            return cues[number], token
    return None, None


def _main_relation(relations: list[Relation], kind: str | None) -> Relation | None:
    """The relation the fact is about: one that fits the cue's kind, else the most confident."""
    kinds = _settings().relation_kinds
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
    return subject.lower_ in _settings().conduct_subjects or not _personal(subject, resolver)


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


def _states_polarity(verb: Token, polar: _Polar | None) -> bool:
    """Whether the predicate itself is one side of an antonym pair ("the cache is off", "guests are
    not allowed"): worth keeping, since a later statement of the other side contradicts it."""
    if polar is None:
        return False
    token = polar.token
    return token.i == verb.i or (token.head.i == verb.i and token.dep_ in _POLAR_PREDICATE_DEPS)


def _says_something(sentence: Span, resolver: MentionResolver) -> bool:
    settings = _settings()
    for token in sentence:
        index = resolver.index_of(token)
        if index is not None and resolver.mentions[index].role != "speaker":
            return True
        words = {token.lower_, token.lemma_.lower()}
        if token.pos_ in ("NOUN", "PROPN", "NUM") and not words & settings.empty:
            return True
        if token.pos_ == "VERB" and not words & settings.light_verbs:
            return True
    return False


def _event(sentence: Span) -> bool:
    """A dated happening: a time expression with a past or future clause, and no habit."""
    settings = _settings()
    words = {token.lower_ for token in sentence}
    if words & settings.habitual:
        return False
    if not (words & settings.temporal or any(t.ent_type_ in ("DATE", "TIME") for t in sentence)):
        return False
    root = sentence.root
    auxiliaries = [child for child in root.children if child.dep_ in ("aux", "auxpass")]
    past = root.tag_ == "VBD" or any(a.tag_ == "VBD" for a in auxiliaries)
    going_to = root.lower_ == "going" and any(child.dep_ == "xcomp" for child in root.children)
    will = any(a.lower_ in settings.future_auxiliaries for a in auxiliaries)
    future = bool(words & settings.future) or going_to or will
    return past or future


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


def _predicate(verb: Token, polar: _Polar | None) -> str:
    """The verb's lemma; for a copula its complement ("vegetarian"). Where the polarity word is the
    predicate itself ("is enabled", "we deny"), the pair, so both sides share one predicate."""
    complements = [child for child in verb.children if child.dep_ in _COMPLEMENT_DEPS]
    if polar is not None and (polar.token.i == verb.i or polar.token in complements):
        return polar.label
    if verb.lemma_ == "be" and complements:
        return complements[0].lemma_.lower()
    return verb.lemma_.lower()


def _polar(sentence: Span) -> _Polar | None:
    """The polarity word that governs most of the sentence: the one nearest its root."""
    forms = _polarity()[0]
    found = []
    for token in sentence:
        if token.dep_ in _NOT_POLAR_DEPS or _subordinate(token):
            continue
        if token.dep_ != "ROOT" and token.head.pos_ not in ("VERB", "AUX"):
            continue  # polarity is what a clause says: "signs off" as a noun says nothing
        side = forms.get(token.lower_) or forms.get(token.lemma_.lower())
        if side is not None and (not side.only or token.dep_ in side.only):
            found.append((_depth(token), token.i, _Polar(side.member, side.label, token)))
    return min(found, key=lambda item: item[:2])[2] if found else None


def _depth(token: Token) -> int:
    depth = 0
    while token.head.i != token.i:
        token, depth = token.head, depth + 1
    return depth


def _statement(sentence: Span, speaker: str | None) -> str:
    """The sentence with the first person replaced by the speaker's name, verbs agreeing."""
    if not speaker:
        return " ".join(sentence.text.split())
    settings = _settings()
    parts = []
    for token in sentence:
        word = token.lower_
        text = token.text
        if word in settings.pronouns and token.tag_ in ("PRP", "PRP$"):
            text = settings.pronouns[word].format(name=speaker)
        elif _agrees_with_i(token):
            text = settings.verbs.get(word) or _third_person(token.text)
            if word == "'d" and token.head.tag_ == "VBN":  # "I'd gone": had, not would
                text = "had"
            if token.text.startswith("'"):
                text = " " + text
        parts.append(text + token.whitespace_)
    return " ".join("".join(parts).split())


def _agrees_with_i(token: Token) -> bool:
    """Whether the token is the verb form agreeing with a lone "I": the first auxiliary, or the
    verb itself when it has none ("I like", "I don't", "I've been", "I'm"), or a verb coordinated
    with such a verb ("I write code and play guitar", where the tagger calls "play" a base form)."""
    if token.tag_ == "VB" and token.dep_ == "conj" and token.head.pos_ == "VERB":
        own = any(child.dep_ in ("aux", "auxpass", "nsubj", "nsubjpass") for child in token.children)
        return not own and _agrees_with_i(token.head)
    if token.tag_ != "VBP" and token.lower_ not in _settings().verbs:
        return False
    if token.dep_ in ("aux", "auxpass"):
        verb = token.head
        if min(c.i for c in verb.children if c.dep_ in ("aux", "auxpass")) != token.i:
            return False
    else:
        verb = token
        if any(child.dep_ in ("aux", "auxpass") for child in verb.children) or token.pos_ not in ("VERB", "AUX"):
            return False
    subjects = clause_subjects(verb)
    return len(subjects) == 1 and subjects[0].lower_ == "i"


def _third_person(verb: str) -> str:
    """"live" -> "lives", "study" -> "studies", "watch" -> "watches"."""
    word = verb.lower()
    if word.endswith(("s", "sh", "ch", "x", "z", "o")):
        inflected = word + "es"
    elif word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        inflected = word[:-1] + "ies"
    else:
        inflected = word + "s"
    return inflected.capitalize() if verb[:1].isupper() else inflected


def _cue_hits(doc: Doc) -> dict[int, list[tuple[int, Token]]]:
    """Cue matches by the start of their sentence: (cue number, first token)."""
    hits: dict[int, list[tuple[int, Token]]] = {}
    for match_id, start, _end in _matcher(doc.vocab)(doc):
        token = doc[start]
        if not _subordinate(token):
            hits.setdefault(token.sent.start, []).append((int(doc.vocab.strings[match_id]), token))
    return hits


def _subordinate(token: Token) -> bool:
    """Whether the token lies in an adverbial or relative clause: "... until legal signs off"
    neither decides anything nor sets the sentence's polarity."""
    while token.head.i != token.i:
        if token.dep_ in _SUBORDINATE_DEPS:
            return True
        token = token.head
    return False


@cache
def _matcher(vocab: Vocab) -> Matcher:
    matcher = Matcher(vocab, validate=True)
    data = load_rules("fact_kinds")
    for number, cue in enumerate(data["cues"]):
        matcher.add(str(number), [[_expand(token) for token in pattern] for pattern in cue["patterns"]])
    return matcher


@cache
def _cues() -> tuple[_Cue, ...]:
    return tuple(_Cue(cue["kind"], cue["confidence"], cue.get("subject")) for cue in load_rules("fact_kinds")["cues"])


def _expand(value: Any) -> Any:
    """A token pattern with each "@name" (an IN list, or an entry of one) replaced by that lexicon."""
    if isinstance(value, dict):
        return {key: _expand(item) for key, item in value.items()}
    if isinstance(value, str) and value.startswith("@"):
        return list(_lexicon(value[1:]))
    if isinstance(value, list):
        return [word for entry in value for word in (_expand(entry) if _refers(entry) else (entry,))]
    return value


def _refers(entry: Any) -> bool:
    return isinstance(entry, str) and entry.startswith("@")


def _lexicon(name: str) -> Iterator[str]:
    """A [lexicons] list of fact_kinds.toml, lowercased and expanded, else one of relation_patterns."""
    own = _own_lexicons().get(name)
    if own is None:
        yield from sorted(lexicon(name))
        return
    for entry in own:
        if entry.startswith("@"):
            yield from _lexicon(entry[1:])
        else:
            yield entry.lower()


@cache
def _own_lexicons() -> dict[str, list[str]]:
    return dict(load_rules("fact_kinds")["lexicons"])


@cache
def _settings() -> _Settings:
    data = load_rules("fact_kinds")
    event, words = data["event"], data["words"]
    return _Settings(
        statement_confidence=data["confidence"]["statement"],
        event_confidence=data["confidence"]["event"],
        empty=frozenset(words["empty"]),
        light_verbs=frozenset(words["light_verbs"]),
        conduct_subjects=frozenset(words["conduct_subjects"]),
        temporal=frozenset(event["temporal"]),
        future=frozenset(event["future"]),
        future_auxiliaries=frozenset(event["future_auxiliaries"]),
        habitual=frozenset(event["habitual"]),
        relation_kinds=dict(data["relations"]),
        pronouns=dict(data["statement"]["pronouns"]),
        verbs=dict(data["statement"]["verbs"]),
    )


@cache
def _polarity() -> tuple[dict[str, _Side], dict[str, str]]:
    """Word -> the side of a pair it states, and member -> its opposite."""
    forms: dict[str, _Side] = {}
    opposite: dict[str, str] = {}
    for pair in load_rules("polarity")["pairs"]:
        only = frozenset(pair.get("only", ()))
        members = {key: words for key, words in pair.items() if key != "only"}
        if len(members) != 2:
            raise ValueError(f"extract/polarity.toml: a pair has two members, not {sorted(members)}")
        first, second = members
        opposite |= {first: second, second: first}
        for member, words in members.items():
            for word in words:
                if word in forms:
                    raise ValueError(f"extract/polarity.toml lists {word!r} twice")
                forms[word] = _Side(member, f"{first}/{second}", only)
    return forms, opposite
