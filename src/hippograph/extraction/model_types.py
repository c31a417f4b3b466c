"""When the statistical model's organization is not to be trusted, and when its group is one
(``extract/entity_types.toml`` [model]).

The model types a name from its spelling and context as seen in edited news, where a capital
marks a name. Three general facts about other text:

* **Given names.** A single word that is a common given name ("Maddie", "Kevin") names a person far
  more often than a company; the model, seeing an unfamiliar capitalized word, often says
  organization. Such a span becomes a person, typed by the list ``extract/given_names.txt`` (US
  Census first names; ``tools/given_names.py``). A relation slot still outranks it ("works at
  Chase"), and a designator in a longer name always does.
* **Groups named by their members.** The model's NORP covers nationalities and religious and
  political groups, mostly adjectives ("Italian food", "a Catholic school"): ideas, so concepts.
  A NORP span that ends in a plural noun ("the Methodists", "the Tories") names the group itself by
  its members, a collective that acts, votes and is joined: an organization. The case rules below
  do not apply to it: the model knows this small class by its words, in any case ("socialists"),
  where its organizations are guesses at unfamiliar names from their shape and context. Made a
  name this way, it goes through the junk filter of the names found by rule (``extract/junk.toml``):
  the model also calls a greeting such as "Congrats" a plural NORP, and that stays what it was.
* **Case that carries no information.** In a sentence written (nearly) all in capitals, or in title
  case like a headline, every word has a capital, so the capital the model leans on proves nothing;
  in a span written all in lowercase the model's organization is a guess from context alone. There
  the model's organization becomes a name of unknown type ("other"): still an entity, and a
  relation slot, the dictionary or a designator may still type it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from spacy.tokens import Span

from hippograph.extraction import junk
from hippograph.extraction.model import EntityType
from hippograph.kernel.resources import read_text
from hippograph.kernel.rules import load_rules

GIVEN_NAME = "given_name"  # Mention.source of a model span typed a person by the given-name list
_PLURAL_TAGS = frozenset({"NNS", "NNPS"})  # Penn Treebank plural nouns, the model's tag set


@dataclass(frozen=True, slots=True)
class _Rules:
    given_names: frozenset[str]
    groups: frozenset[str]  # model labels whose plural spans name a group: an organization
    lowercase: bool
    min_words: int  # alphabetic words a sentence needs before its case is judged
    capitalized_share: float  # share of words with a capital that makes a headline
    upper_share: float  # share of words all in capitals that makes a shouted sentence


@cache
def _rules() -> _Rules:
    data = load_rules("entity_types")["model"]
    names = data["given_names"]
    given = (
        frozenset(
            line.strip() for line in read_text(f"extract/{names}").splitlines() if line.strip() and line[0] != "#"
        )
        if names
        else frozenset()
    )
    shape = data["case"]
    return _Rules(
        given,
        frozenset(data["groups"]),
        bool(data["lowercase"]),
        int(shape["min_words"]),
        float(shape["capitalized_share"]),
        float(shape["upper_share"]),
    )


def model_type(span: Span, kind: EntityType, label: str) -> tuple[EntityType, str]:
    """The type and source of a model span the model labelled ``label`` (Hippograph type ``kind``):
    ``kind`` and ``"ner"`` unless one of the rules above says otherwise."""
    rules = _rules()
    if label in rules.groups and span[-1].tag_ in _PLURAL_TAGS and not junk.is_junk(span.text):
        return EntityType.ORGANIZATION, "ner"
    if kind is not EntityType.ORGANIZATION:
        return kind, "ner"
    if len(span) == 1 and span[0].text in rules.given_names:
        return EntityType.PERSON, GIVEN_NAME
    if (rules.lowercase and span.text.islower()) or _uninformative_case(span.sent, rules):
        return EntityType.OTHER, "ner"
    return kind, "ner"


def _uninformative_case(sentence: Span, rules: _Rules) -> bool:
    words = [token.text for token in sentence if token.is_alpha]
    if rules.min_words <= 0 or len(words) < rules.min_words:
        return False
    capitalized = sum(word[0].isupper() for word in words)
    upper = sum(word.isupper() and len(word) > 1 for word in words)
    return capitalized >= rules.capitalized_share * len(words) or upper >= rules.upper_share * len(words)
