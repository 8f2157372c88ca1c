"""The bundles' routes."""

from smriti.bundles.controller import BundleController
from smriti.core.routes import Routes

ROUTES = Routes(v5=(BundleController,))
