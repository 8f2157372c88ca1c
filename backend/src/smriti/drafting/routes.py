"""Drafting's routes."""

from smriti.core.routes import Routes
from smriti.drafting.controller import draft_checkpoint

ROUTES = Routes(v5=(draft_checkpoint,))
