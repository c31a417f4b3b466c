"""Transient store failures retried here, a bounded number of times, so that no client sees one.

What the servers send when two transactions collide:

* ArcadeDB's Bolt plugin reports every ``NeedRetryException`` (a concurrent change to the same page
  or record, an edge chunk filled concurrently, the commit lock not acquired in time) as
  ``Neo.TransientError.Transaction.DeadlockDetected``; Neo4j sends the same code for a deadlock.
  The driver classifies it as retryable.
* A ``MERGE`` that races another creating the same unique key fails on ArcadeDB with
  ``Neo.ClientError.Schema.ConstraintValidationFailed`` (Neo4j's ``MERGE`` locks the key instead).
  That is also how a true duplicate looks, so it stays ``UniquenessConflict`` for the caller, who
  knows which it is.

The driver's own retry (``execute_write``) backs off from one second, doubling, for up to 30 s and
then raises the last error: under many writers a transaction kept colliding until that budget ran
out, and the error escaped as INTERNAL. Here the backoff starts in milliseconds, is fully jittered
so that writers that collided do not collide again in step, and ends in STORE_UNAVAILABLE.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TypeVar

import neo4j

from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.metrics import STORE_RETRIES
from hippograph.kernel.priority import Priority

__all__ = ["NoGate", "RetryPolicy", "is_transient", "with_retries"]

log = logging.getLogger(__name__)

T = TypeVar("T")


@dataclass(frozen=True)
class RetryPolicy:
    attempts: int = 12
    first_delay_s: float = 0.005
    max_delay_s: float = 0.5

    def delay(self, attempt: int) -> float:
        """Full jitter: uniform up to the exponential ceiling of this attempt (1-based)."""
        ceiling = min(self.max_delay_s, self.first_delay_s * 2 ** (attempt - 1))
        return random.uniform(0, ceiling)


DEFAULT_POLICY = RetryPolicy()


def is_transient(error: BaseException, extra_codes: frozenset[str] = frozenset()) -> bool:
    """Whether running the same transaction again may succeed: the driver's own classification,
    plus codes a dialect knows to be transient on its server."""
    if isinstance(error, neo4j.exceptions.Neo4jError):
        return error.is_retryable() or error.code in extra_codes
    if isinstance(error, neo4j.exceptions.DriverError):
        # Lost connections, a server that is restarting; not a commit whose outcome is unknown.
        return error.is_retryable()
    return False


def with_retries(
    attempt: Callable[[], T],
    *,
    policy: RetryPolicy = DEFAULT_POLICY,
    extra_codes: frozenset[str] = frozenset(),
    what: str = "transaction",
) -> T:
    """``attempt()`` until it succeeds, fails for good, or the policy's attempts are spent."""
    for number in range(1, policy.attempts + 1):
        try:
            return attempt()
        except (neo4j.exceptions.Neo4jError, neo4j.exceptions.DriverError) as error:
            if not is_transient(error, extra_codes):
                raise
            if number == policy.attempts:
                log.warning("%s still failing after %d attempts: %s", what, number, _describe(error))
                raise HippographError(
                    ErrorCode.STORE_UNAVAILABLE,
                    "the graph store is too busy right now; retry shortly",
                    attempts=number,
                ) from error
            STORE_RETRIES.inc()
            delay = policy.delay(number)
            log.debug(
                "%s attempt %d failed transiently (%s); retrying in %.0f ms",
                what,
                number,
                _describe(error),
                delay * 1000,
            )
            time.sleep(delay)
    raise AssertionError("unreachable: a policy makes at least one attempt")


def _describe(error: BaseException) -> str:
    code = getattr(error, "code", None)
    message = getattr(error, "message", None) or str(error)
    return f"{code or type(error).__name__}: {message[:200]}"


class NoGate:
    """Writers run concurrently: the server locks records itself (Neo4j)."""

    @contextmanager
    def turn(self, priority: Priority) -> Iterator[None]:
        yield
