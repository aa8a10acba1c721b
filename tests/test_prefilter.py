"""Spec: the raw-text pre-filter skips a document only when it is sure (issue 14 items 3 and 4).

YAML spells an apiVersion or kind in ways a look at the text cannot read: the value on the
next line, an anchor, a tag, an alias, a block scalar, escapes in double quotes, an explicit
key. Such documents are parsed, so that ``apply`` migrates them and ``scan`` lists them;
items of a ``List`` are objects of their own for ``scan`` as they are for ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, example, given, settings

import k8smigrate
from k8smigrate.prefilter import prefilter, unsure
from k8smigrate.registry import default_registry
from k8smigrate.settings import Settings
from tests.fuzz_checks import check_prefilter
from tests.helpers import codes, dedent
from tests.strategies import SPELLINGS, respell, spelled_streams

INGRESS = """
apiVersion: extensions/v1beta1
kind: Ingress
metadata: {name: web}
spec:
  backend: {serviceName: web, servicePort: 80}
"""
SETTINGS = Settings(target_version="1.29")


def _wanted() -> Callable[[str], bool]:
    return prefilter(default_registry(), SETTINGS, SETTINGS.window)


# ------------------------------------------------------------------ sure: skipped


@pytest.mark.parametrize(
    "text",
    [
        "apiVersion: v1\nkind: ConfigMap\ndata:\n  a: 'x\\y'\n  b: \"escaped \\n newline\"\n",
        "apiVersion: apps/v1\nkind: Deployment\n",
        '{"apiVersion": "v1", "kind": "Service"}',
        # a CRD schema describes fields named apiVersion and kind: mappings, not values
        "properties:\n  apiVersion:\n    # the version\n    description: x\n    type: string\n  kind:\n    type: string\n",
        "items:\n  kind:\n  - a\n",
        "x: 'what? yes'\n",
        # an escaped quote then ": " inside one double-quoted value (spring-cloud-dataflow's JSON)
        'apiVersion: v1\nkind: ConfigMap\ndata:\n  b: "{ \\"maven\\": null }"\n',
    ],
)
def test_plain_spellings_are_sure(text: str) -> None:
    assert not unsure(text)
    assert not _wanted()(text)


# ------------------------------------------------------------------ unsure: parsed, migrated, listed


@pytest.mark.parametrize("spelling", [s for s in SPELLINGS if s not in ("as-is", "single-quoted")])
@pytest.mark.parametrize("key", ["apiVersion", "kind"])
def test_every_spelling_of_a_removed_api_is_migrated_and_scanned(key: str, spelling: str) -> None:
    text = respell(dedent(INGRESS), key, spelling)
    assert unsure(text)
    result = k8smigrate.migrate_text(text, target_version="1.29")
    rows = k8smigrate.scan_text(text, target_version="1.29")
    assert [(r.api_version, r.kind, r.status) for r in rows] == [("extensions/v1beta1", "Ingress", "removed")]
    if (key, spelling) == ("apiVersion", "alias"):  # the value is shared with another key: by hand
        assert codes(result, "error") == ["K8SM-GEN-017"]
    else:
        assert result.documents[0].applied == ["ingress_extensions_v1beta1", "ingress_networking_v1beta1"]
        assert "networking.k8s.io/v1" in result.text


@pytest.mark.parametrize(
    "text",
    [
        '{"apiVersion":"extensions\\/v1beta1","kind":"Ingress","metadata":{"name":"web"},'
        '"spec":{"backend":{"serviceName":"web","servicePort":80}}}\n',
        '{"api\\u0056ersion": "extensions/v1beta1", "kind": "Ingress", "metadata": {"name": "web"}}\n',
    ],
)
def test_json_with_escapes_is_migrated(text: str) -> None:
    result = k8smigrate.migrate_text(text, target_version="1.29")
    assert result.documents[0].new_api_version == "networking.k8s.io/v1"
    assert k8smigrate.scan_text(text, target_version="1.29")[0].status == "removed"


# ------------------------------------------------------------------ Lists (item 4)


LIST = """
apiVersion: v1
kind: List
items:
- apiVersion: extensions/v1beta1
  kind: Ingress
  metadata: {name: web, namespace: shop}
  spec:
    backend: {serviceName: web, servicePort: 80}
- apiVersion: v1
  kind: Service
  metadata: {name: web}
- apiVersion: policy/v1beta1
  kind: PodSecurityPolicy
  metadata: {name: restricted}
  spec: {}
"""


def test_scan_lists_the_items_of_a_list() -> None:
    rows = k8smigrate.scan_text(dedent(LIST), target_version="1.29")
    assert [(r.line, r.api_version, r.kind, r.name, r.namespace, r.status) for r in rows] == [
        (4, "extensions/v1beta1", "Ingress", "web", "shop", "removed"),
        (12, "policy/v1beta1", "PodSecurityPolicy", "restricted", None, "removed"),
    ]
    assert rows[0].migration == "ingress_extensions_v1beta1 -> ingress_networking_v1beta1"


def test_scan_lists_the_items_of_a_typed_list_and_of_a_json_list() -> None:
    typed = (
        "apiVersion: rbac.authorization.k8s.io/v1beta1\nkind: RoleList\nitems:\n- metadata: {name: a}\n  rules: []\n"
    )
    rows = k8smigrate.scan_text(typed, target_version="1.29")
    assert [(r.api_version, r.kind, r.name) for r in rows] == [("rbac.authorization.k8s.io/v1beta1", "Role", "a")]
    as_json = '{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "batch/v1beta1", "kind": "CronJob"}]}'
    assert [r.kind for r in k8smigrate.scan_text(as_json, target_version="1.29")] == ["CronJob"]


def test_after_apply_a_rescan_agrees() -> None:
    text = dedent(LIST)
    migrated = k8smigrate.migrate_text(text, target_version="1.29").text
    rows = k8smigrate.scan_text(migrated, target_version="1.29")
    assert [(r.kind, r.status) for r in rows] == [("PodSecurityPolicy", "removed")]  # no replacement: by hand


# ------------------------------------------------------------------ the property


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(spelled_streams())
@example([respell(respell(dedent(INGRESS), "apiVersion", s), "kind", s) for s in SPELLINGS])
@example([dedent(LIST).replace("apiVersion: v1\n", "apiVersion:\n  v1\n", 1)])
def test_the_prefilter_never_skips_what_the_full_reader_would_migrate(docs: list[str]) -> None:
    check_prefilter(docs)


def test_the_prefilter_is_built_once_per_settings_and_window() -> None:
    """A run asks for it per file with the same objects: it is the one built for them, and
    other settings (or another window) get theirs."""
    registry = default_registry()
    plain = Settings(target_version="1.29")
    wanted = prefilter(registry, plain, plain.window)
    assert prefilter(registry, plain, plain.window) is wanted
    only_crd = Settings(target_version="1.29", only=("apiextensions_v1beta1",))
    crd_only = prefilter(registry, only_crd, only_crd.window)
    ingress = "apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata: {name: a}\n"
    assert wanted(ingress) and not crd_only(ingress)
    assert prefilter(registry, plain, Settings(target_version="1.15").window) is not wanted
    assert prefilter(registry, plain, plain.window) is wanted
