"""Deprecated kustomization fields moved to their replacements, as ``kustomize edit fix`` does.

Upstream: ``Kustomization.FixKustomization`` and ``FixKustomizationPreMarshalling``
(``api/types/kustomization.go``) behind ``kustomize edit fix``
(``kustomize/commands/edit/fix``):

- ``bases`` → appended to ``resources``;
- ``imageTags`` → appended to ``images``;
- ``patchesJson6902`` → appended to ``patches`` as they are, then ``patchesStrategicMerge``
  entries as ``- path: FILE`` (or ``- patch: TEXT`` when the entry is inline YAML);
- ``commonLabels`` → a ``labels`` entry ``{pairs: …, includeSelectors: true}`` (the same
  fields as before: selectors and templates); a label also set in ``labels`` is an error, as
  upstream;
- generators' ``env: FILE`` → ``envs: [FILE]``.

Edits are made on the kustomization's tree, so comments and layout stay. ``vars`` are left:
converting them to ``replacements`` is not mechanical (a var is substituted only in the fields
``varReference`` lists, in every object of the whole build, and ``kustomize edit fix --vars``
rewrites resource files to placeholders); a finding says so.

One behaviour differs by nature, as with upstream: entries moved into ``patches`` run in the
``patches`` transformer, before the name prefix and the labels (JSON 6902 patches used to run
after them).
"""

from __future__ import annotations

from collections.abc import Callable

from ..codes import Code
from ..comments import comment_lines
from ..tree import Entry, Item, Mapping, Node, Scalar, Sequence

FIXED = Code("K8SM-KUS-010", "info", "a deprecated kustomization field moved to its replacement")
FIX_LEFT = Code(
    "K8SM-KUS-011", "warning", "a deprecated kustomization field left (vars; a field of an unexpected shape)"
)
FIX_CLASH = Code("K8SM-KUS-012", "error", "a label in both commonLabels and labels; commonLabels left")

Report = Callable[[Code, str, Node | None], None]
"""``report(code, message, node)``."""


def _key(root: Mapping, name: str) -> str | None:
    if name in root:
        return name
    return next((e.name for e in root.entries if e.name.lower() == name.lower()), None)


def _gap_comments(entry: Entry, text: str | None) -> list[str]:
    """Comments above an entry and between its key and its value (they go with its items)."""
    if text is None or entry.src is None:
        return list(entry.head_comments)
    return [*entry.head_comments, *comment_lines(text[entry.src.key_end : entry.src.value_start])]


def _append_to(
    root: Mapping,
    old: str,
    new: str,
    convert: Callable[[Item], Item | None] | None = None,
    text: str | None = None,
) -> bool:
    """Move the items of list ``old`` to the end of list ``new`` (renaming ``old`` when ``new`` is
    absent, which keeps every comment); False when either is not a list."""
    old_key, new_key = _key(root, old), _key(root, new)
    if old_key is None:
        return True
    source = root.get(old_key)
    if not isinstance(source, Sequence):
        return False
    for index, item in enumerate(list(source.items)):
        new_item = convert(item) if convert else item
        if new_item is None:
            return False
        if new_item is not item:
            source.pop(index)
            source.insert(Item(new_item.value, head_comments=item.head_comments, eol_comment=item.eol_comment), index)
    if new_key is None:
        root.rename(old_key, new)
        return True
    target = root.get(new_key)
    if not isinstance(target, Sequence):
        return False
    popped = root.entry(old_key)
    assert popped is not None
    lead = _gap_comments(popped, text)
    for n, item in enumerate(list(source.items)):
        comments = [*lead, *item.head_comments] if n == 0 else list(item.head_comments)
        target.insert(Item(item.value, head_comments=comments, eol_comment=item.eol_comment))
    root.remove(old_key)
    return True


def _psm_item(item: Item) -> Item | None:
    value = item.value
    if not isinstance(value, Scalar) or not isinstance(value.data, str):
        return None
    inline = "\n" in value.data or value.data.lstrip().startswith(("{", "apiVersion", "kind"))
    entry = Mapping.of({"patch" if inline else "path": value})
    return Item(entry)


def fix(root: Mapping, report: Report, text: str | None = None) -> None:
    """Move the deprecated fields of one kustomization (its tree, edited in place; with the
    document's ``text``, comments between a moved key and its first item are kept too)."""
    for old, new in (("bases", "resources"), ("imageTags", "images")):
        key = _key(root, old)
        if key is not None and _append_to(root, old, new, text=text):
            report(FIXED, f"{old} → {new}", root.get(_key(root, new) or new))
    key = _key(root, "patchesJson6902")
    if key is not None and _append_to(root, "patchesJson6902", "patches", text=text):
        report(FIXED, "patchesJson6902 → patches", root.get("patches"))
    key = _key(root, "patchesStrategicMerge")
    if key is not None:
        if _append_to(root, "patchesStrategicMerge", "patches", _psm_item, text):
            report(FIXED, "patchesStrategicMerge → patches", root.get("patches"))
        else:
            report(FIX_LEFT, "patchesStrategicMerge is not a list of strings; left", root.get(key))
    _common_labels(root, report, text)
    _generator_env(root, report)
    key = _key(root, "vars")
    if key is not None:
        report(
            FIX_LEFT,
            "vars left: converting them to replacements is not mechanical (see `kustomize edit fix --vars`, "
            "then compare the builds)",
            root.get(key),
        )


def _common_labels(root: Mapping, report: Report, text: str | None) -> None:
    key = _key(root, "commonLabels")
    if key is None:
        return
    labels = root.get(key)
    if not isinstance(labels, Mapping):
        report(FIX_LEFT, "commonLabels is not a mapping; left", labels)
        return
    existing_key = _key(root, "labels")
    existing = root.get(existing_key) if existing_key else None
    if existing is not None and not isinstance(existing, Sequence):
        report(FIX_LEFT, "labels is not a list; commonLabels left", labels)
        return
    taken: set[str] = set()
    for item in existing or []:
        pairs = item.data("pairs") if isinstance(item, Mapping) else None
        taken.update(str(k) for k in (pairs if isinstance(pairs, dict) else {}))
    clash = sorted(taken & set(labels.keys()))
    if clash:
        report(FIX_CLASH, f"label {clash[0]!r} is in both commonLabels and labels; left", labels)
        return
    entry = Mapping.of({"pairs": labels, "includeSelectors": True})
    if existing is None:
        root.rename(key, "labels")
        root.set("labels", Sequence.of([entry]))
    else:
        popped = root.entry(key)
        assert popped is not None
        existing.insert(Item(entry, head_comments=_gap_comments(popped, text)))
        root.remove(key)
    report(FIXED, "commonLabels → labels (includeSelectors: true)", root.get("labels"))


def _generator_env(root: Mapping, report: Report) -> None:
    for name in ("configMapGenerator", "secretGenerator"):
        key = _key(root, name)
        seq = root.get(key) if key else None
        if not isinstance(seq, Sequence):
            continue
        for generator in seq:
            if not isinstance(generator, Mapping) or not isinstance(generator.get("env"), Scalar):
                continue
            env = generator.get("env")
            assert env is not None
            envs = generator.get("envs")
            if envs is None:
                generator.rename("env", "envs")
                generator.set("envs", Sequence.of([env]))
            elif isinstance(envs, Sequence):
                envs.append(env)
                generator.remove("env")
            else:
                continue
            report(FIXED, f"{name} env → envs", generator)


__all__ = ["Entry", "fix"]
