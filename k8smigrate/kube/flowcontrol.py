"""API Priority and Fairness shapes shared by the ``flowcontrol.apiserver.k8s.io`` steps."""

from __future__ import annotations

from k8smigrate.codes import Code

DEFAULT_SHARES = 30
"""The concurrency shares a priority level got when its value was 0 (v1beta2/v1beta3 defaulting)."""

ZERO_SHARES = Code("K8SM-FC-001", "info", "a concurrency-shares value of 0 (meaning the default 30) written as 30")
