"""Moving a deprecated comma-list annotation into the list field that replaced it.

Shared by the load-balancer-source-ranges (Service) and mount-options (PersistentVolume) clean-ups.
"""

from __future__ import annotations

from k8smigrate.context import Context
from k8smigrate.kube.podspec import child, drop_annotation
from k8smigrate.scalars import Data
from k8smigrate.tree import Mapping, Node, Scalar, Sequence


def split(value: object) -> list[str]:
    """A comma list as upstream reads it: items trimmed, empty items dropped."""
    text = "" if value is None else str(value)
    return [part.strip() for part in text.split(",") if part.strip()]


def current_items(spec: Mapping, field: str) -> list[str] | None:
    """The field's items (trimmed), None when it is absent or empty."""
    node = spec.get(field)
    if node is None or (isinstance(node, Scalar) and node.data is None):
        return None
    data = node.to_data()
    if not isinstance(data, list):
        return [str(data)]  # not a list: never equal to the annotation
    return [str(item).strip() for item in data] or None


def move_to_field(
    obj: Mapping, ctx: Context, key: str, field: str, code: str, *, empty: str, conflict: tuple[str, str]
) -> None:
    """Annotation ``key`` of ``obj`` → ``spec.<field>``, compared as a set with what is there.

    ``conflict`` is the error code and its reason when the field lists other items (the
    document is then left unchanged); otherwise ``code`` says what happened. ``empty`` says
    what an empty annotation means (it is only deleted).
    """
    metadata = obj.mapping("metadata")
    notes = metadata.mapping("annotations") if metadata is not None else None
    node = notes.get(key) if notes is not None else None
    if metadata is None or notes is None or not isinstance(node, Scalar):
        return
    spec = child(obj, "spec")
    if spec is None:
        return
    items = split(node.data)
    existing = current_items(spec, field)
    if existing is not None and set(existing) != set(items):
        conflict_code, reason = conflict
        ctx.error(
            conflict_code,
            f"annotation {key} ({', '.join(items) or 'empty'}) and spec.{field} ({', '.join(existing)}) "
            f"differ ({reason}); keep one by hand",
            node,
        )
        return
    if existing is not None:
        why = f"deleted: spec.{field} says the same"
    elif not items:
        why = f"deleted: it is empty, which means {empty}"
    else:
        why = f"→ spec.{field}"
        values: list[Node | Data] = [*items]
        spec.set(field, Sequence.of(values), comments_from=notes.entry(key))
    ctx.info(code, f"annotation {key} (deprecated) {why}", node)
    drop_annotation(metadata, key)
    ctx.note(f"{key} → spec.{field}")
