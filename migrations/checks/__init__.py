"""Readiness checks: one module per check of what breaks at the target inside served APIs, found automatically."""
