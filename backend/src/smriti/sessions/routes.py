"""The Sessions' routes: Sessions and their Turns (v4); fork (v5)."""

from smriti.core.routes import Routes
from smriti.sessions.controller import SessionController
from smriti.sessions.controller_v5 import fork_session

ROUTES = Routes(v4=(SessionController,), v5=(fork_session,))
