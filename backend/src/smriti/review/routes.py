"""Review's routes."""

from smriti.core.routes import Routes
from smriti.review.controller import review_checkpoint

ROUTES = Routes(v5=(review_checkpoint,))
