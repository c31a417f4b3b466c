"""Entity resolution, conservative: a wrong merge is worse than a split (docs/architecture.md, Consolidation).

Within a namespace and a compatible type, in order: exact canonical key, alias, fuzzy string
(high threshold, length guard), name-embedding cosine, else a new entity. Resolution only reads;
the commit MERGEs new entities by (namespace, type, canonical) so concurrent workers agree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Protocol, TypeVar

from rapidfuzz import fuzz

from hippograph.embedding import Embedder, Vector
from hippograph.extraction.model import EntityType, Mention
from hippograph.kernel.keys import canonical_key
from hippograph.kernel.lucene import fulltext_query
from hippograph.resolution import types
from hippograph.store import Store
from hippograph.store.rows import (
    ENTITIES_BY_KEY,
    ENTITY_CANDIDATES,
    ENTITY_NEIGHBORS,
    EntityByKey,
    EntityCandidate,
    EntityFound,
    NearEntity,
)
from hippograph.store.search import scoped_query

__all__ = [
    "CANDIDATES",
    "EMBEDDING_MIN_COSINE",
    "EntityProbe",
    "KnownNames",
    "NameRef",
    "Resolution",
    "name_ref",
    "nearest_entities",
    "resolve_names",
]

FUZZY_MIN_RATIO = 92.0
FUZZY_MIN_CHARS = 5
FUZZY_MIN_LENGTH_RATIO = 0.85
EMBEDDING_MIN_COSINE = 0.88
CANDIDATES = 8
# How much more an entity search that found none of the namespace's asks for next.
WIDEN = 4
# Names of people carry almost no meaning for a sentence encoder: "Melanie" and "Melania" embed
# close together and are different people. They merge only by key, alias or spelling.
NO_EMBEDDING_MERGE = frozenset({EntityType.PERSON.value, EntityType.AGENT.value})
_INTERCHANGEABLE = (frozenset({EntityType.PERSON.value, EntityType.AGENT.value}),)
# Rows of entities a name found, whichever way (store/rows.py EntityFound).
F = TypeVar("F", bound=EntityFound)


@dataclass(frozen=True)
class NameRef:
    type: str
    key: str
    name: str
    from_dictionary: bool  # the canonical form came from the dictionary or a user alias
    weight: int = 1  # of this mention's type in the entity's type vote (resolution/types.py)


@dataclass(frozen=True)
class Resolution:
    entity_id: str | None  # None: a new entity, minted at commit
    method: str  # exact, alias, fuzzy, embedding or new
    # The existing entity's key, by which the commit MERGEs it (None for a new entity).
    type: str | None = None
    canonical: str | None = None
    embedding: Vector | None = None  # of the name, kept for a new entity

    @classmethod
    def of(cls, row: EntityFound, method: str) -> Resolution:
        return cls(row["id"], method, row["type"], row["canonical"])


class KnownNames(Protocol):
    """A namespace's entities' names already read (a process's copy of its graph:
    store/graph_copy.py), answering as entities_by_key.cypher and, for the spelling check,
    entity_candidates.cypher do."""

    def entities_by_key(self, keys: Iterable[str]) -> list[EntityByKey]: ...

    def entities_spelled_like(self, probes: Iterable[tuple[str, str]], min_ratio: float) -> list[EntityCandidate]: ...


def compatible(a: str, b: str) -> bool:
    if a == b or EntityType.OTHER.value in (a, b):
        return True
    return any(a in group and b in group for group in _INTERCHANGEABLE)


def name_ref(mention: Mention) -> NameRef:
    from_dictionary = mention.canonical is not None and mention.canonical != mention.text
    return NameRef(
        mention.type.value, canonical_key(mention.name), mention.name, from_dictionary, types.weight(mention.source)
    )


def resolve_names(
    store: Store,
    embedder: Embedder,
    namespace: str,
    refs: Iterable[NameRef],
    *,
    by_embedding: bool = True,
    known: KnownNames | None = None,
) -> dict[NameRef, Resolution]:
    """Each name's entity, or a new one; ``by_embedding=False`` stops at spelling, for callers
    that only look up (recall's seeds) and would pay for name embeddings they never store.
    ``known``: names already read, in which keys and spellings are looked up instead of the
    store. It checks the spelling of every live entity whose name shares a word with the name,
    where the store's index offers the few (``CANDIDATES``) it ranks first."""
    pending = list(dict.fromkeys(refs))
    resolved: dict[NameRef, Resolution] = {}

    keys = sorted({r.key for r in pending})
    by_key = _by_key(
        known.entities_by_key(keys)
        if known is not None
        else store.read(ENTITIES_BY_KEY, namespace=namespace, keys=keys)
    )
    for ref in pending:
        hit = _first_compatible(ref, by_key.get(ref.key, []), same_name=True)
        if hit is not None:
            resolved[ref] = Resolution.of(hit, "alias" if ref.from_dictionary or hit["by_alias"] else "exact")
    pending = [ref for ref in pending if ref not in resolved]

    if pending:
        resolved |= _by_spelling(store, namespace, pending, known)
        pending = [ref for ref in pending if ref not in resolved]
    if pending and by_embedding:
        resolved |= _by_embedding(store, embedder, namespace, pending)
    return _mint_together(resolved)


def _mint_together(resolved: dict[NameRef, Resolution]) -> dict[NameRef, Resolution]:
    """New names that share a key and a compatible type become one entity, of the most specific
    type named ("Acme Robotics" the capitalized phrase and "Acme Robotics" the organization), by the
    weighted vote of their mentions (resolution/types.py), whatever order they came in."""
    groups: dict[str, list[NameRef]] = {}
    for ref, resolution in resolved.items():
        if resolution.entity_id is None:
            groups.setdefault(ref.key, []).append(ref)
    for key, refs in groups.items():
        weights: Counter[str] = Counter()
        for ref in refs:
            if ref.type != EntityType.OTHER.value:
                weights[ref.type] += ref.weight
        chosen = types.choose(weights) if weights else EntityType.OTHER.value
        for ref in refs:
            if compatible(ref.type, chosen) or types.votable(ref.type, chosen):
                resolved[ref] = replace(resolved[ref], type=chosen, canonical=key)
    return resolved


def _by_key(rows: list[F]) -> dict[str, list[F]]:
    grouped: dict[str, list[F]] = {}
    for row in rows:
        grouped.setdefault(row["key"], []).append(row)
    return grouped


def _first_compatible(ref: NameRef, rows: list[F], *, same_name: bool = False) -> F | None:
    """A user's alias holds whatever type the statistical model guessed for the mention. With
    ``same_name`` (rows found by the name's own key), the same name under another type the model
    confuses with this one is the same entity, whose type vote decides what it is; one of this
    very type still comes first."""
    fitting = next((row for row in rows if _by_alias(row) or compatible(ref.type, row["type"])), None)
    if fitting is not None or not same_name:
        return fitting
    return next((row for row in rows if types.votable(ref.type, row["type"])), None)


def _by_alias(row: Mapping[str, object]) -> bool:
    """Found through a user's alias: only the rows by key (entities_by_key) say so."""
    return row.get("by_alias") is True


def _by_spelling(
    store: Store, namespace: str, refs: list[NameRef], known: KnownNames | None
) -> dict[NameRef, Resolution]:
    # A name with no word to search by has no candidates in the store: none from a copy either.
    searched = [(ref.key, query) for ref in refs if (query := fulltext_query(ref.name))]
    rows: list[EntityCandidate] = []
    if known is not None:
        rows = known.entities_spelled_like(searched, FUZZY_MIN_RATIO)
    elif searched:
        queries = [{"key": key, "query": scoped_query(namespace, query)} for key, query in searched]
        rows = store.read(
            ENTITY_CANDIDATES,
            namespace=namespace,
            index=store.index("entity_search"),
            queries=queries,
            limit=CANDIDATES,
        )
    candidates = _by_key(rows)
    found: dict[NameRef, Resolution] = {}
    for ref in refs:
        options = [row for row in candidates.get(ref.key, []) if compatible(ref.type, row["type"])]
        alias = next((row for row in options if ref.key in (row["aliases"] or [])), None)
        if alias is not None:
            found[ref] = Resolution.of(alias, "alias")
            continue
        close = [row for row in options if _same_spelling(ref.key, row["canonical"])]
        if close:
            best = max(close, key=lambda row: fuzz.ratio(ref.key, row["canonical"]))
            found[ref] = Resolution.of(best, "fuzzy")
    return found


def _same_spelling(a: str, b: str) -> bool:
    shorter, longer = sorted((len(a), len(b)))
    if shorter < FUZZY_MIN_CHARS or shorter / longer < FUZZY_MIN_LENGTH_RATIO:
        return False
    return fuzz.ratio(a, b) >= FUZZY_MIN_RATIO


def _by_embedding(store: Store, embedder: Embedder, namespace: str, refs: list[NameRef]) -> dict[NameRef, Resolution]:
    vectors = embedder.embed([ref.name for ref in refs])
    probes = [
        EntityProbe(ref.key, ref.type, vector)
        for ref, vector in zip(refs, vectors, strict=True)
        if ref.type not in NO_EMBEDDING_MERGE
    ]
    nearest = _by_key(nearest_entities(store, namespace, probes))
    found: dict[NameRef, Resolution] = {}
    for ref, vector in zip(refs, vectors, strict=True):
        hit = _first_compatible(ref, nearest.get(ref.key, []))
        found[ref] = Resolution.of(hit, "embedding") if hit else Resolution(None, "new", embedding=vector)
    return found


@dataclass(frozen=True)
class EntityProbe:
    key: str
    type: str
    embedding: Vector


def nearest_entities(store: Store, namespace: str, probes: list[EntityProbe]) -> list[NearEntity]:
    """For each probe, the namespace's entity of its type whose name embeds nearest to it, if its
    cosine reaches EMBEDDING_MIN_COSINE. The entity index spans every namespace, so a probe whose
    first neighbours are all other namespaces' is asked again for ×WIDEN as many, until one is
    this namespace's, the index has no more, or the farthest scores below the threshold (nothing
    further could pass): exact, as far as the index is, however crowded the store. The threshold
    is high, so the neighbours read are those that nearly share the name."""
    # Both servers report a cosine index score as (1 + cos) / 2.
    min_score = (1 + EMBEDDING_MIN_COSINE) / 2
    pending = list(enumerate(probes))
    found: list[NearEntity] = []
    k = CANDIDATES
    while pending:
        answers = store.read_listed(
            ENTITY_NEIGHBORS,
            namespace=namespace,
            index=store.index("entity_embedding"),
            probes=[{"at": at, "type": probe.type, "embedding": probe.embedding} for at, probe in pending],
            k=k,
            min_score=min_score,
        )
        by_probe = {answer["at"]: answer for answer in answers}
        again = []
        for at, probe in pending:
            answer = by_probe[at]
            if answer["rows"]:
                found.append(NearEntity(**max(answer["rows"], key=lambda row: row["score"]), key=probe.key))
            elif answer["returned"] == k and answer["lowest"] is not None and answer["lowest"] >= min_score:
                again.append((at, probe))
        pending, k = again, k * WIDEN
    return found
