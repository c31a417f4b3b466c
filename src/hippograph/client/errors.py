"""Errors the client raises: one class per code the API sends, all ``HippographError``s.

A GraphQL error's ``extensions.code`` and an HTTP refusal's JSON ``code`` map to the same class,
so callers catch what happened (``NotFound``, ``Forbidden``) whichever way the server said it.
"""

from __future__ import annotations

from typing import Any

from hippograph.kernel.errors import ErrorCode, HippographError


class ApiError(HippographError):
    """An error the server answered with. ``status`` is the HTTP status; ``path`` the GraphQL
    path of the field that failed, when there is one."""

    def __init__(
        self, code: str, message: str, *, status: int = 200, path: list[Any] | None = None, **details: Any
    ) -> None:
        super().__init__(code, message, **details)  # type: ignore[arg-type]  # a newer server may send a new code
        self.status = status
        self.path = path

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


class BadInput(ApiError):
    """The request was malformed or a value out of range; nothing was written."""


class NotFound(ApiError):
    pass


class VersionConflict(ApiError):
    pass


class ConfirmationRequired(ApiError):
    """A forget above the threshold needs its preview's token."""


class EpisodeImmutable(ApiError):
    pass


class LimitExceeded(ApiError):
    """Over a budget or a rate; ``retry_after`` says how many seconds to wait when the server did."""

    @property
    def retry_after(self) -> float | None:
        value = self.details.get("retry_after")
        return float(value) if value is not None else None


class Unauthenticated(ApiError):
    pass


class Forbidden(ApiError):
    pass


class StoreUnavailable(ApiError):
    pass


class InternalError(ApiError):
    """A failure of the server's; ``details["requestId"]`` finds it in the server's log."""


class Unreachable(HippographError):
    """No answer: the server could not be reached, or did not answer in time."""

    def __init__(self, message: str) -> None:
        super().__init__("UNREACHABLE", message)  # type: ignore[arg-type]

    def __str__(self) -> str:
        return f"{self.code}: {self.message}"


_BY_CODE: dict[str, type[ApiError]] = {
    ErrorCode.BAD_INPUT: BadInput,
    ErrorCode.NOT_FOUND: NotFound,
    ErrorCode.VERSION_CONFLICT: VersionConflict,
    ErrorCode.CONFIRMATION_REQUIRED: ConfirmationRequired,
    ErrorCode.EPISODE_IMMUTABLE: EpisodeImmutable,
    ErrorCode.LIMIT_EXCEEDED: LimitExceeded,
    ErrorCode.UNAUTHENTICATED: Unauthenticated,
    ErrorCode.FORBIDDEN: Forbidden,
    ErrorCode.STORE_UNAVAILABLE: StoreUnavailable,
    ErrorCode.INTERNAL: InternalError,
}


def api_error(code: str, message: str, **details: Any) -> ApiError:
    """The exception for ``code``; an unknown code (a newer server's) is a plain ``ApiError``."""
    return _BY_CODE.get(code, ApiError)(code, message, **details)
