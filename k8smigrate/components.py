"""Components: whose releases gate a migration or an API lifecycle, and the window of each.

Kubernetes itself (``kubernetes``, and ``kubeadm``, ``kube-scheduler``, ``kubelet``,
``kube-proxy``, whose APIs follow its releases) is gated by ``--target-version`` and
``--min-version``. An add-on (cert-manager, Gateway API, Istio…) has releases of its own: the
user names the release the manifests must run on with ``--component NAME=VERSION`` (pluto's
``--target-versions``), and that add-on's steps, checks and lifecycle rows are gated by it the
same way. Without it, ``scan`` assumes the newest release k8smigrate knows (and says so), and
``apply``/``diff`` leave a document that a migration of the add-on would change as it is, with
an error naming the option (K8SM-GEN-016): a guess about which release runs would be a guess
about what to write.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .dataclasscode import dataclass
from .versions import KubeVersion, Window

KUBERNETES = frozenset({"kubernetes", "kubeadm", "kube-scheduler", "kubelet", "kube-proxy"})
"""Components whose releases are Kubernetes' own (gated by the target version). A third-party
package's component (``widgets``) is gated by the Kubernetes release too, as its docs say."""


@dataclass(frozen=True)
class AddOn:
    """An add-on k8smigrate knows: its name, what its releases are, the newest one it knows."""

    name: str
    releases: str
    newest: str


ADD_ONS: dict[str, AddOn] = {
    a.name: a
    for a in (
        AddOn("cert-manager", "cert-manager", "1.21"),
        AddOn("external-snapshotter", "kubernetes-csi/external-snapshotter (the snapshot CRDs and controller)", "8.6"),
        AddOn("flux", "the Flux distribution (fluxcd/flux2), not its controllers", "2.9"),
        AddOn("gateway-api", "Gateway API (kubernetes-sigs/gateway-api), standard channel", "1.6"),
        AddOn("istio", "Istio", "1.30"),
        AddOn("prometheus-operator", "prometheus-operator", "0.93"),
        AddOn("traefik", "Traefik Proxy", "3.7"),
    )
}
"""The add-ons of k8smigrate's own migrations, with the newest release whose changes it knows."""


class ComponentError(ValueError):
    """A component release the tool cannot use (an unknown name, a malformed version)."""


def is_addon(component: str) -> bool:
    """Whether ``component`` has releases of its own (one of ``ADD_ONS``) rather than Kubernetes'."""
    return component in ADD_ONS


def parse_release(name: str, version: str) -> KubeVersion:
    """``1.14``, ``v1.14`` or ``1.14.2`` → 1.14; anything else is a ``ComponentError`` naming the component."""
    try:
        return KubeVersion.parse(str(version))
    except ValueError:
        raise ComponentError(f"--component {name}={version}: not a release (expected MAJOR.MINOR, e.g. 1.14)") from None


def check_components(given: Mapping[str, str], known: Iterable[str]) -> dict[str, KubeVersion]:
    """The releases of ``given``, after checking every name is an add-on some migration is gated by."""
    names = sorted(set(known) & set(ADD_ONS))
    out: dict[str, KubeVersion] = {}
    for name, version in given.items():
        if name in KUBERNETES or (name in known and not is_addon(name)):
            raise ComponentError(
                f"--component {name}={version}: {name} follows the Kubernetes release; use --target-version"
            )
        if name not in names:
            raise ComponentError(f"unknown component {name!r} (known: {', '.join(names) or 'none'})")
        out[name] = parse_release(name, version)
    return out


def parse_option(item: str) -> tuple[str, str]:
    """``cert-manager=1.14`` → ``("cert-manager", "1.14")``."""
    name, sep, version = item.partition("=")
    if not sep or not name.strip() or not version.strip():
        raise ComponentError(f"--component takes NAME=VERSION, got {item!r}")
    return name.strip(), version.strip()


def newest(component: str) -> KubeVersion | None:
    """The newest release k8smigrate knows of an add-on (None for Kubernetes' and third-party components)."""
    found = ADD_ONS.get(component)
    return KubeVersion.parse(found.newest) if found is not None else None


@dataclass(frozen=True)
class Windows:
    """The window of every component for one run.

    ``kube`` is the Kubernetes window; ``given`` the add-on releases the user named. An add-on
    without a release gets a window at its newest known release, and is listed in ``assumed``
    (``scan`` reports with it; ``apply``/``diff`` refuse to guess: K8SM-GEN-016).
    """

    kube: Window
    given: tuple[tuple[str, KubeVersion], ...] = ()

    def of(self, component: str) -> Window:
        found = newest(component)
        if found is None:  # Kubernetes', or a third-party component: Kubernetes releases
            return self.kube
        for name, release in self.given:
            if name == component:
                return Window(release, release)
        return Window(found, found)

    def assumed(self, component: str) -> bool:
        """Whether ``component``'s release was not given (its window is the newest known release)."""
        return is_addon(component) and all(name != component for name, _r in self.given)


def release_needed_message(api: str | None, kind: str | None, components: list[str]) -> str:
    """K8SM-GEN-016's message: what needs a release and which option settles it."""
    options = " ".join(f"--component {c}=VERSION" for c in components)
    known = ", ".join(f"{c} {found}" for c in components if (found := newest(c)) is not None)
    what = f"{kind} {api}" if kind and api else "this document"
    return (
        f"{what} needs the release of {', '.join(components)} it must run on: set {options} "
        f"(components={{...}} in the library){f'; k8smigrate knows up to {known}' if known else ''}; left unchanged"
    )


def release_text(component: str, release: KubeVersion | None) -> str:
    """``1.22`` for Kubernetes, ``cert-manager 1.6`` for an add-on: how messages name a release."""
    return f"{release}" if not is_addon(component) else f"{component} {release}"
