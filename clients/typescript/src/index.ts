/**
 * Hippograph's GraphQL API from TypeScript: every operation of `graphql/client/` typed from the
 * schema (`client.api.Recall(...)`), a few shorthands, and `memoryEvents` over graphql-ws.
 *
 *     const memory = new Hippograph({ url: "http://127.0.0.1:8420", key, namespace: "demo" });
 *     await memory.captureMessages([{ role: "user", content: "I adopted a dog named Rex.", name: "Melanie" }]);
 *     const { context } = await memory.recall("Who is Rex?");
 *
 * Errors are `HippographError`s carrying the API's code (`NotFound`, `Forbidden`, ...).
 */

import { createClient, type Client as SocketClient } from "graphql-ws/client";

import { HippographError, Unreachable, apiError, type GraphQLErrorBody } from "./errors.js";
import {
  getSdk,
  type CaptureInput,
  type CaptureMutation,
  type MemoryEventKind,
  type MemoryEventsSubscription,
  type MessageInput,
  type RecallInput,
  type RecallQuery,
  type ResetNamespaceMutation,
  type Sdk,
} from "./generated.js";

export * from "./errors.js";
export type * from "./generated.js";

export interface HippographOptions {
  /** The server, e.g. http://127.0.0.1:8420 (the default). */
  url?: string;
  /** An API key's secret, sent as a Bearer token (and in a WebSocket's connection_init). */
  key?: string;
  /** Used by the shorthands when given none; a key for one namespace needs none. */
  namespace?: string;
  /** Defaults to the global fetch (Node 18+, browsers). */
  fetch?: typeof fetch;
  /** A WebSocket class where there is no global one (Node < 22: the `ws` package). */
  webSocketImpl?: unknown;
}

export type Message = MessageInput;
export type CaptureResult = CaptureMutation["capture"];
export type MemoryEvent = MemoryEventsSubscription["memoryEvents"];
export type RecallResult = RecallQuery["recall"];
export type ResetNamespaceResult = ResetNamespaceMutation["resetNamespace"];

interface GraphQLBody {
  data?: Record<string, unknown> | null;
  errors?: GraphQLErrorBody[];
}

export class Hippograph {
  /** Every operation of graphql/client/, typed: `await client.api.Memory({ id })`. */
  readonly api: Sdk;
  private readonly url: string;
  private readonly key?: string;
  private readonly namespace?: string;
  private readonly fetch: typeof fetch;
  private readonly webSocketImpl?: unknown;
  private socket?: SocketClient;

  constructor(options: HippographOptions = {}) {
    this.url = (options.url ?? "http://127.0.0.1:8420").replace(/\/+$/, "");
    this.key = options.key;
    this.namespace = options.namespace;
    this.fetch = options.fetch ?? globalThis.fetch.bind(globalThis);
    this.webSocketImpl = options.webSocketImpl;
    this.api = getSdk(<R, V>(document: string, variables?: V) => {
      const text = String(document); // a TypedDocumentString
      const given = variables as Record<string, unknown> | undefined;
      return text.trimStart().startsWith("subscription") ? this.subscribe<R>(text, given) : this.request<R>(text, given);
    });
  }

  /** Run any GraphQL query or mutation; its `data`, or the error its first GraphQL error calls for. */
  async request<R>(query: string, variables: Record<string, unknown> = {}): Promise<R> {
    let response: Response;
    try {
      response = await this.fetch(`${this.url}/graphql`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...this.authorization() },
        body: JSON.stringify({ query, variables }),
      });
    } catch (error) {
      throw new Unreachable("UNREACHABLE", `${this.url}/graphql: ${String(error)}`);
    }
    const body = (await response.json().catch(() => null)) as GraphQLBody | null;
    if (body === null || typeof body !== "object") {
      throw apiError({ message: `HTTP ${response.status} without a GraphQL body` }, response.status);
    }
    if (body.errors?.length) {
      const error = apiError(body.errors[0], response.status);
      const retryAfter = response.headers.get("retry-after");
      if (retryAfter !== null && error.details.retry_after === undefined) error.details.retry_after = retryAfter;
      throw error;
    }
    if (!response.ok || !body.data) throw apiError({ message: `HTTP ${response.status} without data` }, response.status);
    return body.data as R;
  }

  /** Run a subscription over graphql-ws; iterate it, and `return()` (or break) to end it. */
  subscribe<R>(query: string, variables: Record<string, unknown> = {}): AsyncIterableIterator<R> {
    const events = this.sockets().iterate<R>({ query, variables });
    return mapped(events, (result) => {
      const { data, errors } = result as { data?: R; errors?: GraphQLErrorBody[] };
      if (errors?.length) throw apiError(errors[0]);
      return data as R;
    });
  }

  // Shorthands for what agents and frontends do most; `api` has every operation.

  async capture(input: CaptureInput): Promise<CaptureResult> {
    const { capture } = await this.api.Capture({ input: { ...input, namespace: input.namespace ?? this.namespace } });
    return capture;
  }

  /** A conversation as chat APIs hold it, one episode per message in order, all or none. */
  async captureMessages(
    messages: Message[],
    options: { session?: string; agent?: string; namespace?: string } = {},
  ): Promise<CaptureResult[]> {
    const { captureMessages } = await this.api.CaptureMessages({
      messages,
      session: options.session,
      agent: options.agent,
      namespace: options.namespace ?? this.namespace,
    });
    return captureMessages;
  }

  /** The memories relevant to `query`; `.context` is them as a bundle to put in a prompt. */
  async recall(query: string, options: Omit<RecallInput, "query"> = {}): Promise<RecallResult> {
    const input = { ...options, query, namespace: options.namespace ?? this.namespace };
    return (await this.api.Recall({ input })).recall;
  }

  /** Memory events as they happen (created, superseded, forgotten, ...) in one namespace. */
  memoryEvents(options: { namespace?: string; kinds?: MemoryEventKind[] } = {}): AsyncIterableIterator<MemoryEvent> {
    const variables = { namespace: options.namespace ?? this.namespace, kinds: options.kinds };
    const events = this.api.MemoryEvents(variables) as AsyncIterableIterator<MemoryEventsSubscription>;
    return mapped(events, (result) => result.memoryEvents);
  }

  /** What a reset would delete, and the token that confirms it (admin). */
  async resetNamespacePreview(namespace: string): Promise<ResetNamespaceResult> {
    return (await this.api.ResetNamespace({ namespace, mode: "PREVIEW" })).resetNamespace;
  }

  /** Irreversibly delete everything of `namespace`, confirmed by a preview's token (admin). */
  async resetNamespaceExecute(namespace: string, reason: string, token: string): Promise<ResetNamespaceResult> {
    return (await this.api.ResetNamespace({ namespace, mode: "EXECUTE", reason, token })).resetNamespace;
  }

  /** Close the WebSocket, if a subscription opened one. */
  async close(): Promise<void> {
    await this.socket?.dispose();
    this.socket = undefined;
  }

  private authorization(): Record<string, string> {
    return this.key ? { Authorization: `Bearer ${this.key}` } : {};
  }

  private sockets(): SocketClient {
    this.socket ??= createClient({
      url: `${this.url.replace(/^http/, "ws")}/graphql`,
      connectionParams: () => this.authorization(),
      webSocketImpl: this.webSocketImpl,
      lazy: true,
    });
    return this.socket;
  }
}

/** Each value of `source` through `map`; its failures (a socket's close events too) as HippographErrors. */
function mapped<T, U>(source: AsyncIterator<T>, map: (value: T) => U): AsyncIterableIterator<U> {
  return {
    async next(): Promise<IteratorResult<U>> {
      try {
        const result = await source.next();
        return result.done ? { done: true, value: undefined } : { done: false, value: map(result.value) };
      } catch (error) {
        throw socketError(error);
      }
    },
    async return(): Promise<IteratorResult<U>> {
      await source.return?.();
      return { done: true, value: undefined };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

function socketError(error: unknown): HippographError {
  if (error instanceof HippographError) return error;
  if (Array.isArray(error) && error.length) return apiError(error[0] as GraphQLErrorBody);
  // A close event: 4401 is the server's "no valid key".
  const event = error as { code?: number; reason?: string };
  if (event?.code === 4401) return apiError({ message: event.reason ?? "Unauthorized", extensions: { code: "UNAUTHENTICATED" } });
  return new Unreachable("UNREACHABLE", `the WebSocket closed: ${event?.code ?? ""} ${event?.reason ?? String(error)}`);
}
