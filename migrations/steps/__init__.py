"""API version steps: one module per step (``kinds`` of ``from_api`` → ``to_api``), found automatically."""
