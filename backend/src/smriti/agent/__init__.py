"""The agent-facing surfaces: one typed client over the REST API, the CLI commands and the MCP server.

Agents read structured state (HEAD, a Checkpoint, the log) and write it (a commit); they never
drive the live chat. Every CLI command and every MCP tool goes through `client.SmritiClient`.
"""
