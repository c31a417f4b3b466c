"""Promotion gates (docs/memory-management.md, Promotion and demotion): whether a fact may be
copied into another namespace, as a pure function of plain data, naming the first gate it fails.

Reliability is a Beta posterior. Each attester's track record in the source namespace is the
other facts it attests there: those still current are successes, those quarantined (they lost to a
contradiction, or were demoted) failures; superseded facts count neither way, since the world
changing is no fault of whoever reported it. With the policy's prior Beta(a, b), an attester's
reliability is the posterior mean r = (a + s) / (a + b + s + f). The fact's support then counts
each distinct attester as r of a success and 1 - r of a failure, on the same prior:
p = (a + sum r) / (a + b + n). An attester without a record counts 0.5 on the default Beta(1, 1),
so a fact only unknown agents attest stays at 0.5 however many there are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from hippograph.kernel.errors import bad_input

MAX_QUORUM = 100


class Gate(StrEnum):
    """The gates in the order they are judged; the first that fails is the answer."""

    POLICY = "POLICY"
    CURRENT = "CURRENT"
    QUORUM = "QUORUM"
    RELIABILITY = "RELIABILITY"


@dataclass(frozen=True)
class PromotionPolicy:
    """A namespace's promotion policy: off until an admin turns it on."""

    enabled: bool = False
    quorum: int = 2
    threshold: float = 0.6
    prior_successes: float = 1.0
    prior_failures: float = 1.0

    def validate(self) -> None:
        if not 1 <= self.quorum <= MAX_QUORUM:
            raise bad_input(f"quorum must be between 1 and {MAX_QUORUM}", field="quorum")
        if not 0.0 < self.threshold < 1.0:
            raise bad_input("threshold must be above 0 and below 1", field="threshold")
        for name, value in (("priorSuccesses", self.prior_successes), ("priorFailures", self.prior_failures)):
            if not 0.0 < value <= 1000.0:
                raise bad_input(f"{name} must be above 0 and at most 1000", field=name)


@dataclass(frozen=True)
class Record:
    """An attester's track record: its other facts still current, and those quarantined."""

    successes: int = 0
    failures: int = 0


@dataclass(frozen=True)
class Evidence:
    """What the gates look at: whether the fact holds now, and who attests it with what record."""

    current: bool
    attesters: Sequence[str]
    records: Mapping[str, Record]


@dataclass(frozen=True)
class Verdict:
    failed: Gate | None
    reason: str
    attesters: tuple[str, ...]
    posterior: float | None

    @property
    def passed(self) -> bool:
        return self.failed is None


def reliability(policy: PromotionPolicy, record: Record) -> float:
    """The posterior mean of an attester's Beta(a + successes, b + failures)."""
    a, b = policy.prior_successes, policy.prior_failures
    return (a + record.successes) / (a + b + record.successes + record.failures)


def support(policy: PromotionPolicy, records: Sequence[Record]) -> float:
    """The posterior mean of the fact's support: each attester a success weighted by its reliability."""
    a, b = policy.prior_successes, policy.prior_failures
    return (a + sum(reliability(policy, record) for record in records)) / (a + b + len(records))


def judge(policy: PromotionPolicy, evidence: Evidence) -> Verdict:
    """Every gate, in order: policy, current, quorum, reliability."""
    return _judge(policy, evidence, promoting=True)


def still_supported(policy: PromotionPolicy, evidence: Evidence) -> Verdict:
    """Whether a promoted copy keeps its support: its source still current and attested by a
    quorum. Turning the policy off, or reliability drifting, demotes nothing already promoted."""
    return _judge(policy, evidence, promoting=False)


def _judge(policy: PromotionPolicy, evidence: Evidence, *, promoting: bool) -> Verdict:
    attesters = tuple(sorted(set(evidence.attesters)))
    if promoting and not policy.enabled:
        return Verdict(Gate.POLICY, "promotion is off in the source namespace", attesters, None)
    if not evidence.current:
        return Verdict(
            Gate.CURRENT, "the fact is not current (superseded, quarantined, forgotten or erased)", attesters, None
        )
    if len(attesters) < policy.quorum:
        reason = f"{len(attesters)} distinct attester(s), the quorum is {policy.quorum}"
        return Verdict(Gate.QUORUM, reason, attesters, None)
    posterior = support(policy, [evidence.records.get(name, Record()) for name in attesters])
    if promoting and posterior < policy.threshold:
        reason = f"attester reliability {posterior:.3f} is below the threshold {policy.threshold:g}"
        return Verdict(Gate.RELIABILITY, reason, attesters, posterior)
    return Verdict(None, "every gate passed" if promoting else "still supported", attesters, posterior)
