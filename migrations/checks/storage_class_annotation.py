"""``volume.beta.kubernetes.io/storage-class`` → ``spec.storageClassName`` (opt-in).

The beta annotation is deprecated since 1.8 (API warning from
``pkg/api/persistentvolumeclaim/util.go``: "use "storageClassName" attribute instead") but
still honoured, so nothing breaks at any release: this check runs only when asked for
(``--only storage_class_annotation``). On PersistentVolumeClaims, PersistentVolumes and
StatefulSet ``volumeClaimTemplates`` the value moves to ``spec.storageClassName`` and the
annotation is deleted; ``""`` stays ``""`` (no class). A field that is already set is kept
when equal (the annotation is dropped) and is an error when different (K8SM-FLD-045).

Caveat: ``storageClassName`` of an existing claim is immutable, and a StatefulSet's claim
templates cannot be updated: apply the result to new objects, or recreate the existing ones
(K8SM-FLD-013 is a warning for that reason).
"""

from __future__ import annotations

from collections.abc import Iterator

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.podspec import child, drop_annotation
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Scalar

KEY = "volume.beta.kubernetes.io/storage-class"


def claims(obj: Mapping) -> Iterator[tuple[Mapping, Mapping]]:
    """(metadata, object) of the object itself or of each StatefulSet claim template."""
    if obj.data("kind") == "StatefulSet":
        spec = obj.mapping("spec")
        templates = spec.sequence("volumeClaimTemplates") if spec is not None else None
        for _i, template in templates.mappings() if templates is not None else ():
            metadata = template.mapping("metadata")
            if metadata is not None:
                yield metadata, template
        return
    metadata = obj.mapping("metadata")
    if metadata is not None:
        yield metadata, obj


def body(obj: Mapping, ctx: Context) -> None:
    for metadata, holder in claims(obj):
        notes = metadata.mapping("annotations")
        node = notes.get(KEY) if notes is not None else None
        if not isinstance(node, Scalar):
            continue
        value = "" if node.data is None else str(node.data)
        spec = child(holder, "spec")
        current = spec.get("storageClassName") if spec is not None else None
        if spec is None or (current is not None and current.to_data() != value):
            ctx.error("K8SM-FLD-045", f"annotation {KEY}: {value!r} disagrees with spec.storageClassName", node)
            return
        ctx.warn(
            "K8SM-FLD-013",
            f"annotation {KEY}: {value!r} → spec.storageClassName; the field is immutable on existing "
            "claims (and StatefulSet claim templates): apply to new objects or recreate",
            node,
        )
        if current is None:
            spec.set("storageClassName", value, comments_from=notes.entry(KEY) if notes is not None else None)
        drop_annotation(metadata, KEY)
        ctx.note(f"{KEY} → spec.storageClassName")


MIGRATION = Check(
    applies_to={
        "v1": ("PersistentVolumeClaim", "PersistentVolume"),
        **dict.fromkeys(("apps/v1", "apps/v1beta2", "apps/v1beta1"), ("StatefulSet",)),
    },
    body=body,
    opt_in=True,
    trigger="volume.beta.kubernetes.io/storage-class",
    category="annotation",
    edits=True,
    cleanup=True,
    summary="storage-class beta annotation → spec.storageClassName (opt-in: immutable on existing claims)",
    codes=(
        Code("K8SM-FLD-013", "warning", "the storage-class annotation moved to spec.storageClassName (immutable)"),
        Code("K8SM-FLD-045", "error", "the storage-class annotation disagrees with spec.storageClassName"),
    ),
)
