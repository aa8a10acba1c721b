"""Field moves are read from the migrations themselves: where a field goes when its object is
migrated (``Base.moves``) is where the migration put its node. These specs pin the moves that
patches and field paths depend on, for the steps that move fields; a step that changes how it
moves a field changes what kustomize paths become, and one of these fails.
"""

from __future__ import annotations

import pytest

from k8smigrate.kustomize.partial import Base
from k8smigrate.registry import default_registry
from k8smigrate.settings import Settings
from k8smigrate.yamlio import EVERY, read_stream

from .helpers import dedent

INGRESS = """
    apiVersion: networking.k8s.io/v1beta1
    kind: Ingress
    metadata:
      name: web
    spec:
      backend:
        serviceName: web
        servicePort: 80
      rules:
      - http:
          paths:
          - path: /
            backend:
              serviceName: api
              servicePort: http
"""
HPA = """
    apiVersion: autoscaling/v2beta1
    kind: HorizontalPodAutoscaler
    metadata:
      name: web
    spec:
      scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
      maxReplicas: 3
      metrics:
      - type: Resource
        resource:
          name: cpu
          targetAverageUtilization: 80
      - type: Pods
        pods:
          metricName: qps
          targetAverageValue: "10"
"""
CRD = """
    apiVersion: apiextensions.k8s.io/v1beta1
    kind: CustomResourceDefinition
    metadata:
      name: widgets.example.com
    spec:
      group: example.com
      names: {kind: Widget, plural: widgets}
      scope: Namespaced
      version: v1
      preserveUnknownFields: false
      validation:
        openAPIV3Schema:
          type: object
          properties:
            spec: {type: object}
      conversion:
        strategy: Webhook
        webhookClientConfig:
          service: {namespace: system, name: hook}
"""
DEPLOYMENT = """
    apiVersion: extensions/v1beta1
    kind: Deployment
    metadata:
      name: app
    spec:
      rollbackTo: {revision: 2}
      template:
        metadata:
          labels: {app: a}
        spec:
          containers:
          - name: app
            image: nginx
"""


def moves(text: str, target: str = "1.29") -> dict[tuple[str | int, ...], tuple[str | int, ...] | None]:
    doc = read_stream(dedent(text), wanted=EVERY).documents[0]
    assert doc.root is not None and doc.api_version and doc.kind
    data = doc.root.to_data()
    base = Base("<test>", 0, doc.api_version, doc.kind, data, data, dedent(text))
    found = base.moves(Settings(target_version=target), default_registry())
    assert found is not None
    return found  # type: ignore[return-value]


@pytest.mark.parametrize(
    ("text", "old", "new"),
    [
        (INGRESS, ("spec", "backend"), ("spec", "defaultBackend")),
        (INGRESS, ("spec", "backend", "serviceName"), ("spec", "defaultBackend", "service", "name")),
        (INGRESS, ("spec", "backend", "servicePort"), ("spec", "defaultBackend", "service", "port", "number")),
        (
            INGRESS,
            ("spec", "rules", 0, "http", "paths", 0, "backend", "servicePort"),
            ("spec", "rules", 0, "http", "paths", 0, "backend", "service", "port", "name"),
        ),
        (
            HPA,
            ("spec", "metrics", 0, "resource", "targetAverageUtilization"),
            ("spec", "metrics", 0, "resource", "target", "averageUtilization"),
        ),
        (HPA, ("spec", "metrics", 1, "pods", "metricName"), ("spec", "metrics", 1, "pods", "metric", "name")),
        (
            CRD,
            ("spec", "conversion", "webhookClientConfig", "service", "name"),
            ("spec", "conversion", "webhook", "clientConfig", "service", "name"),
        ),
        (CRD, ("spec", "validation", "openAPIV3Schema"), ("spec", "versions", 0, "schema", "openAPIV3Schema")),
        (DEPLOYMENT, ("spec", "template", "spec", "containers", 0, "image"), None),  # stays where it is
    ],
)
def test_a_field_goes_where_its_migration_puts_it(
    text: str, old: tuple[str | int, ...], new: tuple[str | int, ...] | None
) -> None:
    assert moves(text)[old] == (new or old)


def test_a_field_the_new_api_does_not_have_has_no_place() -> None:
    assert ("spec", "rollbackTo", "revision") not in moves(DEPLOYMENT)
