"""Flux references to other objects: their ``apiVersion`` follows the object they name.

Flux objects name other objects by ``apiVersion`` and ``kind``: a Kustomization's ``sourceRef``,
``healthChecks[]`` and ``dependsOn[]``, a HelmRelease's ``chartRef`` and ``spec.chart.spec.sourceRef``,
an Alert's ``eventSources[]``, a Receiver's ``resources[]``, an ImageUpdateAutomation's ``sourceRef``.
The controller fetches the named object at that version, so a reference to a version the release
no longer serves breaks (a health check that cannot read a ``helm.toolkit.fluxcd.io/v2beta1``
HelmRelease after Flux 2.7). ``flux migrate`` rewrites such nested ``apiVersion`` lines
(fluxcd/flux2 ``cmd/flux/migrate.go`` · ``FileSystemMigrator``; its golden shows ``dependsOn``); here
an ``apiVersion`` in one of those fields becomes the version the same run migrates that kind to
(``ctx.migrated_api``), whatever the object's group: a health check of an ``extensions/v1beta1``
Deployment follows it to ``apps/v1`` too (K8SM-FLX-011). Inline patches are not references and are
left alone.
"""

from __future__ import annotations

from k8smigrate.addons import flux
from k8smigrate.model import Check
from k8smigrate.regexcode import regex

KINDS = {
    "kustomize.toolkit.fluxcd.io": ("Kustomization",),
    "helm.toolkit.fluxcd.io": ("HelmRelease",),
    "notification.toolkit.fluxcd.io": ("Alert", "Receiver"),
    "image.toolkit.fluxcd.io": ("ImageUpdateAutomation",),
}
VERSIONS = {
    "kustomize.toolkit.fluxcd.io": ("v1beta1", "v1beta2", "v1"),
    "helm.toolkit.fluxcd.io": ("v2beta1", "v2beta2", "v2"),
    "notification.toolkit.fluxcd.io": ("v1beta1", "v1beta2", "v1beta3", "v1"),
    "image.toolkit.fluxcd.io": ("v1alpha2", "v1beta1", "v1beta2", "v1"),
}

MIGRATION = Check(
    applies_to={f"{group}/{v}": KINDS[group] for group, versions in VERSIONS.items() for v in versions},
    body=flux.references,
    component="flux",
    trigger=regex(r"\n[ \t]+(?:-[ \t]+)?apiVersion:"),
    category="reference",
    edits=True,
    summary="Flux references (sourceRef, healthChecks, dependsOn…): the apiVersion follows the object",
    codes=(flux.REFERENCE,),
)
