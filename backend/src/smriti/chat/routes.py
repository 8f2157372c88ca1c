"""The chat's routes: send, the context preview, and the context a past reply was answered from."""

from smriti.chat.controller import AnsweredContextController, ChatController
from smriti.core.routes import Routes

ROUTES = Routes(v4=(ChatController, AnsweredContextController))
