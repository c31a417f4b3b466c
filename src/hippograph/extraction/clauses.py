"""The clause grammar: who a clause is about and whether it asserts what it says.

A relation holds only where its clause asserts it: a question, a condition, a modal or the
complement of an intention ("want to") asserts nothing; "not", "no longer" and "stopped" deny;
future and hedged clauses assert with less confidence. The word lists are in the [clause] table of
``extract/relation_patterns.toml``.
"""

from __future__ import annotations

from dataclasses import dataclass

from spacy.tokens import Span, Token

from hippograph.extraction.relation_settings import settings

SUBJECT_DEPS = ("nsubj", "nsubjpass")
# Dependents of a noun that can be part of its name, or say of a relational noun that it is over.
NAME_MODIFIER_DEPS = ("compound", "amod", "nmod")


@dataclass(frozen=True, slots=True)
class Clause:
    negated: bool
    factor: float  # the confidence the clause's mood leaves its relation
    past: bool


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
    return token.lower_ in settings().first_person and token.tag_ in ("PRP", "PRP$")


def clause_subjects(anchor: Token) -> list[Token]:
    """Who the clause of ``anchor`` is about: its subject, inherited across "and" ("I live in
    Boston and work at Google") and into "started/stopped doing"; each coordinated subject."""
    token = anchor
    while True:
        subjects = [child for child in token.children if child.dep_ in SUBJECT_DEPS]
        if subjects:
            return [subjects[0], *subjects[0].conjuncts]
        if token.dep_ == "conj" or (token.dep_ == "xcomp" and not has_object(token.head)):
            token = token.head
            continue
        if token.dep_ == "acl" and token.tag_ == "VBN":  # "a company based in Berlin"
            return [token.head]
        return []


def assess(anchor: Token) -> Clause | None:
    """Whether the clause of ``anchor`` asserts its relation, and how: None when it asserts nothing
    (conditional, modal, or the complement of "want to"/"plan to" and the like)."""
    words = settings()
    negated, factor = False, 1.0
    chain = [anchor]
    token = anchor
    while token.dep_ == "xcomp":
        governor = token.head
        reading = words.matrix.get(governor.lemma_.lower())
        if reading is None or (reading == "former" and has_object(governor)):
            return None
        if reading in ("end", "former"):
            negated = not negated
        elif reading == "future":
            factor *= words.future
        token = governor
        chain.append(token)
    for link in chain:
        if is_negated(link):
            negated = not negated
    # A modal or "if" on the first conjunct governs the conjuncts that share its subject.
    scope = list(chain)
    while token.dep_ == "conj" and not any(c.dep_ in SUBJECT_DEPS for c in token.children):
        token = token.head
        scope.append(token)
    for link in scope:
        for child in link.children:
            word = child.lower_
            if child.dep_ in ("aux", "auxpass") and word in words.blocking_modals:
                return None
            if child.dep_ == "mark" and word in words.conditional_marks:
                return None
            if child.dep_ == "aux" and word in words.future_modals:
                factor *= words.future
            if child.dep_ == "advmod" and word in words.hedge_adverbs:
                factor *= words.hedged
    if token.dep_ == "ccomp" and token.head.lemma_.lower() in words.hedge_verbs:
        factor *= words.hedged
    return Clause(negated, factor, is_past(anchor))


def is_past(anchor: Token) -> bool:
    """Simple or progressive past ("I worked", "I was working", "I had worked"), not the present
    perfect ("I have worked"), which says the state still holds."""
    auxiliaries = [c for c in anchor.children if c.dep_ in ("aux", "auxpass")]
    if any(a.lemma_ == "have" and a.tag_ in ("VBP", "VBZ") for a in auxiliaries):
        return False
    return anchor.tag_ == "VBD" or any(a.tag_ == "VBD" for a in auxiliaries)


def is_negated(token: Token) -> bool:
    """ "not", "n't", "never" or "no longer" on the token itself."""
    for child in token.children:
        if child.dep_ == "neg" or (child.dep_ == "advmod" and child.lower_ == "never"):
            return True
        if child.dep_ == "advmod" and any(c.dep_ == "neg" for c in child.children):  # "no longer"
            return True
    return False


def noun_reading(noun: Token) -> bool | None:
    """Whether a relational noun says its relation is over ("my ex-wife", "my late husband"); None
    when a hyphen makes it another noun ("brother-in-law", "half-sister")."""
    words = settings()
    doc = noun.doc
    if noun.i + 1 < len(doc) and doc[noun.i + 1].text == "-" and not noun.whitespace_:
        return None
    over = any(c.lower_ in words.former_modifiers for c in noun.children if c.dep_ in NAME_MODIFIER_DEPS)
    if noun.i >= 2 and doc[noun.i - 1].text == "-" and not doc[noun.i - 1].whitespace_:
        prefix = doc[noun.i - 2].lower_
        if prefix in words.former_modifiers:
            return True
        if prefix not in words.hyphen_prefixes:
            return None
    return over


def has_object(token: Token) -> bool:
    return any(child.dep_ == "dobj" for child in token.children)
