/**
 * Errors the client throws: one class per code the API sends, all `HippographError`s, as in the
 * Python client. A GraphQL error's `extensions.code` and an HTTP refusal's code map to the same
 * class, so callers catch what happened whichever way the server said it.
 */

export type ErrorCode =
  | "BAD_INPUT"
  | "NOT_FOUND"
  | "VERSION_CONFLICT"
  | "CONFIRMATION_REQUIRED"
  | "EPISODE_IMMUTABLE"
  | "LIMIT_EXCEEDED"
  | "UNAUTHENTICATED"
  | "FORBIDDEN"
  | "STORE_UNAVAILABLE"
  | "INTERNAL"
  | "UNREACHABLE";

export class HippographError extends Error {
  /** `status`: the HTTP status (200 for a GraphQL error); `details`: the rest of `extensions`. */
  constructor(
    readonly code: ErrorCode | string,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly status = 200,
    readonly path?: ReadonlyArray<string | number>,
  ) {
    super(`${code}: ${message}`);
    this.name = new.target.name;
  }
}

export class BadInput extends HippographError {}
export class NotFound extends HippographError {}
export class VersionConflict extends HippographError {}
export class ConfirmationRequired extends HippographError {}
export class EpisodeImmutable extends HippographError {}
export class Unauthenticated extends HippographError {}
export class Forbidden extends HippographError {}
export class StoreUnavailable extends HippographError {}
/** `details.requestId` finds it in the server's log. */
export class InternalError extends HippographError {}
/** No answer: the server could not be reached. */
export class Unreachable extends HippographError {}

export class LimitExceeded extends HippographError {
  /** Seconds to wait before sending again, when the server said. */
  get retryAfter(): number | undefined {
    const value = this.details.retry_after ?? this.details.retryAfter;
    return value === undefined ? undefined : Number(value);
  }
}

type ErrorClass = new (
  code: string,
  message: string,
  details?: Record<string, unknown>,
  status?: number,
  path?: ReadonlyArray<string | number>,
) => HippographError;

const BY_CODE: Record<string, ErrorClass> = {
  BAD_INPUT: BadInput,
  NOT_FOUND: NotFound,
  VERSION_CONFLICT: VersionConflict,
  CONFIRMATION_REQUIRED: ConfirmationRequired,
  EPISODE_IMMUTABLE: EpisodeImmutable,
  LIMIT_EXCEEDED: LimitExceeded,
  UNAUTHENTICATED: Unauthenticated,
  FORBIDDEN: Forbidden,
  STORE_UNAVAILABLE: StoreUnavailable,
  INTERNAL: InternalError,
};

export interface GraphQLErrorBody {
  message?: string;
  path?: ReadonlyArray<string | number>;
  extensions?: Record<string, unknown>;
}

/** The exception for one GraphQL error; an unknown code (a newer server's) is a plain HippographError. */
export function apiError(error: GraphQLErrorBody, status = 200): HippographError {
  const { code = "INTERNAL", ...details } = error.extensions ?? {};
  const Class = BY_CODE[String(code)] ?? HippographError;
  return new Class(String(code), error.message ?? "no message", details, status, error.path);
}
