"""Jinja2 templates: tags found as Jinja2's own lexer finds them, then migrated through the skeleton.

The tag spans are checked against ``jinja2.lexer`` itself (its token stream, with the default
environment and Ansible's ``trim_blocks``) on hand-written cases and on every ``.j2`` file of
the corpus; then kubespray's kubeadm templates, whose newer versions upstream wrote by hand.
"""

from __future__ import annotations

import re
from pathlib import Path

import jinja2
import pytest

from k8smigrate import migrate_text
from k8smigrate.templating import jinja
from k8smigrate.templating.golex import LexError
from k8smigrate.templating.migrate import dialect_of
from tests.helpers import dedent

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "files"


def jinja_tags(text: str) -> list[str]:
    """The text of every tag, from jinja2's lexer: begin token to end token."""
    env = jinja2.Environment(trim_blocks=True)
    out: list[str] = []
    start = None
    pos = 0
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    for _lineno, token, value in env.lexer.tokeniter(text, "t"):
        if token in ("variable_begin", "block_begin", "comment_begin"):
            start = text.index(value, pos)
            pos = start + len(value)
        elif token in ("variable_end", "block_end", "comment_end"):
            assert start is not None
            end = text.index(value.rstrip("\n"), pos) + len(value.rstrip("\n")) if value.strip() else pos
            out.append(" ".join(text[start:end].split()))
            pos = end
            start = None
        elif token in ("raw_begin", "raw_end"):
            at = text.index(value.strip(), pos)
            out.append(" ".join(value.strip().split()))
            pos = at + len(value.strip())
        else:
            at = text.find(value, pos) if isinstance(value, str) and value else -1
            if at >= 0 and (start is not None or token == "data"):
                pos = at + len(value)
    return out


def our_tags(text: str) -> list[str]:
    tags, _hidden = jinja.tags(text)
    return [" ".join(text[t.start : t.end].split()) for t in tags]


CASES = [
    "plain: text\n",
    "a: {{ x }}\n",
    "a: {{ '}}' }} b: {{ \"%}\" }}\n",
    "{% if a %}\nk: v\n{% else %}\nk: w\n{% endif %}\n",
    "{%- if a -%}\nk: v\n{%+ endif +%}\n",
    "{# a comment with }} and %} #}\nk: v\n",
    "{% raw %}{{ not a tag }}{% endraw %}\n",
    "k: {{ {'a': 1}['a'] }}\n",
    "{% for x in l %}\n- {{ x | indent(2) }}\n{% endfor %}\n",
    "k: {{ a\n  | default('x') }}\n",
]


@pytest.mark.parametrize("text", CASES)
def test_tags_are_found_as_jinja2_finds_them(text: str) -> None:
    assert our_tags(text) == jinja_tags(text)


def test_corpus_templates_lex_as_jinja2_lexes_them() -> None:
    files = sorted(CORPUS.glob("*.j2")) if CORPUS.is_dir() else []
    if not files:
        pytest.skip("../shared/corpus/files is not beside the project")
    for path in files:
        text = path.read_text(encoding="utf-8")
        assert our_tags(text) == jinja_tags(text), path.name


@pytest.mark.parametrize("text", ["{{ a", "{% if a }}", "{# never closed", "{{ (a }}"])
def test_bad_templates_are_lex_errors(text: str) -> None:
    with pytest.raises(LexError):
        jinja.tags(text)


# ---------------------------------------------------------------- migration


def test_a_jinja_template_migrates_with_its_tags() -> None:
    text = dedent(
        """
        apiVersion: policy/v1beta1
        kind: PodDisruptionBudget
        metadata:
          name: {{ name }}
        spec:
        {% if min_available is defined %}
          minAvailable: {{ min_available }}
        {% endif %}
          selector:
            matchLabels:
              app: {{ app }}
        """
    )
    result = migrate_text(text, target_version="1.29", filename="pdb.yaml.j2")
    assert result.text == text.replace("policy/v1beta1", "policy/v1")
    assert not [f for f in result.findings if f.level == "error"]


def test_an_invalid_jinja_template_is_left_unchanged_with_a_located_error() -> None:
    text = "apiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata:\n  name: {{ name\n"
    result = migrate_text(text, target_version="1.29", filename="pdb.yaml.j2")
    assert result.text == text
    assert [(f.code, f.line) for f in result.findings if f.level == "error"] == [("K8SM-TPL-001", 4)]


KUBESPRAY_PAIRS = [
    (
        "kubespray-589823b__roles_kubernetes_control-plane_templates_kubeadm-controlplane.v1beta2.yaml.j2",
        "kubespray-2cd8c51__roles_kubernetes_control-plane_templates_kubeadm-controlplane.v1beta3.yaml.j2",
        # the `master` taint is renamed at 1.29 (control_plane_role), inside one branch of an
        # {% if %} whose other branch writes `taints: []`: each branch is migrated as the one
        # rendered (the other needs nothing); upstream's newer file still wrote `master`
        ["key: node-role.kubernetes.io/control-plane"],
    ),
    (
        "kubespray-589823b__roles_kubernetes_control-plane_templates_kubeadm-config.v1beta2.yaml.j2",
        "kubespray-2cd8c51__roles_kubernetes_control-plane_templates_kubeadm-config.v1beta3.yaml.j2",
        # documented choices (docs/templates.md): a templated insecure-port is an error (upstream
        # wrapped it in a version condition), so ClusterConfiguration keeps v1beta2 for a human;
        # upstream also dropped dns.type, which kubeadm v1beta3 no longer has
        # and the InitConfiguration's `master` taint sits in an {% if %} branch (as above)
        ["apiVersion: kubeadm.k8s.io/v1beta2", "key: node-role.kubernetes.io/control-plane", "type: CoreDNS"],
    ),
]


@pytest.mark.parametrize(("old", "new", "kept"), KUBESPRAY_PAIRS, ids=["controlplane", "config"])
def test_kubespray_kubeadm_templates_reproduce_upstreams_newer_file(old: str, new: str, kept: list[str]) -> None:
    if not (CORPUS / old).is_file():
        pytest.skip("../shared/corpus/files is not beside the project")
    text = (CORPUS / old).read_text(encoding="utf-8")
    result = migrate_text(text, target_version="1.29", filename=old)
    ours = _content_lines(result.text)
    theirs = _content_lines((CORPUS / new).read_text(encoding="utf-8"))
    only_ours = [line for line in ours if line not in theirs]
    assert sorted(only_ours) == sorted(kept)
    assert migrate_text(result.text, target_version="1.29", filename=old).text == result.text


def _content_lines(text: str) -> list[str]:
    """Lines that carry YAML or tags; upstream also added version conditions around some of them."""
    out = []
    for line in text.splitlines():
        s = line.strip()
        if s and not s.startswith("#") and not re.fullmatch(r"\{%.*version.*%\}|\{% endif %\}", s):
            out.append(s)
    return out


def test_a_migrated_jinja_template_renders_objects_valid_at_the_target() -> None:
    """The YAML reading of a template (``{{ x }}`` is a flow mapping there) says nothing; its rendering does."""
    import kubernetes_validate
    import yaml

    name = (
        "kubespray-v2.14.0__roles_kubernetes-apps_ingress_controller_cert_manager_templates_webhook-cert-manager.yml.j2"
    )
    if not (CORPUS / name).is_file():
        pytest.skip("../shared/corpus/files is not beside the project")
    result = migrate_text((CORPUS / name).read_text(encoding="utf-8"), target_version="1.29", filename=name)
    assert result.changed

    class Anything(jinja2.Undefined):
        def __str__(self) -> str:
            return "x"

    rendered = jinja2.Environment(undefined=Anything, trim_blocks=True).from_string(result.text).render()
    objects = [d for d in yaml.safe_load_all(rendered) if d]
    assert {d["apiVersion"] for d in objects} == {"admissionregistration.k8s.io/v1"}
    for obj in objects:
        kubernetes_validate.validate(obj, "1.29.0", strict=True)


@pytest.mark.parametrize(
    ("text", "dialect"),
    [
        ("a: {{ .Values.a }}\n", "go"),
        # a shell script in a Helm template counts an array: not a Jinja2 comment
        ('args: ["for ((i = 0; i < ${#users[@]}; i++)); do echo {{ .Values.x }}; done"]\n', "go"),
        ("a: {{ a }}\n{# a comment #}\n", "jinja"),
        ("{% if a %}\nb: c\n{% endif %}\n", "jinja"),
        ("{%- for a in b -%}\n{%raw%}{{ x }}{%endraw%}\n{% endfor %}\n", "jinja"),
        # cockroachdb's registry secret: a printf format in a Go action, not a Jinja2 statement
        ('data:\n  c: {{ printf `{"auths":{%s:{"auth":"%s"}}}` .r .a | b64enc }}\n', "go"),
    ],
)
def test_the_dialect_is_told_by_what_only_jinja2_writes(text: str, dialect: str) -> None:
    assert dialect_of(text, "templates/job.yaml") == dialect
