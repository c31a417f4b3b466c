"""Typed relations between mentions, from dependency shapes over a parsed Doc.

The shapes and the rules that fill them live in ``extract/relation_patterns.toml``, whose header
explains how a match becomes a relation. Precision comes first: a wrong edge supersedes true facts
in the graph, so anything unresolved, mistyped or hypothetical is dropped rather than guessed.

This module matches and types; the parts it draws on have modules of their own: the rule file's
schema (``relation_schema``) and compiler (``relation_rules``), the clause grammar (``clauses``) and
coreference (``coreference``).

Type policy: a mention whose type the relation does not declare is dropped, except the pairs NER
confuses ("near", e.g. organization/product) and NER's "other", which keep the edge at lower
confidence, and only when no exactly-typed edge joins the same two mentions in that sentence.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from spacy.tokens import Doc, Token

from hippograph.extraction.clauses import assess, clause_subjects, has_object, is_negated, is_question, noun_reading
from hippograph.extraction.coreference import MentionResolver
from hippograph.extraction.model import EntityType, Mention, Relation
from hippograph.extraction.relation_rules import Rule, matcher, rules_by_shape, satisfies
from hippograph.extraction.relation_settings import settings


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
    by_shape = rules_by_shape()
    found: list[_Found] = []
    for match_id, token_ids in matcher(doc.vocab)(doc):
        rules = by_shape[doc.vocab.strings[match_id]]
        nodes = dict(zip(rules[0].shape.nodes, (doc[i] for i in token_ids)))
        for rule in rules:
            if all(satisfies(nodes[node], checks) for node, checks in rule.checks):
                found.extend(_relations(rule, nodes, context))
    return _settle(found), context.mentions


def _relations(rule: Rule, nodes: dict[str, Token], context: MentionResolver) -> Iterator[_Found]:
    anchor = nodes["anchor"]
    if rule.intransitive and has_object(anchor):
        return
    negated, factor = False, 1.0
    if rule.shape.clausal:
        clause = assess(anchor)
        if clause is None or is_question(anchor.sent):
            return
        negated, factor = clause.negated or (rule.former and clause.past), clause.factor
    noun = nodes.get(rule.shape.noun) if rule.shape.noun else None
    if noun is not None:
        reading = noun_reading(noun)
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
    rule: Rule,
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
        or (context.propose(obj, rule.mint, rule.mint_in, rule.mint_pos, start, sentence) if rule.mint else None)
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


def _object_allowed(rule: Rule, token: Token) -> bool:
    words = {token.lower_, token.lemma_.lower()}
    if rule.object_in is not None and not words & rule.object_in:
        return False
    return not words & rule.object_not_in


def _fit(mention_type: EntityType, allowed: frozenset[str], strict: bool) -> float | None:
    """How well a mention's type suits a relation end: 1.0, a lower factor, or None (drop)."""
    if mention_type.value in allowed:
        return 1.0
    if strict:
        return None
    known = settings()
    if mention_type.value in known.unknown:
        return known.unknown_type
    if any(frozenset((mention_type.value, other)) in known.near for other in allowed):
        return known.near_type
    return None
