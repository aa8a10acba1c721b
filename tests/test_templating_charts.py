"""Golden cases from real charts (../shared/corpus/charts): one per idiom of computed apiVersions.

Each case names the chart, the window and, per site, the status and the body's migration;
the edits are given as (file, text replaced, replacement), short enough to read like a diff.
The whole corpus is then planned at the issue's windows: every site is decided or explained,
and every edit verifies.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from k8smigrate.templating.apiversions import plan
from k8smigrate.versions import Window

from .templating_helpers import read_chart, texts

Site = tuple[str, int, str, str | None]
"""(template, line, status, body_to)"""

Change = tuple[str, str, str]
"""(file, text replaced, replacement)"""

V1 = "networking.k8s.io/v1"

GOLDEN: list[tuple[str, str, str, list[Site], list[Change]]] = [
    # whole-line if/else on semverCompare; the else arm is dead for the window and stays
    (
        "atlantis",
        "1.22",
        "1.29",
        [("templates/ingress.yaml", 4, "rewritten", V1)],
        [("templates/ingress.yaml", "networking.k8s.io/v1beta1", V1)],
    ),
    # whole-line if/else on APIVersions.Has: both arms are live (helm template vs a 1.22 cluster),
    # both become v1, and the if goes
    (
        "grafana",
        "1.22",
        "1.29",
        [("templates/ingress.yaml", 7, "rewritten", V1)],
        [
            (
                "templates/ingress.yaml",
                '{{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" }}\n'
                "apiVersion: networking.k8s.io/v1beta1\n{{ else }}\napiVersion: extensions/v1beta1\n{{ end -}}\n",
                f"apiVersion: {V1}\n",
            )
        ],
    ),
    # a constraint without -0 (>=1.14): a managed cluster's version takes the other arm
    (
        "kibana",
        "1.22",
        "1.29",
        [("templates/ingress.yaml", 5, "rewritten", V1)],
        [
            (
                "templates/ingress.yaml",
                '{{- if semverCompare ">=1.14" .Capabilities.KubeVersion.GitVersion }}\n'
                "apiVersion: networking.k8s.io/v1beta1\n{{ else }}\napiVersion: extensions/v1beta1\n{{- end }}\n",
                f"apiVersion: {V1}\n",
            )
        ],
    ),
    # inline {{ if Has }}…{{ else }}…{{ end }} with trim markers
    (
        "docker-registry",
        "1.22",
        "1.29",
        [("templates/ingress.yaml", 5, "rewritten", V1)],
        [
            (
                "templates/ingress.yaml",
                ' {{- if .Capabilities.APIVersions.Has "networking.k8s.io/v1beta1" }} networking.k8s.io/v1beta1'
                " {{- else }} extensions/v1beta1 {{- end }}",
                f" {V1}",
            )
        ],
    ),
    # helper with semverCompare "^1.14-0" in an else-if chain: its arm's literal
    (
        "drone",
        "1.22",
        "1.29",
        [("templates/ingress.yaml", 4, "rewritten", V1)]
        + [
            (f"templates/{n}.yaml", 2, "ok", None)
            for n in (
                "role-binding-pipeline",
                "role-binding-secrets",
                "role-binding",
                "role-pipeline",
                "role-secrets",
                "role",
            )
        ],
        [("templates/_helpers.tpl", "networking.k8s.io/v1beta1", V1)],
    ),
    # helper on Has "apps/v1/StatefulSet": false under helm template, true on a cluster
    (
        "percona-xtradb-cluster",
        "1.22",
        "1.29",
        [("templates/statefulset.yaml", 1, "rewritten", "apps/v1")],
        [
            (
                "templates/_helpers.tpl",
                '{{- if .Capabilities.APIVersions.Has "apps/v1/StatefulSet" -}}\n{{- print "apps/v1" -}}\n'
                '{{- else -}}\n{{- print "apps/v1beta2" -}}\n{{- end -}}\n',
                '{{- print "apps/v1" -}}\n',
            )
        ],
    ),
    # values.yaml default: rbac.authorization.k8s.io/{{ .Values.rbac.apiVersion }}
    (
        "couchbase-operator",
        "1.22",
        "1.29",
        [
            ("templates/admission-cluster-role.yaml", 3, "rewritten", "rbac.authorization.k8s.io/v1"),
            ("templates/couchbase-cluster-role-binding.yaml", 4, "rewritten", "rbac.authorization.k8s.io/v1"),
            ("templates/couchbase-cluster-role.yaml", 3, "rewritten", "rbac.authorization.k8s.io/v1"),
            ("templates/couchbase-role-template.yaml", 3, "rewritten", "rbac.authorization.k8s.io/v1"),
        ],
        [("values.yaml", "v1beta1", "v1")],
    ),
    # helpers already right; an HPA's scaleTargetRef uses the Deployment helper; PSP has no API from 1.25
    (
        "nginx-ingress",
        "1.22",
        "1.29",
        [
            ("templates/controller-daemonset.yaml", 4, "ok", None),
            ("templates/controller-deployment.yaml", 2, "ok", None),
            ("templates/controller-hpa.yaml", 15, "ok", None),
            ("templates/controller-psp.yaml", 2, "blocked", None),
            ("templates/default-backend-deployment.yaml", 2, "ok", None),
            ("templates/default-backend-hpa.yaml", 14, "ok", None),
            ("templates/default-backend-psp.yaml", 2, "blocked", None),
        ],
        [],
    ),
    # the kind is computed (kind: {{ include "traefik.rbac.scope" . | printf "%sRole" }})
    (
        "traefik",
        "1.22",
        "1.29",
        [
            ("templates/deployment.yaml", 2, "ok", None),
            ("templates/rbac.yaml", 9, "ok", None),
            ("templates/rbac.yaml", 44, "ok", None),
        ],
        [],
    ),
    # the version depends on cert-manager being installed: not something a release decides
    (
        "opa",
        "1.22",
        "1.29",
        [("templates/webhookconfiguration.yaml", line, "unknown", None) for line in (44, 55, 71, 84)],
        [],
    ),
]


@pytest.mark.parametrize(("name", "low", "high", "sites", "changes"), GOLDEN, ids=[g[0] for g in GOLDEN])
def test_golden(chart_corpus: Path, name: str, low: str, high: str, sites: list[Site], changes: list[Change]) -> None:
    sources = read_chart(chart_corpus / name)
    result = plan(sources, Window.of(high, low), keep_actions=False)
    assert [(s.site.path, s.site.line, s.status, s.body_to) for s in result.sites] == sites
    files = texts(sources)
    assert [(e.path, files[e.path][e.start : e.end], e.text) for e in result.edits] == changes


def test_dead_arms_are_removed_on_request(chart_corpus: Path) -> None:
    sources = read_chart(chart_corpus / "nginx-ingress")
    result = plan(sources, Window.of("1.29", "1.22"), remove_dead=True, keep_actions=False)
    files = texts(sources)
    replaced = [files[e.path][e.start : e.end] for e in result.edits]
    assert [e.text for e in result.edits] == ['{{- print "apps/v1" -}}\n', '{{- print "policy/v1beta1" -}}\n']
    assert all(r.startswith("{{- if semverCompare") for r in replaced)


@pytest.mark.parametrize(("low", "high"), [("1.22", "1.29"), ("1.19", "1.29"), ("1.16", "1.21")])
def test_every_corpus_site_is_decided_or_explained(chart_corpus: Path, low: str, high: str) -> None:
    window = Window.of(high, low)
    sites = 0
    for folder in sorted(p for p in chart_corpus.iterdir() if (p / "Chart.yaml").is_file()):
        result = plan(read_chart(folder), window)
        sites += len(result.sites)
        for site in result.sites:
            if site.status in ("blocked", "unknown"):
                assert site.findings, f"{folder.name} {site.site.path}:{site.site.line} is {site.status} silently"
            if site.status == "rewritten":
                assert site.target is not None
        assert len({(e.path, e.start) for e in result.edits}) == len(result.edits)
    assert sites == 74
