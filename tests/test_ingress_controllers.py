"""Spec: ingress controllers that cannot read networking.k8s.io/v1, and Ingresses ingress-nginx 1.0 ignores (ingress_controllers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from k8smigrate import scan_file
from k8smigrate.kube.images import Release, parse_image
from k8smigrate.migrations.checks.ingress_controllers import CLASSLESS, CONTROLLERS, IMAGE_FIELD, controller_of
from k8smigrate.results import FileResult
from k8smigrate.settings import Settings
from k8smigrate.templating.migrate import migrate_template
from tests.helpers import check_noop, codes, dedent, run

DEPLOYMENT = """
apiVersion: apps/v1
kind: Deployment
metadata:
  name: controller
  namespace: ingress
spec:
  selector:
    matchLabels: {{app: ingress}}
  template:
    metadata:
      labels: {{app: ingress}}
    spec:
      containers:
      - name: controller
        image: {image}
        args: {args}
"""

INGRESS = """
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
{extra}spec:
  defaultBackend:
    service:
      name: web
      port:
        number: 80
"""

CLASS = """
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
{annotations}spec:
  controller: k8s.io/ingress-nginx
"""


def deployment(image: str, args: str = "[/nginx-ingress-controller]") -> str:
    return DEPLOYMENT.format(image=image, args=args)


def stream(*docs: str) -> str:
    return "---\n".join(dedent(d) for d in docs)


# ------------------------------------------------------------------ no-ops


@pytest.mark.parametrize(
    "image",
    [
        "registry.k8s.io/ingress-nginx/controller:v1.0.0",
        "registry.k8s.io/ingress-nginx/controller:v1.9.4@sha256:5b161f051d017e55d358435f295f5e9a297e66158f136321d9b04520ec6c48a3",
        "k8s.gcr.io/ingress-nginx/controller-chroot:v1.2.1",
        "traefik:v2.5.0",
        "docker.io/library/traefik:2.10",
        "quay.io/jcmoraisjr/haproxy-ingress:v0.13.0",
        "haproxytech/kubernetes-ingress:1.5.0",
        "public.ecr.aws/eks/aws-load-balancer-controller:v2.4.0",
        "kong/kubernetes-ingress-controller:2.0",
        "nginx/nginx-ingress:2.0.0-alpine",
        "registry.k8s.io/ingress-gce-glbc-amd64:v1.12.0",
        "mirror.example.com/ingress-nginx/controller:v1.8.0",
    ],
)
def test_noop_for_controllers_that_read_v1(image: str) -> None:
    assert codes(check_noop(deployment(image))) == []


def test_noop_below_1_22() -> None:
    text = deployment("quay.io/kubernetes-ingress-controller/nginx-ingress-controller:0.24.1")
    assert codes(check_noop(text, target_version="1.21")) == []


@pytest.mark.parametrize(
    "image",
    ["nginx:1.21", "bitnami/nginx-ingress-controller:0.30.0", "traefik/whoami:v1.6", "envoyproxy/envoy:v1.11.1"],
)
def test_noop_for_other_images(image: str) -> None:
    assert codes(check_noop(deployment(image))) == []


def test_noop_for_contour_containers_that_do_not_serve() -> None:
    text = deployment("docker.io/projectcontour/contour:v1.10.0", "[bootstrap, /config/envoy.json]")
    assert codes(check_noop(text)) == []


def test_noop_for_a_traefik_without_the_ingress_provider() -> None:
    text = deployment("traefik:v2.3.0", "[--providers.kubernetescrd, --entrypoints.web.address=:80]")
    assert codes(check_noop(text)) == []


def test_noop_for_ingresses_with_a_class() -> None:
    new = deployment("registry.k8s.io/ingress-nginx/controller:v1.9.4")
    with_field = INGRESS.replace("spec:\n", "spec:\n  ingressClassName: nginx\n")
    with_annotation = INGRESS.format(extra="  annotations:\n    kubernetes.io/ingress.class: nginx\n")
    for ingress in (with_field.format(extra=""), with_annotation):
        assert codes(check_noop(stream(new, ingress))) == []


def test_noop_when_the_controller_watches_ingresses_without_class() -> None:
    for flag in ("--watch-ingress-without-class", "--watch-ingress-without-class=true"):
        new = deployment("registry.k8s.io/ingress-nginx/controller:v1.9.4", f"[/nginx-ingress-controller, {flag}]")
        assert codes(check_noop(stream(new, INGRESS.format(extra="")))) == []


def test_noop_with_a_default_ingress_class() -> None:
    new = deployment("registry.k8s.io/ingress-nginx/controller:v1.9.4")
    default = CLASS.format(annotations='  annotations:\n    ingressclass.kubernetes.io/is-default-class: "true"\n')
    assert codes(check_noop(stream(new, default, INGRESS.format(extra="")))) == []


def test_noop_for_an_ingress_without_class_and_no_ingress_nginx_in_the_run() -> None:
    traefik = deployment("traefik:v2.10", "[--providers.kubernetesingress]")
    assert codes(check_noop(stream(traefik, INGRESS.format(extra="")))) == []


def test_noop_when_another_controller_of_the_run_may_take_it() -> None:
    new = deployment("registry.k8s.io/ingress-nginx/controller:v1.9.4")
    traefik = deployment("traefik:v2.10", "[--providers.kubernetesingress]")  # takes class-less Ingresses
    assert codes(check_noop(stream(new, traefik, INGRESS.format(extra="")))) == []


# ------------------------------------------------------------------ findings

OLD = [
    ("quay.io/kubernetes-ingress-controller/nginx-ingress-controller:0.24.1", "ingress-nginx", "1.0.0"),
    ("quay.io/kubernetes-ingress-controller/nginx-ingress-controller-amd64:0.20.0", "ingress-nginx", "1.0.0"),
    (
        "k8s.gcr.io/ingress-nginx/controller:v0.49.3@sha256:35fe394c82164efa8f47f3ed0be981b3f23da77175bbb8268a9ae438851c8324",
        "ingress-nginx",
        "1.0.0",
    ),
    ("us.gcr.io/k8s-artifacts-prod/ingress-nginx/controller:v0.34.1", "ingress-nginx", "1.0.0"),
    ("k8s.gcr.io/nginx-ingress-controller:0.8.3", "ingress-nginx", "1.0.0"),
    ("traefik:1.7.26", "Traefik", "2.5.0"),
    ("traefik:v2.4.14", "Traefik", "2.5.0"),
    ("jcmoraisjr/haproxy-ingress:v0.12.22", "HAProxy Ingress", "0.13.0"),
    ("haproxytech/kubernetes-ingress:1.4.13", "HAProxy Kubernetes Ingress", "1.5.0"),
    ("602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon/aws-load-balancer-controller:v2.3.1", "AWS", "2.4.0"),
    ("docker.io/amazon/aws-alb-ingress-controller:v1.1.9", "AWS", "2.4.0"),
    ("kong-docker-kubernetes-ingress-controller.bintray.io/kong-ingress-controller:0.9.1", "Kong", "0.10.0"),
    ("nginx/nginx-ingress:1.12.5", "NGINX Inc", "2.0.0"),
    ("k8s.gcr.io/ingress-gce-glbc-amd64:v1.4.0", "GLBC", "1.12.0"),
]


@pytest.mark.parametrize(("image", "title", "minimum"), OLD)
def test_an_old_controller_is_an_error_naming_the_minimum(image: str, title: str, minimum: str) -> None:
    result = check_noop(deployment(image), target_version="1.22")
    assert codes(result) == ["K8SM-CTL-001"]
    (finding,) = result.findings
    assert finding.level == "error" and finding.line == 15
    assert title in finding.message and f"upgrade it to {minimum}" in finding.message


def test_an_old_contour_that_serves_is_an_error() -> None:
    result = check_noop(deployment("gcr.io/heptio-images/contour:v0.15.0", "[serve, --incluster]"))
    assert codes(result, "error") == ["K8SM-CTL-001"]
    assert "Contour 0.15.0" in result.findings[0].message and "1.13.0" in result.findings[0].message


@pytest.mark.parametrize(
    "image",
    [
        "registry.k8s.io/ingress-nginx/controller:latest",
        "registry.k8s.io/ingress-nginx/controller",
        "registry.k8s.io/ingress-nginx/controller@sha256:5b161f051d017e55d358435f295f5e9a297e66158f136321d9b04520ec6c48a3",
        "traefik:v2",
    ],
)
def test_an_image_without_a_readable_tag_is_a_warning(image: str) -> None:
    result = check_noop(deployment(image))
    assert codes(result, "warning") == ["K8SM-CTL-002"]
    assert "names no release" in result.findings[0].message


def test_a_kustomization_of_the_run_gives_the_tag() -> None:
    kustomization = """
    apiVersion: kustomize.config.k8s.io/v1beta1
    kind: Kustomization
    images:
    - name: docker.io/amazon/aws-alb-ingress-controller
      newTag: v1.1.5
    """
    result = run(stream(deployment("docker.io/amazon/aws-alb-ingress-controller"), kustomization), filename="k.yaml")
    assert codes(result) == ["K8SM-CTL-001"]
    assert "1.1.5 (tag from the kustomization in k.yaml:18)" in result.findings[0].message


def test_an_ingress_without_class_is_a_warning_naming_the_controller() -> None:
    new = deployment(
        "registry.k8s.io/ingress-nginx/controller:v1.9.4",
        "[/nginx-ingress-controller, --watch-ingress-without-class=false]",
    )
    result = run(stream(new, CLASS.format(annotations=""), INGRESS.format(extra="")), filename="all.yaml")
    assert codes(result) == ["K8SM-CTL-003"]
    (finding,) = result.findings
    assert finding.level == "warning" and finding.document == 2
    assert "Deployment ingress/controller in all.yaml:1" in finding.message
    assert "spec.ingressClassName: nginx (the IngressClass in all.yaml:18)" in finding.message
    assert result.text == stream(new, CLASS.format(annotations=""), INGRESS.format(extra=""))


def test_an_ingress_without_class_beside_an_old_controller_says_the_upgrade_brings_it() -> None:
    old = deployment("quay.io/kubernetes-ingress-controller/nginx-ingress-controller:0.24.1")
    result = run(stream(old, INGRESS.format(extra="")))
    assert codes(result) == ["K8SM-CTL-001", "K8SM-CTL-003"]
    assert "1.22 needs 1.0.0" in result.findings[1].message


# ------------------------------------------------------------------ in a chart's templates

TEMPLATE = """\
apiVersion: extensions/v1beta1
kind: Deployment
metadata:
  name: {{ include "x.fullname" . }}
spec:
  template:
    metadata:
      labels:
        app: x
    spec:
      containers:
      - name: controller
        image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
"""


def chart_template(values: dict[str, object]) -> FileResult:
    return migrate_template(TEMPLATE, Settings(target_version="1.29"), "templates/controller.yaml", values=values)


def test_noop_in_a_template_whose_image_does_not_resolve_or_is_no_controller() -> None:
    for values in ({}, {"image": {"repository": "nginx", "tag": "1.25"}}, {"image": {"repository": "x", "tag": 1.5}}):
        result = chart_template(values)
        assert [f.code for f in result.findings if f.code.startswith("K8SM-CTL")] == [], values
        assert "apps/v1" in result.text  # and nothing holds the migration back


def test_a_template_whose_default_image_is_an_old_controller_is_an_error_naming_the_values() -> None:
    values = {
        "image": {"repository": "quay.io/kubernetes-ingress-controller/nginx-ingress-controller", "tag": "0.24.1"}
    }
    result = chart_template(values)
    assert codes(result) == ["K8SM-CTL-001"]
    (finding,) = result.findings
    assert finding.line == 13
    assert "ingress-nginx 0.24.1 (the chart's default from values.yaml: image.repository, image.tag)" in finding.message
    assert result.text == TEMPLATE  # an error holds the document back, as in a plain file


def test_scan_of_a_chart_judges_the_default_image_too(tmp_path: Path) -> None:
    chart = tmp_path / "x"
    (chart / "templates").mkdir(parents=True)
    (chart / "Chart.yaml").write_text("apiVersion: v2\nname: x\nversion: 0.1.0\n")
    (chart / "values.yaml").write_text("image:\n  repository: traefik\n  tag: 1.7.26\n")
    (chart / "templates" / "controller.yaml").write_text(TEMPLATE)
    outcome = scan_file(chart / "templates" / "controller.yaml", target_version="1.29")
    rows = [e for e in outcome.scan or [] if e.code == "K8SM-CTL-001"]
    assert (
        len(rows) == 1 and "Traefik 1.7.26 (the chart's default from values.yaml: image.repository" in rows[0].message
    )


# ------------------------------------------------------------------ recognition


def test_every_controller_is_recognised_by_its_own_images_only() -> None:
    for controller in CONTROLLERS:
        for path in controller.paths:
            assert controller_of(parse_image(f"{path}:v9.9.9")) is controller, path
            for text in (f"image: {path}:v1", f'"image": "{path}@sha256:ab"', f"image: 'mirror.example.com/{path}'"):
                assert IMAGE_FIELD.search(text), text  # the pre-filter lets it through
    assert parse_image("quay.io/x/y:v0.49.3@sha256:abc").release == Release(0, 49, 3)
    assert parse_image("localhost:5000/traefik").tag is None


def test_the_ingress_pre_filter_lets_only_classless_documents_through() -> None:
    assert CLASSLESS.search(dedent(INGRESS.format(extra="")))
    assert not CLASSLESS.search("spec:\n  ingressClassName: nginx\n")
    assert not CLASSLESS.search("metadata:\n  annotations:\n    kubernetes.io/ingress.class: nginx\n")
