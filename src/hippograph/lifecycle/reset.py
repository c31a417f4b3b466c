"""Resetting a namespace: everything it holds goes at once, irreversibly (an admin's tool).

Like forget, a PREVIEW shows what would go (how many nodes of each kind) and signs exactly that;
EXECUTE takes a reason and the preview's token, and only while the namespace still holds what the
preview showed. What is left afterwards is one History node in the namespace, target the
namespace's name, saying who reset it, when, why, and how much went.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from hippograph.kernel.errors import ErrorCode, HippographError
from hippograph.kernel.validation import require_reason, validate_namespace
from hippograph.lifecycle import token
from hippograph.lifecycle.forget import ForgetMode
from hippograph.runtime import Runtime
from hippograph.store.history import history_event
from hippograph.store.namespaces import census, delete_namespace

__all__ = ["ResetOutcome", "reset_namespace"]

audit = logging.getLogger("hippograph.audit")


@dataclass(frozen=True)
class ResetOutcome:
    mode: ForgetMode
    namespace: str
    counts: dict[str, int]  # preview: what the namespace holds; execute: what was deleted
    token: str | None = None  # preview: confirms this reset while the namespace holds exactly that
    expires_at: datetime | None = None


def reset_namespace(
    runtime: Runtime,
    namespace: str,
    mode: ForgetMode,
    actor: str,
    reason: str | None = None,
    confirm: str | None = None,
) -> ResetOutcome:
    validate_namespace(namespace)
    key = token.signing_key(runtime.settings, runtime.store)
    now = runtime.clock()
    held = census(runtime.store, namespace)
    if mode is ForgetMode.PREVIEW:
        expires_at = now + timedelta(seconds=runtime.settings.lifecycle.forget_token_ttl_s)
        signed = token.sign(key, namespace, _signed_ids(held), expires_at) if held else None
        return ResetOutcome(mode, namespace, held, signed, expires_at if signed else None)

    why = require_reason(reason)
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
    deleted = delete_namespace(runtime.store, namespace)
    event = history_event(namespace, namespace, "reset", actor, now, reason=why, metadata={"deleted": deleted})
    runtime.store.write(lambda tx: tx.run("record_history", rows=[event]))
    audit.warning("namespace %s reset by %s: %s", namespace, actor, deleted)
    return ResetOutcome(mode, namespace, deleted)


def _signed_ids(held: dict[str, int]) -> list[str]:
    # A reset token must never pass for a forget token, nor confirm a namespace that changed since.
    return ["reset", *(f"{label}:{count}" for label, count in sorted(held.items()))]
