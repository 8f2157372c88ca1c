"""The transcripts' routes."""

from smriti.core.routes import Routes
from smriti.transcripts.controller import ingest_transcript

ROUTES = Routes(v1=(ingest_transcript,))
