"""The GraphQL API over HTTP and WebSocket; holds no Cypher and calls only service functions."""
