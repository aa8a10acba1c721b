"""Spec: CronJob batch/v1beta1 → batch/v1, and batch/v2alpha1 → batch/v1beta1 before it."""

from __future__ import annotations

from tests.helpers import check_noop, check_transformed, codes, run, validate

CRONJOB = """
    apiVersion: {api}
    kind: CronJob
    metadata:
      name: backup
    spec:
      schedule: "{schedule}"
      jobTemplate:
        spec:
          template:
            spec:
              restartPolicy: OnFailure
              containers:
              - name: backup
                image: backup
    """


def test_noop_already_v1() -> None:
    check_noop(CRONJOB.format(api="batch/v1", schedule="0 3 * * *"))


def test_noop_below_gate() -> None:
    check_noop(CRONJOB.format(api="batch/v1beta1", schedule="0 3 * * *"), target_version="1.20")


def test_noop_job_in_same_group() -> None:
    check_noop(
        """
        apiVersion: batch/v1beta1
        kind: Job
        metadata:
          name: x
        """
    )


def test_rename() -> None:
    result = check_transformed(
        CRONJOB.format(api="batch/v1beta1", schedule="0 3 * * *"),
        CRONJOB.format(api="batch/v1", schedule="0 3 * * *"),
    )
    assert codes(result) == []
    validate(result.text)


def test_tz_prefix_warned_not_rewritten() -> None:
    result = check_transformed(
        CRONJOB.format(api="batch/v1beta1", schedule="CRON_TZ=Europe/Paris 0 3 * * *"),
        CRONJOB.format(api="batch/v1", schedule="CRON_TZ=Europe/Paris 0 3 * * *"),
    )
    assert codes(result, "warning") == ["K8SM-CJ-001"]
    assert "timeZone: Europe/Paris" in result.findings[0].message


def test_v2alpha1_pins_unlimited_history() -> None:
    result = check_transformed(
        CRONJOB.format(api="batch/v2alpha1", schedule="0 3 * * *"),
        """
        apiVersion: batch/v1
        kind: CronJob
        metadata:
          name: backup
        spec:
          schedule: "0 3 * * *"
          successfulJobsHistoryLimit: 2147483647
          failedJobsHistoryLimit: 2147483647
          jobTemplate:
            spec:
              template:
                spec:
                  restartPolicy: OnFailure
                  containers:
                  - name: backup
                    image: backup
        """,
    )
    validate(result.text)
    assert codes(result) == ["K8SM-CJ-002", "K8SM-CJ-002"]
    assert result.documents[0].applied == ["cronjob_v2alpha1", "cronjob_v1beta1"]


def test_v2alpha1_stops_at_v1beta1_for_an_old_window() -> None:
    result = run(CRONJOB.format(api="batch/v2alpha1", schedule="0 3 * * *"), target_version="1.20")
    assert "apiVersion: batch/v1beta1\n" in result.text


def test_corpus_fixture(corpus) -> None:  # type: ignore[no-untyped-def]
    result = run((corpus / "kube-no-trouble-2366d92__fixtures_cronjob-v1beta1.yaml").read_text())
    assert codes(result, "error") == []
    assert result.changed
    validate(result.text)
