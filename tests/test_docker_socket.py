"""Spec: hostPath mounts of the Docker socket are reported from 1.24, never rewritten."""

from __future__ import annotations

from tests.helpers import check_noop, codes

POD = """
apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: agent
spec:
  selector: {{matchLabels: {{app: agent}}}}
  template:
    metadata:
      labels: {{app: agent}}
    spec:
      containers:
      - name: agent
        image: agent:1
        volumeMounts:
        - {{name: sock, mountPath: /var/run/docker.sock}}
      volumes:
      - name: sock
        hostPath:
          path: {path}
{extra}"""


def test_noop_below_1_24() -> None:
    assert codes(check_noop(POD.format(path="/var/run/docker.sock", extra=""), target_version="1.23")) == []


def test_noop_on_other_paths_and_kinds() -> None:
    assert codes(check_noop(POD.format(path="/run/containerd/containerd.sock", extra=""))) == []
    text = "apiVersion: v1\nkind: ConfigMap\ndata:\n  path: /var/run/docker.sock\n"
    assert codes(check_noop(text)) == []


def test_docker_socket_is_a_warning() -> None:
    for path in ("/var/run/docker.sock", "/run/docker.sock"):
        result = check_noop(POD.format(path=path, extra=""))
        assert codes(result, "warning") == ["K8SM-CRI-008"]
        assert (result.findings[0].line, result.findings[0].path) == (19, "spec.template.spec.volumes[0].hostPath")


def test_typed_socket_is_an_error() -> None:
    result = check_noop(POD.format(path="/var/run/docker.sock", extra="          type: Socket\n"))
    assert codes(result, "error") == ["K8SM-CRI-011"]


def test_cronjob_template_is_looked_at() -> None:
    text = """
    apiVersion: batch/v1
    kind: CronJob
    metadata: {name: c}
    spec:
      schedule: "* * * * *"
      jobTemplate:
        spec:
          template:
            spec:
              restartPolicy: Never
              containers: [{name: c, image: docker:cli}]
              volumes: [{name: s, hostPath: {path: /var/run/docker.sock}}]
    """
    assert codes(check_noop(text)) == ["K8SM-CRI-008"]
