"""PersistentVolume ``volume.beta.kubernetes.io/mount-options`` annotation → ``spec.mountOptions`` (clean-up).

The beta annotation is the deprecated spelling of ``spec.mountOptions`` (WEB-1.28 labels page)
and is still honoured: ``MountOptionFromSpec`` (``pkg/volume/util/util.go``) reads the
annotation *first*, split on commas, and only then the field; ``JoinMountOptions`` drops empty
items and duplicates. Nothing breaks at any release, so this is a clean-up for every target
(K8SM-FLD-014, info):

- the comma list becomes ``spec.mountOptions``, one option per item (spaces around an item
  are trimmed, empty items dropped), and the annotation is deleted; an empty value, which
  adds no option, is only deleted;
- when ``spec.mountOptions`` already holds the same options (in any order: upstream joins
  them as a set), the annotation is deleted;
- when it holds other options, the annotation wins today and deleting it would change the
  mount: an error, and the document is left unchanged (K8SM-FLD-061).
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.comma_lists import move_to_field
from k8smigrate.model import Check
from k8smigrate.tree import Mapping

KEY = "volume.beta.kubernetes.io/mount-options"


def body(volume: Mapping, ctx: Context) -> None:
    conflict = ("K8SM-FLD-061", "the annotation is what is mounted today")
    move_to_field(volume, ctx, KEY, "mountOptions", "K8SM-FLD-014", empty="no option", conflict=conflict)


MIGRATION = Check(
    applies_to={"v1": ("PersistentVolume",)},
    body=body,
    trigger=KEY,
    category="annotation",
    edits=True,
    cleanup=True,
    summary="PersistentVolume mount-options beta annotation (deprecated) → spec.mountOptions",
    codes=(
        Code("K8SM-FLD-014", "info", "the mount-options annotation moved to spec.mountOptions (or dropped)"),
        Code("K8SM-FLD-061", "error", "the mount-options annotation and spec.mountOptions list different options"),
    ),
)
