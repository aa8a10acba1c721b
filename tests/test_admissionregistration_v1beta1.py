"""Spec: Mutating/ValidatingWebhookConfiguration admissionregistration.k8s.io/v1beta1 → v1.

Also the decision mechanism end to end: library ``decisions=``, CLI ``--set``, config files.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from k8smigrate import migrate_text
from k8smigrate.cli import app
from k8smigrate.settings import SettingsError
from tests.helpers import check_noop, check_transformed, codes, dedent, run, validate

HOOK = """
    apiVersion: admissionregistration.k8s.io/v1beta1
    kind: ValidatingWebhookConfiguration
    metadata:
      name: policy
    webhooks:
    - name: policy.example.com  # the hook
      clientConfig:
        service:
          name: policy
          namespace: system
      rules:
      - operations: ["CREATE"]
        apiGroups: [""]
        apiVersions: ["v1"]
        resources: ["pods"]
    """

# ------------------------------------------------------------------ no-op cases


@pytest.mark.parametrize(
    "text",
    [
        pytest.param(
            """
            apiVersion: admissionregistration.k8s.io/v1
            kind: MutatingWebhookConfiguration
            metadata:
              name: done
            webhooks:
            - name: done.example.com
              clientConfig:
                url: https://done.example.com
              sideEffects: None
              admissionReviewVersions: ["v1"]
            """,
            id="already-v1",
        ),
        pytest.param(
            """
            apiVersion: admissionregistration.k8s.io/v1beta1
            kind: ValidatingAdmissionPolicy
            metadata:
              name: vap
            spec:
              failurePolicy: Fail
              validations:
              - expression: "object.spec.replicas <= 5"
            """,
            id="other-kind-same-group-version",
        ),
        pytest.param(
            """
            apiVersion: example.com/v1beta1
            kind: MutatingWebhookConfiguration
            webhooks:
            - name: a.example.com
            """,
            id="same-kind-other-group",
        ),
    ],
)
def test_noop(text: str) -> None:
    check_noop(text)


def test_noop_below_gate() -> None:
    check_noop(HOOK, target_version="1.15")


def test_noop_templated() -> None:
    result = check_noop(
        """
        apiVersion: admissionregistration.k8s.io/v1beta1
        kind: MutatingWebhookConfiguration
        webhooks:
        - name: {{ .Values.name }}
        """
    )
    assert "K8SM-GEN-001" in codes(result)


# ------------------------------------------------------------------ transforms


def test_pins_old_defaults_after_decision() -> None:
    result = check_transformed(
        HOOK,
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: ValidatingWebhookConfiguration
        metadata:
          name: policy
        webhooks:
        - name: policy.example.com  # the hook
          clientConfig:
            service:
              name: policy
              namespace: system
          rules:
          - operations: ["CREATE"]
            apiGroups: [""]
            apiVersions: ["v1"]
            resources: ["pods"]
          failurePolicy: Ignore
          matchPolicy: Exact
          sideEffects: None
          timeoutSeconds: 30
          admissionReviewVersions: ["v1beta1"]
        """,
        decisions={"sideEffects": "None"},
    )
    validate(result.text)
    assert codes(result) == ["K8SM-WH-004", "K8SM-WH-004", "K8SM-WH-001", "K8SM-WH-004", "K8SM-WH-002"]


def test_explicit_values_are_kept() -> None:
    text = """
        apiVersion: admissionregistration.k8s.io/v1beta1
        kind: MutatingWebhookConfiguration
        metadata:
          name: m
        webhooks:
        - name: m.example.com
          clientConfig:
            url: https://m.example.com/mutate
          failurePolicy: Fail
          matchPolicy: Equivalent
          sideEffects: NoneOnDryRun
          timeoutSeconds: 5
          admissionReviewVersions: ["v1", "v1beta1"]
          reinvocationPolicy: IfNeeded
        """
    result = check_transformed(text, dedent(text).replace("/v1beta1\n", "/v1\n", 1))
    validate(result.text)
    assert codes(result) == []


def test_null_and_empty_count_as_unset() -> None:
    result = check_transformed(
        """
        apiVersion: admissionregistration.k8s.io/v1beta1
        kind: MutatingWebhookConfiguration
        metadata:
          name: m
        webhooks:
        - name: m.example.com
          clientConfig:
            url: https://m.example.com/mutate
          failurePolicy:  # unset
          sideEffects: None
          admissionReviewVersions: []
        """,
        """
        apiVersion: admissionregistration.k8s.io/v1
        kind: MutatingWebhookConfiguration
        metadata:
          name: m
        webhooks:
        - name: m.example.com
          clientConfig:
            url: https://m.example.com/mutate
          failurePolicy: Ignore  # unset
          sideEffects: None
          admissionReviewVersions: ["v1beta1"]
          matchPolicy: Exact
          timeoutSeconds: 30
        """,
    )
    validate(result.text)


def test_adopt_new_defaults_skips_pins_but_writes_required_fields() -> None:
    result = check_transformed(
        HOOK,
        dedent(HOOK).replace("/v1beta1\n", "/v1\n", 1)
        + '  sideEffects: NoneOnDryRun\n  admissionReviewVersions: ["v1beta1"]\n',
        decisions={"sideEffects": "NoneOnDryRun"},
        adopt_new_defaults=True,
    )
    validate(result.text)
    assert codes(result, "info").count("K8SM-GEN-002") == 3


def test_sideeffects_some_replaced_in_place() -> None:
    result = run(
        """
        apiVersion: admissionregistration.k8s.io/v1beta1
        kind: MutatingWebhookConfiguration
        metadata:
          name: m
        webhooks:
        - name: m.example.com
          clientConfig:
            url: https://m.example.com/mutate
          sideEffects: Some  # writes to a DB
          admissionReviewVersions: ["v1beta1"]
          failurePolicy: Fail
          matchPolicy: Exact
          timeoutSeconds: 10
        """,
        decisions={"sideEffects": "NoneOnDryRun"},
    )
    assert "  sideEffects: NoneOnDryRun  # writes to a DB\n" in result.text
    assert codes(result) == ["K8SM-WH-001"]
    validate(result.text)


def test_typed_list_items_migrate() -> None:
    result = run(
        """
        apiVersion: admissionregistration.k8s.io/v1beta1
        kind: MutatingWebhookConfigurationList
        items:
        - metadata:
            name: m
          webhooks:
          - name: m.example.com
            clientConfig:
              url: https://m.example.com/mutate
            sideEffects: None
        """
    )
    assert result.text.startswith("apiVersion: admissionregistration.k8s.io/v1\n")
    assert "    timeoutSeconds: 30\n" in result.text


# ------------------------------------------------------------------ findings and decisions


@pytest.mark.parametrize("value", ["", "    sideEffects: Unknown\n", "    sideEffects: Some\n"])
def test_sideeffects_needs_a_decision(value: str) -> None:
    text = dedent(HOOK) + value.replace("    ", "  ", 1)
    result = run(text)
    assert result.text == text
    [finding] = [f for f in result.findings if f.level == "error"]
    assert finding.code == "K8SM-GEN-010"
    assert "--set sideEffects=None | NoneOnDryRun" in finding.message
    assert finding.path.startswith("webhooks[0]")


def test_decision_outside_allowed_values_is_refused() -> None:
    # the library checks settings as the CLI does: before anything runs
    with pytest.raises(SettingsError, match=re.escape("--set sideEffects=Unknown: not one of None | NoneOnDryRun")):
        run(HOOK, decisions={"sideEffects": "Unknown"})


def test_duplicate_webhook_names_are_an_error() -> None:
    text = """
        apiVersion: admissionregistration.k8s.io/v1beta1
        kind: ValidatingWebhookConfiguration
        webhooks:
        - name: a.example.com
          sideEffects: None
        - name: a.example.com
          sideEffects: None
        """
    result = check_noop(text)
    assert codes(result, "error") == ["K8SM-WH-003"]
    assert result.findings[0].path == "webhooks[1].name"


def test_unrecognised_review_versions_are_an_error() -> None:
    result = check_noop(
        """
        apiVersion: admissionregistration.k8s.io/v1beta1
        kind: ValidatingWebhookConfiguration
        webhooks:
        - name: a.example.com
          sideEffects: None
          admissionReviewVersions: [v2]
        """
    )
    assert codes(result, "error") == ["K8SM-WH-005"]


# ------------------------------------------------------------------ the decision through the CLI

OTHER = """
    ---
    apiVersion: scheduling.k8s.io/v1beta1
    kind: PriorityClass
    metadata:
      name: high
    value: 1000
    """


@pytest.fixture
def two_docs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "manifests.yaml"
    path.write_text(dedent(HOOK) + dedent(OTHER), encoding="utf-8")
    return path


def test_cli_without_decision_migrates_the_rest_and_exits_3(two_docs: Path) -> None:
    result = CliRunner().invoke(app, ["apply", "--in-place", "--target-version", "1.29", str(two_docs)])
    assert result.exit_code == 3
    assert "--set sideEffects=None | NoneOnDryRun" in result.output
    assert two_docs.read_text() == dedent(HOOK) + dedent(OTHER).replace("/v1beta1\n", "/v1\n")


def test_cli_with_set_migrates_everything(two_docs: Path) -> None:
    args = ["apply", "--in-place", "--target-version", "1.29", "--set", "sideEffects=None", str(two_docs)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 1, result.output
    text = two_docs.read_text()
    assert "admissionregistration.k8s.io/v1\n" in text
    assert "  sideEffects: None\n" in text
    validate(text)


@pytest.mark.parametrize(
    ("name", "content"),
    [
        (".k8smigrate.toml", '[decisions]\nsideEffects = "NoneOnDryRun"\n'),
        ("pyproject.toml", '[tool.k8smigrate.decisions]\nsideEffects = "NoneOnDryRun"\n'),
    ],
)
def test_cli_decision_from_config_file(two_docs: Path, name: str, content: str) -> None:
    (two_docs.parent / name).write_text(content, encoding="utf-8")
    result = CliRunner().invoke(app, ["apply", "--in-place", "--target-version", "1.29", str(two_docs)])
    assert result.exit_code == 1, result.output
    assert "  sideEffects: NoneOnDryRun\n" in two_docs.read_text()
    validate(two_docs.read_text())


def test_explain_lists_the_decision() -> None:
    result = CliRunner().invoke(app, ["explain", "admissionregistration_v1beta1"])
    assert result.exit_code == 0
    assert "--set sideEffects=None|NoneOnDryRun" in result.output


# ------------------------------------------------------------------ corpus regression


def test_corpus_webhooks(corpus: Path) -> None:
    for path in sorted(corpus.glob("*webhook*")) + sorted(corpus.glob("*admissionregistration*")):
        text = path.read_text(encoding="utf-8")
        for decisions in ({}, {"sideEffects": "None"}):
            result = migrate_text(text, target_version="1.29", decisions=decisions, filename=path.name)
            assert "K8SM-GEN-004" not in codes(result), path.name
            again = migrate_text(result.text, target_version="1.29", decisions=decisions)
            assert again.text == result.text, path.name
            if result.changed:
                validate(result.text)


# ------------------------------------------------------------------ golden files

GOLDEN = Path(__file__).parent / "golden" / "admissionregistration_v1beta1"


@pytest.mark.parametrize("before", sorted(GOLDEN.glob("*.before.yaml")), ids=lambda p: p.name)
def test_golden(before: Path) -> None:
    after = before.with_name(before.name.replace(".before.", ".after."))
    result = migrate_text(before.read_text(encoding="utf-8"), target_version="1.29")
    assert result.text == after.read_text(encoding="utf-8")
    validate(result.text)
