"""The client side: one typed client over the REST API, the CLI commands and the MCP tools.

Agents read structured state (HEAD, a Checkpoint, the log) and write it (a commit); they never
drive the live chat. Every CLI command and every MCP tool goes through `api.SmritiClient`. This
package talks to a server only over HTTP: it imports the API's shapes (`*.schemas`) and `core`,
never the server's stores, database or web framework (an import contract holds it to that).
"""
