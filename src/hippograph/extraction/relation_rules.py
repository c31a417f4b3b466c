"""The rule compiler: the validated relation rule file as compiled rules and one DependencyMatcher.

Every rule of a shape shares the shape's pattern; the matcher holds one pattern per shape, and the
words that tell a shape's rules apart are checked per rule on the matched tokens (``satisfies``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from spacy.matcher import DependencyMatcher
from spacy.tokens import Token
from spacy.vocab import Vocab

from hippograph.extraction.lexicons import expand
from hippograph.extraction.model import EntityType
from hippograph.extraction.relation_schema import RuleSpec, ShapeSpec, entity_types, relation_file
from hippograph.extraction.relation_settings import lexicon, settings
from hippograph.extraction.vocabulary import relation_types

_DROPPED = object()  # a placeholder the rule leaves out: its constraint goes
_TOKEN_ATTRS = {"LEMMA": "lemma_", "LOWER": "lower_", "POS": "pos_", "TAG": "tag_", "DEP": "dep_"}
# Token attribute -> the value it must have (a string) or the values it may have (a set).
Checks = tuple[tuple[str, str | frozenset[str]], ...]


@dataclass(frozen=True, slots=True)
class Shape:
    name: str
    pattern: tuple[dict[str, Any], ...]
    nodes: tuple[str, ...]  # node ids in pattern order: how matched token ids line up
    placeholders: frozenset[str]  # the "$name"s of the pattern
    clausal: bool
    subject: str | None  # node id; None: the clause subject of the anchor
    object: str
    noun: str | None  # the relational noun, whose "ex-"/"former" denies the relation


@dataclass(frozen=True, slots=True)
class Rule:
    relation: str
    shape: Shape
    words: Mapping[str, tuple[str, ...]]  # the shape's placeholders, filled
    checks: tuple[tuple[str, Checks], ...]  # per node, the token attributes the rule demands
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


@cache
def rules() -> tuple[Rule, ...]:
    """Every rule once per shape it names, in file order."""
    data = relation_file()
    shapes = {name: _shape(name, spec) for name, spec in data.shapes.items()}
    return tuple(_compile(rule, shapes[name]) for rule in data.rules for name in rule.shapes)


@cache
def rules_by_shape() -> dict[str, tuple[Rule, ...]]:
    grouped: dict[str, list[Rule]] = {}
    for rule in rules():
        grouped.setdefault(rule.shape.name, []).append(rule)
    return {name: tuple(rules) for name, rules in grouped.items()}


@cache
def matcher(vocab: Vocab) -> DependencyMatcher:
    """One pattern per shape, holding the union of its rules' words (a constraint that some rule
    leaves out is left out): a pattern per rule costs the matcher several times as much. Which of
    the shape's rules a match satisfies is checked afterwards, token by token."""
    found = DependencyMatcher(vocab, validate=True)
    for name, shape_rules in rules_by_shape().items():
        shared = set.intersection(*(set(rule.words) for rule in shape_rules))
        union = {key: sorted({word for rule in shape_rules for word in rule.words[key]}) for key in shared}
        found.add(name, [[_fill(node, union) for node in shape_rules[0].shape.pattern]])
    return found


def satisfies(token: Token, checks: Checks) -> bool:
    for attribute, wanted in checks:
        value = getattr(token, attribute)
        if value not in wanted if isinstance(wanted, frozenset) else value != wanted:
            return False
    return True


def _checks(attrs: dict[str, Any]) -> Checks:
    """A pattern node's RIGHT_ATTRS as checks on a token: exact values and IN lists, the only
    tests the schema lets a shape make."""
    return tuple(
        (_TOKEN_ATTRS[name], condition if isinstance(condition, str) else frozenset(condition["IN"]))
        for name, condition in attrs.items()
    )


def _shape(name: str, spec: ShapeSpec) -> Shape:
    return Shape(
        name=name,
        pattern=tuple(node.model_dump(exclude_none=True) for node in spec.pattern),
        nodes=spec.nodes,
        placeholders=spec.placeholders,
        clausal=spec.clausal,
        subject=spec.subject,
        object=spec.object,
        noun=spec.noun or ("noun" if "noun" in spec.nodes else None),
    )


def _compile(rule: RuleSpec, shape: Shape) -> Rule:
    """A rule the schema has checked (relation_schema), on one of its shapes."""
    declared = relation_types()[rule.relation]
    fills = rule.fills()
    words = {key: tuple(_words(fills[key])) for key in shape.placeholders if key in fills}
    pattern = [_fill(node, words) for node in shape.pattern]
    return Rule(
        relation=rule.relation,
        shape=shape,
        words=words,
        checks=tuple((node["RIGHT_ID"], _checks(node["RIGHT_ATTRS"])) for node in pattern),
        confidence=rule.confidence,
        inverse=rule.inverse,
        negated=rule.negated,
        needs_neg=rule.needs_neg,
        former=rule.former,
        intransitive=rule.intransitive,
        leaf_object=rule.leaf_object,
        object_in=lexicon(rule.object_in) if rule.object_in is not None else None,
        object_not_in=lexicon(rule.object_not_in) if rule.object_not_in is not None else frozenset(),
        subjects=entity_types(rule.subjects, declared.subject),
        objects=entity_types(rule.objects, declared.object),
        strict=rule.strict,
        mint=rule.mint,
        mint_in=lexicon(rule.mint_in) if rule.mint_in is not None else None,
        mint_pos=frozenset(rule.mint_pos),
        mint_from=rule.mint_from,
        mint_subject=rule.mint_subject,
        subject_is=rule.subject_is,
        object_is=rule.object_is,
    )


def _words(entries: list[str]) -> list[str]:
    """A rule's word list with each "@name" replaced by that lexicon."""
    return expand(entries, settings().lexicons.__getitem__)


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
