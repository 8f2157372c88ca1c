"""The merges' routes: the preview and its review (v5). The merge Checkpoint itself is a commit (v4)."""

from smriti.core.routes import Routes
from smriti.merges.controller import preview_merge, review_merge

ROUTES = Routes(v5=(preview_merge, review_merge))
