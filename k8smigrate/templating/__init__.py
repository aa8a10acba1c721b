"""Templated manifests: Helm charts (Go templates) and Jinja2 templates.

Migrating a template: ``golex`` finds Go template actions exactly as Go's lexer does
(``jinja`` does the same for Jinja2), ``mask`` turns the template into a YAML skeleton of the
same length and line breaks, the engine migrates the skeleton, and ``migrate`` unmasks the
result (every action carried verbatim, or the document left as it is with a finding).
``chart`` says which files of a chart are manifests and reads its values (``helmvalues``
resolves ``.Values`` paths for the migrations that need a value); ``chartplan`` runs the
chart-level steps; ``helm`` proves a migration with the real ``helm``.

Computed apiVersions: ``apiversions`` works out the apiVersion each Kubernetes release gets
where a chart computes it (a ``_helpers.tpl`` define, an ``if``/``else`` on ``.Capabilities``,
a ``values.yaml`` default) and rewrites those sources; ``semver`` is Helm's ``semverCompare``;
``gotmpl`` reads Go template text into a tree with byte offsets; ``tmpleval`` evaluates it with
provenance.
"""
