"""What ``.Capabilities`` holds when a chart is rendered for one Kubernetes release.

A chart's computed apiVersion depends on how it is rendered, so each release is looked at
in three scenarios (``SCENARIOS``):

``helm-template``
    ``helm template --kube-version 1.29``. ``.Capabilities.KubeVersion.GitVersion`` (and
    ``.Version``) is the flag's value with a ``v`` prepended and nothing added: ``v1.29``
    (helm ``pkg/chart/common/capabilities.go``: ``ParseKubeVersion`` keeps the input; checked
    with helm v4.1.4). ``.Capabilities.APIVersions`` is *not* the release's API set: it is
    ``DefaultVersionSet``, every group/version registered in the client-go scheme helm was
    built with (``allKnownVersions``; ``pkg/action/install.go`` copies ``DefaultCapabilities``
    in client-only mode and appends ``--api-versions``). Client-go keeps the types of removed
    APIs, so ``Has "networking.k8s.io/v1beta1"``, ``Has "extensions/v1beta1"`` or
    ``Has "policy/v1beta1"`` are true whatever ``--kube-version`` says, and a
    ``group/version/Kind`` entry (``Has "apps/v1/StatefulSet"``) is false unless given with
    ``--api-versions``.
``cluster``
    ``helm install``/``upgrade`` against a cluster of that release (also Argo CD and Flux,
    which pass the cluster's versions): ``GitVersion`` is the server's, ``v1.29.0``, and
    ``APIVersions`` lists the group/versions and ``group/version/Kind`` entries it serves
    (``pkg/action/action.go``: ``getCapabilities``, ``GetVersionSet``).
``cluster-vendor``
    the same on a managed cluster whose version carries a suffix (``v1.29.0-gke.100``; EKS
    and AKS do the same). Masterminds semver reads the suffix as a pre-release, which a
    constraint without ``-0`` (``>=1.14``) rejects: charts branch differently there.

Which API a release serves comes from the project's own tables, never from a second list:
the removal table (``versions.lifecycle``) gives when an (apiVersion, kind) is removed, and
the migration registry gives when a replacement became available (``Migration.available_in``)
and what follows what (``Registry.step``). An API neither knows (an add-on's CRD) is not
known: ``served`` says None and nothing is decided from it.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from ..dataclasscode import dataclass
from ..lifecycles import ApiLifecycle
from ..model import Step
from ..registry import default_registry
from ..versions import KubeVersion
from .tmpleval import Capabilities

__all__ = [
    "HELM_DEFAULT_API_VERSIONS",
    "SCENARIOS",
    "Scenario",
    "capabilities",
    "chain",
    "group_version_served",
    "lifecycle",
    "release_ranges",
    "releases",
    "served",
]

HELM_DEFAULT_API_VERSIONS: frozenset[str] = frozenset(
    (
        "v1",
        "admissionregistration.k8s.io/v1",
        "admissionregistration.k8s.io/v1alpha1",
        "admissionregistration.k8s.io/v1beta1",
        "internal.apiserver.k8s.io/v1alpha1",
        "apps/v1",
        "apps/v1beta1",
        "apps/v1beta2",
        "authentication.k8s.io/v1",
        "authentication.k8s.io/v1alpha1",
        "authentication.k8s.io/v1beta1",
        "authorization.k8s.io/v1",
        "authorization.k8s.io/v1beta1",
        "autoscaling/v1",
        "autoscaling/v2",
        "autoscaling/v2beta1",
        "autoscaling/v2beta2",
        "batch/v1",
        "batch/v1beta1",
        "certificates.k8s.io/v1",
        "certificates.k8s.io/v1beta1",
        "certificates.k8s.io/v1alpha1",
        "coordination.k8s.io/v1alpha2",
        "coordination.k8s.io/v1beta1",
        "coordination.k8s.io/v1",
        "discovery.k8s.io/v1",
        "discovery.k8s.io/v1beta1",
        "events.k8s.io/v1",
        "events.k8s.io/v1beta1",
        "extensions/v1beta1",
        "flowcontrol.apiserver.k8s.io/v1",
        "flowcontrol.apiserver.k8s.io/v1beta1",
        "flowcontrol.apiserver.k8s.io/v1beta2",
        "flowcontrol.apiserver.k8s.io/v1beta3",
        "networking.k8s.io/v1",
        "networking.k8s.io/v1beta1",
        "node.k8s.io/v1",
        "node.k8s.io/v1alpha1",
        "node.k8s.io/v1beta1",
        "policy/v1",
        "policy/v1beta1",
        "rbac.authorization.k8s.io/v1",
        "rbac.authorization.k8s.io/v1beta1",
        "rbac.authorization.k8s.io/v1alpha1",
        "resource.k8s.io/v1",
        "resource.k8s.io/v1beta2",
        "resource.k8s.io/v1beta1",
        "resource.k8s.io/v1alpha3",
        "scheduling.k8s.io/v1alpha1",
        "scheduling.k8s.io/v1beta1",
        "scheduling.k8s.io/v1",
        "storage.k8s.io/v1beta1",
        "storage.k8s.io/v1",
        "storage.k8s.io/v1alpha1",
        "storagemigration.k8s.io/v1beta1",
        "apiextensions.k8s.io/v1beta1",
        "apiextensions.k8s.io/v1",
    )
)
"""``.Capabilities.APIVersions`` under ``helm template`` (helm v4.1.4, built with client-go v0.35):
printed with ``{{ .Capabilities.APIVersions | toJson }}``. Older helm releases list fewer new
group/versions and the same old ones; only the old ones decide the charts' branches."""


@dataclass(frozen=True)
class Scenario:
    """One way a chart is rendered for a release (see the module docstring)."""

    name: str
    summary: str


HELM_TEMPLATE = Scenario("helm-template", "helm template --kube-version X")
CLUSTER = Scenario("cluster", "helm install/upgrade on a cluster of release X")
CLUSTER_VENDOR = Scenario(
    "cluster-vendor", "the same on a managed cluster whose version has a suffix (v1.29.0-gke.100)"
)
SCENARIOS: tuple[Scenario, ...] = (HELM_TEMPLATE, CLUSTER, CLUSTER_VENDOR)


def releases(first: KubeVersion, last: KubeVersion) -> list[KubeVersion]:
    """Every minor release from ``first`` to ``last``."""
    return [KubeVersion(first.major, m) for m in range(first.minor, last.minor + 1)]


def release_ranges(found: Iterable[KubeVersion]) -> str:
    """``1.19–1.21, 1.24`` for a set of releases."""
    minors = sorted({r.minor for r in found})
    parts: list[str] = []
    i = 0
    while i < len(minors):
        j = i
        while j + 1 < len(minors) and minors[j + 1] == minors[j] + 1:
            j += 1
        parts.append(f"1.{minors[i]}" if i == j else f"1.{minors[i]}–1.{minors[j]}")
        i = j + 1
    return ", ".join(parts)


def capabilities(scenario: Scenario, release: KubeVersion, api_versions: Iterable[str] = ()) -> Capabilities:
    """``.Capabilities`` of ``release`` in ``scenario``; ``api_versions`` are ``helm template``'s
    ``--api-versions`` (ignored against a cluster, as helm ignores them)."""
    if scenario == HELM_TEMPLATE:
        extra = frozenset(api_versions)
        return Capabilities(f"v{release}", lambda api: api in HELM_DEFAULT_API_VERSIONS or api in extra)
    version = f"v{release}.0" + ("-gke.100" if scenario == CLUSTER_VENDOR else "")
    return Capabilities(version, lambda api: _cluster_has(api, release))


def _cluster_has(entry: str, release: KubeVersion) -> bool | None:
    """Whether a cluster of ``release`` lists ``group/version`` or ``group/version/Kind``."""
    parts = entry.split("/")
    if len(parts) == 3 or (len(parts) == 2 and parts[1][:1].isupper()):
        api, kind = entry.rsplit("/", 1)
        return served(api, kind, release)
    return group_version_served(entry, release)


# ---------------------------------------------------------------------------- served APIs


def _steps() -> list[Step]:
    return default_registry().steps


def lifecycle(api: str, kind: str) -> ApiLifecycle | None:
    """The Kubernetes lifecycle of ``kind`` at ``api`` (an add-on's releases are not Kubernetes releases)."""
    life = default_registry().lifecycle(api, kind)
    return life if life is not None and life.component == "kubernetes" else None


@cache
def _server_apis() -> frozenset[str]:
    """Group/versions of configuration files (kubeadm, kube-scheduler …): never served."""
    return frozenset(a for m in _steps() if m.component != "kubernetes" for a in (m.from_api, m.to_api))


@cache
def _introduced() -> dict[tuple[str, str], KubeVersion]:
    out: dict[tuple[str, str], KubeVersion] = {}
    for m in _steps():
        for kind in m.kinds:
            key = (m.to_api, kind)
            if key not in out or m.available < out[key]:
                out[key] = m.available
    return out


_TAGGED = KubeVersion(1, 22)
"""APIs deprecated from this release on were introduced when lifecycle tags had their defaults (1.19+)."""

_INTRODUCED_EARLIER = {("autoscaling/v2beta2", "HorizontalPodAutoscaler"): KubeVersion(1, 12)}
"""APIs deprecated from 1.22 on that are older than the tag default says: their deprecation was
set by hand (k8s.io/api ``autoscaling/v2beta2/zz_generated.prerelease-lifecycle.go``:
``APILifecycleIntroduced`` 1.12, deprecated 1.23, removed 1.26)."""


def served(api: str, kind: str, release: KubeVersion) -> bool | None:
    """Whether ``release`` serves ``kind`` at ``api`` (None: the tables do not know this API).

    Served from the release a migration declares its target available in (an API no migration
    targets is taken as introduced three releases before its deprecation when that is 1.22 or
    later, else as older than any release looked at) until its removal in the removal table or
    in the registry.
    """
    if api in _server_apis():
        return None
    life = lifecycle(api, kind)
    step = default_registry().step(api, kind)
    introduced = _introduced().get((api, kind)) or _INTRODUCED_EARLIER.get((api, kind))
    if life is None and step is None and introduced is None:
        return None
    if introduced is None and life is not None and life.deprecated_in is not None and life.deprecated_in >= _TAGGED:
        # upstream's prerelease-lifecycle-gen default: a beta is deprecated 3 releases after it is
        # introduced (networking.k8s.io/v1beta1 IPAddress: 1.31 → 1.34), so 1.22 serves none of it
        introduced = KubeVersion(1, life.deprecated_in.minor - 3)
    removed = life.removed_in if life is not None else None
    if introduced is not None and release < introduced:
        return False
    return removed is None or release < removed


@cache
def kinds_of(api: str) -> frozenset[str]:
    """The Kubernetes kinds the tables know at group/version ``api`` (its removals, and the
    steps that move kinds to or from it)."""
    kinds = {k for (a, k), life in default_registry().lifecycles.items() if a == api and life.component == "kubernetes"}
    for m in _steps():
        if api in (m.from_api, m.to_api):
            kinds.update(m.kinds)
    return frozenset(kinds)


def group_version_served(api: str, release: KubeVersion) -> bool | None:
    """Whether ``release`` serves any kind of group/version ``api`` (None: not known).

    The core ``v1`` is served by every release. A group/version is taken as introduced with the
    first kind the registry moves into it, which is right for every group/version the tables
    track except ``batch/v1`` (Job predates the CronJob move of 1.21; no chart asks).
    """
    if api == "v1":
        return True
    answers = [served(api, kind, release) for kind in kinds_of(api)]
    known = [a for a in answers if a is not None]
    if not known:
        return None
    return any(known)


def chain(api: str, kind: str) -> list[str]:
    """``api`` and the APIs the registry's steps lead to from it, in order."""
    out = [api]
    registry = default_registry()
    while (step := registry.step(out[-1], kind)) is not None and step.to_api not in out:
        out.append(step.to_api)
    return out


def unserved(apis: Iterable[str], kind: str, among: Iterable[KubeVersion]) -> list[KubeVersion]:
    """The releases of ``among`` at which neither ``apis`` nor an apiVersion their migrations lead
    to serves ``kind``."""
    every = [a for api in apis for a in chain(api, kind)]
    return [r for r in among if not any(served(a, kind, r) for a in every)]
