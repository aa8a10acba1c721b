"""Spec: pod annotations in a chart's values.yaml that Kubernetes no longer reads.

No-op cases first, then the edit (the critical-pod annotation deleted, as from a pod), then the
error (a seccomp annotation: its field is in the pod spec, which values do not describe), then a
whole chart through ``migrate_paths`` and ``scan``.
"""

from __future__ import annotations

from pathlib import Path

from k8smigrate import migrate_paths, scan_file
from k8smigrate.registry import default_registry
from k8smigrate.settings import Settings
from k8smigrate.templating.values_annotations import migrate_values

from .templating_helpers import write_chart

SECCOMP = """\
# kubernetes-dashboard 2.x
podAnnotations:
  seccomp.security.alpha.kubernetes.io/pod: 'runtime/default'
"""

CRITICAL = """\
podAnnotations:
  sidecar.istio.io/inject: "false"   # no mesh
  scheduler.alpha.kubernetes.io/critical-pod: ""

priorityClassName: ""
"""

DEPLOYMENT = """\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  selector:
    matchLabels: {app: x}
  template:
    metadata:
      labels: {app: x}
      annotations:
        {{- toYaml .Values.podAnnotations | nindent 8 }}
    spec:
      containers:
        - name: x
          image: x
"""


def run(text: str, target: str = "1.29", minimum: str | None = None) -> tuple[str, list[str]]:
    settings = Settings(target_version=target, min_version=minimum)
    out, findings = migrate_values(text, settings, "chart/values.yaml", default_registry())
    return out, [f"{f.code}:{f.line}" for f in findings]


def test_noop_without_such_annotations() -> None:
    text = "podAnnotations:\n  sidecar.istio.io/inject: 'false'\n"
    assert run(text) == (text, [])


def test_noop_before_the_annotations_stop_working_or_before_the_field_exists() -> None:
    assert run(SECCOMP, target="1.24") == (SECCOMP, [])
    assert run(SECCOMP, target="1.29", minimum="1.18") == (SECCOMP, [])  # no seccompProfile at 1.18
    assert run(CRITICAL, target="1.15") == (CRITICAL, [])


def test_the_critical_pod_annotation_is_deleted_and_every_other_byte_stays() -> None:
    out, codes = run(CRITICAL)
    assert out == CRITICAL.replace('  scheduler.alpha.kubernetes.io/critical-pod: ""\n', "")
    assert codes == ["K8SM-FLD-010:3"]


def test_a_seccomp_annotation_is_an_error_at_its_key_naming_the_field() -> None:
    out, codes = run(SECCOMP)
    assert (out, codes) == (SECCOMP, ["K8SM-TPL-015:3"])
    container = SECCOMP.replace(
        "seccomp.security.alpha.kubernetes.io/pod", "container.seccomp.security.alpha.kubernetes.io/web"
    )
    settings = Settings(target_version="1.29")
    _out, findings = migrate_values(container, settings, "values.yaml", default_registry())
    assert "set container web's securityContext.seccompProfile" in findings[0].message


TOLERATE_UNREADY = """\
# headless service
headless:
  annotations:
    service.alpha.kubernetes.io/tolerate-unready-endpoints: "{value}"
"""


def test_a_true_tolerate_unready_annotation_is_an_error_at_its_key_naming_the_field() -> None:
    # cetic's nifi: from 1.24 its not-ready pods drop out of the headless Service's DNS
    text = TOLERATE_UNREADY.format(value="true")
    assert run(text, target="1.23") == (text, [])  # still read by the endpoints controller
    out, codes = run(text)
    assert (out, codes) == (text, ["K8SM-TPL-015:4"])
    _out, findings = migrate_values(text, Settings(target_version="1.29"), "values.yaml", default_registry())
    assert "spec.publishNotReadyAddresses: true" in findings[0].message
    assert run(TOLERATE_UNREADY.format(value="false")) == (TOLERATE_UNREADY.format(value="false"), [])


def test_apply_and_scan_on_a_chart(tmp_path: Path) -> None:
    root = write_chart(
        tmp_path / "c", {"deployment.yaml": DEPLOYMENT}, CRITICAL + SECCOMP.replace("podAnnotations", "agent")
    )
    outcomes = list(migrate_paths(root, in_place=True, target_version="1.29"))
    values = (root / "values.yaml").read_text(encoding="utf-8")
    assert "critical-pod" not in values and "seccomp.security.alpha.kubernetes.io/pod" in values
    codes = [f.code for o in outcomes if o.path.name == "values.yaml" for f in o.result.findings]
    assert codes == ["K8SM-FLD-010", "K8SM-TPL-015"]
    rows = scan_file(root / "values.yaml", target_version="1.29").scan or []
    assert [(r.code, r.status, r.migration) for r in rows] == [("K8SM-TPL-015", "breaking", None)]  # not fixable
