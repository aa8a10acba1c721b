"""Spec: Flux 2 — the beta APIs to GA, with the fields that changed."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.addons_helpers import check_noop, check_transformed, codes, crd_valid, run

GOLDEN = Path(__file__).parent / "golden" / "addons" / "flux"

# ------------------------------------------------------------------ no-op cases


def test_noop_ga() -> None:
    check_noop(
        """
        apiVersion: kustomize.toolkit.fluxcd.io/v1
        kind: Kustomization
        metadata:
          name: apps
        spec:
          interval: 10m
          path: ./apps
          prune: true
          sourceRef: {kind: GitRepository, name: flux-system}
        """
    )


def test_noop_before_ga() -> None:
    check_noop(
        """
        apiVersion: kustomize.toolkit.fluxcd.io/v1beta2
        kind: Kustomization
        metadata:
          name: apps
        spec:
          interval: 10m
          path: ./apps
          prune: true
          sourceRef: {kind: GitRepository, name: flux-system}
          validation: client
        """,
        components={"flux": "0.41"},
    )


# ------------------------------------------------------------------ Kustomization


def test_kustomization_patches_in_kustomize_order() -> None:
    result = check_transformed(
        """
        apiVersion: kustomize.toolkit.fluxcd.io/v1beta2
        kind: Kustomization
        metadata:
          name: apps
          namespace: flux-system
        spec:
          interval: 10m
          path: ./apps
          prune: true
          sourceRef:
            kind: GitRepository
            name: flux-system
          validation: client
          patches:
          - patch: |
              - op: add
                path: /metadata/labels/team
                value: web
            target:
              kind: Deployment
          patchesStrategicMerge:
          - apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: web
            spec:
              replicas: 2  # two is enough
          patchesJson6902:
          - target:
              group: apps
              version: v1
              kind: Deployment
              name: web
            patch:
            - op: replace
              path: /spec/replicas
              value: 3
        """,
        """
        apiVersion: kustomize.toolkit.fluxcd.io/v1
        kind: Kustomization
        metadata:
          name: apps
          namespace: flux-system
        spec:
          interval: 10m
          path: ./apps
          prune: true
          sourceRef:
            kind: GitRepository
            name: flux-system
          patches:
          - patch: |
              apiVersion: apps/v1
              kind: Deployment
              metadata:
                name: web
              spec:
                replicas: 2  # two is enough
          - patch: |
              - op: add
                path: /metadata/labels/team
                value: web
            target:
              kind: Deployment
          - patch: |
              - op: replace
                path: /spec/replicas
                value: 3
            target:
              group: apps
              version: v1
              kind: Deployment
              name: web
        """,
    )
    assert sorted(codes(result)) == ["K8SM-FLX-001", "K8SM-FLX-004"]
    crd_valid(result.text)


def test_kustomization_v1beta1_without_patches() -> None:
    result = check_transformed(
        """
        apiVersion: kustomize.toolkit.fluxcd.io/v1beta1
        kind: Kustomization
        metadata:
          name: apps
        spec:
          interval: 5m
          path: ./apps
          prune: true
          sourceRef:
            kind: GitRepository
            name: flux-system
          kubeConfig:
            secretRef:
              name: remote
        """,
        """
        apiVersion: kustomize.toolkit.fluxcd.io/v1
        kind: Kustomization
        metadata:
          name: apps
        spec:
          interval: 5m
          path: ./apps
          prune: true
          sourceRef:
            kind: GitRepository
            name: flux-system
          kubeConfig:
            secretRef:
              name: remote
        """,
    )
    crd_valid(result.text)


def test_json6902_target_namespace_with_target_namespace_is_reported() -> None:
    result = run(
        """
        apiVersion: kustomize.toolkit.fluxcd.io/v1beta2
        kind: Kustomization
        metadata:
          name: apps
        spec:
          interval: 5m
          path: ./apps
          prune: true
          targetNamespace: prod
          sourceRef: {kind: GitRepository, name: flux-system}
          patchesJson6902:
          - target: {kind: Deployment, name: web, namespace: prod}
            patch: [{op: remove, path: /spec/replicas}]
        """
    )
    assert "K8SM-FLX-002" in codes(result, "warning")


def test_bad_interval_needs_a_human() -> None:
    result = run(
        """
        apiVersion: kustomize.toolkit.fluxcd.io/v1beta2
        kind: Kustomization
        metadata:
          name: apps
        spec:
          interval: 10 minutes
          path: ./apps
          prune: true
          sourceRef: {kind: GitRepository, name: flux-system}
        """
    )
    assert codes(result, "error") == ["K8SM-FLX-008"]


# ------------------------------------------------------------------ HelmRelease


def test_helmrelease_v2beta1_to_v2() -> None:
    result = check_transformed(
        """
        apiVersion: helm.toolkit.fluxcd.io/v2beta1
        kind: HelmRelease
        metadata:
          name: podinfo
        spec:
          interval: 5m
          chart:
            spec:
              chart: podinfo
              valuesFile: values-prod.yaml  # production
              valuesFiles:
              - values-eu.yaml
              sourceRef:
                kind: HelmRepository
                name: podinfo
        """,
        """
        apiVersion: helm.toolkit.fluxcd.io/v2
        kind: HelmRelease
        metadata:
          name: podinfo
        spec:
          interval: 5m
          chart:
            spec:
              chart: podinfo
              valuesFiles:
              - values-prod.yaml  # production
              - values-eu.yaml
              sourceRef:
                kind: HelmRepository
                name: podinfo
          maxHistory: 10
        """,
    )
    assert sorted(codes(result)) == ["K8SM-FLX-003", "K8SM-FLX-005"]
    crd_valid(result.text)


def test_helmrelease_adopting_new_defaults_leaves_max_history() -> None:
    result = run(
        """
        apiVersion: helm.toolkit.fluxcd.io/v2beta1
        kind: HelmRelease
        metadata:
          name: podinfo
        spec:
          interval: 5m
          chart:
            spec:
              chart: podinfo
              sourceRef: {kind: HelmRepository, name: podinfo}
        """,
        adopt_new_defaults=True,
    )
    assert "maxHistory" not in result.text
    assert "K8SM-GEN-002" in codes(result)


def test_helmrelease_post_renderer_patches() -> None:
    result = run(
        """
        apiVersion: helm.toolkit.fluxcd.io/v2beta2
        kind: HelmRelease
        metadata:
          name: podinfo
        spec:
          interval: 5m
          chart:
            spec:
              chart: podinfo
              sourceRef: {kind: HelmRepository, name: podinfo}
          postRenderers:
          - kustomize:
              patchesStrategicMerge:
              - kind: Deployment
                apiVersion: apps/v1
                metadata:
                  name: podinfo
                spec:
                  replicas: 1
        """
    )
    assert codes(result) == ["K8SM-FLX-001"]
    crd_valid(result.text)
    post = yaml.safe_load(result.text)["spec"]["postRenderers"][0]["kustomize"]
    assert list(post) == ["patches"]
    assert yaml.safe_load(post["patches"][0]["patch"])["spec"] == {"replicas": 1}


# ------------------------------------------------------------------ sources, notification, image


def test_git_repository_v1beta2_to_v1() -> None:
    result = check_transformed(
        """
        apiVersion: source.toolkit.fluxcd.io/v1beta2
        kind: GitRepository
        metadata:
          name: flux-system
        spec:
          interval: 1m0s
          ref:
            branch: main
          gitImplementation: go-git
          url: ssh://git@github.com/example/fleet
        """,
        """
        apiVersion: source.toolkit.fluxcd.io/v1
        kind: GitRepository
        metadata:
          name: flux-system
        spec:
          interval: 1m0s
          ref:
            branch: main
          url: ssh://git@github.com/example/fleet
        """,
    )
    assert codes(result) == ["K8SM-FLX-004"]
    crd_valid(result.text)


def test_git_repository_libgit2_is_a_warning() -> None:
    result = run(
        """
        apiVersion: source.toolkit.fluxcd.io/v1beta2
        kind: GitRepository
        metadata:
          name: r
        spec:
          interval: 1m
          url: https://example.com/r
          gitImplementation: libgit2
        """
    )
    assert codes(result) == ["K8SM-FLX-010"]


def test_helm_chart_values_file() -> None:
    result = check_transformed(
        """
        apiVersion: source.toolkit.fluxcd.io/v1beta2
        kind: HelmChart
        metadata:
          name: podinfo
        spec:
          chart: podinfo
          interval: 5m
          sourceRef: {kind: HelmRepository, name: podinfo}
          valuesFile: values.yaml
        """,
        """
        apiVersion: source.toolkit.fluxcd.io/v1
        kind: HelmChart
        metadata:
          name: podinfo
        spec:
          chart: podinfo
          interval: 5m
          sourceRef: {kind: HelmRepository, name: podinfo}
          valuesFiles:
          - values.yaml
        """,
    )
    crd_valid(result.text)


def test_provider_interval_removed() -> None:
    result = check_transformed(
        """
        apiVersion: notification.toolkit.fluxcd.io/v1beta2
        kind: Provider
        metadata:
          name: slack
        spec:
          type: slack
          interval: 10m
          secretRef: {name: slack-url}
        """,
        """
        apiVersion: notification.toolkit.fluxcd.io/v1beta3
        kind: Provider
        metadata:
          name: slack
        spec:
          type: slack
          secretRef: {name: slack-url}
        """,
    )
    assert codes(result) == ["K8SM-FLX-004"]


def test_receiver_without_secret_needs_a_human() -> None:
    result = run(
        """
        apiVersion: notification.toolkit.fluxcd.io/v1beta1
        kind: Receiver
        metadata:
          name: github
        spec:
          type: github
          resources: [{kind: GitRepository, name: flux-system}]
        """
    )
    assert codes(result, "error") == ["K8SM-FLX-006"]


# ------------------------------------------------------------------ upstream goldens (flux migrate)


@pytest.mark.parametrize("name", ["single-file.yaml", "another-file.yaml"])
def test_flux_migrate_goldens(name: str) -> None:
    """fluxcd/flux2 da2d22d3 ``cmd/flux/testdata/migrate/file-system/{single-file.yaml,dir/some-dir/another-file.yaml}``
    and their ``.golden`` (golden/addons/flux/SOURCES.tsv), at Flux 2.7.

    ``flux migrate`` rewrites an apiVersion line followed by a kind line, nothing else; k8smigrate
    gives the same text (the deliberately invalid ``v1/v2`` stays; a document without an
    apiVersion of its own, whose nested reference flux migrate also bumps, is left as it is).
    """
    text = (GOLDEN / name).read_text(encoding="utf-8")
    golden = (GOLDEN / f"{name}.golden").read_text(encoding="utf-8")
    result = run(text, components={"flux": "2.7"}, exact=True)
    assert result.text == golden.replace(
        "- apiVersion: image.toolkit.fluxcd.io/v1 # update this from v1beta1",
        "- apiVersion: image.toolkit.fluxcd.io/v1beta1 # update this from v1beta1",
    )


@pytest.mark.parametrize(
    ("migrations", "api", "kind"),
    [
        (["flux_kustomization_v1beta1"], "kustomize.toolkit.fluxcd.io/v1beta1", "Kustomization"),
        (["flux_kustomization_v1beta2"], "kustomize.toolkit.fluxcd.io/v1beta2", "Kustomization"),
        (["flux_gitrepository_v1beta1"], "source.toolkit.fluxcd.io/v1beta1", "GitRepository"),
        (["flux_gitrepository_v1beta2"], "source.toolkit.fluxcd.io/v1beta2", "GitRepository"),
        (["flux_helmsources_v1beta1"], "source.toolkit.fluxcd.io/v1beta1", "HelmRepository"),
        (["flux_helmsources_v1beta2"], "source.toolkit.fluxcd.io/v1beta2", "HelmChart"),
        (["flux_bucket_v1beta1"], "source.toolkit.fluxcd.io/v1beta1", "Bucket"),
        (["flux_bucket_v1beta2"], "source.toolkit.fluxcd.io/v1beta2", "Bucket"),
        (["flux_ocirepository_v1beta2"], "source.toolkit.fluxcd.io/v1beta2", "OCIRepository"),
        (["flux_helmrelease_v2beta1", "flux_helmrelease_v2beta2"], "helm.toolkit.fluxcd.io/v2beta1", "HelmRelease"),
        (["flux_notification_v1beta1"], "notification.toolkit.fluxcd.io/v1beta1", "Alert"),
        (["flux_notification_v1beta2"], "notification.toolkit.fluxcd.io/v1beta2", "Provider"),
        (["flux_receiver_v1beta1"], "notification.toolkit.fluxcd.io/v1beta1", "Receiver"),
        (["flux_receiver_v1beta2"], "notification.toolkit.fluxcd.io/v1beta2", "Receiver"),
        (
            ["flux_image_v1alpha2", "flux_imageupdateautomation_v1beta1", "flux_imageupdateautomation_v1beta2"],
            "image.toolkit.fluxcd.io/v1alpha2",
            "ImageUpdateAutomation",
        ),
        (["flux_image_v1beta1"], "image.toolkit.fluxcd.io/v1beta1", "ImagePolicy"),
        (["flux_image_v1beta2"], "image.toolkit.fluxcd.io/v1beta2", "ImagePolicy"),
    ],
)
def test_each_step_runs(migrations: list[str], api: str, kind: str) -> None:
    spec = {
        "HelmRelease": "spec:\n  chart:\n    spec:\n      chart: c\n",
        "Receiver": "spec:\n  secretRef: {name: token}\n",
    }.get(kind, "")
    result = run(f"apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: x\n{spec}", adopt_new_defaults=True)
    assert result.documents[0].applied == migrations
    assert not codes(result, "error")


def test_image_policy_needs_no_image() -> None:
    result = run(
        """
        apiVersion: image.toolkit.fluxcd.io/v1beta2
        kind: ImagePolicy
        metadata:
          name: p
        spec:
          imageRepositoryRef: {name: app}
          policy: {semver: {range: 1.x}}
        """
    )
    assert result.text.startswith("apiVersion: image.toolkit.fluxcd.io/v1\n")
    assert codes(result) == []


def test_image_repository_without_interval_needs_a_human() -> None:
    result = run(
        """
        apiVersion: image.toolkit.fluxcd.io/v1beta2
        kind: ImageRepository
        metadata:
          name: app
        spec:
          image: ghcr.io/example/app
        """
    )
    assert codes(result, "error") == ["K8SM-FLX-006"]


# ------------------------------------------------------------------ flux_references


def test_references_follow_the_objects_they_name() -> None:
    result = check_transformed(
        """
        apiVersion: kustomize.toolkit.fluxcd.io/v1beta2
        kind: Kustomization
        metadata:
          name: apps
        spec:
          interval: 5m
          path: ./apps
          prune: true
          sourceRef:
            apiVersion: source.toolkit.fluxcd.io/v1beta2
            kind: GitRepository
            name: flux-system
          healthChecks:
          - apiVersion: helm.toolkit.fluxcd.io/v2beta1  # the release
            kind: HelmRelease
            name: podinfo
          - apiVersion: extensions/v1beta1
            kind: Deployment
            name: web
        """,
        """
        apiVersion: kustomize.toolkit.fluxcd.io/v1
        kind: Kustomization
        metadata:
          name: apps
        spec:
          interval: 5m
          path: ./apps
          prune: true
          sourceRef:
            apiVersion: source.toolkit.fluxcd.io/v1
            kind: GitRepository
            name: flux-system
          healthChecks:
          - apiVersion: helm.toolkit.fluxcd.io/v2  # the release
            kind: HelmRelease
            name: podinfo
          - apiVersion: apps/v1
            kind: Deployment
            name: web
        """,
    )
    assert codes(result).count("K8SM-FLX-011") == 3
    assert result.documents[0].applied == ["flux_references", "flux_kustomization_v1beta2"]
    crd_valid(result.text)


def test_references_stay_where_the_release_keeps_the_api() -> None:
    check_noop(
        """
        apiVersion: helm.toolkit.fluxcd.io/v2beta1
        kind: HelmRelease
        metadata:
          name: podinfo
        spec:
          interval: 5m
          chart:
            spec:
              chart: podinfo
              sourceRef:
                apiVersion: source.toolkit.fluxcd.io/v1beta2
                kind: HelmRepository
                name: podinfo
          maxHistory: 5
        """,
        components={"flux": "2.1"},
    )


def test_inline_patches_are_not_references() -> None:
    result = run(
        """
        apiVersion: helm.toolkit.fluxcd.io/v2
        kind: HelmRelease
        metadata:
          name: podinfo
        spec:
          interval: 5m
          chartRef: {kind: OCIRepository, name: podinfo}
          postRenderers:
          - kustomize:
              patches:
              - patch: |
                  apiVersion: extensions/v1beta1
                  kind: Deployment
                  metadata:
                    name: podinfo
        """
    )
    assert not result.changed
