"""``scan`` finds every add-on entry of pluto's version table, with the right releases.

pluto (FairwindsOps/pluto ``versions.yaml``, as ``../shared/docs/pluto_versions.tsv``) lists
deprecated and removed apiVersions per component. For each of its cert-manager and Istio rows
this builds the document pluto matches (an empty kind matches every kind, as pluto's
``checkVersion`` does) and asks ``scan`` at the release pluto names. Where upstream's own code and
release notes say otherwise, upstream wins: the differences are listed below, each with its
source, and the test expects upstream's answer.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from k8smigrate import scan_text

TABLE = Path(__file__).resolve().parent.parent.parent / "shared" / "docs" / "pluto_versions.tsv"

UPSTREAM: dict[tuple[str, str], dict[str, object]] = {
    # pluto: "rbac.istio.io" (no version) kind "AuthorizationPolicies", deprecated and removed in 1.4.
    # Upstream: the group is rbac.istio.io/v1alpha1 with these kinds, deprecated in Istio 1.4, not
    # honoured from 1.6 (istio 86e571e0; istio.io blog "Migrate pre-Istio 1.4 Alpha security policy").
    ("rbac.istio.io", "AuthorizationPolicies"): {
        "documents": [
            ("rbac.istio.io/v1alpha1", k)
            for k in ("ServiceRole", "ServiceRoleBinding", "RbacConfig", "ClusterRbacConfig")
        ],
        "deprecated": "1.4",
        "removed": "1.6",
    },
    # pluto: deprecated in 1.5. Upstream: deprecated in 1.4, removed in 1.6 (same blog; 1.5 was the
    # only release serving both).
    ("authentication.istio.io/v1alpha1", ""): {
        "documents": [("authentication.istio.io/v1alpha1", k) for k in ("Policy", "MeshPolicy")],
        "deprecated": "1.4",
        "removed": "1.6",
    },
}
"""pluto rows where upstream differs: the documents that row means and upstream's releases."""

REPLACEMENTS = {
    # pluto names cert-manager.io for the ACME kinds; they live in acme.cert-manager.io
    # (cert-manager pkg/apis/acme/doc.go · GroupName at v0.11.0).
    ("certmanager.k8s.io/v1alpha1", "Order"): "acme.cert-manager.io/v1",
    ("certmanager.k8s.io/v1alpha1", "Challenge"): "acme.cert-manager.io/v1",
    ("acme.cert-manager.io/v1alpha2", "Order"): "acme.cert-manager.io/v1",
    ("acme.cert-manager.io/v1alpha3", "Order"): "acme.cert-manager.io/v1",
    ("acme.cert-manager.io/v1beta1", "Order"): "acme.cert-manager.io/v1",
    ("acme.cert-manager.io/v1alpha2", "Challenge"): "acme.cert-manager.io/v1",
    ("acme.cert-manager.io/v1alpha3", "Challenge"): "acme.cert-manager.io/v1",
    ("acme.cert-manager.io/v1beta1", "Challenge"): "acme.cert-manager.io/v1",
}
"""Where k8smigrate's replacement differs from pluto's (the final API of the chain is given)."""


def _rows() -> list[dict[str, str]]:
    if not TABLE.is_file():
        return []
    with TABLE.open(encoding="utf-8") as fh:
        return [r for r in csv.DictReader(fh, delimiter="\t") if r["component"] != "k8s"]


def _release(text: str) -> str:
    return ".".join(text.lstrip("v").split(".")[:2])


def _expected(row: dict[str, str]) -> tuple[list[tuple[str, str]], str, str]:
    upstream = UPSTREAM.get((row["from_apiVersion"], row["kind"]))
    if upstream is not None:
        docs = upstream["documents"]
        assert isinstance(docs, list)
        return docs, str(upstream["deprecated"]), str(upstream["removed"])
    return [(row["from_apiVersion"], row["kind"])], _release(row["deprecated_in"]), _release(row["removed_in"])


def test_the_table_is_here() -> None:
    if not TABLE.is_file():
        pytest.skip("../shared/docs/pluto_versions.tsv is not beside the project")
    assert len(_rows()) == 26


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r['from_apiVersion']}:{r['kind'] or '*'}")
def test_scan_finds_the_row_at_its_removal(row: dict[str, str]) -> None:
    docs, deprecated, removed = _expected(row)
    component = row["component"]
    for api, kind in docs:
        text = f"apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: x\n"
        (entry,) = [e for e in scan_text(text, components={component: removed}) if not e.readiness]
        assert entry.status == "removed"
        assert entry.component == component
        assert entry.removed_in == removed
        assert entry.deprecated_in == deprecated
        expected = REPLACEMENTS.get((api, kind), row["replacement_apiVersion"])
        if entry.replacement is not None:
            assert entry.replacement.split("/")[0] == expected.split("/")[0], entry.replacement
        if deprecated != removed:
            (earlier,) = [e for e in scan_text(text, components={component: deprecated}) if not e.readiness]
            assert earlier.status == "deprecated"


@pytest.mark.parametrize("row", _rows(), ids=lambda r: f"{r['from_apiVersion']}:{r['kind'] or '*'}")
def test_scan_is_silent_before_the_deprecation(row: dict[str, str]) -> None:
    docs, deprecated, _removed = _expected(row)
    major, minor = (int(p) for p in deprecated.split("."))
    before = f"{major}.{minor - 1}" if minor else f"{major - 1}.99"
    for api, kind in docs:
        text = f"apiVersion: {api}\nkind: {kind}\nmetadata:\n  name: x\n"
        assert [e for e in scan_text(text, components={row["component"]: before}) if not e.readiness] == []
