"""Prospective hints (docs/memory-management.md, Hints in recall): the words a later question about an
episode is likely to use but its text may not, derived from what extraction found in it, as
stems for the hint channel's full-text index. Pure: the rules are ``extract/hints.toml``.

Derived without a language model, from what the episode already states: its fact statements with
the first person resolved to the speaker, its entities' names as the dictionary and resolution
spell them, its concepts' lemmas, question words for its relations, fact kinds and entity types,
and the month and year of what it dates. Only words the text does not hold already: the keyword
channel finds those, and a hint is another way to say it, not the same evidence twice."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache

from hippograph.extraction.model import Extraction, Precision
from hippograph.kernel.lucene import stopwords
from hippograph.kernel.rules import load_rules
from hippograph.kernel.text.stems import stems

# A date said to the day, week or month names its month; a season or a year only its year.
_MONTHLY = frozenset({Precision.DAY, Precision.WEEK, Precision.MONTH})
_WORD = re.compile(r"\w+", re.UNICODE)


@dataclass(frozen=True)
class HintRules:
    max_words: int
    relations: Mapping[str, tuple[str, ...]]
    kinds: Mapping[str, tuple[str, ...]]
    entity_types: Mapping[str, tuple[str, ...]]


@cache
def hint_rules() -> HintRules:
    data = load_rules("hints")

    def words(table: str) -> dict[str, tuple[str, ...]]:
        return {key: tuple(values) for key, values in data[table].items()}

    return HintRules(int(data["max_words"]), words("relations"), words("kinds"), words("entity_types"))


def episode_hints(text: str, extraction: Extraction, names: Iterable[str] = (), rules: HintRules | None = None) -> str:
    """The hints of an episode whose text is ``text``: stems joined by spaces, each once, in the
    order above, none a stop word or a stem of the text, at most ``max_words``. ``names`` are what
    resolution calls its entities besides the mentions' own names."""
    rules = rules or hint_rules()
    phrases: list[str] = [fact.statement for fact in extraction.facts]
    phrases += [mention.name for mention in extraction.mentions]
    phrases += names
    phrases += [concept.key for concept in extraction.concepts]
    for relation in extraction.relations:
        phrases += rules.relations.get(relation.predicate, ())
    for fact in extraction.facts:
        phrases += rules.kinds.get(fact.kind, ())
        if fact.when is not None and fact.when.start is not None:
            start = fact.when.start
            phrases.append(start.strftime("%B %Y") if fact.when.precision in _MONTHLY else str(start.year))
    for mention in extraction.mentions:
        phrases += rules.entity_types.get(mention.type.value, ())
    own = set(stems(text).split())
    words = [word for word in _WORD.findall(" ".join(phrases).casefold()) if len(word) > 1 and word not in stopwords()]
    hints = [stem for stem in dict.fromkeys(stems(" ".join(words)).split()) if stem not in own]
    return " ".join(hints[: rules.max_words])
