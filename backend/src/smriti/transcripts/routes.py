"""The transcripts' routes."""

from smriti.core.routes import Routes
from smriti.transcripts.controller import import_conversations, ingest_transcript

ROUTES = Routes(v1=(ingest_transcript,), v5=(import_conversations,))
