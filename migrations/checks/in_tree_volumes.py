"""In-tree volume plugins removed or needing a CSI driver at the target: reported, never rewritten.

Two families (READINESS §1.2, from the API server's own warnings in
``pkg/api/pod/warnings.go`` and the ``CSIMigration*`` gate lifecycles):

- **removed without migration**: the field is still accepted but does nothing, Pods fail
  to mount and StorageClasses stop provisioning: ``photonPersistentDisk`` (1.16),
  ``scaleIO`` (1.22), ``flocker``/``quobyte``/``storageos`` (1.25), ``glusterfs`` (1.26),
  ``cephfs`` and ``rbd`` (1.31): errors K8SM-VOL-001…006. ``gitRepo`` is off by default
  from 1.33 (warning K8SM-VOL-007) and cannot be turned on from 1.36 (error K8SM-VOL-008):
  use an ``emptyDir`` and an init container that clones.
- **CSI-migrated**: the spec stays valid, but from the release where the migration is on
  by default the named CSI driver must be installed (and from its lock release there is
  no way back): ``awsElasticBlockStore`` (on 1.23, ``ebs.csi.aws.com``),
  ``gcePersistentDisk`` (1.23, ``pd.csi.storage.gke.io``), ``azureDisk`` (1.23,
  ``disk.csi.azure.com``), ``azureFile`` (1.24, ``file.csi.azure.com``), ``cinder`` (1.21,
  ``cinder.csi.openstack.org``), ``vsphereVolume`` (1.25, ``csi.vsphere.vmware.com``),
  ``portworxVolume`` (1.31, ``pxd.portworx.com``; locked 1.33): warnings
  K8SM-VOL-010…016. ``flexVolume`` (deprecated 1.23, still working): K8SM-VOL-017, an info.

Looked at: ``<podspec>.volumes[]`` of every workload, ``PersistentVolume.spec`` and
``StorageClass.provisioner`` (``kubernetes.io/<plugin>``: K8SM-VOL-020, a warning, for a
migrated plugin; K8SM-VOL-021, an error, for a removed one; ``provisioner`` and ``parameters`` are
immutable, so a new class is needed). Nothing is rewritten: a CSI volume handle has a
driver-specific format, and PV specs are immutable.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.dataclasscode import dataclass
from k8smigrate.kube.podspec import POD_APIS, pod_specs
from k8smigrate.model import Check
from k8smigrate.tree import Mapping, Node
from k8smigrate.versions import KubeVersion


@dataclass(frozen=True)
class Plugin:
    """An in-tree volume plugin: its field, its finding, and the CSI driver that takes over."""

    field: str
    code: str
    since: KubeVersion
    """From this release the plugin does nothing (removed) or needs its CSI driver (migrated)."""
    driver: str = ""
    """The CSI driver that takes over; empty for a plugin removed without migration."""
    provisioner: str = ""
    error_from: KubeVersion | None = None
    """For a removed plugin, the release it became an error (when later than ``since``)."""
    error_code: str = ""
    """The code from ``error_from`` on."""


def v(text: str) -> KubeVersion:
    return KubeVersion.parse(text)


PLUGINS = (
    Plugin("photonPersistentDisk", "K8SM-VOL-001", v("1.16"), provisioner="kubernetes.io/photon-pd"),
    Plugin("scaleIO", "K8SM-VOL-002", v("1.22"), provisioner="kubernetes.io/scaleio"),
    Plugin("flocker", "K8SM-VOL-003", v("1.25")),
    Plugin("quobyte", "K8SM-VOL-003", v("1.25"), provisioner="kubernetes.io/quobyte"),
    Plugin("storageos", "K8SM-VOL-003", v("1.25"), provisioner="kubernetes.io/storageos"),
    Plugin("glusterfs", "K8SM-VOL-004", v("1.26"), provisioner="kubernetes.io/glusterfs"),
    Plugin("cephfs", "K8SM-VOL-005", v("1.31")),
    Plugin("rbd", "K8SM-VOL-006", v("1.31"), provisioner="kubernetes.io/rbd"),
    Plugin("gitRepo", "K8SM-VOL-007", v("1.33"), error_from=v("1.36"), error_code="K8SM-VOL-008"),
    Plugin("awsElasticBlockStore", "K8SM-VOL-010", v("1.23"), "ebs.csi.aws.com", "kubernetes.io/aws-ebs"),
    Plugin("gcePersistentDisk", "K8SM-VOL-011", v("1.23"), "pd.csi.storage.gke.io", "kubernetes.io/gce-pd"),
    Plugin("azureDisk", "K8SM-VOL-012", v("1.23"), "disk.csi.azure.com", "kubernetes.io/azure-disk"),
    Plugin("azureFile", "K8SM-VOL-013", v("1.24"), "file.csi.azure.com", "kubernetes.io/azure-file"),
    Plugin("cinder", "K8SM-VOL-014", v("1.21"), "cinder.csi.openstack.org", "kubernetes.io/cinder"),
    Plugin("vsphereVolume", "K8SM-VOL-015", v("1.25"), "csi.vsphere.vmware.com", "kubernetes.io/vsphere-volume"),
    Plugin("portworxVolume", "K8SM-VOL-016", v("1.31"), "pxd.portworx.com", "kubernetes.io/portworx-volume"),
    Plugin("flexVolume", "K8SM-VOL-017", v("1.23"), driver="a CSI driver"),
)
BY_FIELD = {p.field: p for p in PLUGINS}
BY_PROVISIONER = {p.provisioner: p for p in PLUGINS if p.provisioner}


def judge(plugin: Plugin, node: Node, where: str, ctx: Context, storage_class: bool = False) -> None:
    """Report one use of an in-tree plugin, if it matters at the target."""
    if not ctx.target_from(plugin.since):
        return
    code = ("K8SM-VOL-021" if plugin.driver == "" else "K8SM-VOL-020") if storage_class else plugin.code
    if plugin.field == "gitRepo":
        message = (
            f"{where}: gitRepo volumes are off by default from 1.33 and cannot be turned on from 1.36; "
            "use an emptyDir volume filled by an init container that runs git clone"
        )
        if plugin.error_from is not None and ctx.target_from(plugin.error_from):
            ctx.error(plugin.error_code, message, node)
        else:
            ctx.warn(code, message, node)
    elif plugin.field == "flexVolume":
        ctx.info(code, f"{where}: flexVolume is deprecated since 1.23 (still working); move to a CSI driver", node)
    elif plugin.driver:
        ctx.warn(
            code,
            f"{where}: in-tree {plugin.field} is served by the CSI driver {plugin.driver} from {plugin.since} "
            "(CSI migration, no opt-out once locked): install the driver before upgrading",
            node,
        )
    else:
        ctx.error(
            code,
            f"{where}: the in-tree {plugin.field} plugin does nothing from {plugin.since} (removed without CSI "
            "migration): move the data to a volume type the cluster still serves (a CSI driver)",
            node,
        )


def volumes(obj: Mapping) -> Iterator[tuple[str, Mapping]]:
    """``(where, mapping holding the plugin field)`` of the object."""
    if obj.data("kind") == "PersistentVolume":
        spec = obj.mapping("spec")
        if spec is not None:
            yield "spec", spec
        return
    for _metadata, spec in pod_specs(obj):
        items = spec.sequence("volumes")
        for i, volume in items.mappings() if items is not None else ():
            yield f"volume {volume.data('name') or i!r}", volume


def body(obj: Mapping, ctx: Context) -> None:
    if obj.data("kind") == "StorageClass":
        node = obj.get("provisioner")
        plugin = BY_PROVISIONER.get(str(obj.data("provisioner")))
        if plugin is not None and node is not None:
            judge(plugin, node, f"provisioner {plugin.provisioner}", ctx, storage_class=True)
        return
    for where, holder in volumes(obj):
        for entry in holder.entries:
            plugin = BY_FIELD.get(entry.name)
            if plugin is not None:
                judge(plugin, entry.key, f"{where}: {entry.name}", ctx)


CODES = (
    Code("K8SM-VOL-001", "error", "photonPersistentDisk does nothing from 1.16"),
    Code("K8SM-VOL-002", "error", "scaleIO does nothing from 1.22"),
    Code("K8SM-VOL-003", "error", "flocker, quobyte and storageos do nothing from 1.25"),
    Code("K8SM-VOL-004", "error", "glusterfs does nothing from 1.26"),
    Code("K8SM-VOL-005", "error", "cephfs does nothing from 1.31"),
    Code("K8SM-VOL-006", "error", "rbd does nothing from 1.31"),
    Code("K8SM-VOL-007", "warning", "gitRepo is off by default from 1.33"),
    Code("K8SM-VOL-008", "error", "gitRepo cannot be turned on from 1.36"),
    Code("K8SM-VOL-010", "warning", "awsElasticBlockStore needs the EBS CSI driver from 1.23"),
    Code("K8SM-VOL-011", "warning", "gcePersistentDisk needs the GCE PD CSI driver from 1.23"),
    Code("K8SM-VOL-012", "warning", "azureDisk needs the Azure Disk CSI driver from 1.23"),
    Code("K8SM-VOL-013", "warning", "azureFile needs the Azure File CSI driver from 1.24"),
    Code("K8SM-VOL-014", "warning", "cinder needs the Cinder CSI driver from 1.21"),
    Code("K8SM-VOL-015", "warning", "vsphereVolume needs the vSphere CSI driver from 1.25"),
    Code("K8SM-VOL-016", "warning", "portworxVolume needs the Portworx CSI driver from 1.31"),
    Code("K8SM-VOL-017", "info", "flexVolume is deprecated"),
    Code("K8SM-VOL-020", "warning", "a StorageClass with the provisioner of a CSI-migrated in-tree plugin"),
    Code("K8SM-VOL-021", "error", "a StorageClass with the provisioner of a removed in-tree plugin"),
)

# every document is only parsed for this when a plugin's field or provisioner is in its text
# (a trigger-less check of v1 would parse every Service and ConfigMap)
_VOLUMES = Check(
    applies_to={**POD_APIS, "v1": (*POD_APIS["v1"], "PersistentVolume")},
    body=body,
    matters_from="1.16",  # the earliest rule; each plugin has its own release
    trigger=tuple(BY_FIELD),
    category="volume",
    summary="in-tree volume plugins removed or needing a CSI driver (pods, PVs, StorageClasses): reported",
    codes=CODES,
)
MIGRATIONS = [
    _VOLUMES,
    replace(
        _VOLUMES,
        applies_to={api: ("StorageClass",) for api in ("storage.k8s.io/v1", "storage.k8s.io/v1beta1")},
        trigger=tuple(BY_PROVISIONER),
    ),
]
