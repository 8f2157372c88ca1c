"""Rule-based understanding of text: what drafting, review and transcripts do without a model.

`words` holds the text helpers (sentences, content words, when a decision answers a question);
`extract` the deterministic Checkpoint extraction. Nothing here knows a provider, a store or
HTTP: plain functions over text, so each feature can call them directly.
"""
