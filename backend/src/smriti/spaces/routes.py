"""The Spaces' routes."""

from smriti.core.routes import Routes
from smriti.spaces.controller import SpaceController

ROUTES = Routes(v4=(SpaceController,))
