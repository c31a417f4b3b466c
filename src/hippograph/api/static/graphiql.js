// GraphiQL over this server's /graphql with the tab's API key (key.js). Headers are never
// persisted: GraphiQL keeps queries in localStorage, and a key must not end up there.
import { authHeaders, keyForm } from "./key.js";

const url = new URL("/graphql", window.location.href);
const subscriptionUrl = new URL(url);
subscriptionUrl.protocol = url.protocol === "https:" ? "wss:" : "ws:";

// The page reloads when the key changes, so the fetcher is built with the current one. A header
// of the same name in the Headers tab wins over it; over WebSocket the key goes in connection_init.
const fetcher = GraphiQL.createFetcher({
  url: url.pathname,
  subscriptionUrl: subscriptionUrl.href,
  headers: authHeaders(),
  wsConnectionParams: authHeaders(),
});

const EXAMPLE = `# Hippograph. Ctrl-Enter runs the query; the book icon on the left opens the schema docs.
# With API keys, put yours in the key field above (or in the Headers tab).
query Status {
  status { backend version raw consolidated failed lagSeconds }
}
`;

// A reload fetches the schema again with the new key and keeps GraphiQL's tabs (localStorage).
keyForm(document.getElementById("key-form"), () => window.location.reload());

ReactDOM.createRoot(document.getElementById("graphiql")).render(
  React.createElement(GraphiQL, {
    fetcher,
    defaultQuery: EXAMPLE,
    shouldPersistHeaders: false,
    defaultEditorToolsVisibility: true,
  }),
);
