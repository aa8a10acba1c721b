"""The IngressClasses of a run, for the checks that ask whether an Ingress's class exists or is the default.

Not a migration: a fact collector (``k8smigrate.facts``). An IngressClass is
cluster-scoped; its ``spec.controller`` names the controller that serves it
(``k8s.io/ingress-nginx`` for ingress-nginx), and the annotation
``ingressclass.kubernetes.io/is-default-class: "true"`` makes the API server's
DefaultIngressClass admission give its name to new Ingresses that have no class
(``plugin/pkg/admission/network/defaultingressclass`` ``getDefaultClass``: the value must be
exactly ``"true"``).
"""

from __future__ import annotations

from collections.abc import Iterator

from k8smigrate.facts import Collector, Object

from ..dataclasscode import dataclass

CLASS_ANNOTATION = "kubernetes.io/ingress.class"
DEFAULT_CLASS = "ingressclass.kubernetes.io/is-default-class"


@dataclass(frozen=True)
class IngressClass:
    """An IngressClass of the run: its name, its controller, and whether it is the default."""

    name: str
    controller: str
    default: bool


def _ingress_classes(obj: Object) -> Iterator[IngressClass]:
    if obj.kind != "IngressClass" or not obj.name:
        return
    spec = obj.data.get("spec")
    controller = spec.get("controller") if isinstance(spec, dict) else None
    meta = obj.data.get("metadata")
    notes = meta.get("annotations") if isinstance(meta, dict) else None
    default = isinstance(notes, dict) and notes.get(DEFAULT_CLASS) == "true"
    yield IngressClass(obj.name, controller if isinstance(controller, str) else "", default)


INGRESS_CLASSES = Collector("ingress-classes", ("IngressClass",), _ingress_classes, frozenset({"IngressClass"}))
