"""Kubernetes object shapes that several migrations read or edit.

Not migrations: where a pod spec stands in each workload kind (``podspec``), workload
selectors and old defaults (``workloads``), kubeadm and kube-scheduler configuration
(``kubeadm``, ``kubescheduler``), CRD structural schemas (``crd_schema``), feature-gate
lifecycles (``feature_gates``), HorizontalPodAutoscaler targets (``autoscaling``), container
images and add-on releases (``images``), components' command-line flags (``flags``), the
IngressClasses of a run (``ingress_classes``), and two small edits shared by several checks
(``renames``, ``comma_lists``). Migrations import from
here and never from each other.
"""
