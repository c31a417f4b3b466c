"""Everything that differs between Neo4j and ArcadeDB, and nothing else.

The query text is identical on both servers; what differs is how the schema is created, how a
search index is named when a query passes it to ``db.index.*.queryNodes`` as a parameter, and how
concurrent writers are kept from colliding (store/retry.py says what each server sends).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from hippograph.kernel.resources import read_text
from hippograph.store.rows import QUANTIZED_VECTOR_INDEXES, NameRow, Query, ServerComponent

__all__ = ["ARCADEDB", "NEO4J", "Cosine", "Dialect"]

# Search indexes by the logical name queries use, with the label and properties they cover. The
# text indexes also cover the namespace's token (see store/search.py).
SEARCH_INDEXES: dict[str, tuple[str, str]] = {
    "episode_stems": ("Episode", "stems,namespace_token"),
    "episode_hints": ("Episode", "hints,namespace_token"),
    "fact_search": ("Fact", "statement,namespace_token"),
    "episode_embedding": ("Episode", "embedding"),
    "episode_context_embedding": ("Episode", "context_embedding"),
    "fact_embedding": ("Fact", "embedding"),
    "entity_search": ("Entity", "name,namespace_token"),
    "entity_embedding": ("Entity", "embedding"),
}


@dataclass(frozen=True)
class Cosine:
    """How the server's ``vector.similarity.cosine`` relates to its vector indexes' score, which on
    both servers is (1 + cosine) / 2: Neo4j's function returns that score, ArcadeDB's the cosine."""

    function_is_index_score: bool

    def similarity_of(self, cosine: float) -> float:
        """The function's value for a cosine."""
        return (1 + cosine) / 2 if self.function_is_index_score else cosine

    def index_score(self, similarity: float) -> float:
        """The index's score for a value of the function."""
        return similarity if self.function_is_index_score else (1 + similarity) / 2


@dataclass(frozen=True)
class Dialect:
    name: str
    schema_file: str
    # Neo4j names an index as its DDL did; ArcadeDB's procedures want "Label[property]".
    label_bracket_index_names: bool
    # Neo4j runs its DDL as Cypher over Bolt; ArcadeDB needs SQL, run by the in-process engine.
    ddl_in_sql: bool
    # ArcadeDB's concurrency control is optimistic at the page level: concurrent writers in one
    # process collide even on different records, so they take turns (store/retry.py). Neo4j locks
    # records and lets writers run side by side.
    single_writer: bool
    cosine: Cosine
    # A vector index holding fewer vectors than this is rebuilt whole, by the search that first
    # follows a write, while concurrent searches wait: ArcadeDB (26.10) does so below 1,000
    # vectors and keeps a larger index current in the background, searching the vectors written
    # since its last rebuild one by one meanwhile. Neo4j's indexes take each write as it comes.
    # The vector channel scores such a label exactly instead (store/vectors.py).
    vector_rebuilt_below: int
    # A namespace of at most this many episodes is scored exactly whatever the store holds:
    # scoring this many costs Neo4j about as much CPU as the three index searches of a recall at
    # their cheapest, since each search of one of its vector indexes costs a large fixed amount
    # whatever k it asks for. ArcadeDB's searches cost with what they read, so its choice is the
    # read count alone (store/vectors.py; measured by bench/vector_paths.py, docs/benchmarks.md).
    vector_exact_up_to: int
    # The oldest server version the queries run on, checked at connect; None where the server is
    # the one the package pins (the embedded engine).
    minimum_version: tuple[int, int] | None = None
    # Codes this server sends for a conflict that the driver does not classify as retryable. Both
    # servers send Neo.TransientError.Transaction.DeadlockDetected, which it does; none so far.
    transient_codes: frozenset[str] = frozenset()
    # The query naming indexes an earlier version made differently, which start-up drops so that
    # the schema's statements (all IF NOT EXISTS) make them again as they are now.
    outdated_indexes: Query[NameRow] | None = None

    def index_name(self, logical: str) -> str:
        label, properties = SEARCH_INDEXES[logical]
        return f"{label}[{properties}]" if self.label_bracket_index_names else logical

    def schema_statements(self) -> list[str]:
        return split_statements(read_text(self.schema_file))

    def drop_index(self, name: str) -> str:
        quoted = name.replace("`", "``")
        return f"DROP INDEX `{quoted}` IF EXISTS"

    def refusal(self, components: Sequence[ServerComponent]) -> str | None:
        """Why the server ``dbms.components()`` describes cannot serve, on one line; None if it can."""
        if self.minimum_version is None:
            return None
        wanted = ".".join(map(str, self.minimum_version))
        need = f"Hippograph needs Neo4j {wanted} or later, Community or Enterprise ({SUBQUERY_REASON})"
        kernel = next((row for row in components if row.get("name") == "Neo4j Kernel"), None)
        if kernel is None:
            names = ", ".join(str(row.get("name")) for row in components) or "nothing"
            return f"the server is not Neo4j (it names itself {names}); {need}"
        version = str((kernel.get("versions") or ["unknown"])[0])
        edition = str(kernel.get("edition"))
        found = _VERSION.match(version)
        if found is None or (int(found[1]), int(found[2])) < self.minimum_version or edition not in EDITIONS:
            return f"Neo4j {version} ({edition}) is not supported: {need}"
        return None


# Neo4j versions are major.minor.patch (5.26.0, 5.27-aura) and, since 2025, calendar ones
# (2025.01.0): both compare by their first two numbers.
_VERSION = re.compile(r"(\d+)\.(\d+)")
EDITIONS = frozenset({"community", "enterprise"})
SUBQUERY_REASON = "its queries use CALL (x) { ... } subqueries, new in 5.23"

NEO4J = Dialect(
    "neo4j",
    "cypher/schema/neo4j.cypher",
    label_bracket_index_names=False,
    ddl_in_sql=False,
    single_writer=False,
    cosine=Cosine(function_is_index_score=True),
    vector_rebuilt_below=0,
    vector_exact_up_to=2000,
    minimum_version=(5, 23),
    outdated_indexes=QUANTIZED_VECTOR_INDEXES,
)
ARCADEDB = Dialect(
    "arcadedb",
    "cypher/schema/arcadedb.sql",
    label_bracket_index_names=True,
    ddl_in_sql=True,
    single_writer=True,
    cosine=Cosine(function_is_index_score=False),
    vector_rebuilt_below=1000,
    vector_exact_up_to=0,
)


def split_statements(script: str) -> list[str]:
    """Statements of a DDL script: comment lines dropped, split on ';' (DDL holds no string with one)."""
    lines = [line for line in script.splitlines() if not line.lstrip().startswith(("//", "--"))]
    return [stmt.strip() for stmt in "\n".join(lines).split(";") if stmt.strip()]
