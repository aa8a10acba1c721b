"""apiVersions that chart templates compute: evaluation per release, edits, findings.

No-op cases first (nothing computed, a value-gated literal, a helper already right for the
window), then one transform per idiom (helper, inline ``if``, whole-line ``if``/``else``,
``values.yaml`` default, ``$kubeTargetVersion``, ``Has "group/version/Kind"``), then what is
reported instead of edited.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest

from k8smigrate.codes import GENERAL
from k8smigrate.templating.apiversions import CODES, ChartSources, per_release, plan, scan_rows
from k8smigrate.templating.capabilities import CLUSTER, HELM_TEMPLATE
from k8smigrate.versions import KubeVersion, Window

from .templating_helpers import (
    COMMON_KUBE_VERSION,
    DEPLOYMENT,
    INGRESS,
    INGRESS_HELPER,
    SEMVER_HELPER,
    after,
    chart,
    planned,
)


def codes(result: object) -> list[str]:
    return sorted(f.code for f in result.findings)  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------- no-op


def test_a_chart_without_computed_apiversions_has_no_sites() -> None:
    sources = chart({"cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\n"})
    result = planned(sources)
    assert (result.sites, result.edits, result.findings) == ([], [], [])


def test_a_literal_inside_a_values_condition_is_not_a_site() -> None:
    template = "{{- if .Values.ingress.enabled }}\napiVersion: extensions/v1beta1\nkind: Ingress\n{{- end }}\n"
    assert planned(chart({"ingress.yaml": template})).sites == []


def test_a_define_body_is_not_a_site_by_itself() -> None:
    template = '{{- define "x.doc" }}\napiVersion: {{ .Values.v }}\nkind: Role\n{{- end }}\n'
    assert planned(chart({"_docs.tpl": template})).sites == []


def test_a_helper_already_right_for_the_window_is_left_alone() -> None:
    sources = chart({"_helpers.tpl": SEMVER_HELPER, "deployment.yaml": DEPLOYMENT})
    result = planned(sources)
    (site,) = result.sites
    assert (site.status, site.kind, site.body_from, site.body_to) == ("ok", "Deployment", "apps/v1", None)
    assert result.edits == []
    assert {y.api for y in site.yields} == {"apps/v1"}
    (dead,) = result.findings
    assert (dead.code, dead.level, dead.filename, dead.line) == ("K8SM-TPL-102", "info", "templates/_helpers.tpl", 5)
    assert '{{- else -}} in define "x.deployment.apiVersion"' in dead.message
    assert "kept" in dead.message


def test_a_window_where_nothing_changes() -> None:
    helper = INGRESS_HELPER.replace(
        '{{- if semverCompare ">=1.14-0"',
        '{{- if semverCompare ">=1.19-0" .Capabilities.KubeVersion.GitVersion -}}\n'
        '{{- print "networking.k8s.io/v1" -}}\n{{- else if semverCompare ">=1.14-0"',
    )
    sources = chart({"_helpers.tpl": helper, "ingress.yaml": INGRESS}, "ingress:\n  enabled: false\n")
    result = planned(sources, "1.29", "1.19")
    (site,) = result.sites
    assert (site.status, site.body_from, site.body_to) == ("ok", "networking.k8s.io/v1", None)
    assert result.edits == []
    assert codes(result) == ["K8SM-TPL-102", "K8SM-TPL-102"]


def test_a_values_default_already_served() -> None:
    template = "apiVersion: rbac.authorization.k8s.io/{{ .Values.rbac.apiVersion }}\nkind: Role\n"
    result = planned(chart({"role.yaml": template}, "rbac:\n  apiVersion: v1\n"))
    assert [s.status for s in result.sites] == ["ok"]
    assert result.edits == [] and result.findings == []


# ---------------------------------------------------------------------------- evaluation


def test_yields_per_release_scenario_and_values_set() -> None:
    sources = chart(
        {"_helpers.tpl": INGRESS_HELPER.replace(">=1.14-0", ">=1.25-0"), "ingress.yaml": INGRESS},
        "ingress:\n  enabled: true\n",
        {"more-values.yaml": "ingress:\n  enabled: true\n"},
    )
    (site,) = planned(sources, "1.29", "1.22").sites
    releases = {y.release for y in site.yields}
    assert releases == {KubeVersion(1, m) for m in range(22, 30)}
    assert {y.values for y in site.yields} == {"values.yaml", "ci/more-values.yaml"}
    assert {y.scenario for y in site.yields} == {"helm-template", "cluster", "cluster-vendor"}
    at = {(y.release.minor, y.scenario): (y.api, y.served) for y in site.yields if y.values == "values.yaml"}
    assert at[(24, "cluster")] == ("extensions/v1beta1", False)
    assert at[(25, "cluster")] == ("networking.k8s.io/v1beta1", False)


def test_has_is_true_for_every_old_api_under_helm_template_and_follows_the_release_on_a_cluster() -> None:
    template = (
        '{{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" }}\n'
        "apiVersion: networking.k8s.io/v1beta1\n{{- else }}\napiVersion: extensions/v1beta1\n{{- end }}\nkind: Ingress\n"
    )
    (site,) = planned(chart({"ingress.yaml": template}), "1.29", "1.19").sites
    by = {(y.release.minor, y.scenario): y.api for y in site.yields}
    assert {by[(m, HELM_TEMPLATE.name)] for m in range(19, 30)} == {"networking.k8s.io/v1beta1"}
    assert by[(21, CLUSTER.name)] == "networking.k8s.io/v1beta1"
    assert by[(22, CLUSTER.name)] == "extensions/v1beta1"


@pytest.mark.parametrize(
    "condition",
    [
        'semverCompare ">=1.19-0" .Capabilities.KubeVersion.GitVersion',
        'semverCompare ">=1.19-0" .Capabilities.KubeVersion.Version',
        'semverCompare ">=1.19-0" $.Capabilities.KubeVersion.GitVersion',
        "ge (int .Capabilities.KubeVersion.Minor) 19",
        'semverCompare ">=1.19-0" (default .Capabilities.KubeVersion.GitVersion .Values.kubeVersion)',
        '(semverCompare ">=1.19-0" .Capabilities.KubeVersion.GitVersion)',
        'not (semverCompare "<1.19-0" .Capabilities.KubeVersion.GitVersion)',
        'or (semverCompare "^1.19-0" .Capabilities.KubeVersion.GitVersion) (semverCompare ">=2-0" "v1.0")',
    ],
)
def test_spellings_of_a_version_condition(condition: str) -> None:
    helper = (
        '{{- define "x.api" -}}\n'
        f"{{{{- if {condition} -}}}}\nnetworking.k8s.io/v1\n{{{{- else -}}}}\nnetworking.k8s.io/v1beta1\n"
        "{{- end -}}\n{{- end -}}\n"
    )
    template = 'apiVersion: {{ include "x.api" $ }}\nkind: Ingress\n'
    (site,) = planned(chart({"_helpers.tpl": helper, "ingress.yaml": template}), "1.20", "1.18").sites
    by = {(y.release.minor, y.scenario): y.api for y in site.yields}
    assert by[(18, "helm-template")] == by[(18, "cluster")] == "networking.k8s.io/v1beta1"
    assert by[(19, "helm-template")] == by[(20, "cluster")] == "networking.k8s.io/v1"


# ---------------------------------------------------------------------------- transforms


def test_helper_branch_literal_is_rewritten() -> None:
    sources = chart({"_helpers.tpl": INGRESS_HELPER, "ingress.yaml": INGRESS}, "ingress:\n  enabled: false\n")
    result = planned(sources)
    (site,) = result.sites
    assert (site.status, site.body_from, site.body_to) == (
        "rewritten",
        "networking.k8s.io/v1beta1",
        "networking.k8s.io/v1",
    )
    (edit,) = result.edits
    assert edit.path == "templates/_helpers.tpl"
    helpers = after(sources, result)["templates/_helpers.tpl"]
    assert helpers == INGRESS_HELPER.replace('print "networking.k8s.io/v1beta1"', 'print "networking.k8s.io/v1"')
    assert codes(result) == ["K8SM-TPL-101", "K8SM-TPL-102"]
    rewritten = next(f for f in result.findings if f.code == "K8SM-TPL-101")
    assert rewritten.filename == "templates/ingress.yaml" and rewritten.line == 2
    assert "migrate the body from networking.k8s.io/v1beta1 to networking.k8s.io/v1" in rewritten.message


def test_remove_dead_collapses_the_helper_to_its_live_arm() -> None:
    sources = chart({"_helpers.tpl": SEMVER_HELPER, "deployment.yaml": DEPLOYMENT})
    result = planned(sources, remove_dead=True)
    helpers = after(sources, result)["templates/_helpers.tpl"]
    assert helpers == (
        "{{/* the apiVersion for Deployments */}}\n"
        '{{- define "x.deployment.apiVersion" -}}\n{{- print "apps/v1" -}}\n{{- end -}}\n'
    )
    dead = next(f for f in result.findings if f.code == "K8SM-TPL-102")
    assert "removed" in dead.message


def test_remove_dead_keeps_an_arm_a_newer_release_takes() -> None:
    helper = SEMVER_HELPER.replace(">=1.9-0", ">=1.33-0").replace('"extensions/v1beta1"', '"apps/v1"')
    sources = chart({"_helpers.tpl": helper, "deployment.yaml": DEPLOYMENT})
    result = planned(sources, "1.29", "1.22", remove_dead=True)
    assert result.edits == []  # the >=1.33 arm is dead for 1.22–1.29 but not for 1.33
    assert codes(result) == ["K8SM-TPL-102"]


def test_inline_if_collapses_once_both_arms_agree() -> None:
    template = (
        'apiVersion: {{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" }} networking.k8s.io/v1beta1'
        " {{- else }} extensions/v1beta1 {{- end }}\nkind: Ingress\nmetadata:\n  name: x\n"
    )
    sources = chart({"ingress.yaml": template})
    result = planned(sources)
    assert [s.status for s in result.sites] == ["rewritten"]
    assert after(sources, result)["templates/ingress.yaml"] == (
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: x\n"
    )


@pytest.mark.parametrize(
    ("opening", "middle", "closing"),
    [
        ('{{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" }}\n', "{{ else }}\n", "{{ end -}}\n"),
        ('{{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" -}}\n', "{{- else -}}\n", "{{- end }}\n"),
        ('{{ if $.Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" }}\n', "{{ else }}\n", "{{ end -}}\n"),
    ],
)
def test_whole_line_branches_collapse_to_one_line(opening: str, middle: str, closing: str) -> None:
    template = (
        '{{- $fullName := include "x.fullname" . -}}\n'
        + opening
        + "apiVersion: networking.k8s.io/v1beta1\n"
        + middle
        + "apiVersion: extensions/v1beta1\n"
        + closing
        + "kind: Ingress\nmetadata:\n  name: {{ $fullName }}\n"
    )
    sources = chart({"ingress.yaml": template})
    result = planned(sources)
    assert after(sources, result)["templates/ingress.yaml"] == (
        '{{- $fullName := include "x.fullname" . -}}\n'
        "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: {{ $fullName }}\n"
    )


def test_whole_line_branches_with_a_dead_arm_get_only_the_live_literal_rewritten() -> None:
    template = (
        '{{- if semverCompare ">=1.14-0" .Capabilities.KubeVersion.GitVersion -}}\n'
        "apiVersion: networking.k8s.io/v1beta1\n{{- else -}}\napiVersion: extensions/v1beta1\n{{- end }}\nkind: Ingress\n"
    )
    sources = chart({"ingress.yaml": template})
    result = planned(sources)
    assert after(sources, result)["templates/ingress.yaml"] == template.replace(
        "networking.k8s.io/v1beta1", "networking.k8s.io/v1"
    )
    assert codes(result) == ["K8SM-TPL-101", "K8SM-TPL-102"]
    removed = after(sources, planned(sources, remove_dead=True))["templates/ingress.yaml"]
    assert removed == "apiVersion: networking.k8s.io/v1\nkind: Ingress\n"


def test_an_apiversion_that_reads_no_capabilities_is_served_per_release() -> None:
    # prometheus' ingress.apiVersion helper prints networking.k8s.io/v1beta1 whatever the
    # release: served from 1.19 to 1.21 only, so a window from 1.19 needs networking.k8s.io/v1
    sources = chart({"ingress.yaml": 'apiVersion: {{ print "networking.k8s.io/v1beta1" }}\nkind: Ingress\n'})
    (site,) = planned(sources, "1.29", "1.19", keep_actions=True).sites
    assert {(str(y.release), y.served) for y in site.yields if y.scenario == "cluster"} >= {
        ("1.21", True),
        ("1.22", False),
    }
    assert site.status == "blocked" and [f.code for f in site.findings] == ["K8SM-TPL-108"]
    rewritten = planned(sources, "1.29", "1.19")
    assert after(sources, rewritten)["templates/ingress.yaml"].startswith(
        'apiVersion: {{ print "networking.k8s.io/v1" }}'
    )


def test_releases_where_the_chart_fails_render_nothing_to_migrate() -> None:
    # traefik's IngressClass: v1, else v1beta1, else fail; helm template takes no arm (no
    # group/version/Kind entries), so the dead arm is kept and the option cannot remove it
    template = (
        '{{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1/IngressClass" }}\n'
        "apiVersion: networking.k8s.io/v1\n"
        '{{- else if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1/IngressClass" }}\n'
        "apiVersion: networking.k8s.io/v1beta1\n"
        '{{- else }}\n{{- fail "\\n\\n ERROR: no IngressClass" }}\n{{- end }}\nkind: IngressClass\n'
    )
    result = planned(chart({"ingressclass.yaml": template}), "1.29", "1.29")
    assert codes(result) == ["K8SM-TPL-102"]
    [dead] = result.findings
    assert "kept (the if has more than one outcome" in dead.message and "\n" not in dead.message


def test_a_values_apiversion_in_an_arm_no_release_takes_is_left_alone() -> None:
    # jenkins: the else arm for clusters before 1.14 reads its apiVersion from values.yaml
    template = (
        '{{- if semverCompare ">=1.19-0" .Capabilities.KubeVersion.GitVersion -}}\n'
        "apiVersion: networking.k8s.io/v1\n"
        '{{- else if semverCompare ">=1.14-0" .Capabilities.KubeVersion.GitVersion -}}\n'
        "apiVersion: networking.k8s.io/v1beta1\n"
        "{{- else -}}\napiVersion: {{ .Values.ingress.apiVersion }}\n{{- end }}\nkind: Ingress\n"
    )
    sources = chart({"ingress.yaml": template}, "ingress:\n  apiVersion: extensions/v1beta1\n")
    result = planned(sources)
    assert result.edits == []
    assert all(site.status == "ok" for site in result.sites)
    assert set(codes(result)) == {"K8SM-TPL-102"}


VALUES = """\
# RBAC settings
rbac:
  create: true
  # the RBAC API version
  apiVersion: "v1beta1"   # kept for old clusters
image: x
"""


@pytest.mark.parametrize(
    "value",
    [
        "{{ .Values.rbac.apiVersion }}",
        '{{ required "A valid .Values.rbac.apiVersion entry required!" .Values.rbac.apiVersion }}',
        '{{ .Values.rbac.apiVersion | default "v1beta1" }}',
    ],
)
def test_values_default_is_rewritten_with_its_quotes_and_comments(value: str) -> None:
    template = f"apiVersion: rbac.authorization.k8s.io/{value}\nkind: ClusterRole\n"
    sources = chart({"role.yaml": template}, VALUES)
    result = planned(sources)
    (site,) = result.sites
    assert (site.site.idiom, site.status, site.body_to) == ("values", "rewritten", "rbac.authorization.k8s.io/v1")
    changed = after(sources, result)
    assert changed["values.yaml"] == VALUES.replace('"v1beta1"', '"v1"')
    assert changed["templates/role.yaml"] == template
    (edit,) = result.edits
    assert (edit.path, VALUES[edit.start : edit.end], edit.text) == ("values.yaml", '"v1beta1"', '"v1"')
    (note,) = result.findings
    assert note.code == "K8SM-TPL-101" and "a user's own values file may still set the old version" in note.message


def test_a_ci_values_file_that_sets_the_old_version_is_rewritten_too() -> None:
    template = "apiVersion: rbac.authorization.k8s.io/{{ .Values.rbac.apiVersion }}\nkind: Role\n"
    sources = chart(
        {"role.yaml": template, "binding.yaml": template.replace("Role", "RoleBinding")},
        "rbac:\n  apiVersion: v1beta1\n",
        {"old-values.yaml": "rbac:\n  apiVersion: v1alpha1 # ancient\n", "other-values.yaml": "image: y\n"},
    )
    result = planned(sources)
    changed = after(sources, result)
    assert changed["values.yaml"] == "rbac:\n  apiVersion: v1\n"
    assert changed["ci/old-values.yaml"] == "rbac:\n  apiVersion: v1 # ancient\n"
    assert changed["ci/other-values.yaml"] == "image: y\n"
    assert sorted(e.path for e in result.edits) == ["ci/old-values.yaml", "values.yaml"]
    # a caller that passes only templates and values.yaml still gets the ci file's new text
    partial_texts = {**sources.templates, "values.yaml": sources.values}
    assert sorted(result.apply(partial_texts)) == ["ci/old-values.yaml", "values.yaml"]
    assert result.apply() == result.apply(partial_texts)


def test_kube_target_version_variable() -> None:
    template = (
        "{{- $kubeTargetVersion := default .Capabilities.KubeVersion.GitVersion .Values.kubeTargetVersionOverride }}\n"
        '{{- if semverCompare ">=1.16-0" $kubeTargetVersion }}\n'
        "apiVersion: policy/v1beta1\n{{- else }}\napiVersion: extensions/v1beta1\n{{- end }}\n"
        "kind: PodSecurityPolicy\n"
    )
    sources = chart({"psp.yaml": template}, 'kubeTargetVersionOverride: ""\n')
    result = planned(sources, "1.24", "1.16")
    (site,) = result.sites
    assert site.site.idiom == "branches"
    assert (site.status, site.body_from) == ("ok", "policy/v1beta1")
    pinned = chart({"psp.yaml": template}, 'kubeTargetVersionOverride: "1.15.0"\n')
    (site,) = planned(pinned, "1.24", "1.16").sites
    assert {y.api for y in site.yields} == {"extensions/v1beta1"}
    assert site.status == "rewritten" and site.body_to == "policy/v1beta1"


def test_has_group_version_kind_is_false_under_helm_template() -> None:
    helper = (
        '{{- define "x.statefulset.apiVersion" -}}\n'
        '{{- if .Capabilities.APIVersions.Has "apps/v1/StatefulSet" -}}\n{{- print "apps/v1" -}}\n'
        '{{- else -}}\n{{- print "apps/v1beta2" -}}\n{{- end -}}\n{{- end -}}\n'
    )
    template = 'apiVersion: {{ template "x.statefulset.apiVersion" . }}\nkind: StatefulSet\n'
    sources = chart({"_helpers.tpl": helper, "sts.yaml": template})
    result = planned(sources)
    (site,) = result.sites
    assert {(y.scenario, y.api) for y in site.yields} == {
        ("helm-template", "apps/v1beta2"),
        ("cluster", "apps/v1"),
        ("cluster-vendor", "apps/v1"),
    }
    assert after(sources, result)["templates/_helpers.tpl"] == (
        '{{- define "x.statefulset.apiVersion" -}}\n{{- print "apps/v1" -}}\n{{- end -}}\n'
    )
    with_flag = chart({"_helpers.tpl": helper, "sts.yaml": template}, api_versions=("apps/v1/StatefulSet",))
    assert planned(with_flag).sites[0].status == "ok"
    # actions kept (the default of apply): the error says that only helm template prints it
    [kept] = [f for f in planned(sources, keep_actions=True).findings if f.code == "K8SM-TPL-108"]
    assert "which only `helm template` reaches (a cluster gets apps/v1: " in kept.message


def test_a_helper_shared_by_a_document_and_a_reference_is_edited_once() -> None:
    hpa = (
        "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nspec:\n  scaleTargetRef:\n"
        '    apiVersion: {{ template "x.deployment.apiVersion" . }}\n    kind: Deployment\n    name: x\n'
    )
    helper = SEMVER_HELPER.replace('print "apps/v1"', 'print "extensions/v1beta1"')
    sources = chart({"_helpers.tpl": helper, "deployment.yaml": DEPLOYMENT, "hpa.yaml": hpa})
    result = planned(sources)
    assert [(s.site.path, s.site.root, s.kind, s.status) for s in result.sites] == [
        ("templates/deployment.yaml", True, "Deployment", "rewritten"),
        ("templates/hpa.yaml", False, "Deployment", "rewritten"),
    ]
    (edit,) = result.edits
    assert edit.text == "apps/v1"


def test_a_computed_kind_is_evaluated() -> None:
    helpers = '{{- define "x.scope" -}}{{- if .Values.cluster -}}Cluster{{- end -}}{{- end -}}\n'
    template = (
        '---\nkind: {{ include "x.scope" . | printf "%sRole" }}\n'
        '{{- if semverCompare "^1.8-0" .Capabilities.KubeVersion.GitVersion }}\n'
        "apiVersion: rbac.authorization.k8s.io/v1\n{{- else }}\napiVersion: rbac.authorization.k8s.io/v1beta1\n{{- end }}\n"
    )
    sources = chart({"_helpers.tpl": helpers, "rbac.yaml": template}, "cluster: true\n")
    (site,) = planned(sources).sites
    assert (site.kind, site.status) == ("ClusterRole", "ok")


def test_kinds_given_by_the_caller_win() -> None:
    template = "apiVersion: {{ .Values.api }}\nkind: {{ .Values.kind }}\n"
    sources = chart({"x.yaml": template}, "api: extensions/v1beta1\nkind: Ingress\n")
    result = planned(sources, kinds={("templates/x.yaml", 1): "Deployment"})
    assert result.sites[0].kind == "Deployment"
    assert result.sites[0].body_to == "apps/v1"


COMMON = (
    COMMON_KUBE_VERSION
    + """\
{{- define "common.capabilities.ingress.apiVersion" -}}
{{- if semverCompare "<1.14-0" (include "common.capabilities.kubeVersion" .) -}}
{{- print "extensions/v1beta1" -}}
{{- else -}}
{{- print "networking.k8s.io/v1beta1" -}}
{{- end -}}
{{- end -}}
"""
)


def test_a_library_subchart_helper_is_rewritten_with_a_warning_about_the_dependency() -> None:
    sources = chart(
        {"ingress.yaml": 'apiVersion: {{ include "common.capabilities.ingress.apiVersion" . }}\nkind: Ingress\n'},
        "global:\n  imageRegistry: ''\n",
    )
    sources = replace(sources, templates={**sources.templates, "charts/common/templates/_capabilities.tpl": COMMON})
    result = planned(sources)
    (site,) = result.sites
    assert (site.status, site.target) == ("rewritten", "networking.k8s.io/v1")
    (edit,) = result.edits
    assert edit.path == "charts/common/templates/_capabilities.tpl"
    note = next(f for f in result.findings if f.code == "K8SM-TPL-101")
    assert "updating the dependency undoes it" in note.message
    # the arms of the version helper depend on values a user may set: not reported as dead
    assert [f.code for f in result.findings if f.code == "K8SM-TPL-102"] == []
    pinned = replace(sources, values="kubeVersion: '1.13.0'\n")
    assert {y.api for y in planned(pinned).sites[0].yields} == {"extensions/v1beta1"}


# ---------------------------------------------------------------------------- reported, not edited


def ingress_by_version(since: str) -> ChartSources:
    """A chart whose helper prints networking.k8s.io/v1 from ``since`` on, v1beta1 before."""
    helper = (
        '{{- define "x.ingress.apiVersion" -}}\n'
        f'{{{{- if semverCompare ">={since}-0" .Capabilities.KubeVersion.GitVersion -}}}}\n'
        '{{- print "networking.k8s.io/v1" -}}\n'
        '{{- else -}}\n{{- print "networking.k8s.io/v1beta1" -}}\n{{- end -}}\n{{- end -}}\n'
    )
    return chart({"_helpers.tpl": helper, "ingress.yaml": INGRESS}, "ingress:\n  enabled: true\n")


def test_a_chart_that_already_gives_each_release_an_api_it_serves_is_left_to_the_body_check() -> None:
    # one body for networking.k8s.io/v1beta1 (1.18) and v1 (1.19-1.22): whether it serves both
    # is for the engine to say (chartplan migrates it from one to the other: K8SM-TPL-103 if it changes)
    sources = ingress_by_version("1.19")
    result = planned(sources, "1.22", "1.18")
    (site,) = result.sites
    assert (site.status, site.body_to) == ("branches", None)
    assert result.edits == []
    assert [f for f in result.findings if f.level == "error"] == []
    assert per_release(site.yields) == "networking.k8s.io/v1beta1 at 1.18; networking.k8s.io/v1 at 1.19–1.22"
    assert planned(sources, "1.22", "1.19").sites[0].status == "ok"  # the window lets v1 serve all


def test_body_that_must_differ_per_branch_is_reported_when_a_release_gets_an_api_it_does_not_serve() -> None:
    sources = ingress_by_version("1.23")
    result = planned(sources, "1.23", "1.18")  # v1beta1 at 1.22, where it is gone: a rewrite would be needed
    (site,) = result.sites
    assert site.status == "blocked"
    (error,) = [f for f in result.findings if f.level == "error"]
    assert error.code == "K8SM-TPL-103"
    assert "networking.k8s.io/v1beta1 serves 1.18–1.21, networking.k8s.io/v1 serves 1.19–1.23" in error.message


def test_a_rewrite_that_keeps_the_body_says_so() -> None:
    template = (
        '{{- if semverCompare ">=1.14" .Capabilities.KubeVersion.GitVersion }}\n'
        "apiVersion: networking.k8s.io/v1beta1\n{{- else }}\napiVersion: extensions/v1beta1\n{{- end }}\nkind: Ingress\n"
    )
    result = planned(chart({"ingress.yaml": template}), "1.21", "1.16")
    (site,) = result.sites
    assert (site.status, site.target, site.body_from, site.body_to) == (
        "rewritten",
        "networking.k8s.io/v1beta1",
        "networking.k8s.io/v1beta1",
        None,
    )
    assert "the body stays as it is" in result.findings[0].message


def test_a_kind_no_release_serves_is_reported() -> None:
    helper = SEMVER_HELPER.replace("x.deployment", "x.psp").replace('"apps/v1"', '"policy/v1beta1"')
    template = 'apiVersion: {{ template "x.psp.apiVersion" . }}\nkind: PodSecurityPolicy\n'
    result = planned(chart({"_helpers.tpl": helper, "psp.yaml": template}))
    assert [s.status for s in result.sites] == ["blocked"]
    error = next(f for f in result.findings if f.level == "error")
    assert error.code == "K8SM-TPL-104" and "1.25–1.29" in error.message


def test_what_cannot_be_evaluated_is_left_alone() -> None:
    template = 'apiVersion: {{ (lookup "v1" "ConfigMap" "x" "y").data.api }}\nkind: Deployment\n'
    result = planned(chart({"x.yaml": template}))
    assert [s.status for s in result.sites] == ["unknown"]
    assert result.edits == []
    assert codes(result) == ["K8SM-TPL-105"]


def test_an_add_on_api_is_untracked_and_silent() -> None:
    template = (
        '{{- if .Capabilities.APIVersions.Has "cert-manager.io/v1" }}\napiVersion: cert-manager.io/v1\n'
        "{{- else }}\napiVersion: cert-manager.io/v1alpha2\n{{- end }}\nkind: Certificate\n"
    )
    result = planned(chart({"cert.yaml": template}))
    assert [s.status for s in result.sites] == ["untracked"]
    assert (result.edits, result.findings) == ([], [])


def test_a_helper_two_kinds_need_differently_is_a_conflict() -> None:
    helper = '{{- define "x.api" -}}{{- print "extensions/v1beta1" -}}{{- end -}}\n'
    sources = chart(
        {
            "_helpers.tpl": helper,
            "deployment.yaml": 'apiVersion: {{ include "x.api" . }}\nkind: Deployment\n',
            "ingress.yaml": 'apiVersion: {{ include "x.api" . }}\nkind: Ingress\n',
        }
    )
    result = planned(sources)
    assert [s.status for s in result.sites] == ["blocked", "blocked"]
    assert result.edits == []
    assert codes(result) == ["K8SM-TPL-106", "K8SM-TPL-106"]


def test_a_constraint_without_a_prerelease_is_flagged_where_it_matters() -> None:
    helper = (
        '{{- define "x.ingress.apiVersion" -}}\n'
        '{{- if semverCompare ">=1.19" .Capabilities.KubeVersion.GitVersion -}}\n{{- print "networking.k8s.io/v1" -}}\n'
        '{{- else -}}\n{{- print "networking.k8s.io/v1beta1" -}}\n{{- end -}}\n{{- end -}}\n'
    )
    sources = chart({"_helpers.tpl": helper, "ingress.yaml": INGRESS}, "ingress:\n  enabled: true\n")
    result = planned(sources, "1.22", "1.18")
    assert "K8SM-TPL-107" in codes(result)
    warning = next(f for f in result.findings if f.code == "K8SM-TPL-107")
    assert "-0" in warning.message


def test_a_template_that_fails_to_parse_is_reported() -> None:
    result = planned(chart({"bad.yaml": "apiVersion: {{ .x\n"}))
    assert codes(result) == ["K8SM-TPL-105"]
    assert result.findings[0].filename == "templates/bad.yaml"


def test_codes_are_declared_once_and_documented() -> None:
    assert len({c.code for c in CODES}) == len(CODES)
    assert all(c.code.startswith("K8SM-TPL-1") for c in CODES)
    assert all(GENERAL[c.code] == c for c in CODES)  # core codes: sarif, explain and the docs read them
    generated = (Path(__file__).resolve().parent.parent / "docs" / "migrations.md").read_text(encoding="utf-8")
    for code in CODES:
        row = next((ln for ln in generated.splitlines() if ln.startswith(f"| `{code.code}` |")), None)
        assert row is not None, f"{code.code} is missing from docs/migrations.md"
        assert row.split("|")[2].strip() == code.level


# ---------------------------------------------------------------------------- scan


def test_scan_rows_name_the_helper_line_that_produces_each_version() -> None:
    sources = chart({"_helpers.tpl": INGRESS_HELPER, "ingress.yaml": INGRESS}, "ingress:\n  enabled: true\n")
    rows = scan_rows(sources, Window.of("1.29", "1.12"))
    shown = {(r.api_version, r.releases, r.source_path, r.source_line, r.source, r.served) for r in rows}
    assert (
        "extensions/v1beta1",
        "1.12–1.13",
        "templates/_helpers.tpl",
        5,
        "define 'x.ingress.apiVersion'",
        True,
    ) in shown
    assert (
        "networking.k8s.io/v1beta1",
        "1.14–1.21",
        "templates/_helpers.tpl",
        3,
        "define 'x.ingress.apiVersion'",
        True,
    ) in shown
    assert (
        "networking.k8s.io/v1beta1",
        "1.22–1.29",
        "templates/_helpers.tpl",
        3,
        "define 'x.ingress.apiVersion'",
        False,
    ) in shown
    assert all(r.path == "templates/ingress.yaml" and r.line == 2 and r.kind == "Ingress" for r in rows)


def test_scan_rows_name_the_values_key() -> None:
    template = "apiVersion: rbac.authorization.k8s.io/{{ .Values.rbac.apiVersion }}\nkind: Role\n"
    rows = scan_rows(chart({"role.yaml": template}, VALUES), Window.of("1.29", "1.22"))
    assert {(r.api_version, r.source_path, r.source_line, r.source) for r in rows} == {
        ("rbac.authorization.k8s.io/v1beta1", "values.yaml", 5, "values key rbac.apiVersion")
    }


# ---------------------------------------------------------------------------- keep_actions (the default)

ACTION = re.compile(r"\{\{.*?\}\}", re.S)


def actions_of(files: dict[str, str]) -> Counter[str]:
    return Counter(a for text in files.values() for a in ACTION.findall(text))


def test_by_default_a_literal_inside_an_action_is_reported_not_rewritten() -> None:
    sources = chart({"_helpers.tpl": INGRESS_HELPER, "ingress.yaml": INGRESS}, "ingress:\n  enabled: false\n")
    result = plan(sources, Window.of("1.29", "1.22"))
    assert result.edits == []
    (site,) = result.sites
    assert (site.status, site.body_to) == ("blocked", None)
    blocked = next(f for f in result.findings if f.code == "K8SM-TPL-108")
    assert (blocked.level, blocked.filename, blocked.line) == ("error", "templates/ingress.yaml", 2)
    assert '{{- print "networking.k8s.io/v1beta1" -}}' in blocked.message and "networking.k8s.io/v1" in blocked.message


def test_by_default_an_if_whose_arms_agree_is_kept_with_its_literals_rewritten() -> None:
    template = (
        'apiVersion: {{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" }} networking.k8s.io/v1beta1'
        " {{- else }} extensions/v1beta1 {{- end }}\nkind: Ingress\nmetadata:\n  name: x\n"
    )
    sources = chart({"ingress.yaml": template})
    result = plan(sources, Window.of("1.29", "1.22"))
    assert [s.status for s in result.sites] == ["rewritten"]
    edited = after(sources, result)
    assert edited["templates/ingress.yaml"] == template.replace(" extensions/v1beta1", " networking.k8s.io/v1").replace(
        "}} networking.k8s.io/v1beta1", "}} networking.k8s.io/v1"
    )
    assert actions_of(edited) == actions_of(dict(sources.templates))


def test_a_refused_site_keeps_its_apiversion_with_the_reason() -> None:
    sources = chart({"_helpers.tpl": INGRESS_HELPER, "ingress.yaml": INGRESS}, "ingress:\n  enabled: false\n")
    (site,) = plan(sources, Window.of("1.29", "1.22"), keep_actions=False).sites  # sites are keyed by their offset
    refused = {(site.site.path, site.site.start): "why"}
    result = plan(sources, Window.of("1.29", "1.22"), keep_actions=False, refused=refused)
    assert result.edits == []
    assert [(s.status, s.target) for s in result.sites] == [("blocked", None)]
    finding = next(f for f in result.findings if f.code == "K8SM-TPL-109")
    assert finding.message == "apiVersion left as it is: why"
