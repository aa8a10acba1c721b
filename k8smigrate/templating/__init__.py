"""Templated manifests: Helm charts (Go templates) and Jinja2 templates.

``apiversions`` works out the apiVersion each Kubernetes release gets where a chart computes
it (a ``_helpers.tpl`` define, an ``if``/``else`` on ``.Capabilities``, a ``values.yaml``
default) and rewrites those sources; ``semver`` is Helm's ``semverCompare``; ``gotmpl`` reads
Go template text into a tree with byte offsets; ``tmpleval`` evaluates it with provenance.
"""
