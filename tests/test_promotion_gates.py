"""The promotion gates on plain data: which gate fails first, and the Beta posterior of reliability."""

from __future__ import annotations

import pytest

from hippograph.kernel.errors import HippographError
from hippograph.kernel.promotion import (
    Evidence,
    Gate,
    PromotionPolicy,
    Record,
    judge,
    reliability,
    still_supported,
    support,
)

ON = PromotionPolicy(enabled=True, quorum=2, threshold=0.6)
# Two agents with three facts each still current and none quarantined: reliability 4/5 each.
TRUSTED = {"ana": Record(3, 0), "bo": Record(3, 0)}


def test_the_posterior_means() -> None:
    assert reliability(ON, Record()) == 0.5  # no record: the prior's mean
    assert reliability(ON, Record(3, 0)) == pytest.approx(4 / 5)
    assert reliability(ON, Record(1, 3)) == pytest.approx(2 / 6)
    # The fact: (a + sum of reliabilities) / (a + b + n).
    assert support(ON, [Record(3, 0), Record(3, 0)]) == pytest.approx((1 + 1.6) / 4)
    # However many unknown agents attest it, it stays at the prior's mean.
    assert support(ON, [Record()] * 7) == pytest.approx(0.5)
    sceptical = PromotionPolicy(True, 2, 0.6, prior_successes=1, prior_failures=4)
    assert reliability(sceptical, Record(3, 0)) == pytest.approx(4 / 8)


def test_every_gate_passes() -> None:
    verdict = judge(ON, Evidence(True, ["bo", "ana", "bo"], TRUSTED))
    assert verdict.passed and verdict.failed is None
    assert verdict.attesters == ("ana", "bo")
    assert verdict.posterior == pytest.approx(0.65)


@pytest.mark.parametrize(
    ("policy", "evidence", "gate"),
    [
        (PromotionPolicy(), Evidence(True, ["ana", "bo"], TRUSTED), Gate.POLICY),
        # Off wins over everything else that is wrong.
        (PromotionPolicy(), Evidence(False, [], {}), Gate.POLICY),
        (ON, Evidence(False, ["ana", "bo"], TRUSTED), Gate.CURRENT),
        (ON, Evidence(True, ["ana"], TRUSTED), Gate.QUORUM),
        (ON, Evidence(True, ["ana", "ana"], TRUSTED), Gate.QUORUM),
        (ON, Evidence(True, ["ana", "bo"], {}), Gate.RELIABILITY),
        (ON, Evidence(True, ["ana", "bo"], {"ana": Record(3, 0), "bo": Record(0, 4)}), Gate.RELIABILITY),
    ],
)
def test_the_first_gate_that_fails_is_named(policy: PromotionPolicy, evidence: Evidence, gate: Gate) -> None:
    verdict = judge(policy, evidence)
    assert verdict.failed is gate and not verdict.passed
    assert verdict.reason


def test_reliability_is_only_judged_once_the_quorum_is_met() -> None:
    assert judge(ON, Evidence(True, ["ana"], {})).posterior is None
    verdict = judge(ON, Evidence(True, ["ana", "bo"], {}))
    assert verdict.posterior == pytest.approx(0.5) and "0.500" in verdict.reason


def test_support_is_lost_when_the_source_no_longer_holds_or_the_quorum_falls() -> None:
    assert still_supported(ON, Evidence(True, ["ana", "bo"], {})).passed  # reliability is not judged again
    assert still_supported(PromotionPolicy(quorum=2), Evidence(True, ["ana", "bo"], {})).passed  # nor the policy
    assert still_supported(ON, Evidence(False, ["ana", "bo"], {})).failed is Gate.CURRENT
    assert still_supported(ON, Evidence(True, ["ana"], {})).failed is Gate.QUORUM


@pytest.mark.parametrize(
    ("policy", "field"),
    [
        (PromotionPolicy(quorum=0), "quorum"),
        (PromotionPolicy(quorum=101), "quorum"),
        (PromotionPolicy(threshold=1.0), "threshold"),
        (PromotionPolicy(threshold=0.0), "threshold"),
        (PromotionPolicy(prior_successes=0.0), "priorSuccesses"),
        (PromotionPolicy(prior_failures=-1.0), "priorFailures"),
        (PromotionPolicy(prior_failures=float("nan")), "priorFailures"),
    ],
)
def test_a_policy_out_of_range_is_refused(policy: PromotionPolicy, field: str) -> None:
    with pytest.raises(HippographError) as refused:
        policy.validate()
    assert refused.value.code.value == "BAD_INPUT" and refused.value.details["field"] == field
