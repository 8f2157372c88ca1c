"""Webhooks' routes."""

from smriti.core.routes import Routes
from smriti.webhooks.controller import WebhookController

ROUTES = Routes(v5=(WebhookController,))
