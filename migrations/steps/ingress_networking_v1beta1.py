"""Ingress ``networking.k8s.io/v1beta1`` → ``networking.k8s.io/v1``.

Follows upstream's ``Convert_v1beta1_IngressSpec_To_networking_IngressSpec`` and
``Convert_v1beta1_IngressBackend_To_networking_IngressBackend``:

- ``spec.backend`` → ``spec.defaultBackend`` (K8SM-ING-007 when both are present);
- in every backend, ``serviceName`` → ``service.name`` and ``servicePort`` →
  ``service.port.number`` (a YAML integer) or ``service.port.name`` (a string); each old
  key's comments move to its new leaf;
- ``pathType: ImplementationSpecific`` is written where a path has none: v1beta1 defaulted
  it to that value and v1 requires it (K8SM-ING-001 suggests ``Prefix``/``Exact``);
- ``resource`` backends are kept; an empty ``servicePort``/``serviceName`` beside them is
  dropped (K8SM-ING-004 when a real service is set beside a resource).

Ports: a quoted all-digit ``servicePort: "80"`` would become a port *name* upstream, which
v1 rejects; k8smigrate writes ``number: 80`` (K8SM-ING-002). An unquoted leading-zero
number such as ``080``, or one in a YAML 1.2 or 1.1-only form (``0o120``, ``0b1010``, ``1_000``,
``0x50``), is read differently by YAML readers: it is written as the decimal number Kubernetes
(go-yaml v2, YAML 1.1) reads (K8SM-ING-008). Zero, empty and
out-of-range ports and templated ports cannot be converted (K8SM-ING-004, K8SM-ING-003).

Templates (Helm charts): ``servicePort: {{ .Values.service.port }}`` is resolved from the
chart's ``values.yaml`` default when the action is a plain ``.Values`` path (or a variable
declared as one, or a field of such a variable); the action itself is carried into
``port.number`` or ``port.name``.
Any other templated port needs ``--set templated-service-port=number|name``.

Rules or paths that a template action writes (``{{ toYaml .Values.ingress.extraPaths | indent 10 }}``
under ``paths:``) come from values, in the v1beta1 shape unless changed there (K8SM-ING-012).

Ingress class: the ``kubernetes.io/ingress.class`` annotation is kept and no
``spec.ingressClassName`` is invented (K8SM-ING-005); when both are set and differ, v1
rejects the object on create (K8SM-ING-006).
"""

from __future__ import annotations

import re

from k8smigrate.codes import BOTH_FORMS, Code
from k8smigrate.context import Context, mappings_at
from k8smigrate.decisions import Decision
from k8smigrate.model import Step
from k8smigrate.regexcode import regex
from k8smigrate.templating import placeholders as ph
from k8smigrate.tree import Entry, Mapping, Node, Scalar, resolve
from k8smigrate.yamlio import TEMPLATE_MARKERS

CLASS_ANNOTATION = "kubernetes.io/ingress.class"
_LEADING_ZERO = regex(r"^0[0-9]+$")
_DECIMAL = regex(r"^[-+]?[0-9]+$")
_PORT_NAME = regex(r"^[a-z0-9]([a-z0-9-]*[a-z0-9])?$")


def body(ingress: Mapping, ctx: Context) -> None:
    spec = ingress.mapping("spec")
    check_ingress_class(ingress, spec, ctx)
    if spec is None:
        return
    if "backend" in spec:
        if "defaultBackend" in spec:
            ctx.error("K8SM-ING-007", "spec has both backend and defaultBackend", spec.get("backend"))
            return
        spec.rename("backend", "defaultBackend")
        ctx.note("spec.backend → spec.defaultBackend")
    default = spec.mapping("defaultBackend")
    if default is not None:
        convert_backend(default, ctx)
    written_by_actions(spec, ctx)
    for path in mappings_at(spec, "rules", "http", "paths"):
        if "pathType" not in path:
            path.set("pathType", "ImplementationSpecific", after="path")
            ctx.info(
                "K8SM-ING-001",
                "pathType: ImplementationSpecific written (the v1beta1 default, required in v1); "
                "consider Prefix or Exact if your controller supports them",
                path.get("pathType"),
            )
        backend = path.mapping("backend")
        if backend is not None:
            convert_backend(backend, ctx)


def written_by_actions(spec: Mapping, ctx: Context) -> None:
    """A warning for each list of rules or paths that a chart's template action adds items to
    (``{{ toYaml .Values.ingress.extraPaths | indent 10 }}`` under ``paths:``): the items come
    from values, where they are in the v1beta1 shape (``serviceName``/``servicePort``, no
    ``pathType``) unless whoever gives them changes them; the v1 Ingress rejects that shape."""
    lists = [spec.sequence("rules")]
    for rule in mappings_at(spec, "rules"):
        http = rule.mapping("http")
        lists.append(http.sequence("paths") if http is not None else None)
    for found in lists:
        action = (
            next(
                (i.value for i in found.items if isinstance(i.value, Scalar) and ph.holds_placeholder(i.value.value)),
                None,
            )
            if found is not None
            else None
        )
        if action is None:
            continue
        ctx.warn(
            "K8SM-ING-012",
            f"items written by a template action ({action.value}) come from values, in the v1beta1 shape "
            "unless changed there: give them in the networking.k8s.io/v1 shape (pathType; backend.service.name "
            "and backend.service.port.number or .name) in values.yaml and every values file that sets them",
            action,
        )


def check_ingress_class(ingress: Mapping, spec: Mapping | None, ctx: Context) -> None:
    annotations = mappings_at(ingress, "metadata", "annotations")
    annotation = annotations[0].get(CLASS_ANNOTATION) if annotations else None
    if not isinstance(annotation, Scalar):
        return
    class_name = spec.get("ingressClassName") if spec is not None else None
    if isinstance(class_name, Scalar):
        if class_name.data != annotation.data:
            ctx.error(
                "K8SM-ING-006",
                f"annotation {CLASS_ANNOTATION}={annotation.data!r} and spec.ingressClassName="
                f"{class_name.data!r} differ; networking.k8s.io/v1 rejects this on create",
                class_name,
            )
        return
    ctx.info(
        "K8SM-ING-005",
        f"annotation {CLASS_ANNOTATION} kept; spec.ingressClassName is not invented "
        "(it needs an IngressClass object of that name)",
        annotation,
    )


def convert_backend(backend: Mapping, ctx: Context) -> None:
    """serviceName/servicePort → service.name/service.port.{number,name}, in place."""
    name_entry = backend.entry("serviceName")
    port_entry = backend.entry("servicePort")
    if name_entry is None and port_entry is None:
        return
    if "service" in backend:
        ctx.error("K8SM-GEN-003", "backend has serviceName/servicePort and service", backend)
        return
    if "resource" in backend:
        drop_empty_beside_resource(backend, name_entry, port_entry, ctx)
        return
    if name_entry is None or port_entry is None:
        missing = "servicePort" if port_entry is None else "serviceName"
        ctx.error("K8SM-ING-004", f"backend has no {missing}; v1 needs a service name and port", backend)
        return
    port = port_field(port_entry.value, ctx)
    if port is None:
        return
    at = min(i for i in (backend.index("serviceName"), backend.index("servicePort")) if i is not None)
    backend.pop("serviceName")
    backend.pop("servicePort")
    service = Mapping()
    service.set("name", name_entry.value, comments_from=name_entry)
    port_node = Mapping()
    port_node.set(port[0], port[1], comments_from=port_entry)
    service.set("port", port_node)
    backend.insert(Entry(Scalar("service"), service), at=at)
    ctx.note(f"backend.serviceName → backend.service.name; backend.servicePort → backend.service.port.{port[0]}")


def port_field(value: Node, ctx: Context) -> tuple[str, Node | int] | None:
    """``("number", node)`` or ``("name", node)`` for a servicePort, or None after an error."""
    node = resolve(value)
    if not isinstance(node, Scalar):
        ctx.error("K8SM-ING-004", "servicePort is not a scalar", node)
        return None
    templated = None
    if ph.START in node.value:  # a masked template action (charts): the templating values only then
        from k8smigrate.templating.values import action_value

        templated = action_value(node.value)
    if templated is not None:
        return templated_port(value, node, templated.known, templated.value, templated.source, ctx)
    if TEMPLATE_MARKERS.search(node.value):
        ctx.error("K8SM-ING-003", "servicePort is templated: a number and a name cannot be told apart", node)
        return None
    return literal_port(value, node, ctx)


def templated_port(
    value: Node, node: Scalar, known: bool, data: object, source: str, ctx: Context
) -> tuple[str, Node | int] | None:
    """A port written by a template action: what the action renders decides number or name."""
    if not known:
        choice = ctx.decision(TEMPLATED_PORT.name, node)
        return (choice, value) if choice is not None else None
    printed = ("true" if data else "false") if isinstance(data, bool) else str(data)
    if isinstance(data, float) and data.is_integer():
        printed = str(int(data))
    rendered = Scalar(printed, node.style)
    ctx.info("K8SM-ING-011", f"servicePort renders {printed!r} with the chart's default ({source})", node)
    found = literal_port(rendered, rendered, ctx)
    if found is None:
        return None
    kind, _port = found
    if kind == "number" and node.style is not None:
        return kind, Scalar(node.value)  # the action, unquoted: it must render an integer
    return kind, value


def literal_port(value: Node, node: Scalar, ctx: Context) -> tuple[str, Node | int] | None:
    """``port_field`` for a port written as it is."""
    data = node.data
    if node.style is None and _LEADING_ZERO.match(node.value):
        number = int(node.value, 8) if isinstance(data, int) else int(node.value, 10)
        ctx.warn(
            "K8SM-ING-008",
            f"servicePort {node.value} has a leading zero; Kubernetes reads it as {number}; "
            f"written as number: {number}",
            node,
        )
        return check_number(number, node, ctx)
    written = node.value  # empty for a node made from data (a kustomize probe): nothing was spelled
    if (
        node.style is None
        and written
        and isinstance(data, int)
        and not isinstance(data, bool)
        and not _DECIMAL.match(written)
    ):
        ctx.warn(
            "K8SM-ING-008",
            f"servicePort {node.value} is not a plain decimal number; Kubernetes (YAML 1.1) reads it as {data}, "
            f"other YAML readers may not; written as number: {data}",
            node,
        )
        return check_number(data, node, ctx)
    if isinstance(data, bool) or data is None or isinstance(data, float):
        ctx.error("K8SM-ING-004", f"servicePort {node.value!r} is neither a port number nor a name", node)
        return None
    if isinstance(data, int):
        return check_number(data, node, ctx, keep=value)
    text = str(data)
    if text.isdigit():
        ctx.warn(
            "K8SM-ING-002",
            f"servicePort {text!r} is a quoted number; upstream would make it a port name, which v1 rejects; "
            f"written as number: {int(text)}",
            node,
        )
        return check_number(int(text), node, ctx)
    if text == "":
        ctx.error("K8SM-ING-004", "servicePort is empty", node)
        return None
    if len(text) > 15 or not _PORT_NAME.match(text) or not re.search("[a-z]", text):
        ctx.warn("K8SM-ING-009", f"servicePort {text!r} is not a valid port name; v1 validation rejects it", node)
    return "name", value


def check_number(number: int, node: Node, ctx: Context, keep: Node | None = None) -> tuple[str, Node | int] | None:
    if not 1 <= number <= 65535:
        ctx.error("K8SM-ING-004", f"servicePort {number} is not a port number (1-65535)", node)
        return None
    return "number", keep if keep is not None else number


def drop_empty_beside_resource(
    backend: Mapping, name_entry: Entry | None, port_entry: Entry | None, ctx: Context
) -> None:
    for entry in (name_entry, port_entry):
        if entry is None:
            continue
        value = entry.value.to_data()
        if value not in ("", 0, None):
            ctx.error("K8SM-ING-004", f"backend has both resource and {entry.name}", entry.value)
            return
    for entry in (name_entry, port_entry):
        if entry is not None:
            backend.pop(entry.name)
            ctx.warn("K8SM-ING-010", f"empty {entry.name} beside a resource backend dropped", backend)


TEMPLATED_PORT = Decision(
    "templated-service-port",
    ("number", "name"),
    "a servicePort written by a template action whose value is not a plain .Values path with a default "
    "in values.yaml: say whether it renders a port number or a port name",
    asked_if=regex(re.escape(ph.START)),  # only a masked template action is asked about
)

MIGRATION = Step(
    kinds=("Ingress",),
    from_api="networking.k8s.io/v1beta1",
    to_api="networking.k8s.io/v1",
    available_in="1.19",
    body=body,
    decisions=(TEMPLATED_PORT,),
    summary="Ingress networking.k8s.io/v1beta1 → v1: backends restructured, pathType pinned",
    codes=(
        Code("K8SM-ING-001", "info", "pathType: ImplementationSpecific written where a path had none"),
        Code("K8SM-ING-002", "warning", "a quoted all-digit servicePort written as port.number"),
        Code("K8SM-ING-003", "error", "a templated servicePort"),
        Code("K8SM-ING-004", "error", "a backend with no valid service port or name, or service beside resource"),
        Code("K8SM-ING-005", "info", "only the ingress-class annotation is set; kept, ingressClassName not invented"),
        Code("K8SM-ING-006", "error", "ingress-class annotation and spec.ingressClassName differ"),
        Code("K8SM-ING-007", "error", "both spec.backend and spec.defaultBackend"),
        Code(
            "K8SM-ING-008",
            "warning",
            "an unquoted servicePort with a leading zero, or in another form than decimal (0o120, 0x50, 1_000)",
        ),
        Code("K8SM-ING-009", "warning", "a servicePort name that v1 validation rejects"),
        Code("K8SM-ING-010", "warning", "an empty serviceName/servicePort beside a resource backend dropped"),
        Code("K8SM-ING-011", "info", "a templated servicePort resolved with the chart's values.yaml default"),
        Code("K8SM-ING-012", "warning", "Ingress rules or paths that a chart's template action writes from values"),
        BOTH_FORMS.with_summary("a backend has both the old and the new service fields"),
    ),
)
