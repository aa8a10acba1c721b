"""Spec: in-tree volume plugins removed or needing a CSI driver are reported, never rewritten."""

from __future__ import annotations

import pytest

from k8smigrate.model import Check
from k8smigrate.prefilter import wanted_by
from k8smigrate.registry import Registry
from tests.helpers import check_noop, codes

POD = """
apiVersion: v1
kind: Pod
metadata: {{name: p}}
spec:
  containers: [{{name: c, image: busybox}}]
  volumes:
  - name: data
    {volume}
"""

PV = """
apiVersion: v1
kind: PersistentVolume
metadata: {{name: pv}}
spec:
  capacity: {{storage: 1Gi}}
  accessModes: [ReadWriteOnce]
  {volume}
"""

CLASS = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {{name: s}}\nprovisioner: {p}\n"

EBS = "awsElasticBlockStore: {volumeID: vol-1, fsType: ext4}"
GLUSTER = "glusterfs: {endpoints: g, path: vol}"


def test_noop_before_the_plugin_release() -> None:
    assert codes(check_noop(POD.format(volume=EBS), target_version="1.22")) == []
    assert codes(check_noop(POD.format(volume=GLUSTER), target_version="1.25")) == []
    assert codes(check_noop(CLASS.format(p="kubernetes.io/aws-ebs"), target_version="1.22")) == []


def test_noop_on_other_volumes_and_provisioners() -> None:
    assert codes(check_noop(POD.format(volume="emptyDir: {}"))) == []
    assert codes(check_noop(CLASS.format(p="ebs.csi.aws.com"))) == []


def test_migrated_plugin_is_a_warning_naming_the_driver() -> None:
    for text in (POD.format(volume=EBS), PV.format(volume=EBS)):
        result = check_noop(text)
        assert codes(result, "warning") == ["K8SM-VOL-010"]
        assert "ebs.csi.aws.com" in result.findings[0].message


def test_removed_plugin_is_an_error() -> None:
    result = check_noop(PV.format(volume=GLUSTER), target_version="1.26")
    assert codes(result, "error") == ["K8SM-VOL-004"]


@pytest.mark.parametrize(
    ("provisioner", "target", "level", "code"),
    [
        ("kubernetes.io/aws-ebs", "1.29", "warning", "K8SM-VOL-020"),
        ("kubernetes.io/glusterfs", "1.26", "error", "K8SM-VOL-021"),
        ("kubernetes.io/rbd", "1.31", "error", "K8SM-VOL-021"),
    ],
)
def test_storage_class_provisioners(provisioner: str, target: str, level: str, code: str) -> None:
    assert codes(check_noop(CLASS.format(p=provisioner), target_version=target), level) == [code]


def test_git_repo_warns_then_errs() -> None:
    text = POD.format(volume="gitRepo: {repository: https://example.com/r.git}")
    assert codes(check_noop(text, target_version="1.32")) == []
    assert codes(check_noop(text, target_version="1.33"), "warning") == ["K8SM-VOL-007"]
    assert codes(check_noop(text, target_version="1.36"), "error") == ["K8SM-VOL-008"]


def test_workload_templates_are_looked_at() -> None:
    text = """
    apiVersion: apps/v1
    kind: StatefulSet
    metadata: {name: s}
    spec:
      serviceName: s
      selector: {matchLabels: {app: s}}
      template:
        metadata: {labels: {app: s}}
        spec:
          containers: [{name: c, image: busybox}]
          volumes: [{name: d, cinder: {volumeID: x}}]
    """
    assert codes(check_noop(text)) == ["K8SM-VOL-014"]


def test_a_trigger_tuple_wakes_on_any_of_its_strings() -> None:
    # core: Check.trigger may be a tuple (k8smigrate/prefilter.py, wanted_by)
    from k8smigrate.migrations.checks.in_tree_volumes import body

    m = Check(applies_to={"v1": ("Pod",)}, body=body, name="t", trigger=("aaa", "bbb"))
    wanted = wanted_by(Registry([m]), lambda _m: True)
    assert wanted("apiVersion: v1\nx: bbb") and wanted("apiVersion: v1\naaa")
    assert not wanted("apiVersion: v1\nkind: Pod\n")
    assert not wanted("apiVersion: apps/v1\nx: bbb")  # the trigger wakes the check's own apiVersion only


def test_scan_entries_carry_a_category() -> None:
    # core: ScanEntry.category (k8smigrate/scan.py)
    from k8smigrate.scan import ScanEntry

    entry = ScanEntry("f", 0, 1, "extensions/v1beta1", "Ingress", None, "removed", "1.14", "1.22", None, None, False)
    assert entry.category == "removed-api" and entry.as_dict()["category"] == "removed-api"


def _level(plugin: object) -> str:
    from k8smigrate.migrations.checks.in_tree_volumes import Plugin

    assert isinstance(plugin, Plugin)
    if plugin.field == "flexVolume":
        return "info"
    return "warning" if plugin.driver or plugin.field == "gitRepo" else "error"


def _plugins() -> list[object]:
    from k8smigrate.migrations.checks.in_tree_volumes import PLUGINS

    return list(PLUGINS)


@pytest.mark.parametrize("plugin", _plugins(), ids=lambda p: p.field)  # type: ignore[attr-defined]
def test_every_plugin_from_its_release_and_not_before(plugin: object) -> None:
    from k8smigrate.migrations.checks.in_tree_volumes import Plugin

    assert isinstance(plugin, Plugin)
    pod = POD.format(volume=f"{plugin.field}: {{}}")
    since = str(plugin.since)
    assert codes(check_noop(pod, target_version=since), _level(plugin)) == [plugin.code]
    before = f"1.{plugin.since.minor - 1}"
    assert codes(check_noop(pod, target_version=before)) == []
