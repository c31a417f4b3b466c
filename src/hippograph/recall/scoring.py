"""Scoring fused candidates (docs/architecture.md, Recall): RRF × retention × access boost × importance, with
lifecycle states, superseded and quarantined facts, and redundant provenance folded together.

Works on the metadata authorization returned (never on content), so every number here can be
explained per hit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from hippograph.extraction.when import past_words
from hippograph.kernel.retention import EPISODE_KIND, LifecycleState, lifecycle_state, retention
from hippograph.recall.fusion import Fused
from hippograph.recall.modes import ModePreset
from hippograph.recall.request import Channel, ChannelHit, Explanation, RecallRequest, TimeWindow, WindowUse
from hippograph.recall.window import WINDOW_BOOST, Span, inside

STALE_FACTOR = 0.5
ARCHIVED_FACTOR = 0.25
SUPERSEDED_FACTOR = 0.5
REPLACEMENT_BOOST = 1.25
ACCESS_BOOST = 0.3
ACTIVE = "active"


@dataclass(frozen=True)
class Candidate:
    """What authorization learned about a memory: enough to score it, nothing of its content."""

    id: str
    kind: str  # a fact kind, or "episode"
    importance: float
    pinned: bool
    access_count: int
    last_accessed_at: datetime | None
    created_at: datetime
    status: str = ACTIVE
    session: str | None = None
    supported_by: tuple[str, ...] = ()
    replaces: tuple[str, ...] = ()  # the facts this one superseded
    agent: str | None = None  # an episode's speaker
    # What replaced it, when what it says no longer holds: the newer facts and the episodes that
    # state them (authorize.py says when an episode counts as superseded).
    replaced_by: tuple[str, ...] = ()
    # When it held or happened in valid time (recall/window.py): a fact's valid interval; an
    # episode's occurrence, and where its words dated the facts it states.
    valid: tuple[Span, ...] = ()


@dataclass(frozen=True)
class Window:
    """A question's time window and what it does to the hits."""

    window: TimeWindow
    use: WindowUse

    def factor_for(self, candidate: Candidate) -> float | None:
        """The hit's factor: None when the window filters it out."""
        if inside(candidate.valid, self.window):
            return WINDOW_BOOST if self.use is WindowUse.BOOST else 1.0
        return None if self.use is WindowUse.FILTER else 1.0


@dataclass(frozen=True)
class Speaker:
    """The one speaker a query names, and what another speaker's episodes are multiplied by."""

    agent: str
    others_factor: float

    def factor_for(self, candidate: Candidate) -> float:
        # A fact has no speaker of its own: it keeps its score.
        if candidate.agent is None or candidate.agent == self.agent:
            return 1.0
        return self.others_factor


def named_speaker(names: Sequence[str], candidates: Mapping[str, Candidate], others_factor: float) -> Speaker | None:
    """The speaker among the candidates' agents that the query names, when it names exactly one
    ("Melanie" names the agent "Melanie", and "Dana" the agent "Dana Lee"); None otherwise, or
    when there is no prior to apply."""
    if others_factor >= 1 or not names:
        return None
    said = {word for name in names for word in name.casefold().split()}
    agents = {c.agent for c in candidates.values() if c.agent is not None}
    named = [agent for agent in agents if said & set(agent.casefold().split())]
    return Speaker(named[0], others_factor) if len(named) == 1 else None


def asks_about_past(request: RecallRequest, now: datetime) -> bool:
    """A question about the past: at an ``asOf`` before now, or in so many words ("used to",
    "before", "previously": extract/time.toml). Then what held earlier is not ranked below what
    replaced it."""
    return (request.as_of is not None and request.as_of < now) or past_words(request.query)


def replacements(scored: Sequence[Scored], candidates: Mapping[str, Candidate]) -> dict[str, str]:
    """For each superseded hit, the memory that replaced it: the best-ranked one among the hits,
    else the first newer fact."""
    rank = {s.id: index for index, s in enumerate(scored)}
    out = {}
    for s in scored:
        newer = candidates[s.id].replaced_by
        if newer:
            out[s.id] = min(newer, key=lambda r: (rank.get(r, len(rank)), newer.index(r)))
    return out


@dataclass(frozen=True)
class Scored:
    id: str
    score: float
    channels: tuple[ChannelHit, ...]
    explanation: Explanation


@dataclass
class _Pool:
    fused: dict[str, Fused]
    folded: dict[str, list[str]] = field(default_factory=dict)


def score(
    fused: Sequence[Fused],
    candidates: Mapping[str, Candidate],
    preset: ModePreset,
    *,
    now: datetime,
    limit: int,
    include_archived: bool = False,
    speaker: Speaker | None = None,
    current_first: bool = True,
    window: Window | None = None,
) -> list[Scored]:
    """The candidates scored, best first, at most ``limit``. With ``current_first`` (a question
    that is not about the past), a superseded memory ranks below the one that replaced it,
    whatever their access counts and channel ranks. A ``window`` boosts the hits inside it, or
    leaves out those outside."""
    pool = _fold_provenance(fused, candidates)
    present = set(pool.fused)
    scored = []
    for memory_id, hit in pool.fused.items():
        candidate = candidates[memory_id]
        kept = retention(
            candidate.kind,
            now=now,
            created_at=candidate.created_at,
            last_accessed_at=candidate.last_accessed_at,
            access_count=candidate.access_count,
            pinned=candidate.pinned,
            stability_scale=preset.stability_scale,
        )
        state = lifecycle_state(kept)
        if state is LifecycleState.ARCHIVED and not include_archived:
            continue
        window_factor = window.factor_for(candidate) if window is not None else 1.0
        if window_factor is None:
            continue
        explanation = Explanation(
            rrf=hit.score,
            retention=kept,
            access_boost=1 + ACCESS_BOOST * math.log2(1 + candidate.access_count),
            importance_weight=(0.5 + candidate.importance) ** preset.importance_power,
            state=state.value,
            status_factor=_status_factor(candidate, present),
            speaker_factor=speaker.factor_for(candidate) if speaker is not None else 1.0,
            window_factor=window_factor,
            folded=tuple(pool.folded.get(memory_id, ())),
        )
        final = (
            hit.score
            * kept
            * explanation.access_boost
            * explanation.importance_weight
            * explanation.status_factor
            * explanation.speaker_factor
            * explanation.window_factor
            * {LifecycleState.STALE: STALE_FACTOR, LifecycleState.ARCHIVED: ARCHIVED_FACTOR}.get(state, 1.0)
        )
        scored.append(Scored(memory_id, final, hit.channels, explanation))
    if current_first:
        scored = _below_replacements(scored, candidates)
    scored.sort(key=lambda s: (-s.score, s.id))
    return _cap_sessions(scored, candidates, preset, limit)


def _below_replacements(scored: list[Scored], candidates: Mapping[str, Candidate]) -> list[Scored]:
    """Each superseded memory scored at most SUPERSEDED_FACTOR of the best of its replacements
    among the hits; its status factor says by how much it was cut."""
    scores = {s.id: s.score for s in scored}
    out = []
    for s in scored:
        newer = [scores[r] for r in candidates[s.id].replaced_by if r in scores]
        cap = SUPERSEDED_FACTOR * max(newer, default=math.inf)
        if s.score > cap:
            factor = s.explanation.status_factor * cap / s.score
            s = replace(s, score=cap, explanation=replace(s.explanation, status_factor=factor))
        out.append(s)
    return out


def _fold_provenance(fused: Sequence[Fused], candidates: Mapping[str, Candidate]) -> _Pool:
    """A fact drawn from a single episode says what that episode says: when both are candidates,
    the lower-ranked folds into the higher one, which keeps both scores and all channel ranks,
    so that one statement does not take two of the caller's slots."""
    pool = _Pool({f.id: f for f in fused if f.id in candidates})
    for fact in [c for c in candidates.values() if c.kind != EPISODE_KIND and len(c.supported_by) == 1]:
        (episode,) = fact.supported_by
        if fact.id not in pool.fused or episode not in pool.fused:
            continue
        keep, drop = sorted((pool.fused[fact.id], pool.fused[episode]), key=lambda f: (-f.score, f.id))
        channels = _best_per_channel(keep.channels + drop.channels)
        pool.fused[keep.id] = replace(keep, score=keep.score + drop.score, channels=channels)
        del pool.fused[drop.id]
        pool.folded.setdefault(keep.id, []).append(drop.id)
    return pool


def _best_per_channel(hits: tuple[ChannelHit, ...]) -> tuple[ChannelHit, ...]:
    """One hit per channel, its best rank: a hit names each channel that found it once, though it
    found both the fact and the episode it folds together."""
    best: dict[Channel, ChannelHit] = {}
    for hit in hits:
        if hit.channel not in best or hit.rank < best[hit.channel].rank:
            best[hit.channel] = hit
    return tuple(best.values())


def _status_factor(candidate: Candidate, present: set[str]) -> float:
    """Superseded or quarantined facts (only here when asked for) rank lower; the current fact
    that replaced one of the candidates ranks higher."""
    if candidate.status != ACTIVE:
        return SUPERSEDED_FACTOR
    if set(candidate.replaces) & present:
        return REPLACEMENT_BOOST
    return 1.0


def _cap_sessions(
    scored: list[Scored], candidates: Mapping[str, Candidate], preset: ModePreset, limit: int
) -> list[Scored]:
    if preset.session_share is None:
        return scored[:limit]
    cap = max(1, math.ceil(limit * preset.session_share))
    taken: dict[str | None, int] = {}
    chosen, spare = [], []
    for hit in scored:
        session = candidates[hit.id].session
        if session is not None and taken.get(session, 0) >= cap:
            spare.append(hit)
            continue
        taken[session] = taken.get(session, 0) + 1
        chosen.append(hit)
    # Too few sessions to fill the limit under the cap: the best of the rest fill it.
    return (chosen + spare)[:limit]
