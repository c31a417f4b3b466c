"""Resetting a namespace: everything it holds goes at once, irreversibly (an admin's tool).

Like forget, a PREVIEW shows what would go (how many nodes of each kind) and signs exactly that;
EXECUTE takes a reason and the preview's token, and only while the namespace still holds what the
preview showed. What is left afterwards is one History node in the namespace, target the
namespace's name, saying who reset it, when, why, and how much went.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

from hippograph.kernel.config import LifecycleSettings
from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.validation import require_reason, validate_namespace
from hippograph.lifecycle import token
from hippograph.lifecycle.forget import ForgetMode
from hippograph.store import Store
from hippograph.store.history import history_event
from hippograph.store.namespaces import census, delete_namespace

__all__ = ["ResetOutcome", "check_confirmation", "preview_reset", "reset_namespace"]

audit = logging.getLogger("hippograph.audit")


@dataclass(frozen=True)
class ResetOutcome:
    mode: ForgetMode
    namespace: str
    counts: dict[str, int]  # preview: what the namespace holds; execute: what was deleted
    token: str | None = None  # preview: confirms this reset while the namespace holds exactly that
    expires_at: datetime | None = None


def reset_namespace(
    store: Store,
    clock: Callable[[], datetime],
    lifecycle: LifecycleSettings,
    namespace: str,
    mode: ForgetMode,
    actor: str,
    reason: str | None = None,
    confirm: str | None = None,
) -> ResetOutcome:
    validate_namespace(namespace)
    key = token.signing_key(lifecycle, store)
    now = clock()
    held = census(store, namespace)
    if mode is ForgetMode.PREVIEW:
        return preview_reset(key, namespace, held, now, lifecycle.forget_token_ttl_s)

    why = require_reason(reason)
    check_confirmation(key, namespace, held, confirm, now)
    deleted = delete_namespace(store, namespace)
    event = history_event(namespace, namespace, "reset", actor, now, reason=why, metadata={"deleted": deleted})
    store.write(lambda tx: tx.run("record_history", rows=[event]))
    audit.warning("namespace %s reset by %s: %s", namespace, actor, deleted)
    return ResetOutcome(mode, namespace, deleted)


def preview_reset(key: bytes, namespace: str, held: dict[str, int], now: datetime, ttl_s: float) -> ResetOutcome:
    """What a namespace holds, and a token that confirms resetting it while it holds just that."""
    signed, expires_at = token.offer(key, namespace, _signed_ids(held), now, ttl_s) if held else (None, None)
    return ResetOutcome(ForgetMode.PREVIEW, namespace, held, signed, expires_at)


def check_confirmation(key: bytes, namespace: str, held: dict[str, int], confirm: str | None, now: datetime) -> None:
    """Refuse a reset unless ``confirm`` is an unexpired preview's token for this namespace as it is."""
    if confirm is None:
        raise HippographError(
            ErrorCode.CONFIRMATION_REQUIRED, "run resetNamespace as PREVIEW first and pass its token", field="token"
        )
    if not token.verify(key, namespace, _signed_ids(held), confirm, now):
        raise HippographError(
            ErrorCode.CONFIRMATION_REQUIRED,
            "the token has expired or was for another namespace or content than it now holds; preview again",
            field="token",
        )


def _signed_ids(held: dict[str, int]) -> list[str]:
    # A reset token must never pass for a forget token, nor confirm a namespace that changed since.
    return ["reset", *(f"{label}:{count}" for label, count in sorted(held.items()))]
