"""A fact's statement: its sentence with the first person replaced by the speaker's name
("I live in Boston" -> "Caroline lives in Boston"), the verbs agreeing."""

from __future__ import annotations

from spacy.tokens import Span, Token

from hippograph.extraction.clauses import clause_subjects
from hippograph.extraction.fact_rules import settings


def name_speaker(sentence: Span, speaker: str | None) -> str:
    """The sentence with the first person replaced by the speaker's name, verbs agreeing."""
    if not speaker:
        return " ".join(sentence.text.split())
    known = settings()
    parts = []
    for token in sentence:
        word = token.lower_
        text = token.text
        if word in known.pronouns and token.tag_ in ("PRP", "PRP$"):
            text = known.pronouns[word].format(name=speaker)
        elif _agrees_with_i(token):
            text = known.verbs.get(word) or _third_person(token.text)
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
    if token.tag_ != "VBP" and token.lower_ not in settings().verbs:
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
    """ "live" -> "lives", "study" -> "studies", "watch" -> "watches"."""
    word = verb.lower()
    if word.endswith(("s", "sh", "ch", "x", "z", "o")):
        inflected = word + "es"
    elif word.endswith("y") and word[-2:-1] not in ("a", "e", "i", "o", "u"):
        inflected = word[:-1] + "ies"
    else:
        inflected = word + "s"
    return inflected.capitalize() if verb[:1].isupper() else inflected
