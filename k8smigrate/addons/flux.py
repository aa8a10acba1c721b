"""Flux 2 field conversions from the beta APIs to the GA ones.

Sources: each controller's ``api/<version>`` Go types and CRDs at the tags named, and its CHANGELOG
(fluxcd/kustomize-controller 1.0.0-rc.1 "Upgrade procedure", helm-controller 0.37.0 and 1.0.0,
source-controller 1.0.0-rc.1 and 1.3.0, notification-controller 1.2.0):

- Kustomization v1 and HelmRelease v2 removed ``patchesStrategicMerge`` and ``patchesJson6902`` for
  ``patches``. The old controllers handed them to kustomize as they were (fluxcd/pkg
  ``kustomize/kustomize_generator.go`` · ``Generator.WriteFile`` at kustomize/v0.13.2; helm-controller
  ``internal/postrender/kustomize.go`` · ``Kustomize.Run`` at v0.37.0: a strategic merge patch as the
  object, a JSON 6902 patch as its JSON-encoded operations with its target). kustomize runs
  ``patchesStrategicMerge`` first, then ``patches``, then (after the namespace, prefix, suffix, label and
  annotation transformers) ``patchesJson6902`` (kubernetes-sigs/kustomize
  ``api/internal/target/kusttarget_configplugin.go`` · ``KustTarget.configureBuiltinTransformers``); a
  ``patches`` entry without target is applied to the object the patch names, like a strategic merge
  patch. So the new list is: the strategic merge patches, the existing patches, the JSON 6902 ones,
  each as ``{patch: <the old text>, target: …}``.
- ``valuesFile`` (HelmRelease ``spec.chart.spec``, HelmChart ``spec``) is "merged before the
  ValuesFiles items" (source-controller ``api/v1beta2/helmchart_types.go`` · ``HelmChart.GetValuesFiles``):
  ``valuesFiles = [valuesFile, *valuesFiles]``.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.tree import Entry, Item, Mapping, Node, Scalar, Sequence, resolve
from k8smigrate.yamlio import read_data

from ..regexcode import regex
from .edits import text
from .sketch import block

PATCHES = Code("K8SM-FLX-001", "info", "patchesStrategicMerge / patchesJson6902 → patches")
PATCH_NAMESPACE = Code("K8SM-FLX-002", "warning", "a JSON 6902 target namespace that targetNamespace changed before")
VALUES_FILE = Code("K8SM-FLX-003", "info", "valuesFile → valuesFiles")
REMOVED_FIELD = Code("K8SM-FLX-004", "info", "a field the GA API removed, unused by the controller")
REMOVED_SETTING = Code("K8SM-FLX-010", "warning", "a field the GA API removed whose setting is lost")
MAX_HISTORY = Code("K8SM-FLX-005", "info", "maxHistory: 10 pinned (v2beta2 default is 5)")
REQUIRED = Code("K8SM-FLX-006", "error", "a field the new version requires is missing")
BOTH = Code("K8SM-FLX-007", "error", "old and new field both set")
DURATION = Code("K8SM-FLX-008", "error", "a duration the GA schema's pattern rejects")
NOT_A_LIST = Code("K8SM-FLX-009", "error", "a patch list that is not a list of patches")

_DURATION = regex(r"^([0-9]+(\.[0-9]+)?(ms|s|m|h))+$")
"""The ``interval``/``timeout`` pattern of the GA CRDs (``+kubebuilder:validation:Pattern``)."""


# ------------------------------------------------------------------ patches


def convert_patches(owner: Mapping, ctx: Context, where: str, target_namespace: str | None = None) -> None:
    """``patchesStrategicMerge`` and ``patchesJson6902`` of ``owner`` → ``patches``, in kustomize's order."""
    if "patchesStrategicMerge" not in owner and "patchesJson6902" not in owner:
        return
    sm = owner.get("patchesStrategicMerge")
    js = owner.get("patchesJson6902")
    existing = owner.get("patches")
    for name, node in (("patchesStrategicMerge", sm), ("patchesJson6902", js), ("patches", existing)):
        if node is not None and not isinstance(resolve(node), Sequence) and resolve(node).to_data() is not None:
            ctx.error("K8SM-FLX-009", f"{where}{name} is not a list", node)
            return
    first: list[Node] = []
    for item in _items(sm):
        first.append(Mapping.of({"patch": _block(_source_text(item, ctx))}))
    last: list[Node] = []
    for item in _items(js):
        if not isinstance(item, Mapping):
            ctx.error("K8SM-FLX-009", f"{where}patchesJson6902 holds an item that is not a mapping", item)
            return
        ops = item.get("patch")
        new = Mapping()
        new.set("patch", _block(_source_text(ops, ctx) if ops is not None else "[]\n"))
        target = item.get("target")
        if target is not None:
            new.set("target", target)
            selector = resolve(target)
            namespace = text(selector.get("namespace")) if isinstance(selector, Mapping) else None
            if namespace and target_namespace:
                ctx.warn(
                    "K8SM-FLX-002",
                    f"{where}patchesJson6902 target namespace {namespace!r}: kustomize applied JSON 6902 patches after "
                    f"setting the namespace {target_namespace!r} and applies patches before; check the target",
                    target,
                )
        last.append(new)
    if ctx.failed:
        return
    at = min(i for k in ("patchesStrategicMerge", "patchesJson6902", "patches") if (i := owner.index(k)) is not None)
    old_entries = [e for k in ("patchesStrategicMerge", "patchesJson6902") if (e := owner.pop(k)) is not None]
    kept = [resolve(n) for n in _items(existing)]
    patches = owner.get("patches")
    if isinstance(patches, Sequence) and not patches.flow and patches.src is not None:
        # keep the original list (and its items' text), new items around it
        for node in reversed(first):
            patches.insert(node, 0)
        for node in last:
            patches.append(node)
    else:
        owner.pop("patches")
        entry = Entry(Scalar("patches"), Sequence.of([*first, *kept, *last]))
        if old_entries:
            entry.head_comments = [c for e in old_entries for c in e.head_comments]
        owner.insert(entry, at=min(at, len(owner)))
    names = [e.name for e in old_entries]
    ctx.note(f"{where}{' and '.join(names)} → {where}patches")
    ctx.info(
        "K8SM-FLX-001",
        f"{where}{' and '.join(names)} → {where}patches (strategic merge patches first, JSON 6902 patches last, "
        "as kustomize applied them)",
        owner.get("patches"),
    )


def _items(node: Node | None) -> list[Node]:
    node = resolve(node) if node is not None else None
    return [resolve(v) for v in node] if isinstance(node, Sequence) else []


def _block(value: str) -> Scalar:
    """A new string written as a ``|`` literal block (the renderer falls back to quotes where it cannot)."""
    return Scalar.of(value, style="|")


def _source_text(node: Node, ctx: Context) -> str:
    """The patch as YAML text: its own lines (comments included) when it has them, else its data."""
    source = ctx.text_of(node)
    if source is not None:
        try:
            again = read_data(source)
        except Exception:
            again = None
        if again and again[0] == node.to_data():
            return source
    return block(node.to_data())


# ------------------------------------------------------------------ valuesFile


def values_file(owner: Mapping, ctx: Context, where: str) -> None:
    """``valuesFile`` → first item of ``valuesFiles`` (merged before them, as the controller did)."""
    node = owner.get("valuesFile")
    if node is None:
        return
    name = text(node)
    if not name:
        owner.pop("valuesFile")
        ctx.note(f"{where}valuesFile (empty) removed")
        return
    files = owner.get("valuesFiles")
    if files is not None and not isinstance(resolve(files), Sequence):
        ctx.error("K8SM-FLX-007", f"{where}valuesFiles is not a list", files)
        return
    entry = owner.pop("valuesFile")
    assert entry is not None
    if files is None:
        new = Entry(Scalar("valuesFiles"), Sequence.of([entry.value]), head_comments=entry.head_comments)
        index = owner.index("valuesFiles")
        owner.insert(new, at=index)
    else:
        listed = resolve(files)
        assert isinstance(listed, Sequence)
        listed.insert(Item(entry.value, head_comments=entry.head_comments, eol_comment=entry.eol_comment), 0)
    ctx.note(f"{where}valuesFile → {where}valuesFiles[0]")
    ctx.info("K8SM-FLX-003", f"{where}valuesFile → {where}valuesFiles[0] (it was merged before the others)", owner)


# ------------------------------------------------------------------ removed fields, defaults, checks


def drop(owner: Mapping, key: str, ctx: Context, where: str, why: str, level: str = "info") -> None:
    if key not in owner:
        return
    node = owner.get(key)
    owner.pop(key)
    ctx.note(f"{where}{key} removed")
    where_node = node if node is not None and node.line else owner
    if level == "warning":
        ctx.warn("K8SM-FLX-010", f"{where}{key} removed: {why}", where_node)
    else:
        ctx.info("K8SM-FLX-004", f"{where}{key} removed: {why}", where_node)


def durations(spec: Mapping, ctx: Context, *keys: str) -> None:
    """The GA CRDs give ``interval``, ``retryInterval`` and ``timeout`` a pattern (Go durations only)."""
    for key in keys:
        value = text(spec.get(key))
        if value is not None and not _DURATION.match(value):
            ctx.error(
                "K8SM-FLX-008",
                f"spec.{key}: {value!r} is not a duration the new schema accepts (such as 5m or 1h30m)",
                spec.get(key),
            )


def require(owner: Mapping, key: str, ctx: Context, where: str, why: str) -> None:
    if key not in owner:
        ctx.error("K8SM-FLX-006", f"{where}{key} is required by the new version: {why}", owner)


def kustomization_v1(obj: Mapping, ctx: Context) -> None:
    """Kustomization v1beta1/v1beta2 → v1 (kustomize-controller 1.0.0-rc.1 "Upgrade procedure")."""
    spec = obj.mapping("spec")
    if spec is None:
        return
    drop(spec, "validation", ctx, "spec.", "unused since v1beta2 (the controller always applies server-side)")
    convert_patches(spec, ctx, "spec.", text(spec.get("targetNamespace")))
    durations(spec, ctx, "interval", "retryInterval", "timeout")


def kustomization_v1beta2(obj: Mapping, ctx: Context) -> None:
    """Kustomization v1beta1 → v1beta2 (kustomize-controller 0.20): ``validation`` is no longer used."""
    spec = obj.mapping("spec")
    if spec is not None and "validation" in spec:
        ctx.info(
            "K8SM-FLX-004",
            "spec.validation is not used by v1beta2 (kept: it is still in the schema until v1)",
            spec.get("validation"),
        )


def helmrelease_v2beta2(obj: Mapping, ctx: Context) -> None:
    """HelmRelease v2beta1 → v2beta2 (helm-controller 0.37.0): ``maxHistory`` default 10 → 5."""
    spec = obj.mapping("spec")
    if spec is not None:
        ctx.pin(spec, "maxHistory", 10, MAX_HISTORY.code, "v2beta1 kept 10 releases, v2beta2 keeps 5")


def helmrelease_v2(obj: Mapping, ctx: Context) -> None:
    """HelmRelease v2beta1/v2beta2 → v2 (helm-controller 1.0.0)."""
    spec = obj.mapping("spec")
    if spec is None:
        return
    for chart_spec in mappings_at(spec, "chart", "spec"):
        values_file(chart_spec, ctx, "spec.chart.spec.")
    for kustomize in mappings_at(spec, "postRenderers", "kustomize"):
        convert_patches(kustomize, ctx, "spec.postRenderers[].kustomize.")
    if "chart" not in spec and "chartRef" not in spec:
        ctx.error("K8SM-FLX-006", "spec.chart is missing; v2 needs spec.chart or spec.chartRef", spec)


def source_v1(obj: Mapping, ctx: Context) -> None:
    """GitRepository, HelmRepository, HelmChart, Bucket, OCIRepository → v1 (source-controller 1.x)."""
    kind = text(obj.get("kind"))
    spec = obj.mapping("spec")
    if spec is None:
        return
    drop(spec, "accessFrom", ctx, "spec.", "cross-namespace access was never implemented for sources")
    if kind == "GitRepository":
        value = text(spec.get("gitImplementation"))
        drop(
            spec,
            "gitImplementation",
            ctx,
            "spec.",
            "go-git is the only implementation since source-controller 0.36"
            + (" (libgit2 was removed then)" if value == "libgit2" else ""),
            "warning" if value == "libgit2" else "info",
        )
        verify = spec.mapping("verify")
        if verify is not None and "secretRef" not in verify:
            ctx.error(
                "K8SM-FLX-006", "spec.verify.secretRef is required in v1 (the Secret with the trusted keys)", verify
            )
    if kind == "HelmChart":
        values_file(spec, ctx, "spec.")
    durations(spec, ctx, "interval", "timeout")


def notification_v1beta3(obj: Mapping, ctx: Context) -> None:
    """Alert, Provider → v1beta3 (notification-controller 1.2.0): static objects."""
    kind = text(obj.get("kind"))
    spec = obj.mapping("spec")
    if spec is None:
        return
    if kind == "Provider":
        drop(spec, "interval", ctx, "spec.", "a v1beta3 Provider is static (not reconciled); the field is unused")
    if kind == "Alert":
        for source in mappings_at(spec, "eventSources"):
            require(source, "kind", ctx, "spec.eventSources[].", "the kind of the object to watch")


def receiver_v1(obj: Mapping, ctx: Context) -> None:
    """Receiver → v1 (notification-controller 1.0.0): ``secretRef`` and ``resources[].kind`` required."""
    spec = obj.mapping("spec")
    if spec is None:
        return
    require(spec, "secretRef", ctx, "spec.", "the Secret holding the webhook token")
    for resource in mappings_at(spec, "resources"):
        require(resource, "kind", ctx, "spec.resources[].", "the kind of the object to reconcile")


def image_repository_v1(obj: Mapping, ctx: Context) -> None:
    """ImageRepository → v1 (image-reflector-controller 1.0.0): ``image`` and ``interval`` required."""
    spec = obj.mapping("spec")
    if spec is None or text(obj.get("kind")) != "ImageRepository":
        return
    require(spec, "image", ctx, "spec.", "the image to scan")
    require(spec, "interval", ctx, "spec.", "how often to scan")


# ------------------------------------------------------------------ references to other objects

REFERENCE = Code("K8SM-FLX-011", "info", "an apiVersion in a reference follows the object it names")
REFERENCE_FIELDS = ("sourceRef", "chartRef", "healthChecks", "dependsOn", "eventSources", "resources")
"""Fields of Flux objects that name another object by ``apiVersion`` and ``kind`` (``spec.chart.spec.
sourceRef`` of a HelmRelease too): ``CrossNamespaceSourceReference``, ``CrossNamespaceObjectReference``,
``meta.NamespacedObjectKindReference`` in the controllers' ``api/`` packages."""


def references(obj: Mapping, ctx: Context) -> None:
    """Bump the apiVersion of a referenced object that this run migrates (``flux migrate`` does the same:
    fluxcd/flux2 ``cmd/flux/migrate.go`` · ``FileSystemMigrator`` rewrites nested ``apiVersion`` lines)."""
    spec = obj.mapping("spec")
    if spec is None:
        return
    owners = [spec, *mappings_at(spec, "chart", "spec")]
    for owner in owners:
        for field in REFERENCE_FIELDS:
            for ref in mappings_at(owner, field):
                _follow(ref, ctx, field)


def _follow(ref: Mapping, ctx: Context, field: str) -> None:
    api, kind = text(ref.get("apiVersion")), text(ref.get("kind"))
    if not api or not kind:
        return
    new = ctx.migrated_api(api, kind)
    node = ref.get("apiVersion")
    if new is None or new == api or not isinstance(node, Scalar):
        return
    node.set(new)
    ctx.note(f"{field} {kind} {api} → {new}")
    ctx.info("K8SM-FLX-011", f"{field}: {kind} {api} → {new}, the version this run migrates it to", node)
