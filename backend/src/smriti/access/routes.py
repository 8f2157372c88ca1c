"""Agent keys' routes."""

from smriti.access.controller import AgentController, MeController
from smriti.core.routes import Routes

ROUTES = Routes(v5=(AgentController, MeController))
