"""The arithmetic of recall on plain data: spreading activation, retention, fusion and scoring."""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hippograph.kernel.config import ActivationParams, Settings
from hippograph.kernel.retention import LifecycleState, lifecycle_state, retention
from hippograph.recall.activation import Edge, hub_damping, idf, spread
from hippograph.recall.fusion import Ranked, reciprocal_rank_fusion
from hippograph.recall.modes import PRESETS
from hippograph.recall.ppr import Subgraph, personalized_pagerank, spreading_activation
from hippograph.recall.request import Channel, Mode
from hippograph.recall.scoring import Candidate, score

NOW = datetime(2026, 1, 1, tzinfo=UTC)


def graph(*edges: tuple[str, str, str, float]) -> tuple[dict[str, list[Edge]], list[list[str]]]:
    """An undirected graph as an expand function's data; records every frontier asked for."""
    degree: dict[str, int] = {}
    for a, b, _, _ in edges:
        degree[a] = degree.get(a, 0) + 1
        degree[b] = degree.get(b, 0) + 1
    out: dict[str, list[Edge]] = {}
    for a, b, kind, strength in edges:
        out.setdefault(a, []).append(Edge(a, b, kind, strength, degree[a]))
        out.setdefault(b, []).append(Edge(b, a, kind, strength, degree[b]))
    return out, []


def expander(adjacency: dict[str, list[Edge]], asked: list[list[str]]):  # type: ignore[no-untyped-def]
    def expand(frontier: list[str]) -> Iterable[Edge]:
        asked.append(frontier)
        return [edge for entity in frontier for edge in adjacency.get(entity, [])]

    return expand


def test_activation_follows_the_design_formula() -> None:
    adjacency, asked = graph(("a", "b", "WORKS_AT", 5), ("b", "c", "CO_OCCURS", 5))
    activation = spread({"a": 1.0}, expander(adjacency, asked))
    b = 1.0 * 0.8 * 2.0 * 1.0 / hub_damping(1)
    c = b * 0.8 * 1.0 * 1.0 / hub_damping(2)
    assert activation["a"] == 1.0
    assert activation["b"] == pytest.approx(b)
    assert activation["c"] == pytest.approx(c)
    assert asked == [["a"], ["b"]]  # depth 2: two hops, no more


def test_weak_edges_and_depth_stop_the_spread() -> None:
    adjacency, asked = graph(("a", "b", "CO_OCCURS", 1), ("a", "x", "LIVES_IN", 5), ("x", "y", "LIVES_IN", 5))
    activation = spread({"a": 1.0}, expander(adjacency, asked), ActivationParams(depth=1))
    # a CO_OCCURS seen once passes 0.8 × 1 × 0.2 / 2 neighbours = 0.08 < 0.1
    assert "b" not in activation
    assert "x" in activation and "y" not in activation


def test_hubs_pass_on_less_than_leaves() -> None:
    spokes = [("hub", f"s{i}", "CO_OCCURS", 5) for i in range(50)]
    adjacency, asked = graph(("leaf", "t", "CO_OCCURS", 5), *spokes)
    from_hub = spread({"hub": 1.0}, expander(adjacency, asked))
    from_leaf = spread({"leaf": 1.0}, expander(adjacency, asked))
    # 0.8 / 50 spokes is below the threshold: the hub reaches none of them; the leaf its one link.
    assert "s0" not in from_hub and from_leaf["t"] == pytest.approx(0.8)
    assert idf(300, 500) == 0.0  # in more than half of the memories: no evidence either way
    assert 0 < idf(50, 500) < idf(2, 500) / 2


def test_pagerank_walks_from_a_concept_to_memories_one_step_further() -> None:
    g = Subgraph()
    for node, memory in [("pottery", "m1"), ("pottery", "m2"), ("class", "m2"), ("class", "m3"), ("bread", "m4")]:
        g.link(node, memory)
    rank = personalized_pagerank(g, {"pottery": 1.0})
    assert rank["m2"] > rank["m1"] > rank["m3"] > 0  # m2 meets the seed and m3 at once
    assert "m4" not in rank and "bread" not in rank  # not connected to the seed
    assert sum(rank.values()) == pytest.approx(1.0)


def test_a_memory_passes_more_to_its_rarer_node() -> None:
    g = Subgraph(weight={"rare": 3.0, "common": 0.5})
    for node, memory in [("rare", "hit"), ("common", "hit"), ("rare", "a"), ("common", "b")]:
        g.link(node, memory)
    rank = personalized_pagerank(g, {"hit": 1.0})
    assert rank["a"] > rank["b"] > 0
    activation = spreading_activation(g, {"hit": 1.0}, ActivationParams(threshold=0.0))
    assert activation["a"] > activation["b"] > 0


def test_a_memory_whose_nodes_all_say_nothing_is_a_dead_end() -> None:
    # Both speakers of a small namespace: in more than half of its memories, idf 0.
    g = Subgraph(weight={"caroline": 0.0, "melanie": 0.0, "pottery": 2.0})
    for node, memory in [("caroline", "m1"), ("melanie", "m1"), ("pottery", "m2")]:
        g.link(node, memory)
    rank = personalized_pagerank(g, {"m1": 1.0, "pottery": 1.0})
    assert sum(rank.values()) == pytest.approx(1.0)
    assert rank.get("caroline", 0.0) == 0.0 and rank["m2"] > 0


def test_retention_decays_by_kind_and_slows_with_use() -> None:
    created = NOW - timedelta(days=60)
    episode = retention("episode", now=NOW, created_at=created)
    assert episode == pytest.approx(math.exp(-1))
    assert retention("preference", now=NOW, created_at=created) > episode
    assert retention("decision", now=NOW, created_at=created - timedelta(days=3650)) == 1.0
    assert retention("episode", now=NOW, created_at=created, pinned=True) == 1.0
    used = retention("episode", now=NOW, created_at=created, access_count=4, last_accessed_at=NOW - timedelta(days=1))
    assert used > 0.98
    assert lifecycle_state(0.5) is LifecycleState.ACTIVE
    assert lifecycle_state(0.2) is LifecycleState.STALE
    assert lifecycle_state(0.05) is LifecycleState.ARCHIVED


def ranked(*hits: tuple[str, float]) -> list[Ranked]:
    return [Ranked(memory_id, value, "Episode") for memory_id, value in hits]


def candidate(memory_id: str, **overrides: object) -> Candidate:
    values: dict[str, object] = {
        "id": memory_id,
        "kind": "episode",
        "importance": 0.5,
        "pinned": False,
        "access_count": 0,
        "last_accessed_at": None,
        "created_at": NOW,
    }
    return Candidate(**(values | overrides))  # type: ignore[arg-type]


def test_fusion_weights_channels_and_rewards_agreement() -> None:
    rankings = {Channel.KEYWORD: ranked(("a", 9.0), ("b", 8.0)), Channel.VECTOR: ranked(("b", 0.9), ("c", 0.8))}
    fused = reciprocal_rank_fusion(rankings, k=60)
    assert [f.id for f in fused] == ["b", "a", "c"]
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61)
    weighted = reciprocal_rank_fusion(rankings, k=60, weights={Channel.KEYWORD: 0.0})
    assert weighted[0].id == "b" and weighted[1].id == "c"


def test_default_k_lets_each_channels_best_lead_over_shared_low_ranks() -> None:
    def channel(best: str) -> list[Ranked]:
        return ranked((best, 1.0), *[(f"{best}-{i}", 1.0) for i in range(8)], ("shared", 1.0))

    rankings = {Channel.KEYWORD: channel("keyword-best"), Channel.VECTOR: channel("vector-best")}
    fused = reciprocal_rank_fusion(rankings, k=Settings().recall.rrf_k)
    assert {f.id for f in fused[:2]} == {"keyword-best", "vector-best"}
    # With the textbook k = 60, ranks are nearly flat and the tenth hit of both comes first.
    assert reciprocal_rank_fusion(rankings, k=60)[0].id == "shared"


def test_scoring_demotes_stale_superseded_and_drops_archived() -> None:
    fused = reciprocal_rank_fusion(
        {Channel.KEYWORD: ranked(*[(i, 1.0) for i in ("old", "stale", "super", "new", "plain")])}, k=60
    )
    candidates = {
        "old": candidate("old", created_at=NOW - timedelta(days=400)),
        "stale": candidate("stale", created_at=NOW - timedelta(days=100)),
        "super": candidate("super", kind="status", status="superseded"),
        "new": candidate("new", kind="status", replaces=("super",)),
        "plain": candidate("plain"),
    }
    scored = score(fused, candidates, PRESETS[Mode.BALANCED], now=NOW, limit=10)
    by_id = {s.id: s for s in scored}
    assert "old" not in by_id
    assert by_id["stale"].explanation.state == "stale"
    assert by_id["super"].explanation.status_factor == 0.5
    assert by_id["new"].explanation.status_factor == 1.25
    assert scored[0].id == "new"
    archived = score(fused, candidates, PRESETS[Mode.BALANCED], now=NOW, limit=10, include_archived=True)
    assert {s.id: s.explanation.state for s in archived}["old"] == "archived"


def test_a_fact_folds_into_the_episode_it_came_from() -> None:
    fused = reciprocal_rank_fusion({Channel.KEYWORD: ranked(("episode", 2.0), ("fact", 1.0), ("other", 0.5))}, k=60)
    candidates = {
        "episode": candidate("episode"),
        "fact": candidate("fact", kind="fact", supported_by=("episode",)),
        "other": candidate("other"),
    }
    scored = score(fused, candidates, PRESETS[Mode.BALANCED], now=NOW, limit=10)
    assert [s.id for s in scored] == ["episode", "other"]
    assert scored[0].explanation.folded == ("fact",)
    assert scored[0].explanation.rrf == pytest.approx(1 / 61 + 1 / 62)


def test_broad_mode_spreads_hits_over_sessions() -> None:
    ids = [f"a{i}" for i in range(6)] + ["b0", "b1"]
    fused = reciprocal_rank_fusion({Channel.KEYWORD: ranked(*[(i, 1.0) for i in ids])}, k=60)
    candidates = {i: candidate(i, session=i[0]) for i in ids}
    balanced = score(fused, candidates, PRESETS[Mode.BALANCED], now=NOW, limit=4)
    broad = score(fused, candidates, PRESETS[Mode.BROAD], now=NOW, limit=4)
    assert [s.id for s in balanced] == ["a0", "a1", "a2", "a3"]
    assert [s.id for s in broad] == ["a0", "a1", "b0", "b1"]


def test_a_folded_hit_names_each_channel_once_with_its_best_rank() -> None:
    rankings = {
        Channel.KEYWORD: ranked(("episode", 2.0), ("fact", 1.0)),
        Channel.VECTOR: ranked(("fact", 0.9), ("episode", 0.8)),
    }
    candidates = {"episode": candidate("episode"), "fact": candidate("fact", kind="fact", supported_by=("episode",))}
    [hit] = score(reciprocal_rank_fusion(rankings, k=60), candidates, PRESETS[Mode.BALANCED], now=NOW, limit=10)
    assert [(c.channel, c.rank) for c in hit.channels] == [(Channel.KEYWORD, 1), (Channel.VECTOR, 1)]


def test_a_superseded_memory_ranks_below_its_replacement_whatever_its_access() -> None:
    fused = reciprocal_rank_fusion({Channel.KEYWORD: ranked(("boston", 1.0), ("other", 0.9), ("denver", 0.8))}, k=60)
    candidates = {
        "boston": candidate("boston", access_count=50, replaced_by=("denver",)),
        "other": candidate("other"),
        "denver": candidate("denver"),
    }
    scored = score(fused, candidates, PRESETS[Mode.BALANCED], now=NOW, limit=10)
    by_id = {s.id: s for s in scored}
    assert [s.id for s in scored] == ["other", "denver", "boston"]
    assert by_id["boston"].score == pytest.approx(0.5 * by_id["denver"].score)
    assert by_id["boston"].explanation.access_boost > 2 and by_id["boston"].explanation.status_factor < 0.5
    # A question about the past ranks them as their channels and access do.
    past = score(fused, candidates, PRESETS[Mode.BALANCED], now=NOW, limit=10, current_first=False)
    assert past[0].id == "boston" and past[0].explanation.status_factor == 1


hits = st.lists(
    st.tuples(
        st.sampled_from(["episode", "fact", "status"]),
        st.integers(0, 500),  # age in days
        st.integers(0, 40),  # access count
        st.sampled_from(["active", "superseded"]),
        st.sampled_from([None, "s1", "s2"]),
    ),
    min_size=1,
    max_size=12,
)


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hits, st.integers(1, 8), st.sampled_from(list(Mode)), st.booleans(), st.data())
def test_scores_come_best_first_within_the_limit_and_below_every_replacement(
    specs: list[tuple[str, int, int, str, str | None]],
    limit: int,
    mode: Mode,
    include_archived: bool,
    data: st.DataObject,
) -> None:
    ids = [f"m{n}" for n in range(len(specs))]
    # What replaced a memory is a current one (a chain of replacements caps each link by itself).
    current = [memory_id for memory_id, spec in zip(ids, specs, strict=True) if spec[3] == "active"]
    candidates = {
        memory_id: candidate(
            memory_id,
            kind=kind,
            created_at=NOW - timedelta(days=age),
            access_count=access,
            status=status,
            session=session,
            replaced_by=tuple(data.draw(st.lists(st.sampled_from(current), max_size=2, unique=True)))
            if status == "superseded" and current
            else (),
        )
        for memory_id, (kind, age, access, status, session) in zip(ids, specs, strict=True)
    }
    fused = reciprocal_rank_fusion({Channel.KEYWORD: ranked(*[(i, 1.0) for i in ids])}, k=60)
    scored = score(fused, candidates, PRESETS[mode], now=NOW, limit=limit, include_archived=include_archived)
    assert len(scored) <= limit and len({s.id for s in scored}) == len(scored)
    if PRESETS[mode].session_share is None:  # the session cap may put a lower hit first
        assert [s.score for s in scored] == sorted((s.score for s in scored), reverse=True)
    assert include_archived or all(s.explanation.state != "archived" for s in scored)
    every = {s.id: s.score for s in score(fused, candidates, PRESETS[mode], now=NOW, limit=len(ids))}
    for memory_id, value in every.items():
        newer = [every[r] for r in candidates[memory_id].replaced_by if r in every]
        assert not newer or value <= 0.5 * max(newer) * (1 + 1e-9)
