"""Where a PodSpec stands in an object, for the readiness checks that look at pods.

``pod_specs`` yields every ``(pod metadata, pod spec)`` pair of an object: ``Pod.{metadata,spec}``,
``PodTemplate.template``, the ``spec.template`` of ReplicationController, Deployment,
ReplicaSet, StatefulSet, DaemonSet and Job, and ``CronJob.spec.jobTemplate.spec.template``.
``POD_APIS`` lists those kinds per apiVersion (old workload APIs included: a check runs
before the version steps); a check that looks at pods declares ``applies_to=POD_APIS``.
"""

from __future__ import annotations

from collections.abc import Iterator

from k8smigrate.scalars import Data
from k8smigrate.templating.placeholders import opened_by_action
from k8smigrate.tree import Mapping, Scalar

_TEMPLATED = ("ReplicationController", "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet", "Job")

POD_APIS: dict[str, tuple[str, ...]] = {
    "v1": ("Pod", "PodTemplate", "ReplicationController"),
    "apps/v1": ("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"),
    "apps/v1beta2": ("Deployment", "ReplicaSet", "StatefulSet", "DaemonSet"),
    "apps/v1beta1": ("Deployment", "StatefulSet"),
    "extensions/v1beta1": ("Deployment", "ReplicaSet", "DaemonSet"),
    "batch/v1": ("Job", "CronJob"),
    "batch/v1beta1": ("CronJob",),
    "batch/v2alpha1": ("CronJob",),
}

CONTAINER_LISTS = ("containers", "initContainers", "ephemeralContainers")

POD_KINDS = frozenset(kind for kinds in POD_APIS.values() for kind in kinds)
"""Every kind that holds a pod spec (a fact collector's ``kinds``)."""


def pod_specs(obj: Mapping) -> Iterator[tuple[Mapping | None, Mapping]]:
    """Every (pod metadata, pod spec) pair of ``obj``; the metadata is None where it is absent."""
    kind = obj.data("kind")
    if kind == "Pod":
        template: Mapping | None = obj
    elif kind == "PodTemplate":
        template = obj.mapping("template")
    elif kind in _TEMPLATED:
        spec = obj.mapping("spec")
        template = spec.mapping("template") if spec is not None else None
    elif kind == "CronJob":
        template = None
        spec = obj.mapping("spec")
        job = spec.mapping("jobTemplate") if spec is not None else None
        job_spec = job.mapping("spec") if job is not None else None
        template = job_spec.mapping("template") if job_spec is not None else None
    else:
        return
    pod_spec = template.mapping("spec") if template is not None else None
    if template is not None and pod_spec is not None:
        yield template.mapping("metadata"), pod_spec


def pod_spec_data(obj: dict[str, Data]) -> tuple[dict[str, Data], dict[str, Data]] | None:
    """``(pod metadata, pod spec)`` of an object's plain data (``pod_specs`` for collectors), or None."""
    kind = obj.get("kind")
    path: tuple[str, ...]
    if kind == "Pod":
        path = ()
    elif kind == "PodTemplate":
        path = ("template",)
    elif kind in _TEMPLATED:
        path = ("spec", "template")
    elif kind == "CronJob":
        path = ("spec", "jobTemplate", "spec", "template")
    else:
        return None
    template: Data = obj
    for key in path:
        template = template.get(key) if isinstance(template, dict) else None
    spec = template.get("spec") if isinstance(template, dict) else None
    if not isinstance(template, dict) or not isinstance(spec, dict):
        return None
    meta = template.get("metadata")
    return (meta if isinstance(meta, dict) else {}), spec


def container_data(pod_spec: dict[str, Data]) -> Iterator[dict[str, Data]]:
    """Every container of a pod spec's plain data (``containers`` for collectors)."""
    for key in CONTAINER_LISTS:
        items = pod_spec.get(key)
        if isinstance(items, list):
            yield from (c for c in items if isinstance(c, dict))


def containers(pod_spec: Mapping) -> Iterator[Mapping]:
    """Every container of a pod spec: containers, initContainers and ephemeralContainers."""
    for key in CONTAINER_LISTS:
        items = pod_spec.sequence(key)
        if items is not None:
            for _i, container in items.mappings():
                yield container


def unknown_containers(pod_spec: Mapping) -> bool:
    """Whether a template action writes some of the pod's containers (``containers:`` then
    ``{{- include "x.container" . | nindent 8 }}``): their names are not known."""
    from k8smigrate.templating.placeholders import holds_placeholder

    for key in CONTAINER_LISTS:
        node = pod_spec.get(key)
        if isinstance(node, Scalar) and holds_placeholder(node.value):
            return True
        items = pod_spec.sequence(key)
        if items is not None and any(
            isinstance(i.value, Scalar) and holds_placeholder(i.value.value) for i in items.items
        ):
            return True
    return False


def annotations_of(metadata: Mapping | None) -> Mapping | None:
    return metadata.mapping("annotations") if metadata is not None else None


def string_annotations(metadata: Mapping | None) -> list[tuple[str, Scalar]]:
    """The annotations whose value is a scalar, as (key, node), in order."""
    found = annotations_of(metadata)
    if found is None:
        return []
    return [(e.name, e.value) for e in found.entries if isinstance(e.value, Scalar)]


def drop_annotation(metadata: Mapping, key: str) -> None:
    """Remove one annotation, and the ``annotations`` mapping itself when nothing is left in it."""
    found = annotations_of(metadata)
    if found is None:
        return
    found.pop(key)
    if not opened_by_action(metadata.entry("annotations")):
        metadata.drop_emptied("annotations")  # an emptied map is no map, comments or not
    elif not found.entries:  # the action on the key's line writes the rest: it stays, alone
        metadata.set("annotations", Scalar(""))


def child(parent: Mapping, key: str) -> Mapping | None:
    """``parent[key]`` as a mapping, created (empty) when absent; None when it is something else."""
    node = parent.get(key)
    if node is None or (isinstance(node, Scalar) and node.data is None and node.value in ("", "~", "null")):
        new = Mapping()
        parent.set(key, new)
        return new
    return node if isinstance(node, Mapping) else None
