// The TypeScript client against a real server: typed operations round-trip, errors arrive as
// exceptions carrying the API's code, and memoryEvents streams over graphql-ws.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import WebSocket from "ws";

import {
  BadInput,
  ConfirmationRequired,
  Forbidden,
  Hippograph,
  HippographError,
  NotFound,
  Unauthenticated,
  Unreachable,
} from "../dist/index.js";
import { startServer } from "./server.mjs";

let server;
const namespace = () => `ts-${randomUUID().slice(0, 8)}`;
const client = (options = {}) => new Hippograph({ url: server.url, key: server.key, webSocketImpl: WebSocket, ...options });

before(async () => {
  server = await startServer();
});

after(async () => {
  await server?.stop();
});

test("a conversation captured as messages is recalled, one episode per message with its speaker", async () => {
  const memory = client({ namespace: namespace() });
  const results = await memory.captureMessages(
    [
      { role: "user", content: "I adopted a dog named Rex last week.", name: "Melanie", at: "2024-03-01T10:00:00Z" },
      { role: "assistant", content: "Congratulations on adopting Rex!" },
    ],
    { session: "chat-1", agent: "helper" },
  );
  assert.deepEqual(results.map((r) => r.status), ["CREATED", "CREATED"]);
  const { memory: first } = await memory.api.Memory({ id: results[0].id, namespace: memory["namespace"] });
  assert.equal(first.__typename, "Episode");
  assert.equal(first.agent, "Melanie");
  assert.equal(first.occurredAt, "2024-03-01T10:00:00Z");
  const recalled = await memory.recall("Who is Rex?", { limit: 5 });
  assert.match(recalled.context, /adopted a dog named Rex/);
  assert.ok(recalled.hits.some((hit) => hit.memory.id === results[0].id));
  const again = await memory.capture({ content: "I adopted a dog named Rex last week.", agent: "Melanie", session: "chat-1" });
  assert.equal(again.status, "DUPLICATE");
});

test("errors are typed exceptions carrying the code", async () => {
  const memory = client({ namespace: namespace() });
  await assert.rejects(memory.api.Memory({ id: "01J00000000000000000000000" }), (error) => {
    assert.ok(error instanceof NotFound && error instanceof HippographError);
    assert.equal(error.code, "NOT_FOUND");
    return true;
  });
  await assert.rejects(memory.recall("anything", { limit: 0 }), BadInput);
  await assert.rejects(memory.captureMessages([{ role: "system", content: "You are terse." }]), Forbidden);
  await assert.rejects(client({ key: "hgk_not-a-key" }).recall("anything"), Unauthenticated);
  await assert.rejects(new Hippograph({ url: "http://127.0.0.1:9" }).recall("anything"), Unreachable);
});

test("resetNamespace previews, then only its token deletes", async () => {
  const name = namespace();
  const memory = client({ namespace: name });
  await memory.capture({ content: "The boiler was serviced in May." });
  const preview = await memory.resetNamespacePreview(name);
  assert.ok(preview.token);
  assert.ok(preview.counts.some((c) => c.label === "Episode" && c.count === 1));
  await assert.rejects(memory.resetNamespaceExecute(name, "start over", "0." + "0".repeat(64)), ConfirmationRequired);
  const done = await memory.resetNamespaceExecute(name, "start over", preview.token);
  assert.equal(done.mode, "EXECUTE");
  const { memories } = await memory.api.Memories({ namespace: name });
  assert.deepEqual(memories.edges, []);
});

test("memoryEvents streams what happens in a namespace over graphql-ws", async () => {
  const memory = client({ namespace: namespace() });
  const events = memory.memoryEvents({ kinds: ["CREATED"] });
  const first = events.next();
  // The subscription is live once the server has it; capture until its event arrives.
  let captured;
  for (let attempt = 0; attempt < 50 && !captured; attempt++) {
    const result = await memory.capture({ content: `Note ${attempt}: the gate code changed.` });
    const winner = await Promise.race([first, new Promise((done) => setTimeout(() => done(null), 200))]);
    if (winner) captured = { result, event: winner.value };
  }
  assert.ok(captured, "no event arrived");
  assert.equal(captured.event.kind, "CREATED");
  assert.equal(captured.event.namespace, memory["namespace"]);
  await events.return();
  await memory.close();
});

test("a subscription with a bad key fails as Unauthenticated", async () => {
  const memory = client({ key: "hgk_not-a-key", namespace: namespace() });
  await assert.rejects(memory.memoryEvents().next(), Unauthenticated);
  await memory.close();
});
