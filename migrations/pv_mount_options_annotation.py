"""PersistentVolume ``volume.beta.kubernetes.io/mount-options`` annotation → ``spec.mountOptions`` (clean-up).

The beta annotation is the deprecated spelling of ``spec.mountOptions`` (WEB-1.28 labels page)
and is still honoured: ``MountOptionFromSpec`` (``pkg/volume/util/util.go``) reads the
annotation *first*, split on commas, and only then the field; ``JoinMountOptions`` drops empty
items and duplicates. Nothing breaks at any release, so this is a clean-up for every target
(K8SM-FLD-014, info):

- the comma list becomes ``spec.mountOptions``, one option per item (spaces around an item
  are trimmed, empty items dropped), and the annotation is deleted; an empty value, which
  adds no option, is only deleted;
- when ``spec.mountOptions`` already holds the same options (in any order: upstream joins
  them as a set), the annotation is deleted;
- when it holds other options, the annotation wins today and deleting it would change the
  mount: an error, and the document is left unchanged (K8SM-FLD-061).
"""

from __future__ import annotations

from k8smigrate.context import Context
from k8smigrate.registry import Migration
from k8smigrate.scalars import Data
from k8smigrate.tree import Mapping, Node, Scalar, Sequence

from ._podspec import child, drop_annotation
from .service_lb_source_ranges import split

KEY = "volume.beta.kubernetes.io/mount-options"


def body(volume: Mapping, ctx: Context) -> None:
    metadata = volume.mapping("metadata")
    notes = metadata.mapping("annotations") if metadata is not None else None
    node = notes.get(KEY) if notes is not None else None
    if metadata is None or notes is None or not isinstance(node, Scalar):
        return
    spec = child(volume, "spec")
    if spec is None:
        return
    options = split(node.data)
    existing = spec.get("mountOptions")
    if existing is not None and not (isinstance(existing, Scalar) and existing.data is None):
        data = existing.to_data()
        have = [str(item).strip() for item in data] if isinstance(data, list) else [str(data)]
        if set(have) != set(options):
            ctx.error(
                "K8SM-FLD-061",
                f"annotation {KEY} ({','.join(options) or 'empty'}) and spec.mountOptions ({','.join(have)}) "
                "differ; the annotation is what is mounted today: keep one by hand",
                node,
            )
            return
        why = "deleted: spec.mountOptions says the same"
    elif not options:
        why = "deleted: it is empty"
    else:
        why = "→ spec.mountOptions"
        items: list[Node | Data] = [*options]
        spec.set("mountOptions", Sequence.of(items), comments_from=notes.entry(KEY))
    ctx.info("K8SM-FLD-014", f"annotation {KEY} (deprecated) {why}", node)
    drop_annotation(metadata, KEY)
    ctx.note(f"{KEY} → spec.mountOptions")


MIGRATION = Migration(
    kinds=("PersistentVolume",),
    from_api="v1",
    to_api="v1",
    available_in="1.8",
    trigger=KEY,
    body=body,
    fixer=True,
    cleanup=True,
    category="annotation",
    summary="PersistentVolume mount-options beta annotation (deprecated) → spec.mountOptions",
    codes={
        "K8SM-FLD-014": "info: the mount-options annotation moved to spec.mountOptions (or dropped)",
        "K8SM-FLD-061": "error: the mount-options annotation and spec.mountOptions list different options",
    },
)
