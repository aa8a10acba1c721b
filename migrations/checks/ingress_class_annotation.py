"""Ingress ``kubernetes.io/ingress.class`` annotation → ``spec.ingressClassName`` (opt-in clean-up).

The annotation is deprecated since 1.18, when IngressClass and ``spec.ingressClassName``
arrived (in ``networking.k8s.io/v1beta1`` and ``extensions/v1beta1`` alike, then
``networking.k8s.io/v1``); the v1 type comment asks controllers to keep honouring it, so
nothing breaks. It runs only when asked for (``--only ingress_class_annotation``) because
the two do not name the same thing: the annotation names a *controller class*, the field an
*IngressClass object*, and the rewrite is right only if an IngressClass of that name exists.

On an Ingress that carries the annotation, when every release of the window serves the field
(``--min-version`` 1.18 or later):

- the value moves to ``spec.ingressClassName`` and the annotation is deleted: upstream
  ``ValidateIngressCreate`` (``pkg/apis/networking/validation``) rejects the annotation
  beside the field ("can not be set when the class field is also set"). K8SM-FLD-012 is a
  warning that asks to check that the IngressClass exists; K8SM-FLD-065, an info, when an
  IngressClass of that name is in the run (any file, ``k8smigrate.facts``; the message names it);
- beside an equal ``spec.ingressClassName`` the annotation is deleted (K8SM-FLD-065);
  beside a different one it is an error and the document is left unchanged (K8SM-FLD-062);
- a value that is not a valid IngressClass name (a DNS subdomain) is kept (K8SM-FLD-064).

A window that starts before 1.18 keeps the annotation, as those releases have no field
(K8SM-FLD-063). An Ingress without the annotation is never touched.
"""

from __future__ import annotations

from k8smigrate.codes import Code
from k8smigrate.context import Context
from k8smigrate.kube.ingress_classes import CLASS_ANNOTATION, INGRESS_CLASSES
from k8smigrate.kube.podspec import child, drop_annotation
from k8smigrate.model import Check
from k8smigrate.regexcode import regex
from k8smigrate.tree import Mapping, Scalar

KEY = CLASS_ANNOTATION
_SUBDOMAIN = regex(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$")


def class_defined(name: str, ctx: Context) -> str | None:
    """Where the run (or, alone, the stream) defines an IngressClass called ``name``, as ``file:line``."""
    return next((c.where for c in ctx.facts(INGRESS_CLASSES) if c.value.name == name), None)


def body(ingress: Mapping, ctx: Context) -> None:
    metadata = ingress.mapping("metadata")
    notes = metadata.mapping("annotations") if metadata is not None else None
    node = notes.get(KEY) if notes is not None else None
    if metadata is None or notes is None or not isinstance(node, Scalar):
        return
    if not ctx.needs_met:
        ctx.info(
            "K8SM-FLD-063",
            f"annotation {KEY} kept: releases before 1.18 in the window (--min-version "
            f"{ctx.oldest}) have no spec.ingressClassName",
            node,
        )
        return
    value = "" if node.data is None else str(node.data)
    spec = child(ingress, "spec")
    current = spec.get("ingressClassName") if spec is not None else None
    if spec is None or (current is not None and current.to_data() != value):
        ctx.error("K8SM-FLD-062", f"annotation {KEY}: {value!r} disagrees with spec.ingressClassName", node)
        return
    if current is not None:
        ctx.info("K8SM-FLD-065", f"annotation {KEY} deleted: spec.ingressClassName says the same", node)
    elif len(value) > 253 or not _SUBDOMAIN.match(value):
        ctx.warn("K8SM-FLD-064", f"annotation {KEY}: {value!r} is not a valid IngressClass name; kept", node)
        return
    else:
        first = spec.keys()[0] if len(spec) else None
        spec.set("ingressClassName", node, before=first, comments_from=notes.entry(KEY))  # quotes kept
        moved = f"annotation {KEY}: {value!r} → spec.ingressClassName"
        if (where := class_defined(value, ctx)) is not None:
            ctx.info("K8SM-FLD-065", f"{moved} (the IngressClass {value!r} is in {where})", node)
        else:
            ctx.warn(
                "K8SM-FLD-012",
                f"{moved}; the field names an IngressClass object: check that IngressClass {value!r} exists",
                node,
            )
    drop_annotation(metadata, KEY)
    ctx.note(f"{KEY} → spec.ingressClassName")


MIGRATION = Check(
    applies_to={
        api: ("Ingress",) for api in ("networking.k8s.io/v1", "networking.k8s.io/v1beta1", "extensions/v1beta1")
    },
    body=body,
    matters_from="1.18",
    needs="1.18",
    opt_in=True,
    trigger=KEY,
    category="annotation",
    edits=True,
    cleanup=True,
    facts=(INGRESS_CLASSES,),
    summary="Ingress class annotation → spec.ingressClassName (opt-in: the field names an IngressClass)",
    codes=(
        Code(
            "K8SM-FLD-012",
            "warning",
            "the ingress-class annotation moved to spec.ingressClassName: check that the IngressClass exists",
        ),
        Code("K8SM-FLD-062", "error", "the ingress-class annotation and spec.ingressClassName differ"),
        Code("K8SM-FLD-063", "info", "the ingress-class annotation kept: the window starts before 1.18"),
        Code("K8SM-FLD-064", "warning", "the ingress-class annotation is not a valid IngressClass name; kept"),
        Code(
            "K8SM-FLD-065",
            "info",
            "the ingress-class annotation moved to spec.ingressClassName (its IngressClass is in the run), "
            "or deleted beside an equal field",
        ),
    ),
)
