"""The providers' routes."""

from smriti.core.routes import Routes
from smriti.providers.controller import list_providers

ROUTES = Routes(v4=(list_providers,))
