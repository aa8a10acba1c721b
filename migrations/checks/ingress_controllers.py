"""Ingress controllers that cannot read ``networking.k8s.io/v1``, and Ingresses ingress-nginx 1.0 ignores.

From 1.22 the API server serves Ingress and IngressClass only as ``networking.k8s.io/v1``.
Migrating every Ingress is not enough: a controller whose informers list the old versions
sees no Ingress at all and stops routing. The first release of each controller that reads
``networking.k8s.io/v1`` (read from each project's code at its tags; changelog entries beside):

- ingress-nginx **v1.0.0** (``internal/ingress/controller/store/store.go`` ``New``:
  ``Networking().V1().Ingresses()``/``IngressClasses()``; v0.49.3 ``V1beta1``; Changelog
  "1.0.0 … support for Ingress Object in networking.k8s.io/v1beta is being dropped", PR #7308).
  Images ``registry.k8s.io/ingress-nginx/controller``, ``k8s.gcr.io/ingress-nginx/controller``,
  ``us.gcr.io/k8s-artifacts-prod/ingress-nginx/controller``, ``…/controller-chroot``, and the
  0.x names ``quay.io/kubernetes-ingress-controller/nginx-ingress-controller[-ARCH]``,
  ``k8s.gcr.io/nginx-ingress-controller``, ``gcr.io/google_containers/nginx-ingress-controller``;
- Traefik **v2.5.0** (``pkg/provider/kubernetes/ingress/client.go`` ``WatchAll``; CHANGELOG
  v2.5.0 #7549, #8089; 1.x and 2.0–2.4 read ``extensions``/``networking.k8s.io/v1beta1``), image
  ``traefik``; a Traefik whose flags enable ``--providers.*`` but not
  ``--providers.kubernetesingress`` reads no Ingress and is left alone;
- HAProxy Ingress **v0.13.0** (jcmoraisjr ``pkg/controller/cache.go``, CHANGELOG-v0.13 #726),
  image ``jcmoraisjr/haproxy-ingress``; HAProxy Kubernetes Ingress **v1.5.0** (haproxytech
  ``controller/monitor.go`` ``monitorChanges``), image ``haproxytech/kubernetes-ingress``;
- Contour **v1.13.0** (``internal/k8s/informers.go`` ``IngressV1Resources``, ``cmd/contour/serve.go``
  ``doServe``), images ``projectcontour/contour``, ``heptio-images/contour``; only containers
  running ``contour serve`` read Ingresses;
- AWS Load Balancer Controller **v2.4.0** (``controllers/ingress/group_controller.go``
  ``ingressResourcesGroupVersion = "networking.k8s.io/v1"``; v2.2–v2.3 still ``v1beta1``),
  images ``amazon/aws-load-balancer-controller``, ``eks/aws-load-balancer-controller`` and the
  v1 ALB ingress controller's ``amazon/aws-alb-ingress-controller``;
- Kong Ingress Controller **0.10.0** (``cli/ingress-controller/main.go`` negotiates
  ``networking.k8s.io/v1`` first; CHANGELOG 0.10.0 #832), images
  ``kong/kubernetes-ingress-controller``, ``…bintray.io/kong-ingress-controller``;
- NGINX Inc NGINX Ingress Controller **2.0.0** (``internal/k8s/controller.go``
  ``addIngressHandler``; releases.md 2.0.0, PR #1850; 1.12.x still ``v1beta1``), images
  ``nginx/nginx-ingress``, ``nginx-ic/nginx-plus-ingress``;
- GCE ingress (GLBC) as a manifest **v1.12.0** (``pkg/context/context.go``
  ``NewControllerContext``), image ``ingress-gce-glbc-amd64``.

Images are recognised by repository path (on any registry or mirror), the release by the tag
(``v1.0.0``, ``0.24.1``, ``2.5``, ``2.0.0-alpine``; a pre-release counts as its release). For
targets from 1.22, in every pod spec:

- a controller older than its first ``v1`` release: K8SM-CTL-001, an error naming the minimum;
- a controller image whose tag names no release (``latest``, ``v2``, no tag, a digest only):
  K8SM-CTL-002, a warning. A kustomize ``Kustomization`` of the run that sets the image's tag
  (``images[].newTag``/``digest``, preferring one in the same folder) gives the tag instead,
  and the finding names its file.

In a Helm chart's template, an image written by actions that are plain ``.Values`` paths
(``"{{ .Values.image.repository }}:{{ .Values.image.tag }}"``) is judged as the chart renders
it with its own ``values.yaml`` defaults, and the finding names those keys; any other action
leaves the image unknown and unjudged.

ingress-nginx from 1.0.0 takes an Ingress only when ``spec.ingressClassName`` names one of its
IngressClasses or its ``kubernetes.io/ingress.class`` annotation names ``--ingress-class``;
class-less Ingresses only with ``--watch-ingress-without-class`` (``store.go``
``GetIngressClass``; 0.x took them). The API server's DefaultIngressClass admission gives new
class-less Ingresses the class annotated ``ingressclass.kubernetes.io/is-default-class: "true"``.
So an Ingress with neither field nor annotation, in a run whose only ingress controllers are
ingress-nginx ones (another controller may take class-less Ingresses: Traefik does by default,
``pkg/provider/kubernetes/ingress/kubernetes.go`` ``shouldProcessIngress``, and so does GLBC,
``pkg/utils/utils.go`` ``IsGCEIngress``), none of them with the flag, and no default IngressClass, is K8SM-CTL-003, a
warning that names the controller's file (the controllers, IngressClasses
and kustomizations of the whole run are joined: ``k8smigrate.facts``).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import replace

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.dataclasscode import dataclass
from k8smigrate.facts import Collector, Located, Object
from k8smigrate.kube.flags import ARCHES, command_line, find_flag, truth
from k8smigrate.kube.images import Image, Release, parse_image, path_matches
from k8smigrate.kube.ingress_classes import CLASS_ANNOTATION, DEFAULT_CLASS, INGRESS_CLASSES, IngressClass
from k8smigrate.kube.podspec import POD_APIS, POD_KINDS, container_data, containers, pod_spec_data, pod_specs
from k8smigrate.model import Check
from k8smigrate.regexcode import regex
from k8smigrate.scalars import Data
from k8smigrate.templating.placeholders import START, holds_placeholder
from k8smigrate.templating.values import rendered_text
from k8smigrate.tree import Mapping, Scalar

V1 = "networking.k8s.io/v1"


@dataclass(frozen=True)
class Controller:
    """An ingress controller: how its images are named and its first release that reads ``V1``."""

    title: str
    paths: tuple[str, ...]
    """Repository paths (matched as a suffix, for mirrors) or full names with a registry."""
    first_v1: Release

    def runs(self, image: Image) -> bool:
        full = [p for p in self.paths if "." in p.split("/", 1)[0]]
        return image.name in full or path_matches(image, *(p for p in self.paths if p not in full))


def _arches(path: str) -> tuple[str, ...]:
    """The path and its per-architecture images (``nginx-ingress-controller-amd64``)."""
    return (path, *(f"{path}-{arch}" for arch in ARCHES))


INGRESS_NGINX = Controller(
    "ingress-nginx",
    (
        "ingress-nginx/controller",
        "ingress-nginx/controller-chroot",
        *_arches("kubernetes-ingress-controller/nginx-ingress-controller"),
        *_arches("google_containers/nginx-ingress-controller"),
        *_arches("k8s.gcr.io/nginx-ingress-controller"),
    ),
    Release(1, 0, 0),
)
TRAEFIK = Controller("Traefik", ("traefik",), Release(2, 5, 0))
CONTOUR = Controller("Contour", ("projectcontour/contour", "heptio-images/contour"), Release(1, 13, 0))
CONTROLLERS = (
    INGRESS_NGINX,
    TRAEFIK,
    Controller("HAProxy Ingress", ("jcmoraisjr/haproxy-ingress",), Release(0, 13, 0)),
    Controller("HAProxy Kubernetes Ingress", ("haproxytech/kubernetes-ingress",), Release(1, 5, 0)),
    CONTOUR,
    Controller(
        "AWS Load Balancer Controller (formerly ALB Ingress Controller)",
        (
            "amazon/aws-load-balancer-controller",
            "eks/aws-load-balancer-controller",
            "amazon/aws-alb-ingress-controller",
        ),
        Release(2, 4, 0),
    ),
    Controller(
        "Kong Ingress Controller",
        (
            "kong/kubernetes-ingress-controller",
            "kong-docker-kubernetes-ingress-controller.bintray.io/kong-ingress-controller",
        ),
        Release(0, 10, 0),
    ),
    Controller(
        "NGINX Ingress Controller (NGINX Inc)", ("nginx/nginx-ingress", "nginx-ic/nginx-plus-ingress"), Release(2, 0, 0)
    ),
    Controller(
        "GCE ingress controller (GLBC)", ("ingress-gce-glbc-amd64", "google_containers/glbc"), Release(1, 12, 0)
    ),
)
IMAGE_WORDS = (
    "ingress-nginx/controller",
    "nginx-ingress",
    "nginx-plus-ingress",
    "kubernetes-ingress",
    "haproxy-ingress",
    "alb-ingress-controller",
    "kong-ingress-controller",
    "load-balancer-controller",
    "traefik",
    "contour",
    "glbc",
)
"""Text every image name of the controllers holds one of."""
IMAGE_FIELD = regex(
    r"""image["']?[ \t]*:[ \t]*["']?[\w./:@-]*(?:""" + "|".join([*(re.escape(w) for w in IMAGE_WORDS), START]) + ")"
)
"""An ``image:`` field (YAML or JSON) naming one of the controllers, or templated (a chart's
default may name one): the documents' pre-filter."""
CLASSLESS = regex(r"\A(?![\s\S]*(?:ingressClassName|kubernetes\.io/ingress\.class))")
"""Matches a document that names no class (the Ingresses' pre-filter)."""

NGINX_CONTROLLER_CLASS = "k8s.io/ingress-nginx"
WITHOUT_CLASS = "watch-ingress-without-class"


def controller_of(image: Image) -> Controller | None:
    return next((c for c in CONTROLLERS if c.runs(image)), None)


def reads_ingresses(controller: Controller, line: list[str]) -> bool:
    """Whether a container of ``controller`` with this command line reads Ingress objects at all."""
    if controller is CONTOUR:
        return "serve" in line
    if controller is TRAEFIK:
        providers = [a for a in line if a.startswith("--providers.")]
        return not providers or any(a.startswith("--providers.kubernetesingress") for a in providers)
    return True


# ------------------------------------------------------------------ facts


@dataclass(frozen=True)
class Running:
    """An ingress controller container of the run (what the Ingress check needs of it)."""

    title: str
    workload: str
    release: Release | None
    without_class: bool
    """ingress-nginx only: it runs with ``--watch-ingress-without-class``."""


@dataclass(frozen=True)
class ImageOverride:
    """A kustomize ``images[]`` entry: the image it matches and what it sets."""

    name: str
    new_name: str | None
    tag: str | None
    digest: str | None


def _controllers(obj: Object) -> Iterator[Running]:
    found = pod_spec_data(obj.data)
    if found is None:
        return
    for container in container_data(found[1]):
        image = container.get("image")
        controller = controller_of(parse_image(image)) if isinstance(image, str) else None
        line = command_line(container)
        if controller is None or not isinstance(image, str) or not reads_ingresses(controller, line):
            continue
        flag = find_flag(line, WITHOUT_CLASS, boolean=True)
        without = controller is INGRESS_NGINX and flag is not None and truth(flag[1]) is True
        yield Running(controller.title, workload_name(obj), parse_image(image).release, without)


def _image_overrides(obj: Object) -> Iterator[ImageOverride]:
    if obj.kind != "Kustomization" or not str(obj.api_version or "").startswith("kustomize.config.k8s.io/"):
        return
    images = obj.data.get("images")
    for item in images if isinstance(images, list) else []:
        if isinstance(item, dict) and isinstance(item.get("name"), str):
            yield ImageOverride(
                str(item["name"]),
                _str(item.get("newName")),
                _str(item.get("newTag")),
                _str(item.get("digest")),
            )


def _str(value: Data) -> str | None:
    return None if value is None or isinstance(value, (dict, list)) else str(value)


CONTROLLERS_RUNNING = Collector("ingress-controllers", (IMAGE_FIELD,), _controllers, POD_KINDS)
IMAGE_OVERRIDES = Collector("kustomize-images", ("images:",), _image_overrides, frozenset({"Kustomization"}))


def workload_name(obj: Object) -> str:
    where = f"{obj.namespace}/{obj.name}" if obj.namespace and obj.name else obj.name or ""
    return f"{obj.kind} {where}".strip()


# ------------------------------------------------------------------ controllers


def controller_body(obj: Mapping, ctx: Context) -> None:
    for _metadata, spec in pod_specs(obj):
        for container in containers(spec):
            image_node = container.scalar("image")
            text = image_node.data if image_node is not None else None
            if image_node is None or not isinstance(text, str):
                continue
            text, origin = _chart_default(text)
            image = parse_image(text)
            controller = controller_of(image)
            data = container.to_data()
            if controller is None or not isinstance(data, dict) or not reads_ingresses(controller, command_line(data)):
                continue
            image, override = resolve(image, ctx)
            judge(controller, image, override, image_node, ctx, origin)


def _chart_default(text: str) -> tuple[str, str]:
    """A templated image as the chart renders it with its ``values.yaml`` defaults, and a note
    saying so; the text itself when it is not templated or does not resolve."""
    if not holds_placeholder(text):
        return text, ""
    found = rendered_text(text)
    if found is None:
        return text, ""
    keys = ", ".join(source.removeprefix("values.yaml: ") for source in found[1])
    return found[0], f" (the chart's default from values.yaml: {keys})"


def resolve(image: Image, ctx: Context) -> tuple[Image, Located[ImageOverride] | None]:
    """The image with the tag a kustomization of the run gives it, when its own names no release."""
    if image.release is not None:
        return image, None
    matching = [o for o in ctx.facts(IMAGE_OVERRIDES) if parse_image(o.value.name).name == image.name]
    here = posixpath.dirname(ctx.filename.replace("\\", "/"))
    near = [o for o in matching if posixpath.dirname(o.filename.replace("\\", "/")) == here]
    for found in near or matching:
        if found.value.tag or found.value.digest:
            new = parse_image(found.value.new_name) if found.value.new_name else image
            return new.with_tag(found.value.tag, found.value.digest), found
    return image, None


def judge(
    controller: Controller,
    image: Image,
    override: Located[ImageOverride] | None,
    node: Scalar,
    ctx: Context,
    origin: str = "",
) -> None:
    via = f" (tag from the kustomization in {override.where})" if override is not None else origin
    first = f"{controller.first_v1}, the first release that reads Ingress and IngressClass {V1}"
    found = image.release
    if found is None:
        ctx.warn(
            "K8SM-CTL-002",
            f"{controller.title} image {image.text!r}{via} names no release: from 1.22 only {first}, or a later "
            "one, routes; pin such a release",
            node,
        )
    elif found < controller.first_v1:
        ctx.error(
            "K8SM-CTL-001",
            f"{controller.title} {found}{via} reads Ingress only as API versions that 1.22 no longer serves, so it "
            f"stops routing: upgrade it to {first}, or later",
            node,
        )


# ------------------------------------------------------------------ Ingresses without a class


def has_class(ingress: Mapping) -> bool:
    spec = ingress.mapping("spec")
    name = spec.data("ingressClassName") if spec is not None else None
    metadata = ingress.mapping("metadata")
    notes = metadata.mapping("annotations") if metadata is not None else None
    return bool(name) or (notes is not None and CLASS_ANNOTATION in notes)


def ingress_body(ingress: Mapping, ctx: Context) -> None:
    if has_class(ingress):
        return
    running = ctx.facts(CONTROLLERS_RUNNING)
    nginx = [c for c in running if c.value.title == INGRESS_NGINX.title]
    classes = ctx.facts(INGRESS_CLASSES)
    if not nginx or len(nginx) < len(running):
        return  # no ingress-nginx, or another controller that may take class-less Ingresses
    if any(c.value.without_class for c in nginx) or any(c.value.default for c in classes):
        return
    ctx.warn("K8SM-CTL-003", classless_message(nginx, classes), ingress)


def classless_message(nginx: list[Located[Running]], classes: list[Located[IngressClass]]) -> str:
    first = nginx[0]
    more = f" and {len(nginx) - 1} more" if len(nginx) > 1 else ""
    old = first.value.release is not None and first.value.release < INGRESS_NGINX.first_v1
    upgrade = f"; 1.22 needs {INGRESS_NGINX.first_v1}" if old else ""
    own = [c for c in classes if c.value.controller == NGINX_CONTROLLER_CLASS]
    name = f": {own[0].value.name} (the IngressClass in {own[0].where})" if own else ""
    return (
        f"Ingress without a class (no spec.ingressClassName, no {CLASS_ANNOTATION} annotation): ingress-nginx "
        f"ignores it from {INGRESS_NGINX.first_v1} ({first.value.workload} in {first.where}{more} runs without "
        f"--{WITHOUT_CLASS} and no IngressClass of the repository is the default{upgrade}). Set "
        f"spec.ingressClassName{name}, or run the controller with --{WITHOUT_CLASS}=true, or mark an IngressClass "
        f'default ({DEFAULT_CLASS}: "true"; Ingresses created afterwards only)'
    )


# ------------------------------------------------------------------ declarations

CODES = (
    Code("K8SM-CTL-001", "error", "an ingress controller older than its first release that reads networking.k8s.io/v1"),
    Code("K8SM-CTL-002", "warning", "an ingress controller image whose tag names no release"),
    Code(
        "K8SM-CTL-003",
        "warning",
        "an Ingress without a class that ingress-nginx 1.0+ ignores (no --watch-ingress-without-class, "
        "no default IngressClass)",
    ),
)
_CONTROLLERS = Check(
    applies_to=POD_APIS,
    body=controller_body,
    trigger=IMAGE_FIELD,
    matters_from="1.22",
    category="controller",
    summary="ingress controllers older than their first networking.k8s.io/v1 release; Ingresses ingress-nginx ignores",
    codes=CODES,
    facts=(CONTROLLERS_RUNNING, INGRESS_CLASSES, IMAGE_OVERRIDES),
)
MIGRATIONS = [
    _CONTROLLERS,
    replace(
        _CONTROLLERS,
        applies_to=dict.fromkeys(("extensions/v1beta1", "networking.k8s.io/v1beta1", V1), ("Ingress",)),
        body=ingress_body,
        trigger=CLASSLESS,
    ),
]
