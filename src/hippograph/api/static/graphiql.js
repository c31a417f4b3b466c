// GraphiQL over this server's /graphql, with the tab's API key (key.js) unless the Headers tab
// names its own Authorization. Headers are never persisted: GraphiQL keeps queries in
// localStorage, and a key must not end up there.
import { authHeaders, keyForm } from "./key.js";

const url = new URL("/graphql", window.location.href);
const subscriptionUrl = new URL(url);
subscriptionUrl.protocol = url.protocol === "https:" ? "wss:" : "ws:";

function withKey(input, init = {}) {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(authHeaders())) {
    if (!headers.has(name)) headers.set(name, value);
  }
  return window.fetch(input, { ...init, headers });
}

const fetcher = GraphiQL.createFetcher({
  url: url.pathname,
  subscriptionUrl: subscriptionUrl.href,
  fetch: withKey,
  // graphql-ws calls this at each connection: the key goes in connection_init's payload.
  wsConnectionParams: () => authHeaders(),
});

const EXAMPLE = `# Hippograph. Ctrl-Enter runs the query; the book icon on the left opens the schema docs.
# With API keys, put yours in the key field above (or in the Headers tab).
query Status {
  status { backend version raw consolidated failed lagSeconds }
}
`;

// The schema is fetched again when the key changes: a reload keeps GraphiQL's tabs (localStorage).
keyForm(document.getElementById("key-form"), () => window.location.reload());

ReactDOM.createRoot(document.getElementById("graphiql")).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultQuery: EXAMPLE,
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: true,
  }),
);
