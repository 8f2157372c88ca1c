"""The event log's routes (v5)."""

from smriti.core.routes import Routes
from smriti.events.controller import EventController

ROUTES = Routes(v5=(EventController,))
