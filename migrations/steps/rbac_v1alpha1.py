"""RBAC ``rbac.authorization.k8s.io/v1alpha1`` → ``rbac.authorization.k8s.io/v1``.

Roles change only their ``apiVersion``. In RoleBinding and ClusterRoleBinding every subject's
``apiVersion`` becomes ``apiGroup``, keyed on the subject's kind as upstream's
``Convert_v1alpha1_Subject_To_rbac_Subject`` does:

- ``ServiceAccount`` → ``apiGroup: ""``; ``User`` and ``Group`` → ``rbac.authorization.k8s.io``;
- any other kind → the group part of its ``apiVersion``, read as
  ``schema.ParseGroupVersion`` reads it (``v1`` → ``""``, ``foo.io/v1`` → ``foo.io``,
  ``foo.io/`` → ``foo.io``, ``/v1`` → ``""``); an ``apiVersion`` with more than one ``/``
  does not parse and leaves ``apiGroup`` empty (K8SM-RBAC-002).

A ``User`` named ``*`` matched every authenticated user in v1alpha1 but would match only a
user literally named ``*`` in v1: it becomes ``kind: Group``, ``name: system:authenticated``
(K8SM-RBAC-001). Subjects without ``apiVersion`` are left as they are: v1 defaults
``apiGroup`` the same way.
"""

from __future__ import annotations

from k8smigrate.codes import BOTH_FORMS, Code
from k8smigrate.context import Context
from k8smigrate.model import Step
from k8smigrate.tree import Mapping, Scalar

RBAC_GROUP = "rbac.authorization.k8s.io"
KNOWN_GROUPS = {"ServiceAccount": "", "User": RBAC_GROUP, "Group": RBAC_GROUP}


def parse_group(api_version: str) -> str | None:
    """The group as apimachinery's ``schema.ParseGroupVersion`` reads it, or None when it does not parse.

    ``""`` and ``"/"`` are empty; no ``/`` is a core version; one ``/`` splits group from
    version, either side may be empty (``foo.io/`` is group ``foo.io``: what the v1alpha1
    server itself wrote for a subject of another group, ``GroupVersion{Group: g}.String()``);
    more than one ``/`` does not parse.
    """
    if api_version in ("", "/"):
        return ""
    slashes = api_version.count("/")
    if slashes == 0:
        return ""
    if slashes == 1:
        return api_version.split("/", 1)[0]
    return None


def convert_subject(subject: Mapping, ctx: Context) -> None:
    kind = subject.data("kind")
    api = subject.scalar("apiVersion")
    group: str | None
    if kind in KNOWN_GROUPS:
        group = KNOWN_GROUPS[str(kind)]
    elif api is not None:
        group = parse_group(str(api.data or ""))
        if group is None:
            ctx.warn("K8SM-RBAC-002", f"subject apiVersion {api.value!r} does not parse; apiGroup left empty", api)
            group = ""
    else:
        group = None
    if api is not None:
        existing = subject.data("apiGroup")
        if "apiGroup" in subject and existing != group:
            ctx.error(
                "K8SM-GEN-003",
                f"subject has apiVersion {api.value!r} and conflicting apiGroup {existing!r}",
                subject,
            )
            return
        if "apiGroup" in subject:
            subject.pop("apiVersion")
        else:
            subject.rename("apiVersion", "apiGroup")
            api.set(group or "")
        ctx.note("subjects[].apiVersion → subjects[].apiGroup")
    if kind == "User" and subject.data("name") == "*" and (group or RBAC_GROUP) == RBAC_GROUP:
        name = subject.get("name")
        kind_node = subject.get("kind")
        assert isinstance(name, Scalar) and isinstance(kind_node, Scalar)
        kind_node.set("Group")
        name.set("system:authenticated")
        ctx.warn(
            "K8SM-RBAC-001",
            "User '*' matched every authenticated user in v1alpha1; rewritten to Group system:authenticated",
            subject,
        )


def body(obj: Mapping, ctx: Context) -> None:
    subjects = obj.sequence("subjects")
    if subjects is None:
        return
    for _i, subject in subjects.mappings():
        convert_subject(subject, ctx)


MIGRATION = Step(
    kinds=("Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"),
    from_api="rbac.authorization.k8s.io/v1alpha1",
    to_api="rbac.authorization.k8s.io/v1",
    available_in="1.8",
    body=body,
    summary="RBAC v1alpha1 → v1: subjects[].apiVersion → apiGroup, wildcard user",
    codes=(
        Code("K8SM-RBAC-001", "warning", "User '*' rewritten to Group system:authenticated"),
        Code("K8SM-RBAC-002", "warning", "a subject apiVersion that does not parse; apiGroup left empty"),
        BOTH_FORMS.with_summary("a subject has both apiVersion and a different apiGroup"),
    ),
)
