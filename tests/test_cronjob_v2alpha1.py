"""Spec: CronJob batch/v2alpha1 → batch/v1beta1 (unlimited job history pinned)."""

from __future__ import annotations

from tests.helpers import check_transformed, codes, run

CRONJOB = """
    apiVersion: batch/v2alpha1
    kind: CronJob
    metadata:
      name: backup
    spec:
      schedule: "0 3 * * *"
      {limits}
      jobTemplate:
        spec:
          template:
            spec:
              restartPolicy: OnFailure
              containers: [{{name: backup, image: backup}}]
    """


def test_limits_set_are_kept() -> None:
    text = CRONJOB.format(limits="successfulJobsHistoryLimit: 1\n      failedJobsHistoryLimit: 1")
    result = run(text, target_version="1.20")
    assert result.text == run(text, target_version="1.20").text
    assert "apiVersion: batch/v1beta1\n" in result.text
    assert codes(result) == []


def test_adopt_new_defaults_pins_nothing() -> None:
    result = check_transformed(
        CRONJOB.format(limits="suspend: false"),
        CRONJOB.format(limits="suspend: false").replace("batch/v2alpha1", "batch/v1"),
        adopt_new_defaults=True,
    )
    assert codes(result) == ["K8SM-GEN-002", "K8SM-GEN-002"]
