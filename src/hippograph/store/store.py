"""Run named Cypher queries from ``cypher/`` through the neo4j driver, in transactions the store begins
and retries (reads that need no one snapshot: each statement in one of its own)."""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache, partial
from typing import Any, TypeVar, cast, overload

import neo4j
import neo4j.time

from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.metrics import STATEMENT_ERRORS, STATEMENT_SECONDS
from hippograph.kernel.priority import Priority, PriorityGate
from hippograph.kernel.resources import read_text, resource_root
from hippograph.kernel.text.stems import stems
from hippograph.store.dialect import Dialect
from hippograph.store.graph_copy import GraphCopies
from hippograph.store.graph_stamps import GraphWrites
from hippograph.store.retry import NoGate, is_transient, with_retries
from hippograph.store.rows import (
    ENTITY_NAMESPACES_WITHOUT_TOKEN,
    EPISODES_WITHOUT_STEMS,
    MIGRATION_DONE,
    NAMESPACES_WITHOUT_TOKEN,
    PING,
    SERVER_COMPONENTS,
    NamespaceOnly,
    Query,
)
from hippograph.store.search import namespace_token
from hippograph.store.times import time_of
from hippograph.store.vector_cache import VectorCache
from hippograph.store.vector_stamps import VectorWrites, new_epoch

__all__ = ["Row", "Store", "Transaction", "UniquenessConflict", "UnsupportedServer", "cypher", "query_files"]

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")
Row = dict[str, Any]


# One-time data migrations, by the id they are recorded under.
_NAMESPACE_TOKENS = "namespace_tokens"
_EPISODE_COUNTS = "namespace_episode_counts"
_EPISODE_STEMS = "episode_stems"
_ENTITY_TOKENS = "entity_namespace_tokens"
_VECTOR_EPOCHS = "vector_epochs"
_RELATION_TYPE = re.compile(r"[A-Z][A-Z_]{0,63}")
_LABEL = re.compile(r"[A-Z][A-Za-z]{0,63}")
# Where a query that works on any label (export and import) takes the ones it is run for.
LABEL_SLOTS = ("NODE_LABEL", "START_LABEL", "END_LABEL")


class UniquenessConflict(Exception):
    """A write collided with a uniqueness constraint: a concurrent writer got there first."""


class UnsupportedServer(Exception):
    """The server is not one the queries run on; the message says which is needed, on one line."""


# The server gone or out of reach, or every connection of the pool busy past the driver's wait
# (60 s): a store that cannot answer now, which the client may retry, not a fault of ours.
_UNAVAILABLE = (
    neo4j.exceptions.ServiceUnavailable,
    neo4j.exceptions.SessionExpired,
    neo4j.exceptions.ConnectionPoolError,
)


@contextmanager
def _driver_errors() -> Iterator[None]:
    """Driver failures as the service layer speaks of them: the layers above never see neo4j's."""
    try:
        yield
    except neo4j.exceptions.ConstraintError as error:
        raise UniquenessConflict(str(error)) from error
    except _UNAVAILABLE as error:
        log.error("store unavailable: %s", error)
        raise HippographError(ErrorCode.STORE_UNAVAILABLE, "the graph store is unavailable; retry shortly") from error


# A statement this slow, or a wait this long for a connection, waited on something (a lock another
# transaction holds, a busy pool, a stalled server) that the histograms show only as a bucket: the
# log names it when it happens.
SLOW_S = 5.0


@contextmanager
def _measured(name: str) -> Iterator[None]:
    """A statement's time and failure, by its query's name: the files of cypher/ bound the labels."""
    start = time.perf_counter()
    try:
        yield
    except Exception as error:
        STATEMENT_ERRORS.labels(name, _error_kind(error)).inc()
        raise
    finally:
        seconds = time.perf_counter() - start
        STATEMENT_SECONDS.labels(name).observe(seconds)
        if seconds >= SLOW_S:
            log.warning("store: statement %s took %.1f s", name, seconds)


def _error_kind(error: Exception) -> str:
    if isinstance(error, neo4j.exceptions.ConstraintError):
        return "conflict"
    if isinstance(error, _UNAVAILABLE):
        return "unavailable"
    if is_transient(error):
        return "transient"
    if isinstance(error, neo4j.exceptions.ClientError):
        return "client"
    return "other"


# Folders of cypher/ that hold no named query: the schema's DDL, and ready-made queries for people
# to paste into Neo4j Browser.
_NOT_NAMED = frozenset({"browser", "schema"})


@cache
def query_files() -> dict[str, str]:
    """Every named query's file (relative to the resources), by its name: the file's stem,
    wherever it sits under ``cypher/``, so that the folders group queries by feature and moving a
    file changes no caller. Two files of one name would make a name ambiguous: refused."""
    root = resource_root() / "cypher"
    files: dict[str, str] = {}
    for path in sorted(root.rglob("*.cypher")):
        relative = path.relative_to(root.parent)
        if relative.parts[1] in _NOT_NAMED:
            continue
        if path.stem in files:
            raise ValueError(f"two queries named {path.stem!r}: {files[path.stem]} and {relative.as_posix()}")
        files[path.stem] = relative.as_posix()
    return files


def query_file(name: str) -> str:
    """The file of a named query; a name may carry its folder (``"summaries/save_summary"``),
    which does not take part in finding it."""
    stem = name.rpartition("/")[2]
    try:
        return query_files()[stem]
    except KeyError:
        raise FileNotFoundError(f"no query named {name!r} under cypher/") from None


def cypher(name: str, relation_type: str | None = None, labels: Mapping[str, str] | None = None) -> str:
    """The text of the named query (``query_file``). Cypher takes no relationship type or label as a
    parameter, so a query over one type of the closed vocabulary names it RELATION_TYPE, and one
    over any label names it NODE_LABEL (START_LABEL, END_LABEL), and gets it here."""
    text = read_text(query_file(name))
    if relation_type is not None:
        if not _RELATION_TYPE.fullmatch(relation_type) or "RELATION_TYPE" not in text:
            raise ValueError(f"cannot put relation type {relation_type!r} into query {name!r}")
        text = text.replace("RELATION_TYPE", relation_type)
    for slot, label in (labels or {}).items():
        if slot not in LABEL_SLOTS or not _LABEL.fullmatch(label) or slot not in text:
            raise ValueError(f"cannot put label {label!r} into {slot} of query {name!r}")
        text = text.replace(slot, label)
    return text


class Transaction:
    """One open transaction, or a session whose statements each run in one of their own
    (Store.read_each); the service layer sees query names and rows, never Cypher."""

    def __init__(self, tx: neo4j.ManagedTransaction | neo4j.Transaction | neo4j.Session) -> None:
        self._tx = tx
        # The vectors and graphs its statements wrote, stamped before it commits (vector_stamps.py,
        # graph_stamps.py).
        self._vectors = VectorWrites()
        self._graphs = GraphWrites()

    @overload
    def run(
        self,
        name: Query[R],
        *,
        relation_type: str | None = None,
        labels: Mapping[str, str] | None = None,
        **params: Any,
    ) -> list[R]: ...
    @overload
    def run(
        self,
        name: str,
        *,
        relation_type: str | None = None,
        labels: Mapping[str, str] | None = None,
        **params: Any,
    ) -> list[Row]: ...
    def run(
        self,
        name: str | Query[Any],
        *,
        relation_type: str | None = None,
        labels: Mapping[str, str] | None = None,
        **params: Any,
    ) -> list[Any]:
        """The rows of a named query; a declared one's (store/rows.py) as its record."""
        texts = frozenset() if isinstance(name, str) else name.times_as_text
        name = name if isinstance(name, str) else name.name
        with _measured(name):
            result = self._tx.run(cypher(name, relation_type, labels), params)
            rows = [
                {
                    key: time_of(value) if key in texts else value if type(value) in _PLAIN else _native(value, texts)
                    for key, value in zip(record.keys(), record, strict=True)
                }
                for record in result
            ]
        self._vectors.note(name, params, labels or {}, rows)
        self._graphs.note(name, params)
        return rows

    def writes_graph_of(self, namespaces: Iterable[str]) -> None:
        """Name the namespaces whose graphs this transaction's statements without a ``namespace``
        parameter write (graph_stamps.py)."""
        self._graphs.declare(namespaces)

    def stamp_writes(self) -> None:
        """Number the vectors and version the graphs written so far in this transaction
        (vector_stamps.py, graph_stamps.py)."""
        self._vectors.number(self.run)
        self._graphs.stamp(self.run)

    @overload
    def run_listed(self, name: Query[R], **params: Any) -> list[R]: ...
    @overload
    def run_listed(self, name: str, **params: Any) -> list[Row]: ...
    def run_listed(self, name: str | Query[Any], **params: Any) -> list[Any]:
        """The rows of a statement that returns them all as one list, ``RETURN collect(...) AS
        rows``. The driver reads each record as a Bolt message of its own, with socket reads and
        Python work apiece; a list of maps arrives as one (docs/benchmarks.md)."""
        [record] = self.run(name if isinstance(name, str) else name.name, **params)
        return cast(list[Any], record["rows"])


class Store:
    def __init__(
        self,
        driver: neo4j.Driver,
        database: str,
        dialect: Dialect,
        *,
        run_sql: Callable[[str], None] | None = None,
        on_close: Callable[[], None] | None = None,
        attached: bool = False,
        writer_max_wait_s: float | None = None,
        vector_cache_bytes: int = 0,
    ) -> None:
        self._driver = driver
        self._database = database
        self.dialect = dialect
        self._run_sql = run_sql
        self._on_close = on_close
        # Reached through another process's embedded engine, which set the schema up.
        self.attached = attached
        # One write transaction at a time in this process, the most urgent first (priority.py), on
        # a store whose concurrency control is optimistic at the page level (the embedded
        # ArcadeDB): concurrent writers collide there even when they touch different records (new
        # episodes append to the same bucket page, every capture in a namespace updates its
        # counter), and commits serialize on the pages anyway. The writers of another process (an
        # attached CLI) are not in this gate: retries cover them. Public: who waits at it is this
        # store's state (`writers.waiting()`).
        self.writers: PriorityGate | NoGate = (
            PriorityGate("writer", 1, writer_max_wait_s) if dialect.single_writer else NoGate()
        )
        # Every session of this store starts after the last transaction any of them committed: on a
        # Neo4j cluster a read may go to a member that has not applied the write just acknowledged.
        # ArcadeDB's Bolt sends bookmarks too (arcade:tx:<n>) and takes them back.
        self.bookmarks = neo4j.GraphDatabase.bookmark_manager()
        # Namespaces' vectors, which recall scores from (vector_cache.py): this process's, kept
        # current through the numbers the store gives every write of a vector.
        self.vector_cache = VectorCache(vector_cache_bytes)
        # Namespaces' graphs, which the graph channel walks (graph_copy.py): this process's, kept
        # while the versions the store gives every write of a graph stay theirs.
        self.graph_copies = GraphCopies()

    def index(self, logical: str) -> str:
        """The server's name for a search index, to pass as a query parameter."""
        return self.dialect.index_name(logical)

    @overload
    def read(self, name: Query[R], **params: Any) -> list[R]: ...
    @overload
    def read(self, name: str, **params: Any) -> list[Row]: ...
    def read(self, name: str | Query[Any], **params: Any) -> list[Any]:
        return self.read_each(lambda tx: tx.run(name, **params))

    @overload
    def read_listed(self, name: Query[R], **params: Any) -> list[R]: ...
    @overload
    def read_listed(self, name: str, **params: Any) -> list[Row]: ...
    def read_listed(self, name: str | Query[Any], **params: Any) -> list[Any]:
        """``Transaction.run_listed`` in a read transaction of its own."""
        return self.read_each(lambda tx: tx.run_listed(name, **params))

    def read_in(self, work: Callable[[Transaction], T]) -> T:
        with _driver_errors():
            return with_retries(
                lambda: self._attempt(work, neo4j.READ_ACCESS),
                extra_codes=self.dialect.transient_codes,
                what="read transaction",
            )

    def read_each(self, work: Callable[[Transaction], T]) -> T:
        """``work``'s statements each in a read transaction of its own, which the server begins and
        commits with the statement: for reads that need no one snapshot across their statements
        (one statement; a recall channel's, whose ids authorization reads again). An explicit
        transaction costs a BEGIN and a COMMIT more, ~0.4 ms of CPU on the embedded store
        (docs/benchmarks.md)."""

        def attempt() -> T:
            with self._session(neo4j.READ_ACCESS) as session:
                return work(Transaction(session))

        with _driver_errors():
            return with_retries(attempt, extra_codes=self.dialect.transient_codes, what="read")

    def write(self, work: Callable[[Transaction], T], *, priority: Priority = Priority.REQUEST) -> T:
        """Run ``work`` in one write transaction, again from the start after a transient failure
        (so ``work`` must be safe to rerun), STORE_UNAVAILABLE when they do not stop. Where writers
        take turns, the most urgent ``priority`` goes first."""
        return self._write(work, priority, commit=True)

    def rehearse(self, work: Callable[[Transaction], T], *, priority: Priority = Priority.REQUEST) -> T:
        """Run ``work`` in a write transaction like ``write``, then roll it back: what it returns
        is all that remains (shadow consolidation reads what it would have written)."""
        return self._write(work, priority, commit=False)

    def _write(self, work: Callable[[Transaction], T], priority: Priority, *, commit: bool) -> T:
        def attempt() -> T:
            with self.writers.turn(priority):
                return self._attempt(work, neo4j.WRITE_ACCESS, commit=commit)

        with _driver_errors():
            return with_retries(attempt, extra_codes=self.dialect.transient_codes, what="write transaction")

    def _attempt(self, work: Callable[[Transaction], T], access_mode: str, *, commit: bool = True) -> T:
        """One try, in an explicit transaction: the retries are ours, not the driver's."""
        with self._session(access_mode) as session:
            start = time.perf_counter()
            tx = session.begin_transaction()
            if (waited := time.perf_counter() - start) >= SLOW_S:
                log.warning("store: waited %.1f s for a connection", waited)
            try:
                transaction = Transaction(tx)
                result = work(transaction)
                if commit:
                    transaction.stamp_writes()
                    tx.commit()
                return result
            finally:
                _roll_back_unless_committed(tx)

    def check_server(self) -> None:
        """Refuse a server the queries do not run on (dialect.py says which), before anything else."""
        refusal = self.dialect.refusal(self.read(SERVER_COMPONENTS))
        if refusal is not None:
            raise UnsupportedServer(refusal)

    def setup_schema(self) -> None:
        """Create constraints and indexes; every statement is idempotent."""
        if self.attached:
            return
        drops = [self.dialect.drop_index(name) for name in self._outdated_indexes()]
        for statement in [*drops, *self.dialect.schema_statements()]:
            if self.dialect.ddl_in_sql:
                assert self._run_sql is not None, "this dialect's DDL needs the in-process engine"
                self._run_sql(statement)
            else:
                # Servers starting together over one Neo4j deadlock on its schema lock; a retry
                # finds the index the other made (every statement is IF NOT EXISTS).
                with_retries(partial(self._run_ddl, statement), what="schema statement")
        self._migrate_once(_NAMESPACE_TOKENS, _tokenize_namespaces)
        self._migrate_once(_EPISODE_COUNTS, lambda tx: tx.run("recount_episodes"))
        self._migrate_once(_EPISODE_STEMS, _stem_episodes)
        self._migrate_once(_ENTITY_TOKENS, _tokenize_entities)
        self._migrate_once(_VECTOR_EPOCHS, lambda tx: tx.run("start_vector_epochs", epoch=new_epoch()))

    def _outdated_indexes(self) -> list[str]:
        if self.dialect.outdated_indexes is None:
            return []
        names = [str(row["name"]) for row in self.read(self.dialect.outdated_indexes)]
        for name in names:
            log.warning("store: index %s was made by an earlier version: dropped, to be made again", name)
        return names

    def _run_ddl(self, statement: str) -> None:
        with self._session() as session:
            session.run(statement).consume()

    def _migrate_once(self, migration: str, work: Callable[[Transaction], object]) -> None:
        """A one-time data migration, recorded in the transaction that makes it, so that it runs
        once per store: finding what to migrate reads every memory."""
        if self.read(MIGRATION_DONE, id=migration):
            return

        def migrate(tx: Transaction) -> None:
            work(tx)
            tx.run("record_migration", id=migration, at=datetime.now(UTC))

        self.write(migrate)
        log.info("store migrated: %s", migration)

    def ping(self) -> bool:
        try:
            self.read(PING)
        except (HippographError, neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError):
            log.warning("store ping failed", exc_info=True)
            return False
        return True

    def close(self) -> None:
        self._driver.close()
        if self._on_close is not None:
            self._on_close()
        log.info("store closed")

    def _session(self, access_mode: str = neo4j.WRITE_ACCESS) -> neo4j.Session:
        return self._driver.session(
            database=self._database, default_access_mode=access_mode, bookmark_manager=self.bookmarks
        )


def _roll_back_unless_committed(tx: neo4j.Transaction) -> None:
    """A failed attempt's error is what counts; a rollback over a broken connection must not hide
    it (the server drops the transaction with the connection anyway)."""
    if tx.closed():
        return
    try:
        tx.close()
    except (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError):
        log.debug("rolling back a failed transaction failed too", exc_info=True)


def _tokenize_namespaces(tx: Transaction) -> None:
    """Memories stored before search was scoped by namespace get their namespace's token."""
    if scopes := _token_scopes(tx.run(NAMESPACES_WITHOUT_TOKEN)):
        tx.run("set_episode_namespace_tokens", scopes=scopes)
        tx.run("set_fact_namespace_tokens", scopes=scopes)


def _tokenize_entities(tx: Transaction) -> None:
    """Entities stored before entity search was scoped by namespace get their namespace's token."""
    if scopes := _token_scopes(tx.run(ENTITY_NAMESPACES_WITHOUT_TOKEN)):
        tx.run("set_entity_namespace_tokens", scopes=scopes)


def _token_scopes(rows: list[NamespaceOnly]) -> list[dict[str, str]]:
    return [{"namespace": row["namespace"], "token": namespace_token(row["namespace"])} for row in rows]


def _stem_episodes(tx: Transaction) -> None:
    """Episodes stored before the keyword channel searched stems get them."""
    rows = [{"id": row["id"], "stems": stems(row["content"] or "")} for row in tx.run(EPISODES_WITHOUT_STEMS)]
    if rows:
        tx.run("set_episode_stems", rows=rows)


# Most values a statement returns; checked first, by exact type, as a recall converts thousands.
_PLAIN = frozenset({str, int, float, bool, type(None)})


def _native(value: Any, texts: frozenset[str] = frozenset()) -> Any:
    """Driver values as plain Python; datetimes always in UTC (ArcadeDB may drop the zone), and so
    the ISO 8601 text under the keys ``texts`` at any depth (Query.times_as_text)."""
    # Plain items are kept without a call: a recall's rows hold thousands of them. One pass reads
    # the times too: a second over a graph step's hundreds of ids cost as much as the first.
    if isinstance(value, list):
        return [item if type(item) in _PLAIN else _native(item, texts) for item in value]
    if isinstance(value, dict):
        return {
            key: time_of(item) if key in texts else item if type(item) in _PLAIN else _native(item, texts)
            for key, item in value.items()
        }
    if isinstance(value, neo4j.time.DateTime):
        value = value.to_native()
    if isinstance(value, datetime):
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)
    return value
