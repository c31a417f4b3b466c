"""Full-text search scoped to one namespace inside the index itself.

The full-text indexes span every namespace. Filtering their hits afterwards made a search load
every match of every namespace (ArcadeDB reads each matched node: ~500 for a four-word LoCoMo
question, ~22 ms) and ruled out asking the index for its best few. So each episode and fact also
carries its namespace as one indexed word, and every query requires that word: the index answers
with the namespace's best ``limit`` matches and nothing else.

An episode's text is indexed once, by its words' stems: a question's words, stemmed alike, meet
them in another form ("research", "researching"), and a second index over its words as written
was most of a long capture's write on the embedded store, for nothing recall used (docs/benchmarks.md).
"""

from __future__ import annotations

from hippograph.kernel.lucene import fulltext_query
from hippograph.kernel.text.stems import stems

__all__ = ["NAMESPACE_FIELD", "STEMS_FIELD", "Search", "memory_searches", "namespace_token", "scoped_query"]

NAMESPACE_FIELD = "namespace_token"
# An episode's words as stems (kernel/text/stems.py), searched by the keyword channel.
STEMS_FIELD = "stems"

# A full-text search: an index's logical name (store/dialect.py) and its query.
Search = tuple[str, str]


def namespace_token(namespace: str) -> str:
    """One word per namespace, a different one for each. Hex, because analyzers split a name at
    '-', '.' and ':' and lowercase it: "team-a" and "Team_A" would share their words."""
    return "ns" + namespace.encode().hex()


def scoped_query(namespace: str, terms: str) -> str:
    """A full-text query over ``terms`` (already safe Lucene) that only the namespace can match.
    The scope is boosted to 0: it filters and does not score (otherwise it adds a different amount
    to each hit, and reorders the namespace's own ranking)."""
    return f"+{NAMESPACE_FIELD}:{namespace_token(namespace)}^0 +({terms})"


def memory_searches(namespace: str, text: str) -> list[Search]:
    """The searches for memories whose words ``text`` holds: episodes by their words' stems,
    ``text``'s words stemmed alike, and facts by their statements' words; none for a text with no
    searchable word."""
    terms = fulltext_query(text)
    if terms is None:
        return []
    return [("episode_stems", scoped_query(namespace, stems(terms))), ("fact_search", scoped_query(namespace, terms))]
