"""The lines' routes."""

from smriti.core.routes import Routes
from smriti.lines.controller import LineController

ROUTES = Routes(v4=(LineController,))
