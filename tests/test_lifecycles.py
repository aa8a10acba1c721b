"""Spec: one source of truth for API lifecycles, the table (``k8smigrate/data/removals.tsv``).

Steps declare only ``kinds``, ``from_api → to_api`` and the release that first serves
``to_api``; when ``from_api`` is deprecated and removed is the table's to say, for ``scan``,
the engine's removal findings, ``list``, ``explain`` and the docs alike. These tests fail on
any disagreement between the two declarations that remain: the steps and the table.
"""

from __future__ import annotations

import csv
import io

import pytest

from k8smigrate import lifecycles
from k8smigrate.catalog import explain_lines, list_lines, step_rows
from k8smigrate.components import ADD_ONS
from k8smigrate.hints import HINTS
from k8smigrate.indexgen import LIFECYCLES_FILE, generate_lifecycles
from k8smigrate.lifecycles import _rows, builtin, generated, parse_table
from k8smigrate.model import Step
from k8smigrate.packagedata import data_text
from k8smigrate.plan import full_chain
from k8smigrate.registry import default_registry
from k8smigrate.versions import KubeVersion

REGISTRY = default_registry()
STEPS = [(s, kind) for s in REGISTRY.steps for kind in s.kinds]


@pytest.mark.parametrize(("step", "kind"), STEPS, ids=lambda x: x if isinstance(x, str) else x.name)
def test_every_step_has_a_row_of_its_component(step: Step, kind: str) -> None:
    # a step without a row would migrate what scan never reports
    life = REGISTRY.lifecycle(step.from_api, kind)
    assert life is not None, f"add {step.from_api} {kind} to k8smigrate/data/removals.tsv"
    assert life.component == step.component


@pytest.mark.parametrize(("step", "kind"), STEPS, ids=lambda x: x if isinstance(x, str) else x.name)
def test_the_chain_of_steps_passes_through_the_tables_replacement(step: Step, kind: str) -> None:
    # the table names the API to move to while the old one goes (kubeadm: the next version, as
    # v1beta4 did not exist when v1beta2 went); the steps must get there
    life = REGISTRY.lifecycle(step.from_api, kind)
    assert life is not None
    reached = [s.to_api for s in full_chain(step.from_api, kind, REGISTRY)]
    if life.replacement is not None:
        assert life.replacement in reached, f"{step.name}: the steps reach {reached}, the table says {life.replacement}"
    else:  # no replacement: the step exists to refuse it (kubeadm ClusterStatus, PodSecurityPolicy)
        assert step.name in ("kubeadm_v1beta1", "kubeadm_v1beta2", "podsecuritypolicy_extensions_v1beta1")


@pytest.mark.parametrize(("step", "kind"), STEPS, ids=lambda x: x if isinstance(x, str) else x.name)
def test_the_target_api_is_served_before_the_source_api_goes(step: Step, kind: str) -> None:
    life = REGISTRY.lifecycle(step.from_api, kind)
    assert life is not None
    if life.removed_in is not None:
        assert step.available <= life.removed_in
    if life.deprecated_in is not None and life.removed_in is not None:
        assert life.deprecated_in <= life.removed_in


def test_no_builtin_step_restates_a_lifecycle() -> None:
    assert [s.name for s in REGISTRY.steps if s.deprecated_in or s.removed_in] == []


def test_the_table_serves_apis_without_a_step() -> None:
    psp = REGISTRY.lifecycle("policy/v1beta1", "PodSecurityPolicy")
    assert psp is not None and psp.removed_in == KubeVersion(1, 25) and psp.replacement is None
    assert REGISTRY.step("policy/v1beta1", "PodSecurityPolicy") is None


def test_kubeadm_cluster_status_follows_upstream() -> None:
    # kubeadm deprecated ClusterStatus in 1.18 (kubernetes PR #87656) and removed it in 1.22 (PR #101915),
    # although v1beta2 itself lived until 1.27: the step's other kinds say 1.22/1.27
    status = REGISTRY.lifecycle("kubeadm.k8s.io/v1beta2", "ClusterStatus")
    assert status is not None and (status.deprecated_in, status.removed_in) == (KubeVersion(1, 18), KubeVersion(1, 22))
    step = REGISTRY.step("kubeadm.k8s.io/v1beta2", "ClusterStatus")
    assert step is not None
    assert step_rows(step, REGISTRY) == [
        (("InitConfiguration", "ClusterConfiguration", "JoinConfiguration"), "1.22", "1.27"),
        (("ClusterStatus",), "1.18", "1.22"),
    ]
    rows = [line.split() for line in list_lines(REGISTRY) if line.startswith("kubeadm_v1beta2 ")]
    assert ["kubeadm_v1beta2", "1.18", "1.22", "kubeadm.k8s.io/v1beta2", "→", "v1beta3", "ClusterStatus"] in rows
    explained = explain_lines("kubeadm_v1beta2", REGISTRY) or []
    assert (
        "kubeadm.k8s.io/v1beta3 served from 1.22; kubeadm.k8s.io/v1beta2 deprecated in 1.18; removed in 1.22"
        in explained
    )


def test_every_row_names_a_component_and_add_ons_get_their_own() -> None:
    assert {life.component for life in builtin().values()} == {
        "kubernetes",
        "kubeadm",
        "kube-scheduler",
        *ADD_ONS,
    }
    header = "group\told_version\tkind\tdeprecated_in\tremoved_in\tnew_apiVersion\ttransform\tcomponent\n"
    rows = parse_table(
        header + "cert-manager.io\tv1alpha2\tCertificate\t1.4\t1.6\tcert-manager.io/v1\tnone\tcert-manager\n"
    )
    life = rows[("cert-manager.io/v1alpha2", "Certificate")]
    assert (life.component, life.removed_in, life.replacement) == (
        "cert-manager",
        KubeVersion(1, 6),
        "cert-manager.io/v1",
    )


def test_every_hint_is_for_a_row_of_the_table() -> None:
    assert [key for key in HINTS if key not in builtin()] == []


def test_a_row_for_every_kind_of_an_api_version() -> None:
    # Istio's Mixer kinds went with config.istio.io/v1alpha2, whatever their names (metric, logentry…)
    life = REGISTRY.lifecycle("config.istio.io/v1alpha2", "metric")
    assert life is not None and (life.component, life.removed_in) == ("istio", KubeVersion(1, 8))
    assert REGISTRY.lifecycle("config.istio.io/v1alpha3", "metric") is None


def test_the_shipped_table_is_read_as_csv_reads_it() -> None:
    text = data_text("removals.tsv")
    assert '"' not in text  # nothing quoted: splitting on tabs is enough
    assert list(_rows(text)) == list(csv.DictReader(io.StringIO(text), delimiter="\t"))
    assert list(_rows("a\tb\n\n1\t2\n")) == [{"a": "1", "b": "2"}]  # a blank line is no row


# -- the generated copy of the table (k8smigrate/lifecycles_index.py)


def test_the_checked_in_table_module_is_generated_from_the_table() -> None:
    assert LIFECYCLES_FILE.read_text(encoding="utf-8") == generate_lifecycles(data_text("removals.tsv")), (
        "k8smigrate/lifecycles_index.py is stale: run python -m k8smigrate.indexgen --write"
    )


def test_the_generated_table_reads_as_the_parsed_table_row_by_row() -> None:
    text = data_text("removals.tsv")
    fast, parsed = generated(text), parse_table(text)
    assert fast is not None  # current, so a run uses it
    assert list(fast) == list(parsed)  # the same keys in the same order
    for key, life in parsed.items():
        assert list(vars(fast[key]).items()) == list(vars(life).items()), key  # every field, in order
    assert builtin() == parsed


def test_a_table_edited_without_regenerating_is_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    text = data_text("removals.tsv")
    edited = text.replace("\t1.16\tapps/v1\t", "\t1.17\tapps/v1\t", 1)  # same size, other release
    assert edited != text and generated(edited) is None
    monkeypatch.setattr(lifecycles, "data_text", lambda name: edited)
    monkeypatch.setattr(lifecycles, "_BUILTIN", None)
    monkeypatch.setattr(lifecycles, "_BUILTIN_GENERATED", True)  # both put back after the test
    assert builtin() == parse_table(edited) != parse_table(text)
    assert not lifecycles.builtin_is_generated()  # so the default registry built from it is validated
