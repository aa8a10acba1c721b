"""Objects that a chart's values files hold (``extraObjects``, the ``raw`` chart): migrated in place.

A chart that renders whole objects from values (``{{ range .Values.resources }} --- {{ toYaml
. }}``) keeps an object on a removed API in values.yaml or a ci/*.yaml values file, where no
template migration sees it. Each block mapping with ``apiVersion``, ``kind`` and ``metadata``
is migrated as a document of its own and put back at its indentation, every other byte kept.
No-op cases first, then the migrations, then what is left alone; real helm proves that the
chart renders what migrating its rendering gives.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from k8smigrate import migrate_text
from k8smigrate.registry import default_registry
from k8smigrate.settings import Settings
from k8smigrate.templating.values_objects import migrate_objects, objects
from k8smigrate.versions import KubeVersion

from .strategies import Layout, current, ingress, layouts, rbac
from .templating_helpers import run_cli, write_chart

SETTINGS = Settings(target_version=KubeVersion.parse("1.29"))
PRIORITY = (
    "- apiVersion: scheduling.k8s.io/v1beta1\n  kind: PriorityClass\n  metadata:\n    name: critical\n  value: 1000\n"
)
INGRESS = (
    "  # the public entry\n"
    "  - apiVersion: extensions/v1beta1   # old\n"
    "    kind: Ingress\n"
    "    metadata:\n"
    "      name: web\n"
    "\n"
    "    spec:\n"
    "      backend:\n"
    "        serviceName: web\n"
    "        servicePort: 80\n"
)


def migrate(text: str) -> tuple[str, list[str]]:
    after, findings, _documents = migrate_objects(text, SETTINGS, "values.yaml", default_registry())
    assert migrate_objects(after, SETTINGS, "values.yaml", default_registry())[0] == after
    return after, [f.code for f in findings]


# ------------------------------------------------------------------ nothing to do


def test_values_without_objects_are_left_as_they_are() -> None:
    text = "image:\n  repository: nginx\nrbac:\n  apiVersion: v1beta1\n"
    assert objects(text) == [] and migrate(text) == (text, [])


def test_a_reference_to_an_object_is_not_an_object() -> None:
    # no metadata: scaleTargetRef names a Deployment, it is not one
    text = "hpa:\n  scaleTargetRef:\n    apiVersion: extensions/v1beta1\n    kind: Deployment\n    name: web\n"
    assert objects(text) == [] and migrate(text) == (text, [])


def test_a_current_object_is_left_as_it_is() -> None:
    text = "extraObjects:\n" + PRIORITY.replace("v1beta1", "v1")
    assert migrate(text) == (text, [])


def test_a_manifest_is_not_a_values_file() -> None:
    text = PRIORITY[2:].replace("\n  ", "\n")
    assert objects(text) == []


# ------------------------------------------------------------------ migrated where they are written


def test_an_object_of_a_list_is_migrated_at_its_indentation() -> None:
    text = "resources:\n" + PRIORITY
    after, _codes = migrate(text)
    assert after == text.replace("scheduling.k8s.io/v1beta1", "scheduling.k8s.io/v1")


def test_fields_move_and_comments_and_blank_lines_stay() -> None:
    text = "# extra objects\nextraObjects:\n" + INGRESS + "replicas: 2\n"
    after, _codes = migrate(text)
    assert after == (
        "# extra objects\nextraObjects:\n"
        "  # the public entry\n"
        "  - apiVersion: networking.k8s.io/v1   # old\n"
        "    kind: Ingress\n"
        "    metadata:\n"
        "      name: web\n"
        "\n"
        "    spec:\n"
        "      defaultBackend:\n"
        "        service:\n"
        "          name: web\n"
        "          port:\n"
        "            number: 80\n"
        "replicas: 2\n"
    )


def test_an_object_under_a_key_and_one_in_a_list_each_get_their_migration() -> None:
    text = "pdb:\n  apiVersion: policy/v1beta1\n  kind: PodDisruptionBudget\n  metadata: {name: p}\n"
    text += "  spec:\n    minAvailable: 1\nextra:\n" + INGRESS
    after, _codes = migrate(text)
    assert "pdb:\n  apiVersion: policy/v1\n  kind: PodDisruptionBudget\n" in after
    assert "  - apiVersion: networking.k8s.io/v1   # old\n" in after


def test_findings_are_at_the_object_lines_in_the_values_file() -> None:
    text = "extra:\n  - apiVersion: policy/v1beta1\n    kind: PodSecurityPolicy\n    metadata:\n      name: p\n"
    after, findings, _documents = migrate_objects(text, SETTINGS, "values.yaml", default_registry())
    assert after == text
    [error] = [f for f in findings if f.level == "error"]
    assert (error.code, error.line) == ("K8SM-GEN-007", 2)


# ------------------------------------------------------------------ left alone


def test_an_object_with_a_line_less_indented_than_itself_is_left_alone() -> None:
    text = "extra:\n  - apiVersion: scheduling.k8s.io/v1beta1\n    kind: PriorityClass\n# between\n"
    text += "    metadata:\n      name: c\n    value: 1\n"
    assert objects(text) == [] and migrate(text) == (text, [])


def test_a_flow_object_is_left_alone() -> None:
    text = "extra:\n  - {apiVersion: scheduling.k8s.io/v1beta1, kind: PriorityClass, metadata: {name: c}, value: 1}\n"
    assert objects(text) == []


# ------------------------------------------------------------------ the chart as a unit


RAW_TEMPLATE = "{{- range .Values.resources }}\n---\n{{ toYaml . }}\n{{- end }}\n"


def test_apply_migrates_the_objects_of_values_yaml_and_ci_values_files(tmp_path: Path) -> None:
    chart = write_chart(tmp_path / "raw", {"resources.yaml": RAW_TEMPLATE}, "resources:\n" + PRIORITY)
    (chart / "ci").mkdir()
    (chart / "ci" / "more-values.yaml").write_text("resources:\n" + PRIORITY, encoding="utf-8")
    code, output = run_cli("apply", "--in-place", "--target-version", "1.29", str(chart))
    assert code == 1, output
    for rel in ("values.yaml", "ci/more-values.yaml"):
        assert "- apiVersion: scheduling.k8s.io/v1\n" in (chart / rel).read_text(encoding="utf-8")
    assert "doc 0 PriorityClass critical: scheduling.k8s.io/v1beta1 → scheduling.k8s.io/v1" in output
    assert run_cli("apply", "--check", "--target-version", "1.29", str(chart))[0] == 0


def test_scan_shows_the_objects_of_values_files(tmp_path: Path) -> None:
    chart = write_chart(tmp_path / "raw", {"resources.yaml": RAW_TEMPLATE}, "resources:\n" + PRIORITY)
    code, output = run_cli("scan", "--target-version", "1.29", str(chart))
    assert code == 1, output
    assert "values.yaml:2: removed-api" in output and "PriorityClass critical" in output


def test_helm_renders_the_migrated_values_as_the_migrated_rendering(helm: str, tmp_path: Path) -> None:
    chart = write_chart(tmp_path / "raw", {"resources.yaml": RAW_TEMPLATE}, "resources:\n" + PRIORITY)
    before = render(helm, chart)
    assert "scheduling.k8s.io/v1beta1" in before
    run_cli("apply", "--in-place", "--target-version", "1.29", str(chart))
    migrated = migrate_text(before, target_version="1.29").text
    assert list(yaml.safe_load_all(render(helm, chart))) == list(yaml.safe_load_all(migrated))


def render(helm: str, folder: Path) -> str:
    command = [helm, "template", "r", str(folder), "--kube-version", "1.29.0"]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


# ------------------------------------------------------------------ properties


@settings(max_examples=60, deadline=None)
@given(layout=layouts(), found=st.lists(st.one_of(ingress(), rbac(), current()), min_size=1, max_size=3))
def test_each_object_migrates_as_it_would_alone_and_nothing_else_changes(layout: Layout, found: list[dict]) -> None:
    text = layout.emit({"replicaCount": 1, "extraObjects": found, "image": {"tag": "v1"}})
    assume(len(objects(text)) == len(found))  # a layout whose comment breaks an object's lines: left alone
    after, _codes = migrate(text)
    data = yaml.safe_load(after)
    assert {k: v for k, v in data.items() if k != "extraObjects"} == {"replicaCount": 1, "image": {"tag": "v1"}}
    for before, migrated in zip(found, data["extraObjects"], strict=True):
        alone = migrate_text(yaml.safe_dump(before, sort_keys=False), target_version="1.29").text
        assert migrated == yaml.safe_load(alone)
