"""Kubernetes object shapes that several migrations read or edit.

Not migrations: where a pod spec stands in each workload kind (``podspec``), workload
selectors and old defaults (``workloads``), kubeadm and kube-scheduler configuration
(``kubeadm``, ``kubescheduler``), CRD structural schemas (``crd_schema``), feature-gate
lifecycles (``feature_gates``), HorizontalPodAutoscaler targets (``autoscaling``), and two
small edits shared by several checks (``renames``, ``comma_lists``). Migrations import from
here and never from each other.
"""
