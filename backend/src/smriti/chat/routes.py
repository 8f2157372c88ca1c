"""The chat's routes: send, context preview and the chat-side commit."""

from smriti.chat.controller import ChatController
from smriti.core.routes import Routes

ROUTES = Routes(v4=(ChatController,))
