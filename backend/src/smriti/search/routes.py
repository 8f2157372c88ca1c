"""The search route."""

from smriti.core.routes import Routes
from smriti.search.controller import SearchController

ROUTES = Routes(v5=(SearchController,))
