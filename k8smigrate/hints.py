"""What to do instead, for APIs that were removed without a mechanical replacement.

The engine appends these hints to its lifecycle findings (K8SM-GEN-007 "removed",
K8SM-GEN-008 "deprecated", K8SM-GEN-009 "replacement unavailable") so that a document no
migration can rewrite still says what a human should do with it. Keyed on
``(apiVersion, kind)``, like the removal table.
"""

from __future__ import annotations

_PSP = (
    "Instead, enforce Pod Security Admission with the namespace label "
    "pod-security.kubernetes.io/enforce=privileged|baseline|restricted (and audit=/warn=) or use a "
    "policy webhook, then delete this PodSecurityPolicy by hand; field by field: k8smigrate explain podsecuritypolicy"
)

HINTS: dict[tuple[str, str], str] = {
    ("extensions/v1beta1", "PodSecurityPolicy"): _PSP,
    ("policy/v1beta1", "PodSecurityPolicy"): _PSP,
}


def hint(api_version: str, kind: str) -> str:
    """``". <hint>"`` for an (apiVersion, kind) that has one, else ``""``."""
    text = HINTS.get((api_version, kind))
    return f". {text}" if text else ""
