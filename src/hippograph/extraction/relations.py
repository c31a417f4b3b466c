"""Typed relations between mentions, from dependency shapes over a parsed Doc.

The shapes and the rules that fill them live in ``extract/relation_patterns.toml``, whose header
explains how a match becomes a relation. Precision comes first: a wrong edge supersedes true facts
in the graph, so anything unresolved, mistyped or hypothetical is dropped rather than guessed.

Type policy: a mention whose type the relation does not declare is dropped, except the pairs NER
confuses ("near", e.g. organization/product) and NER's "other", which keep the edge at lower
confidence, and only when no exactly-typed edge joins the same two mentions in that sentence.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

from spacy.matcher import DependencyMatcher
from spacy.tokens import Doc, Span, Token
from spacy.vocab import Vocab

from hippograph.extraction import slots
from hippograph.extraction.model import EntityType, Mention, Relation
from hippograph.extraction.vocabulary import relation_types
from hippograph.kernel.rules import load_rules

_SUBJECT_DEPS = ("nsubj", "nsubjpass")
_NAME_MODIFIER_DEPS = ("compound", "amod", "nmod")
# An -ing object with one of these is a clause, not the name of an activity.
_ACTIVITY_BREAKERS = ("prep", "xcomp", "ccomp", "advcl", "dative", "advmod")
_ACTIVITY_WORDS = 4  # "playing the guitar" at most
_RULE_KEYS = frozenset({
    "relation", "shapes", "confidence", "verbs", "preps", "particles", "nouns", "adjectives", "links",
    "modifiers", "words", "tags", "inverse", "negated", "needs_neg", "former", "intransitive", "leaf_object",
    "object_in", "object_not_in", "subjects", "objects", "strict", "mint", "mint_in", "mint_pos",
    "mint_from", "mint_subject", "subject_is", "object_is",
})
_DROPPED = object()  # a placeholder the rule leaves out: its constraint goes
_TOKEN_ATTRS = {"LEMMA": "lemma_", "LOWER": "lower_", "POS": "pos_", "TAG": "tag_", "DEP": "dep_"}
# Token attribute -> the value it must have (a string) or the values it may have (a set).
_Checks = tuple[tuple[str, str | frozenset[str]], ...]


@dataclass(frozen=True, slots=True)
class _Shape:
    name: str
    pattern: tuple[dict[str, Any], ...]
    nodes: tuple[str, ...]  # node ids in pattern order: how matched token ids line up
    placeholders: frozenset[str]  # the "$name"s of the pattern
    requires: frozenset[str]
    clausal: bool
    subject: str | None  # node id; None: the clause subject of the anchor
    object: str
    noun: str | None  # the relational noun, whose "ex-"/"former" denies the relation


@dataclass(frozen=True, slots=True)
class _Rule:
    relation: str
    shape: _Shape
    words: Mapping[str, tuple[str, ...]]  # the shape's placeholders, filled
    checks: tuple[tuple[str, _Checks], ...]  # per node, the token attributes the rule demands
    confidence: float
    inverse: bool
    negated: bool
    needs_neg: bool
    former: bool
    intransitive: bool
    leaf_object: bool
    object_in: frozenset[str] | None
    object_not_in: frozenset[str]
    subjects: frozenset[str]
    objects: frozenset[str]
    strict: bool
    mint: EntityType | None
    mint_in: frozenset[str] | None
    mint_pos: frozenset[str]
    mint_from: str | None
    mint_subject: bool
    subject_is: EntityType | None  # the type the relation's subject must have (extraction.slots)
    object_is: EntityType | None


@dataclass(frozen=True, slots=True)
class _Settings:
    near_type: float
    unknown_type: float
    future: float
    hedged: float
    pronoun: float
    near: frozenset[frozenset[str]]
    unknown: frozenset[str]
    first_person: frozenset[str]
    relative: frozenset[str]
    third_person: frozenset[str]
    blocking_modals: frozenset[str]
    future_modals: frozenset[str]
    conditional_marks: frozenset[str]
    hedge_verbs: frozenset[str]
    hedge_adverbs: frozenset[str]
    former_modifiers: frozenset[str]
    hyphen_prefixes: frozenset[str]
    matrix: Mapping[str, str]
    stop: frozenset[str]
    skip_modifiers: frozenset[str]
    never_labels: frozenset[str]
    lexicons: Mapping[str, tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class _Clause:
    negated: bool
    factor: float
    past: bool


# A relation end: a known mention (index, confidence factor) or a mention proposed for an uncovered
# noun, added only when the relation holds.
_End = tuple[int, float] | Mention


@dataclass(frozen=True, slots=True)
class _Found:
    relation: Relation
    exact: bool  # both ends carry a declared type


def find_relations(doc: Doc, mentions: list[Mention]) -> tuple[list[Relation], list[Mention]]:
    """The relations stated in ``doc`` and the mentions, extended by the objects the rules named.

    A Doc without a dependency parse (the rules-only pipeline) states none.
    """
    if not doc.has_annotation("DEP"):
        return [], list(mentions)
    context = MentionResolver(doc, list(mentions))
    by_shape = _rules_by_shape()
    found: list[_Found] = []
    for match_id, token_ids in _matcher(doc.vocab)(doc):
        rules = by_shape[doc.vocab.strings[match_id]]
        nodes = dict(zip(rules[0].shape.nodes, (doc[i] for i in token_ids)))
        for rule in rules:
            if all(_satisfies(nodes[node], checks) for node, checks in rule.checks):
                found.extend(_relations(rule, nodes, context))
    return _settle(found), context.mentions


def is_question(sentence: Span) -> bool:
    """A question asserts nothing: "?" at the end, or an opening that inverts subject and verb
    ("do you live ...", "where do you ...") even when the "?" is missing."""
    if sentence.text.rstrip().endswith("?"):
        return True
    words = [token for token in sentence if not (token.is_punct or token.is_space)]
    if len(words) < 2:
        return False
    first, second = words[0], words[1]
    if first.tag_ in ("WP", "WRB", "WDT", "WP$"):
        return second.pos_ in ("AUX", "VERB")
    return first.pos_ == "AUX" and first.dep_ != "nsubj" and second.dep_ in ("nsubj", "nsubjpass", "expl")


def is_first_person(token: Token) -> bool:
    return token.lower_ in _settings().first_person and token.tag_ in ("PRP", "PRP$")


def clause_subjects(anchor: Token) -> list[Token]:
    """Who the clause of ``anchor`` is about: its subject, inherited across "and" ("I live in
    Boston and work at Google") and into "started/stopped doing"; each coordinated subject."""
    token = anchor
    while True:
        subjects = [child for child in token.children if child.dep_ in _SUBJECT_DEPS]
        if subjects:
            return [subjects[0], *subjects[0].conjuncts]
        if token.dep_ == "conj" or (token.dep_ == "xcomp" and not _has_object(token.head)):
            token = token.head
            continue
        if token.dep_ == "acl" and token.tag_ == "VBN":  # "a company based in Berlin"
            return [token.head]
        return []


@cache
def lexicon(name: str) -> frozenset[str]:
    """A word list of relation_patterns.toml, lowercased."""
    return frozenset(word.lower() for word in _settings().lexicons[name])


def _relations(rule: _Rule, nodes: dict[str, Token], context: MentionResolver) -> Iterator[_Found]:
    anchor = nodes["anchor"]
    if rule.intransitive and _has_object(anchor):
        return
    negated, factor = False, 1.0
    if rule.shape.clausal:
        clause = _assess(anchor)
        if clause is None or is_question(anchor.sent):
            return
        negated, factor = clause.negated or (rule.former and clause.past), clause.factor
    noun = nodes.get(rule.shape.noun) if rule.shape.noun else None
    if noun is not None:
        reading = _noun_reading(noun)
        if reading is None:
            return
        negated = negated or reading
    if rule.needs_neg:
        if not negated:
            return
        negated = False
    negated ^= rule.negated

    target = nodes[rule.shape.object]
    if rule.leaf_object and target.n_lefts + target.n_rights:
        return
    subjects = [nodes[rule.shape.subject]] if rule.shape.subject else clause_subjects(anchor)
    sentence = context.sentence_of(anchor)
    start = nodes.get(rule.mint_from) if rule.mint_from else None
    for obj in [target, *target.conjuncts]:
        if not _object_allowed(rule, obj) or (noun is not None and context.same_mention(noun, obj)):
            continue  # "VP of Engineering" names a role: "Engineering" is no employer
        # "I like tea, not coffee"; "we use no frameworks"
        denied = negated ^ (is_negated(obj) or any(c.dep_ == "det" and c.lower_ == "no" for c in obj.children))
        for subj in subjects:
            yield from _relation(rule, subj, obj, denied, factor, sentence, start, context)


def _relation(
    rule: _Rule,
    subj: Token,
    obj: Token,
    negated: bool,
    factor: float,
    sentence: int,
    start: Token | None,
    context: MentionResolver,
) -> Iterator[_Found]:
    # The slot each token fills: an inverse rule's matched subject is the relation's object.
    slot_of_subject, slot_of_object = (rule.subject_is, rule.subjects), (rule.object_is, rule.objects)
    (subj_is, subj_types), (obj_is, obj_types) = (
        (slot_of_object, slot_of_subject) if rule.inverse else (slot_of_subject, slot_of_object)
    )
    subject = (
        context.resolve(subj)
        or context.propose_slot(subj, subj_is, subj_types, sentence)
        or (context.propose_subject(subj, sentence) if rule.mint_subject else None)
    )
    if subject is None:
        return
    target = (
        context.resolve(obj)
        or context.propose_slot(obj, obj_is, obj_types, sentence)
        or (context.propose(obj, rule.mint, rule, start, sentence) if rule.mint else None)
    )
    if target is None:
        return
    s, o = (target, subject) if rule.inverse else (subject, target)
    s_type, o_type = context.slot_type(s, rule.subject_is), context.slot_type(o, rule.object_is)
    s_fit = _fit(s_type, rule.subjects, rule.strict)
    o_fit = _fit(o_type, rule.objects, rule.strict)
    if s_fit is None or o_fit is None or (isinstance(s, tuple) and isinstance(o, tuple) and s[0] == o[0]):
        return
    # Only now, with the relation certain, do proposed mentions join the Doc's mentions, and do
    # mentions take the type their slot gave them.
    (s_index, s_factor), (o_index, o_factor) = context.commit(s, s_type), context.commit(o, o_type)
    confidence = min(1.0, rule.confidence * factor * s_factor * o_factor * s_fit * o_fit)
    relation = Relation(s_index, rule.relation, o_index, round(confidence, 3), negated, sentence)
    yield _Found(relation, s_fit == 1.0 and o_fit == 1.0)


def _settle(found: list[_Found]) -> list[Relation]:
    """One relation per statement, at its best confidence; a loosely typed reading gives way to an
    exactly typed one between the same two mentions."""
    exact_pairs = {(f.relation.sentence, f.relation.subject, f.relation.object) for f in found if f.exact}
    best: dict[tuple[int, int, str, int, bool], Relation] = {}
    for item in found:
        r = item.relation
        if not item.exact and (r.sentence, r.subject, r.object) in exact_pairs:
            continue
        key = (r.sentence, r.subject, r.predicate, r.object, r.negated)
        if key not in best or best[key].confidence < r.confidence:
            best[key] = r
    return sorted(best.values(), key=lambda r: (r.sentence, r.subject, r.object, r.predicate))


def _assess(anchor: Token) -> _Clause | None:
    """Whether the clause of ``anchor`` asserts its relation, and how: None when it asserts nothing
    (conditional, modal, or the complement of "want to"/"plan to" and the like)."""
    settings = _settings()
    negated, factor = False, 1.0
    chain = [anchor]
    token = anchor
    while token.dep_ == "xcomp":
        governor = token.head
        reading = settings.matrix.get(governor.lemma_.lower())
        if reading is None or (reading == "former" and _has_object(governor)):
            return None
        if reading in ("end", "former"):
            negated = not negated
        elif reading == "future":
            factor *= settings.future
        token = governor
        chain.append(token)
    for link in chain:
        if is_negated(link):
            negated = not negated
    # A modal or "if" on the first conjunct governs the conjuncts that share its subject.
    scope = list(chain)
    while token.dep_ == "conj" and not any(c.dep_ in _SUBJECT_DEPS for c in token.children):
        token = token.head
        scope.append(token)
    for link in scope:
        for child in link.children:
            word = child.lower_
            if child.dep_ in ("aux", "auxpass") and word in settings.blocking_modals:
                return None
            if child.dep_ == "mark" and word in settings.conditional_marks:
                return None
            if child.dep_ == "aux" and word in settings.future_modals:
                factor *= settings.future
            if child.dep_ == "advmod" and word in settings.hedge_adverbs:
                factor *= settings.hedged
    if token.dep_ == "ccomp" and token.head.lemma_.lower() in settings.hedge_verbs:
        factor *= settings.hedged
    return _Clause(negated, factor, _past(anchor))


def _past(anchor: Token) -> bool:
    """Simple or progressive past ("I worked", "I was working", "I had worked"), not the present
    perfect ("I have worked"), which says the state still holds."""
    auxiliaries = [c for c in anchor.children if c.dep_ in ("aux", "auxpass")]
    if any(a.lemma_ == "have" and a.tag_ in ("VBP", "VBZ") for a in auxiliaries):
        return False
    return anchor.tag_ == "VBD" or any(a.tag_ == "VBD" for a in auxiliaries)


def is_negated(token: Token) -> bool:
    """"not", "n't", "never" or "no longer" on the token itself."""
    for child in token.children:
        if child.dep_ == "neg" or (child.dep_ == "advmod" and child.lower_ == "never"):
            return True
        if child.dep_ == "advmod" and any(c.dep_ == "neg" for c in child.children):  # "no longer"
            return True
    return False


def _noun_reading(noun: Token) -> bool | None:
    """Whether a relational noun says its relation is over ("my ex-wife", "my late husband"); None
    when a hyphen makes it another noun ("brother-in-law", "half-sister")."""
    settings = _settings()
    doc = noun.doc
    if noun.i + 1 < len(doc) and doc[noun.i + 1].text == "-" and not noun.whitespace_:
        return None
    over = any(c.lower_ in settings.former_modifiers for c in noun.children if c.dep_ in _NAME_MODIFIER_DEPS)
    if noun.i >= 2 and doc[noun.i - 1].text == "-" and not doc[noun.i - 1].whitespace_:
        prefix = doc[noun.i - 2].lower_
        if prefix in settings.former_modifiers:
            return True
        if prefix not in settings.hyphen_prefixes:
            return None
    return over


def _object_allowed(rule: _Rule, token: Token) -> bool:
    words = {token.lower_, token.lemma_.lower()}
    if rule.object_in is not None and not words & rule.object_in:
        return False
    return not words & rule.object_not_in


def _has_object(token: Token) -> bool:
    return any(child.dep_ == "dobj" for child in token.children)


def _fit(mention_type: EntityType, allowed: frozenset[str], strict: bool) -> float | None:
    """How well a mention's type suits a relation end: 1.0, a lower factor, or None (drop)."""
    if mention_type.value in allowed:
        return 1.0
    if strict:
        return None
    settings = _settings()
    if mention_type.value in settings.unknown:
        return settings.unknown_type
    if any(frozenset((mention_type.value, other)) in settings.near for other in allowed):
        return settings.near_type
    return None


class MentionResolver:
    """Which mention a token stands for, in one Doc; relations that name an uncovered object append
    the new mention to ``mentions``."""

    def __init__(self, doc: Doc, mentions: list[Mention]) -> None:
        self.doc = doc
        self.mentions = mentions
        self.covering: dict[int, int] = {}  # token index -> mention index
        self.sentences = {sent.start: index for index, sent in enumerate(doc.sents)}
        self.speaker = next((i for i, mention in enumerate(mentions) if mention.role == "speaker"), None)
        for index, mention in enumerate(mentions):
            if mention.role != "speaker":
                self._cover(index, mention)

    def sentence_of(self, token: Token) -> int:
        return self.sentences[token.sent.start]

    def same_mention(self, a: Token, b: Token) -> bool:
        return a.i in self.covering and self.covering[a.i] == self.covering.get(b.i)

    def index_of(self, token: Token) -> int | None:
        """The index of the mention ``token`` stands for, if any."""
        found = self.resolve(token)
        return None if found is None else found[0]

    def resolve(self, token: Token) -> tuple[int, float] | None:
        """The mention a token stands for, with a confidence factor; None when unknown."""
        settings = _settings()
        word = token.lower_
        if token.tag_ in ("PRP", "PRP$", "WP", "WDT"):
            if word in settings.first_person:
                return None if self.speaker is None else (self.speaker, 1.0)
            if word in settings.relative:
                antecedent = _antecedent(token)
                return None if antecedent is None else self.resolve(antecedent)
            if word in settings.third_person:
                return self._pronoun(token)
            return None
        if token.i in self.covering:
            return self.covering[token.i], 1.0
        return self._named_by(token)

    def propose(
        self, token: Token, mint: EntityType, rule: _Rule, start: Token | None, sentence: int
    ) -> Mention | None:
        """A new mention of type ``mint`` for an object no mention covers, when the rule allows one."""
        settings = _settings()
        if token.ent_type_ in settings.never_labels or token.pos_ == "PRON":
            return None
        words = {token.lower_, token.lemma_.lower()}
        if rule.mint_in is not None:
            if not words & rule.mint_in:
                return None
        elif token.pos_ not in rule.mint_pos or words & (settings.stop | lexicon("people")):
            return None  # "I love my kids" is no liking of a concept
        elif token.pos_ != "PROPN" and mint is not EntityType.CONCEPT:
            return None  # a common noun ("a hospital") names no particular organization or place
        return self._proposal(token, mint, start, sentence)

    def propose_subject(self, token: Token, sentence: int) -> Mention | None:
        """A concept for an uncovered subject that names a particular piece of work: a proper noun,
        a name of several words ("the checkout service", "dark mode") or a word of the
        status_subjects lexicon ("the API"), so that "the bus was delayed" stays out of the graph."""
        settings = _settings()
        words = {token.lower_, token.lemma_.lower()}
        if token.pos_ not in ("NOUN", "PROPN") or token.ent_type_ in settings.never_labels:
            return None
        if words & (settings.stop | lexicon("people")):
            return None
        proposal = self._proposal(token, EntityType.CONCEPT, None, sentence)
        if proposal is None or token.pos_ == "PROPN" or words & lexicon("status_subjects"):
            return proposal
        return proposal if " " in proposal.text.strip() else None

    def slot_type(self, end: _End, wanted: EntityType | None) -> EntityType:
        """The type a relation end has in a slot asking for ``wanted`` (extraction.slots)."""
        return end.type if isinstance(end, Mention) else slots.slot_type(self.mentions[end[0]], wanted)

    def propose_slot(
        self, token: Token, wanted: EntityType | None, allowed: frozenset[str], sentence: int
    ) -> Mention | None:
        """A mention for an uncovered token that its slot names: a named part ("the billing
        service") of a type the slot takes, or a proper noun in a slot of a declared type."""
        if token.pos_ == "PRON" or token.ent_type_ in _settings().never_labels:
            return None
        part = slots.part_type(token, allowed)
        if part is not None:
            proposal = self._proposal(token, part, None, sentence)
            return proposal if proposal is not None and " " in proposal.text.strip() else None
        named = wanted or slots.unnamed_type(token, allowed)
        if named is not None and slots.may_name(token):
            proposal = self._proposal(token, named, None, sentence)
            return None if proposal is None else replace(proposal, source=slots.ARGUMENT)
        return None

    def commit(self, end: _End, entity_type: EntityType) -> tuple[int, float]:
        """The mention index of a relation end, adding a proposed mention (once per span), and
        giving a known one the type its slot decided."""
        if not isinstance(end, Mention):
            mention = self.mentions[end[0]]
            if mention.type is not entity_type:
                self.mentions[end[0]] = replace(mention, type=entity_type, source=slots.ARGUMENT)
            return end
        for index, mention in enumerate(self.mentions):
            if mention.source == "relation" and (mention.start, mention.end) == (end.start, end.end):
                return index, 1.0
        self.mentions.append(end)
        self._cover(len(self.mentions) - 1, end)
        return len(self.mentions) - 1, 1.0

    def _proposal(self, head: Token, entity_type: EntityType, start: Token | None, sentence: int) -> Mention | None:
        span = self._name_span(head, start)
        if span is None:
            return None
        return Mention(span.text, span.start_char, span.end_char, entity_type, None, "relation", sentence=sentence)

    def _name_span(self, head: Token, start: Token | None) -> Span | None:
        """The head with the modifiers that are part of its name ("product manager", "dark mode",
        "Italian food"), or an activity with its object ("doing laundry"), never overlapping
        another mention."""
        if head.i in self.covering:
            return None
        settings = _settings()
        last = head.i
        if head.tag_ == "VBG":
            if any(child.dep_ in _ACTIVITY_BREAKERS for child in head.children):
                return None  # "going to the gym" is no name
            for child in head.children:
                if child.dep_ in ("dobj", "prt"):
                    last = max(last, child.right_edge.i)
            if last - head.i >= _ACTIVITY_WORDS:
                return None
        first = head.i
        if start is not None:
            first = start.i
        else:
            while first > head.sent.start:
                left = self.doc[first - 1]
                hyphen = left.text == "-" and not left.whitespace_
                naming = (
                    left.dep_ in _NAME_MODIFIER_DEPS
                    and left.lemma_.lower() not in settings.skip_modifiers
                    and left.ent_type_ not in settings.never_labels  # "the second option"
                )
                if left.i in self.covering or not (hyphen or naming) or not first <= left.head.i <= head.i:
                    break
                first -= 1
            while self.doc[first].text == "-":
                first += 1
        if any(i in self.covering for i in range(first, last + 1)):
            return None
        return self.doc[first : last + 1]

    def _pronoun(self, token: Token) -> tuple[int, float] | None:
        """he/she/him/her: the one person named before it, when nothing else could be meant (no
        second name, no unnamed "her husband" or "my boss" in between)."""
        people = lexicon("people") | lexicon("roles")
        names: dict[str, int] = {}
        for t in self.doc[: token.i]:
            index = self.covering.get(t.i)
            if index is not None and self.mentions[index].type is EntityType.PERSON:
                names[self.mentions[index].name] = index
            elif t.pos_ == "NOUN" and t.dep_ != "attr" and t.lemma_.lower() in people and not self._names_person(t):
                return None  # "I met Anna's husband. He ...": not Anna
        if len(names) != 1:
            return None
        return next(iter(names.values())), _settings().pronoun

    def _names_person(self, noun: Token) -> bool:
        """"my wife Anna", "Anna, my wife": the noun and a person's name are one referent."""
        linked = [c for c in noun.children if c.dep_ == "appos"]
        if noun.dep_ == "appos":
            linked.append(noun.head)
        return any(
            t.i in self.covering and self.mentions[self.covering[t.i]].type is EntityType.PERSON for t in linked
        )

    def _named_by(self, token: Token) -> tuple[int, float] | None:
        """An uncovered noun that stands for a name beside it: "the Atlas project" (a category noun
        compounded with the name) or "my wife, Anna" (apposition)."""
        linked = [c for c in token.children if c.dep_ == "appos"]
        if token.dep_ == "appos":
            linked.append(token.head)
        if token.lemma_.lower() in lexicon("category_nouns"):
            linked += [c for c in token.children if c.dep_ == "compound"]
        found = {self.covering[t.i] for t in linked if t.i in self.covering}
        names = {self.mentions[i].name for i in found}
        return (min(found), 1.0) if len(names) == 1 else None

    def _cover(self, index: int, mention: Mention) -> None:
        span = self.doc.char_span(mention.start, mention.end, alignment_mode="expand")
        if span is not None:
            for token in span:
                self.covering.setdefault(token.i, index)


def _antecedent(pronoun: Token) -> Token | None:
    """The noun a relative clause hangs on: "Tom, who works at Microsoft" -> Tom."""
    token = pronoun
    for _ in range(4):
        if token.dep_ == "relcl":
            return token.head
        if token.head.i == token.i:
            return None
        token = token.head
    return None


@cache
def _matcher(vocab: Vocab) -> DependencyMatcher:
    """One pattern per shape, holding the union of its rules' words (a constraint that some rule
    leaves out is left out): a pattern per rule costs the matcher several times as much. Which of
    the shape's rules a match satisfies is checked afterwards, token by token."""
    matcher = DependencyMatcher(vocab, validate=True)
    for name, rules in _rules_by_shape().items():
        shared = set.intersection(*(set(rule.words) for rule in rules))
        union = {key: sorted({word for rule in rules for word in rule.words[key]}) for key in shared}
        matcher.add(name, [[_fill(node, union) for node in rules[0].shape.pattern]])
    return matcher


@cache
def _rules_by_shape() -> dict[str, tuple[_Rule, ...]]:
    grouped: dict[str, list[_Rule]] = {}
    for rule in _rules():
        grouped.setdefault(rule.shape.name, []).append(rule)
    return {name: tuple(rules) for name, rules in grouped.items()}


def _satisfies(token: Token, checks: _Checks) -> bool:
    for attribute, wanted in checks:
        value = getattr(token, attribute)
        if value not in wanted if isinstance(wanted, frozenset) else value != wanted:
            return False
    return True


def _checks(attrs: dict[str, Any]) -> _Checks:
    """A pattern node's RIGHT_ATTRS as checks on a token (the subset of the matcher's syntax the
    shapes use: exact values and IN lists)."""
    checks = []
    for name, condition in attrs.items():
        if name not in _TOKEN_ATTRS or not (isinstance(condition, str) or set(condition) == {"IN"}):
            raise ValueError(f"a relation shape may test {sorted(_TOKEN_ATTRS)} by value or IN list, not {name}")
        checks.append((_TOKEN_ATTRS[name], condition if isinstance(condition, str) else frozenset(condition["IN"])))
    return tuple(checks)


@cache
def _settings() -> _Settings:
    data = load_rules("relation_patterns")
    confidence, clause, mint = data["confidence"], data["clause"], data["mint"]
    words = {key: frozenset(w.lower() for w in clause[key]) for key in (
        "first_person", "relative", "third_person", "blocking_modals", "future_modals", "conditional_marks",
        "hedge_verbs", "hedge_adverbs", "former_modifiers", "hyphen_prefixes",
    )}
    return _Settings(
        near_type=confidence["near_type"],
        unknown_type=confidence["unknown_type"],
        future=confidence["future"],
        hedged=confidence["hedged"],
        pronoun=confidence["pronoun"],
        near=frozenset(frozenset(pair) for pair in data["types"]["near"]),
        unknown=frozenset(data["types"]["unknown"]),
        matrix=dict(clause["matrix"]),
        stop=frozenset(mint["stop"]),
        skip_modifiers=frozenset(mint["skip_modifiers"]),
        never_labels=frozenset(mint["never_labels"]),
        lexicons={name: tuple(entries) for name, entries in data["lexicons"].items()},
        **words,
    )


@cache
def _rules() -> tuple[_Rule, ...]:
    data = load_rules("relation_patterns")
    shapes = {name: _shape(name, spec) for name, spec in data["shapes"].items()}
    compiled = []
    for rule in data["rules"]:
        for name in rule["shapes"]:
            if name not in shapes:
                raise ValueError(f"a {rule['relation']} rule names unknown shape {name!r}")
            compiled.append(_compile(rule, shapes[name]))
    return tuple(compiled)


def _shape(name: str, spec: dict[str, Any]) -> _Shape:
    pattern = tuple(spec["pattern"])
    node_ids = tuple(node["RIGHT_ID"] for node in pattern)
    noun = spec.get("noun", "noun" if "noun" in node_ids else None)
    placeholders = frozenset(_placeholders(pattern))
    requires = frozenset(spec["requires"])
    if not requires <= placeholders:
        raise ValueError(f"shape {name} requires {sorted(requires - placeholders)}, which its pattern does not use")
    return _Shape(
        name=name,
        pattern=pattern,
        nodes=node_ids,
        placeholders=placeholders,
        requires=requires,
        clausal=spec.get("clausal", True),
        subject=spec.get("subject"),
        object=spec.get("object", "object"),
        noun=noun,
    )


def _compile(rule: dict[str, Any], shape: _Shape) -> _Rule:
    name = rule["relation"]
    declared = relation_types().get(name)
    if declared is None:
        raise ValueError(f"relation rule names {name!r}, which relation_types.toml does not declare")
    unknown = rule.keys() - _RULE_KEYS
    missing = {key for key in shape.requires if key not in rule}
    if unknown or missing:
        raise ValueError(f"{name} rule on {shape.name}: unknown keys {sorted(unknown)}, missing {sorted(missing)}")
    subjects = frozenset(rule.get("subjects", declared.subject))
    objects = frozenset(rule.get("objects", declared.object))
    if not (subjects <= declared.subject and objects <= declared.object):
        raise ValueError(f"{name} rule narrows its entity types to ones the relation does not declare")
    mint = EntityType(rule["mint"]) if "mint" in rule else None
    subject_is = EntityType(rule["subject_is"]) if "subject_is" in rule else None
    object_is = EntityType(rule["object_is"]) if "object_is" in rule else None
    if (subject_is and subject_is.value not in subjects) or (object_is and object_is.value not in objects):
        raise ValueError(f"{name} rule on {shape.name} declares an argument type the relation cannot take")
    inverse = rule.get("inverse", False)
    if mint is not None and (inverse or mint.value not in objects):
        raise ValueError(f"{name} rule mints a {mint} object the relation cannot take")
    if rule.get("mint_subject") and EntityType.CONCEPT.value not in subjects:
        raise ValueError(f"{name} rule mints concept subjects the relation cannot take")
    words = {key: tuple(_words(rule[key])) for key in shape.placeholders if key in rule}
    pattern = [_fill(node, words) for node in shape.pattern]
    return _Rule(
        relation=name,
        shape=shape,
        words=words,
        checks=tuple((node["RIGHT_ID"], _checks(node["RIGHT_ATTRS"])) for node in pattern),
        confidence=rule["confidence"],
        inverse=inverse,
        negated=rule.get("negated", False),
        needs_neg=rule.get("needs_neg", False),
        former=rule.get("former", False),
        intransitive=rule.get("intransitive", False),
        leaf_object=rule.get("leaf_object", False),
        object_in=lexicon(rule["object_in"]) if "object_in" in rule else None,
        object_not_in=lexicon(rule["object_not_in"]) if "object_not_in" in rule else frozenset(),
        subjects=subjects,
        objects=objects,
        strict=rule.get("strict", False),
        mint=mint,
        mint_in=lexicon(rule["mint_in"]) if "mint_in" in rule else None,
        mint_pos=frozenset(rule.get("mint_pos", ("NOUN", "PROPN"))),
        mint_from=rule.get("mint_from"),
        mint_subject=rule.get("mint_subject", False),
        subject_is=subject_is,
        object_is=object_is,
    )


def _words(entries: list[str]) -> list[str]:
    """A rule's word list with each "@name" replaced by that lexicon."""
    lexicons = _settings().lexicons
    return [word for entry in entries for word in (lexicons[entry[1:]] if entry.startswith("@") else (entry,))]


def _placeholders(value: Any) -> Iterator[str]:
    if isinstance(value, str) and value.startswith("$"):
        yield value[1:]
    elif isinstance(value, dict):
        for item in value.values():
            yield from _placeholders(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _placeholders(item)


def _fill(value: Any, fills: Mapping[str, Sequence[str]]) -> Any:
    """A shape's pattern node with "$name" placeholders replaced from the rule; an attribute whose
    placeholder the rule leaves out is dropped (an optional constraint such as "$tags")."""
    if isinstance(value, str) and value.startswith("$"):
        return list(fills[value[1:]]) if value[1:] in fills else _DROPPED
    if isinstance(value, dict):
        filled = {key: _fill(item, fills) for key, item in value.items()}
        kept = {key: item for key, item in filled.items() if item is not _DROPPED}
        return _DROPPED if filled and not kept else kept
    return value
