"""RuntimeClass ``node.k8s.io/v1beta1`` → ``node.k8s.io/v1``.

Only ``apiVersion`` changes: ``handler``, ``overhead.podFixed`` and
``scheduling.{nodeSelector, tolerations}`` are the same in both versions and neither
defaults them (``k8s.io/api: node/{v1beta1,v1}/types.go``). For ``v1alpha1`` see
``node_v1alpha1``.
"""

from __future__ import annotations

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("RuntimeClass",),
    from_api="node.k8s.io/v1beta1",
    to_api="node.k8s.io/v1",
    available_in="1.20",
    summary="RuntimeClass node.k8s.io/v1beta1 → v1: apiVersion only",
)
