"""What a write transaction does, before it commits, for the processes that keep copies of
namespaces' graphs (store/graph_copy.py): every namespace whose graph it wrote takes a new graph
version (stamp_graphs.cypher), and a copy read at another version is not walked again.

A namespace's graph is what the graph channel walks (graph_walk.cypher, graph_next_episodes.cypher):
its entities and concepts, the typed edges between entities, its episodes' and facts' times and
forgetting, and the mentions, ABOUT, SUPPORTED_BY and NEXT links; and what a question's names are
found by (entities_by_key.cypher): the entities' names, types and mention counts, and the aliases. Every statement of cypher/ that
writes any of it is listed in ``GRAPH_WRITERS``; every other statement that writes is listed in
``OTHER_WRITERS``; tests/test_graph_copy.py fails on a statement that writes and is in neither.

A graph writer's namespaces are its ``namespace`` parameter, else those its transaction declared
(``Transaction.writes_graph_of``: a consolidation batch, a restore, a capture of several
namespaces). A graph writer run in a transaction that declared none, without a ``namespace``
parameter, gives every namespace a new version: always safe, and counted
(``GRAPH_UNDECLARED_WRITES``), which the test suite requires to stay at zero.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hippograph.kernel import metrics

__all__ = ["GRAPH_WRITERS", "OTHER_WRITERS", "GraphWrites"]

GRAPH_WRITERS = frozenset(
    {
        # capture: a new turn and its place in its session
        "create_episodes",
        "link_next",
        # consolidation: entities, concepts, facts, typed edges and their links
        "create_facts",
        "create_relation",
        "merge_concepts",
        "merge_entities",
        "merge_mentions",
        "move_support",
        "revise_facts",
        "revise_relation_edges",
        "retype_entities",
        "support_fact",
        "sync_fact_concepts",
        # curation: an entity merged into another, or given an alias
        "add_alias",
        "merge_entity_mentions",
        "merge_entity_relations_in",
        "merge_entity_relations_out",
        "retire_merged_entity",
        # lifecycle: facts remembered, revised, superseded, forgotten, recovered; episodes
        # forgotten and erased
        "create_explicit_fact",
        "create_fact_version",
        "create_promoted_fact",
        "delete_episode",
        "delete_fact_relations",
        "delete_facts",
        "delete_unmentioned_entities",
        "erase_episode_concepts",
        "expire_fact_relations",
        "forget_fact_relations",
        "forget_unsupported_facts",
        "recount_mentions",
        "recover_fact_relations",
        "recover_facts_with",
        "relink_next",
        "retract_session_tail",
        "set_forgotten",
        "supersede_facts",
        # a namespace emptied, a backup restored
        "delete_namespace_nodes",
        "import_nodes",
        "import_relationships",
    }
)

# The statements that write and leave every namespace's graph as the walk reads it: keys, limits
# and history; leases and consolidation states; sessions, EXTENDS, CONTRADICTS, SUPERSEDES and
# CO_OCCURS links (the walk follows none of them); statuses, conflicts, pins, categories and
# strengths (it reads none); vectors, search tokens and stems; a namespace's episode
# count (read with the graph's version on every walk) and its record, whose deletion stops copies
# of it being walked; summaries, skills and work items; the schema.
OTHER_WRITERS = frozenset(
    {
        "add_bad_pattern",
        "adopt_embedding_model",
        "assign_project",
        "categorize_facts",
        "cite_episodes",
        "claim_episodes",
        "claim_sessions",
        "clear_auth_failures",
        "clear_following_contexts",
        "corroborate_episodes",
        "count_episodes",
        "create_api_key",
        "create_skill_version",
        "create_work_item",
        "delete_empty_sessions",
        "delete_namespace_record",
        "demote_copies",
        "drop_summaries_of",
        "expire_changes",
        "expire_history",
        "expire_limits",
        "finish_episodes",
        "hold_in_conflict",
        "join_sessions",
        "lease_episodes",
        "link_contradicts",
        "link_extends",
        "link_fact_extends",
        "link_skill_version",
        "link_work_item",
        "merge_cooccurrences",
        "merge_entity_cooccurrences",
        "park_episode",
        "record_auth_failure",
        "record_changes",
        "record_embedding_model",
        "record_history",
        "record_migration",
        "record_skill_outcome",
        "recount_episodes",
        "refresh_cooccurrences",
        "refresh_fact_strength",
        "release_episode",
        "renew_leases",
        "requeue_episodes",
        "reset_vectors",
        "resolve_conflict",
        "revoke_api_key",
        "save_summary",
        "scrub_history",
        "set_block_destructive",
        "set_conflict_mode",
        "set_context_embeddings",
        "set_entity_namespace_tokens",
        "set_episode_embeddings",
        "set_episode_namespace_tokens",
        "set_episode_stems",
        "set_fact_namespace_tokens",
        "set_fact_status",
        "set_pinned",
        "set_promotion_policy",
        "set_shadow_mode",
        "set_work_item_state",
        "stamp_all_graphs",
        "stamp_graphs",
        "stamp_vectors",
        "start_vector_epochs",
        "store_secret",
        "take_rate_tokens",
        "touch_api_keys",
        "touch_memories",
        "unlink_contradicts",
        "unlink_supersedes",
    }
)


@dataclass
class GraphWrites:
    """The graphs one transaction has written so far."""

    namespaces: set[str] = field(default_factory=set)
    declared: set[str] = field(default_factory=set)
    undeclared: bool = False

    def note(self, name: str, params: Mapping[str, Any]) -> None:
        """What statement ``name``, run with ``params``, wrote."""
        if name.rpartition("/")[2] not in GRAPH_WRITERS:
            return
        namespace = params.get("namespace")
        if isinstance(namespace, str):
            self.namespaces.add(namespace)
        else:
            self.undeclared = True

    def declare(self, namespaces: Iterable[str]) -> None:
        self.declared.update(namespaces)

    def stamp(self, run: Callable[..., object]) -> None:
        """Give what was written so far a new version, through ``run(name, **params)`` in the
        transaction."""
        if self.undeclared and not self.declared:
            metrics.GRAPH_UNDECLARED_WRITES.inc()
            run("stamp_all_graphs", version=uuid.uuid4().hex)
        elif self.namespaces or self.undeclared:
            written = self.namespaces | (self.declared if self.undeclared else set())
            run("stamp_graphs", namespaces=sorted(written), version=uuid.uuid4().hex)
        # What was declared holds for the rest of the transaction.
        self.namespaces, self.undeclared = set(), False
