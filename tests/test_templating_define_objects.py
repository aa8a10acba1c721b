"""Whole objects that a define writes (cetic's microservice: ``_ingress.yaml`` holds the Ingress).

No-op cases first (a define nobody includes, one on a served API), then the error, from
``apply`` and from ``scan`` alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .templating_helpers import run_cli, write_chart

INGRESS_DEFINE = """\
{{- define "ingress" -}}
{{- if .Values.ingress.enabled -}}
apiVersion: extensions/v1beta1
kind: Ingress
metadata:
  name: {{ .Release.Name }}
spec:
  backend:
    serviceName: web
    servicePort: 80
{{- end -}}
{{- end -}}
"""


@pytest.mark.parametrize(
    ("define", "including"),
    [
        (INGRESS_DEFINE, "{{- /* not included */ -}}\n"),
        (INGRESS_DEFINE.replace("extensions/v1beta1", "networking.k8s.io/v1"), '{{- include "ingress" . -}}\n'),
    ],
)
def test_a_define_nobody_includes_or_on_a_served_api_is_no_error(tmp_path: Path, define: str, including: str) -> None:
    folder = write_chart(tmp_path / "c", {"_ingress.yaml": define, "ingress.yaml": including})
    code, output = run_cli("apply", "--check", "--target-version", "1.29", str(folder))
    assert code == 0, output
    assert "K8SM-TPL-018" not in output


def test_an_included_define_that_writes_an_object_on_a_removed_api_is_an_error(tmp_path: Path) -> None:
    folder = write_chart(
        tmp_path / "c", {"_ingress.yaml": INGRESS_DEFINE, "ingress.yaml": '{{- include "ingress" . -}}\n'}
    )
    for command in (["apply", "--check"], ["scan"]):
        code, output = run_cli(*command, "--target-version", "1.29", str(folder))
        assert code == 3, output
        assert "_ingress.yaml:3: error K8SM-TPL-018" in output and 'the define "ingress"' in output
        # and where it is included: that template is what renders the object
        assert "templates/ingress.yaml:1: error K8SM-TPL-018" in output and "(the define is at" in output
