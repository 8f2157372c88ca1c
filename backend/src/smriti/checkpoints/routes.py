"""The Checkpoints' routes: the log, HEAD, commit and verify (v4); diff, apply and restore (v5)."""

from smriti.checkpoints.controller import CheckpointController
from smriti.checkpoints.controller_v5 import apply_changes_handler, diff_checkpoints_handler, restore_checkpoint
from smriti.core.routes import Routes

ROUTES = Routes(v4=(CheckpointController,), v5=(diff_checkpoints_handler, apply_changes_handler, restore_checkpoint))
