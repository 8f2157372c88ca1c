"""The client side: one typed client over the REST API, the CLI commands and the MCP tools.

Agents read structured state (HEAD, a Checkpoint, the log) and write it (a commit); they never
drive the live chat. Every CLI command and every MCP tool goes through `api.SmritiClient`. This
package talks to a server only over HTTP: it imports the API's shapes and the pure helpers
beside them (`*.schemas`, `checkpoints.diff`, `checkpoints.text`) and the parts of `core` that
need no web framework, never the server's stores, database or Litestar (an import contract in
backend/pyproject.toml holds it to that).
"""
