"""The schema of ``extract/relation_patterns.toml``, checked once when the file is loaded.

Each table has its declared keys and types (``extraction.schema``); across tables, a rule must
name shapes and lexicons that exist, fill what its shapes require, and stay within the entity
types ``relation_types.toml`` declares for its relation. Any failure names the rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from hippograph.extraction.model import EntityType
from hippograph.extraction.schema import AnEntityType, Schema, Share, validated
from hippograph.extraction.vocabulary import relation_types
from hippograph.kernel.rules import load_rules

FILE = "extract/relation_patterns.toml"
# The rule keys that fill a shape's "$name" placeholders, by the same name.
FILLS = ("verbs", "preps", "particles", "nouns", "adjectives", "links", "modifiers", "words", "tags")
# The token attributes a shape may test: the compiler re-checks them per rule on the matched tokens.
Attribute = Literal["LEMMA", "LOWER", "POS", "TAG", "DEP"]
Words = list[str]


class InList(Schema):
    IN: str | Words  # the words, or a "$name" placeholder the rule fills


class PatternNode(Schema):
    """One node of a DependencyMatcher pattern (spaCy's syntax, which spaCy checks further)."""

    RIGHT_ID: str
    RIGHT_ATTRS: dict[Attribute, str | InList]
    LEFT_ID: str | None = None
    REL_OP: str | None = None

    @model_validator(mode="after")
    def _placeholders_in_lists(self) -> PatternNode:
        for name, test in self.RIGHT_ATTRS.items():
            if isinstance(test, str) and test.startswith("$"):
                raise ValueError(f"{name}: a placeholder stands for words, so it goes in an IN list")
            if isinstance(test, InList) and isinstance(test.IN, str) and not test.IN.startswith("$"):
                raise ValueError(f"{name}: IN takes a list of words or a $placeholder")
        return self


class ShapeSpec(Schema):
    pattern: Annotated[list[PatternNode], Field(min_length=1)]
    requires: Words
    clausal: bool = True  # false for a noun phrase ("my wife Anna"): no clause checks
    subject: str | None = None  # a node id; None: the clause subject of the anchor
    object: str = "object"
    noun: str | None = None  # the relational noun; by default the node "noun", if the pattern has one

    @property
    def placeholders(self) -> frozenset[str]:
        return frozenset(
            test.IN[1:]
            for node in self.pattern
            for test in node.RIGHT_ATTRS.values()
            if isinstance(test, InList) and isinstance(test.IN, str)
        )

    @property
    def nodes(self) -> tuple[str, ...]:
        return tuple(node.RIGHT_ID for node in self.pattern)

    @model_validator(mode="after")
    def _consistent(self) -> ShapeSpec:
        named = {"anchor", self.object} | {node for node in (self.subject, self.noun) if node}
        if not named <= set(self.nodes):
            raise ValueError(f"names nodes its pattern lacks: {sorted(named - set(self.nodes))}")
        if not self.placeholders <= set(FILLS):
            raise ValueError(f"placeholders {sorted(self.placeholders - set(FILLS))} are no rule key")
        if not set(self.requires) <= self.placeholders:
            raise ValueError(f"requires {sorted(set(self.requires) - self.placeholders)}, which its pattern lacks")
        return self


class RuleSpec(Schema):
    """A [[rules]] entry; the file's header says what each key means."""

    relation: str
    shapes: Annotated[Words, Field(min_length=1)]
    confidence: Share
    verbs: Words | None = None
    preps: Words | None = None
    particles: Words | None = None
    nouns: Words | None = None
    adjectives: Words | None = None
    links: Words | None = None
    modifiers: Words | None = None
    words: Words | None = None
    tags: Words | None = None
    inverse: bool = False
    negated: bool = False
    needs_neg: bool = False
    former: bool = False
    intransitive: bool = False
    leaf_object: bool = False
    object_in: str | None = None
    object_not_in: str | None = None
    subjects: list[AnEntityType] | None = None
    objects: list[AnEntityType] | None = None
    strict: bool = False
    mint: AnEntityType | None = None
    mint_in: str | None = None
    mint_pos: Words = Field(default_factory=lambda: ["NOUN", "PROPN"])
    mint_from: str | None = None
    mint_subject: bool = False
    subject_is: AnEntityType | None = None
    object_is: AnEntityType | None = None

    def fills(self) -> dict[str, Words]:
        """The placeholder fills the rule gives, as written ("@name" lexicon references kept)."""
        return {key: words for key in FILLS if (words := getattr(self, key)) is not None}

    def lexicon_names(self) -> Iterator[str]:
        yield from (name for name in (self.object_in, self.object_not_in, self.mint_in) if name is not None)
        yield from (entry[1:] for words in self.fills().values() for entry in words if entry.startswith("@"))


class ConfidenceSpec(Schema):
    near_type: Share
    unknown_type: Share
    future: Share
    hedged: Share
    pronoun: Share


class TypesSpec(Schema):
    near: list[Annotated[list[AnEntityType], Field(min_length=2, max_length=2)]]
    unknown: list[AnEntityType]
    unnamed_subject: AnEntityType | None = None


class ClauseSpec(Schema):
    first_person: Words
    relative: Words
    third_person: Words
    blocking_modals: Words
    future_modals: Words
    conditional_marks: Words
    hedge_verbs: Words
    hedge_adverbs: Words
    former_modifiers: Words
    hyphen_prefixes: Words
    matrix: dict[str, Literal["pass", "end", "former", "future"]]


class MintSpec(Schema):
    stop: Words
    skip_modifiers: Words
    never_labels: Words


class RelationFile(Schema):
    confidence: ConfidenceSpec
    types: TypesSpec
    clause: ClauseSpec
    mint: MintSpec
    parts: dict[str, AnEntityType]  # lexicon name -> the type its named parts take
    lexicons: dict[str, Words]
    shapes: dict[str, ShapeSpec]
    rules: list[RuleSpec]


@cache
def relation_file() -> RelationFile:
    """The relation rule file, validated (not per caller: each builds its own structures from it)."""
    return parse(load_rules("relation_patterns"))


def parse(data: dict[str, Any]) -> RelationFile:
    """``data`` (the parsed TOML) validated; a ValueError naming the file and the rule otherwise."""
    parsed = validated(RelationFile, data, FILE, lambda location: _entry(data, location))
    for name in parsed.parts:
        if name not in parsed.lexicons:
            raise ValueError(f"{FILE}: [parts] names lexicon {name!r}, which [lexicons] lacks")
    for number, rule in enumerate(parsed.rules, start=1):
        problem = _rule_problem(parsed, rule)
        if problem:
            raise ValueError(f"{FILE}: {rule_name(number, rule.relation, rule.shapes)}: {problem}")
    return parsed


def rule_name(number: int, relation: object, shapes: object) -> str:
    """How errors name a rule: its place in the file, relation and shapes ("rule 3 (WORKS_AT on
    verb_prep)"), since rules carry no name of their own."""
    on = ", ".join(str(shape) for shape in shapes) if isinstance(shapes, list) and shapes else "?"
    return f"rule {number} ({relation if isinstance(relation, str) else '?'} on {on})"


def _entry(data: dict[str, Any], location: tuple[int | str, ...]) -> tuple[str | None, int]:
    if len(location) >= 2 and location[0] == "rules" and isinstance(location[1], int):
        raw = data["rules"][location[1]]
        raw = raw if isinstance(raw, dict) else {}
        return rule_name(location[1] + 1, raw.get("relation"), raw.get("shapes")), 2
    if len(location) >= 2 and location[0] == "shapes":
        return f"shape {location[1]}", 2
    return None, 0


def _rule_problem(parsed: RelationFile, rule: RuleSpec) -> str | None:
    """What is wrong with a rule beyond its own keys' types, if anything."""
    unknown_shapes = [name for name in rule.shapes if name not in parsed.shapes]
    if unknown_shapes:
        return f"unknown shapes {unknown_shapes}"
    fills = rule.fills()
    for name in rule.shapes:
        shape = parsed.shapes[name]
        missing = sorted(key for key in shape.requires if key not in fills)
        if missing:
            return f"shape {name} requires {missing}"
        if rule.mint_from is not None and rule.mint_from not in shape.nodes:
            return f"mint_from {rule.mint_from!r} is no node of shape {name}"
    unused = sorted(set(fills) - set().union(*(parsed.shapes[name].placeholders for name in rule.shapes)))
    if unused:
        return f"fills {unused}, which none of its shapes uses"
    unknown_lexicons = sorted(set(rule.lexicon_names()) - set(parsed.lexicons))
    if unknown_lexicons:
        return f"unknown lexicons {unknown_lexicons}"
    declared = relation_types().get(rule.relation)
    if declared is None:
        return f"relation {rule.relation!r} is not declared in relation_types.toml"
    subjects, objects = entity_types(rule.subjects, declared.subject), entity_types(rule.objects, declared.object)
    if not (subjects <= declared.subject and objects <= declared.object):
        return "narrows its entity types to ones the relation does not declare"
    if (rule.subject_is and rule.subject_is.value not in subjects) or (
        rule.object_is and rule.object_is.value not in objects
    ):
        return "declares an argument type the relation cannot take"
    if rule.mint is not None and (rule.inverse or rule.mint.value not in objects):
        return f"mints a {rule.mint} object the relation cannot take"
    if rule.mint_subject and EntityType.CONCEPT.value not in subjects:
        return "mints concept subjects the relation cannot take"
    return None


def entity_types(narrowed: list[EntityType] | None, declared: frozenset[str]) -> frozenset[str]:
    """The entity type names a rule's end takes: its own list, else the relation's."""
    return declared if narrowed is None else frozenset(kind.value for kind in narrowed)
