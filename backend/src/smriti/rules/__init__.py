"""Rule-based understanding of text: what drafting, review and transcripts do without a model.

`words` holds the text helpers (sentences, content words and their stems); `questions` says when
a decision answers a question; `extract` is the deterministic Checkpoint extraction, with its cue
phrases in `cues`, its entities in `entities` and its title and summary in `summary`. Nothing here
knows a provider, a store or HTTP: plain functions over text, so each feature can call them
directly.
"""
