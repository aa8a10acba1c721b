"""RBAC ``rbac.authorization.k8s.io/v1beta1`` → ``rbac.authorization.k8s.io/v1``.

Role, ClusterRole, RoleBinding and ClusterRoleBinding (and their ``*List`` kinds) have the
same schema and the same defaulting in v1beta1 and v1, including
``ClusterRole.aggregationRule``, ``rules[].nonResourceURLs`` and ``roleRef``: only
``apiVersion`` changes. ``rbac.authorization.k8s.io/v1`` is served from 1.8.
"""

from k8smigrate.model import Step

MIGRATION = Step(
    kinds=("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"),
    from_api="rbac.authorization.k8s.io/v1beta1",
    to_api="rbac.authorization.k8s.io/v1",
    available_in="1.8",
    summary="RBAC v1beta1 → v1 (apiVersion only)",
)
