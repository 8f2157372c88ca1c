"""The proposals' routes (v5)."""

from smriti.core.routes import Routes
from smriti.proposals.controller import ProposalController

ROUTES = Routes(v5=(ProposalController,))
