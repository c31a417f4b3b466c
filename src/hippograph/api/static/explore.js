// The graph explorer: every view is a GraphQL query to this server's /graphql. What is on screen
// (namespace, entity or concept, date, hops) lives in the URL's fragment, so Back undoes a followed edge; the
// API key never does (key.js).
import { authHeaders, currentKey, keyForm } from "./key.js";

const SEARCH = `query Search($namespace: String, $search: String) {
  namespaces { name episodes }
  entities(namespace: $namespace, search: $search, first: 30) { edges { node { id name type mentionCount } } }
  concepts(namespace: $namespace, search: $search, first: 30) { edges { node { id name memoryCount } } }
}`;
const ABOUT = "concepts { id name }";
const EPISODE = `id content agent session occurredAt ${ABOUT}`;
const FACT = `id statement kind status confidence validFrom validTo recordedAt expiredAt ${ABOUT} supportedBy { ${EPISODE} }`;
const CONCEPT = `query Concept($namespace: String, $id: ID!, $asOf: DateTime) {
  concept(namespace: $namespace, id: $id) { id name episodeCount memoryCount }
  conceptMemories(namespace: $namespace, conceptId: $id, asOf: $asOf, first: 100) {
    edges { node { __typename ... on Episode { ${EPISODE} } ... on Fact { ${FACT} } } }
  }
}`;
const ENTITY = `query Entity($namespace: String, $id: ID!, $depth: Int, $asOf: DateTime) {
  entity(namespace: $namespace, id: $id) { id name type aliases mentionCount firstSeenAt lastSeenAt mergedInto }
  neighborhood(namespace: $namespace, entityId: $id, depth: $depth, asOf: $asOf) {
    nodes { id name type }
    edges { type source target validFrom validTo recordedAt expiredAt count fact confidence support lastSupport strength inverse }
  }
  timeline(namespace: $namespace, entityId: $id) { fact { ${FACT} } supersedes supersededBy contradicts }
}`;
const NAMESPACES = "query Namespaces { namespaces { name episodes } }";
const EDGE_FACT = `query EdgeFact($namespace: String, $id: ID!) { memory(namespace: $namespace, id: $id) { ... on Fact { ${FACT} } } }`;

const $ = (id) => document.getElementById(id);
const graph = cytoscape({
  container: $("graph"),
  minZoom: 0.2,
  maxZoom: 1.5,
  style: [
    { selector: "node", style: { label: "data(name)", "font-size": 11, "background-color": "data(color)",
      "text-valign": "bottom", "text-margin-y": 3, width: 18, height: 18 } },
    { selector: "node.concept", style: { shape: "round-rectangle", "background-color": "#a78bfa" } },
    { selector: "node.centre", style: { width: 30, height: 30, "font-weight": "bold", "border-width": 3, "border-color": "#111" } },
    { selector: "edge", style: { width: 1.5, "line-color": "#9ca3af", "curve-style": "bezier", "target-arrow-shape": "triangle",
      "target-arrow-color": "#9ca3af", label: "data(label)", "font-size": 9, "text-rotation": "autorotate", color: "#374151" } },
    { selector: "edge.cooccurs", style: { "line-style": "dashed", "target-arrow-shape": "none", width: 1, "line-color": "#d1d5db" } },
    { selector: "edge:selected", style: { "line-color": "#dc2626", "target-arrow-color": "#dc2626", width: 3 } },
  ],
});
// Tests and the console read the graph from here; nothing else uses it.
window.explorer = { graph };

const COLOURS = { person: "#2a6f97", place: "#e07a5f", organization: "#81b29a", product: "#f2cc8f", agent: "#6d597a" };
const colour = (type) => COLOURS[type] || "#8d99ae";

function state() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  return {
    // null: the key's own namespace, or "default" for a key for every one.
    namespace: params.get("ns") || $("namespace").value.trim() || null,
    entity: params.get("entity"),
    concept: params.get("concept"),
    asOf: params.get("asOf") || "",
    depth: params.get("depth") || "1",
  };
}

function go(changes) {
  const next = { ...state(), ...changes };
  const params = new URLSearchParams({ ns: next.namespace ?? "", asOf: next.asOf, depth: next.depth });
  // One of the two is on screen: choosing an entity leaves the concept, and the other way round.
  if (next.entity && !changes.concept) params.set("entity", next.entity);
  else if (next.concept) params.set("concept", next.concept);
  window.location.hash = params.toString();
}

async function graphql(query, variables) {
  const response = await fetch("/graphql", {
    method: "POST",
    headers: { "Content-Type": "application/json", ...authHeaders() },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response.json().catch(() => ({}));
  const error = (body.errors || [])[0];
  if (error) {
    const code = error.extensions?.code;
    const hint = code === "UNAUTHENTICATED" ? " Put an API key in the key field." : "";
    throw new Error(`${code || response.status}: ${error.message}.${hint}`);
  }
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  // e.g. UNKNOWN_NAMESPACE: the namespace asked for holds nothing (a typo, most often).
  lastWarnings = body.extensions?.warnings || [];
  return body.data;
}
let lastWarnings = [];

function say(text) {
  $("message").textContent = text;
  $("message").hidden = !text;
}

// Elements are built with textContent only: stored memories are never parsed as HTML.
function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === "onclick") node.addEventListener("click", value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else node[name] = value;
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

const day = (instant) => (instant ? instant.slice(0, 10) : "…");
const interval = (from, to) => `${from ? day(from) : "always"} – ${to ? day(to) : "now"}`;
function asOfInstant(asOf) {
  return asOf ? `${asOf}T00:00:00Z` : null;
}
function heldAt(from, to, instant) {
  const at = instant ? Date.parse(instant) : Date.now();
  return (!from || Date.parse(from) <= at) && (!to || Date.parse(to) > at);
}

async function search(event) {
  event.preventDefault();
  const namespace = $("namespace").value.trim() || null;
  const text = $("search").value.trim();
  try {
    const data = await graphql(SEARCH, { namespace, search: text || null });
    offer(data.namespaces);
    // No namespace named, and none of the key's (or "default") holds anything: open one that does.
    const chosen = namespace === null && !data.entities.edges.length && choose(data.namespaces);
    if (chosen && chosen.episodes > 0) {
      $("namespace").value = chosen.name;
      return search(event);
    }
    const found = data.entities.edges.map((edge) => edge.node);
    const concepts = data.concepts.edges.map((edge) => edge.node);
    $("entity-list").replaceChildren(
      ...found.map((entity) =>
        el("li", {}, el("button", { type: "button", className: "entity", dataset: { id: entity.id },
          onclick: () => go({ namespace, entity: entity.id, concept: null }) },
          `${entity.name}`, el("small", {}, ` ${entity.type} · ${entity.mentionCount}`))),
      ),
    );
    $("concept-list").replaceChildren(
      ...concepts.map((concept) =>
        el("li", {}, el("button", { type: "button", className: "entity concept", dataset: { id: concept.id },
          onclick: () => go({ namespace, concept: concept.id }) },
          `${concept.name}`, el("small", {}, ` ${concept.memoryCount}`))),
      ),
    );
    const none = lastWarnings.map((warning) => warning.message).join(" ") ||
      `No entity or concept matches “${text}” in ${namespace ?? "the key's namespace"}.`;
    say(found.length || concepts.length ? "" : none);
    if (found.length && !state().entity && !state().concept) go({ namespace, entity: found[0].id });
  } catch (error) {
    say(error.message);
  }
}

function drawGraph(centre, hood) {
  const ids = new Set(hood.nodes.map((node) => node.id));
  graph.elements().remove();
  graph.add(hood.nodes.map((node) => ({ group: "nodes", data: { id: node.id, name: node.name, color: colour(node.type) } })));
  graph.add(
    hood.edges
      .filter((edge) => ids.has(edge.source) && ids.has(edge.target))
      .map((edge, index) => ({
        group: "edges",
        data: { id: `e${index}`, source: edge.source, target: edge.target, index,
          label: edge.type === "CO_OCCURS" ? "" : edge.type },
        classes: edge.type === "CO_OCCURS" ? "cooccurs" : "",
      })),
  );
  const root = graph.getElementById(centre);
  root.addClass("centre");
  const hops = {};
  graph.elements().bfs({ root, visit: (node, edge, previous, index, depth) => { hops[node.id()] = depth; } });
  graph.layout({ name: "concentric", concentric: (node) => 10 - (hops[node.id()] ?? 9), levelWidth: () => 1,
    minNodeSpacing: 40, animate: false }).run();
}

// What a memory is about: its concepts, each a link to the memories that meet there.
function aboutLine(memory) {
  if (!memory.concepts?.length) return null;
  return el("div", { className: "about" }, "about ", ...memory.concepts.map((concept) =>
    el("button", { type: "button", className: "concept-link", dataset: { id: concept.id },
      onclick: () => go({ concept: concept.id }) }, concept.name)));
}

function episodeView(episode) {
  return el("li", { className: "episode", dataset: { id: episode.id } },
    el("small", {}, `${episode.occurredAt.replace("T", " ").slice(0, 16)} · ${episode.agent}` +
      (episode.session ? ` · ${episode.session}` : "")),
    el("div", {}, episode.content),
    aboutLine(episode));
}

function episodeList(episodes) {
  return el("ul", { className: "episodes" }, ...episodes.map(episodeView));
}

function factView(fact, instant, links = null) {
  const holds = heldAt(fact.validFrom, fact.validTo, instant) && !fact.expiredAt;
  return el("li", { className: `fact ${holds ? "holds" : "held-not"}`, dataset: { id: fact.id, holds: String(holds) } },
    el("div", { className: "statement" }, fact.statement),
    el("div", { className: "validity" },
      el("span", { className: "interval" }, `valid ${interval(fact.validFrom, fact.validTo)}`),
      ` · ${fact.kind} · ${fact.status} · recorded ${day(fact.recordedAt)}`,
      fact.expiredAt ? ` · retracted ${day(fact.expiredAt)}` : null,
      holds ? el("strong", {}, " · holds at this date") : null),
    aboutLine(fact),
    links,
    el("details", { className: "provenance" }, el("summary", {}, `from ${fact.supportedBy.length} episode(s)`),
      episodeList(fact.supportedBy)));
}

// Counts edge clicks, so that a slow answer for an earlier edge does not land under a later one.
let edgeShown = 0;

async function showEdge(edge, names) {
  const box = $("edge-detail");
  const shown = ++edgeShown;
  const cooccurs = edge.type === "CO_OCCURS";
  box.replaceChildren(...[
    el("h3", {}, `${names[edge.source]} ${cooccurs ? "—co-occurs—" : `—${edge.type}→`} ${names[edge.target]}`),
    edge.inverse ? el("p", { className: "inverse" }, `read from ${names[edge.target]}: ${names[edge.target]} —${edge.inverse}→ ${names[edge.source]}`) : null,
    el("p", {}, cooccurs
      ? `named together in ${edge.count} episode(s); a co-occurrence has no validity interval`
      : `valid ${interval(edge.validFrom, edge.validTo)} · recorded ${day(edge.recordedAt)}`),
    cooccurs ? null : el("p", { className: "strength" }, strengthText(edge)),
  ].filter((child) => child !== null));
  box.hidden = false;
  if (!edge.fact) return;
  let answer;
  try {
    const data = await graphql(EDGE_FACT, { namespace: state().namespace, id: edge.fact });
    answer = data.memory?.statement ? el("ol", {}, factView(data.memory, asOfInstant(state().asOf))) : null;
  } catch (error) {
    answer = el("p", {}, error.message);
  }
  if (shown === edgeShown && answer) box.append(answer);
}

// What an edge says of a typed relation's weight: its strength, and what that is made of.
function strengthText(edge) {
  const last = edge.lastSupport ? `, last ${day(edge.lastSupport)}` : "";
  return `strength ${edge.strength.toFixed(2)}: ${edge.support} supporting episode(s)${last}, confidence ${(edge.confidence ?? 0).toFixed(2)}`;
}

function edgeItem(edge, centre, names) {
  const outgoing = edge.source === centre;
  const other = outgoing ? edge.target : edge.source;
  const cooccurs = edge.type === "CO_OCCURS";
  // An edge is stored once; from its target it reads as its inverse (PARENT_OF: CHILD_OF), when it has one.
  const reading = !outgoing && edge.inverse ? edge.inverse : edge.type;
  const label = cooccurs ? `co-occurs ×${edge.count}` : reading;
  return el("li", { className: "edge", dataset: { type: edge.type, reading, other } },
    cooccurs ? `—${label}— ` : outgoing || edge.inverse ? `—${label}→ ` : `←${label}— `,
    el("button", { type: "button", className: "follow", onclick: () => go({ entity: other }) }, names[other] || other),
    cooccurs ? null : el("small", {}, ` ${interval(edge.validFrom, edge.validTo)}`),
    cooccurs ? null : el("small", { className: "strength", title: strengthText(edge) }, ` · strength ${edge.strength.toFixed(2)}`),
    " ",
    el("button", { type: "button", className: "edge-info", onclick: () => showEdge(edge, names) }, "details"));
}

// Counts renders, so that a slow answer for an earlier view does not overwrite a later one.
let rendered = 0;

async function render() {
  const current = state();
  const mine = ++rendered;
  $("namespace").value = current.namespace ?? "";
  $("as-of").value = current.asOf;
  $("depth").value = current.depth;
  if (current.concept) return renderConcept(current, mine);
  if (!current.entity) return;
  const instant = asOfInstant(current.asOf);
  let data;
  try {
    data = await graphql(ENTITY, { namespace: current.namespace, id: current.entity, depth: Number(current.depth), asOf: instant });
  } catch (error) {
    if (mine === rendered) say(error.message);
    return;
  }
  if (mine !== rendered) return;
  say("");
  const { entity, neighborhood: hood, timeline } = data;
  const names = Object.fromEntries(hood.nodes.map((node) => [node.id, node.name]));
  $("edges-heading").textContent = "Edges";
  $("facts-heading").textContent = "Facts";
  $("entity-name").textContent = entity.name;
  $("entity-meta").textContent = [
    entity.type, `${entity.mentionCount} mention(s)`, `seen ${day(entity.firstSeenAt)} – ${day(entity.lastSeenAt)}`,
    entity.aliases.length ? `also ${entity.aliases.join(", ")}` : "", instant ? `as of ${current.asOf}` : "as of now",
  ].filter(Boolean).join(" · ");
  $("edge-detail").hidden = true;
  edgeShown += 1;
  const direct = hood.edges.filter((edge) => edge.source === entity.id || edge.target === entity.id);
  direct.sort((a, b) => (a.type === "CO_OCCURS") - (b.type === "CO_OCCURS") || (b.count || 0) - (a.count || 0));
  $("edge-list").replaceChildren(...direct.map((edge) => edgeItem(edge, entity.id, names)));
  $("fact-list").replaceChildren(...timeline.map((entry) => factView(entry.fact, instant, versionLinks(entry))));
  drawGraph(entity.id, hood);
  graph.off("tap");
  graph.on("tap", "node", (event) => go({ entity: event.target.id() }));
  graph.on("tap", "edge", (event) => showEdge(hood.edges[event.target.data("index")], names));
}

// A concept: the memories that meet at it (as of the date), and around it in the canvas the
// other concepts those memories mention, nearer the more memories they share.
async function renderConcept(current, mine) {
  const instant = asOfInstant(current.asOf);
  let data;
  try {
    data = await graphql(CONCEPT, { namespace: current.namespace, id: current.concept, asOf: instant });
  } catch (error) {
    if (mine === rendered) say(error.message);
    return;
  }
  if (mine !== rendered) return;
  say("");
  const { concept } = data;
  const memories = data.conceptMemories.edges.map((edge) => edge.node);
  $("entity-name").textContent = concept.name;
  $("entity-meta").textContent = [
    "concept", `${concept.episodeCount} episode(s)`, `${concept.memoryCount} memories`,
    instant ? `as of ${current.asOf}` : "as of now",
  ].join(" · ");
  $("edge-detail").hidden = true;
  $("edges-heading").textContent = "";
  $("edge-list").replaceChildren();
  $("facts-heading").textContent = `Memories at this concept (${memories.length})`;
  $("fact-list").replaceChildren(...memories.map((memory) =>
    memory.__typename === "Fact" ? factView(memory, instant) : episodeView(memory)));
  const shared = new Map();
  for (const memory of memories) {
    for (const other of memory.concepts) {
      if (other.id === concept.id) continue;
      const seen = shared.get(other.id) || { ...other, count: 0 };
      shared.set(other.id, { ...seen, count: seen.count + 1 });
    }
  }
  graph.elements().remove();
  graph.add({ group: "nodes", data: { id: concept.id, name: concept.name }, classes: "concept centre" });
  for (const other of shared.values()) {
    graph.add({ group: "nodes", data: { id: other.id, name: other.name }, classes: "concept" });
    graph.add({ group: "edges", data: { source: concept.id, target: other.id, label: other.count > 1 ? `×${other.count}` : "" },
      classes: "cooccurs" });
  }
  graph.layout({ name: "concentric", concentric: (node) => (node.hasClass("centre") ? 2 : 1), levelWidth: () => 1,
    minNodeSpacing: 30, animate: false }).run();
  graph.off("tap");
  graph.on("tap", "node", (event) => go({ concept: event.target.id() }));
}

function versionLinks(entry) {
  const parts = [];
  if (entry.supersedes.length) parts.push(`replaces ${entry.supersedes.length} earlier version(s)`);
  if (entry.supersededBy.length) parts.push("replaced by a later version");
  if (entry.contradicts.length) parts.push(`contradicts ${entry.contradicts.length} fact(s)`);
  return parts.length ? el("div", { className: "versions" }, parts.join(" · ")) : null;
}

$("search-form").addEventListener("submit", search);
$("as-of").addEventListener("change", (event) => go({ asOf: event.target.value }));
$("now").addEventListener("click", () => go({ asOf: "" }));
$("depth").addEventListener("change", (event) => go({ depth: event.target.value }));
// The namespaces this key may use, offered in the namespace field (every search lists them too).
function offer(namespaces) {
  $("namespace-list").replaceChildren(
    ...namespaces.map((ns) => el("option", { value: ns.name, label: `${ns.name} · ${ns.episodes} episode(s)` })),
  );
}

// Where to open: `default` if it holds episodes, else the namespace that holds most.
function choose(namespaces) {
  const held = namespaces.filter((ns) => ns.episodes > 0).sort((a, b) => b.episodes - a.episodes);
  return held.find((ns) => ns.name === "default") || held[0] || namespaces[0];
}

// With a key, the namespaces are listed at once; without one the page sends nothing until asked
// (a server with keys would count the keyless request as a failed authentication).
async function start() {
  if (currentKey()) {
    try {
      const { namespaces } = await graphql(NAMESPACES, {});
      offer(namespaces);
      const chosen = choose(namespaces);
      // Never over what the user typed while the list was on its way.
      const named = new URLSearchParams(window.location.hash.slice(1)).get("ns") || $("namespace").value.trim();
      if (!named && chosen) $("namespace").value = chosen.name;
      if (!namespaces.length) say("No namespace holds memories yet: capture some first, then search here.");
    } catch (error) {
      say(error.message);
    }
  }
  await render();
}

keyForm($("key-form"), start);
window.addEventListener("hashchange", render);
start();
