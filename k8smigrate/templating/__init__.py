"""Templated manifests: Helm charts (Go templates) and Jinja2 templates.

Migrating a template: ``golex`` finds Go template actions exactly as Go's lexer does
(``jinja`` does the same for Jinja2), ``mask`` turns the template into a YAML skeleton of the
same length and line breaks, the engine migrates the skeleton, and ``migrate`` unmasks the
result (every action carried verbatim, or the document left as it is with a finding).
``chart`` says which files of a chart are manifests and reads its values (``helmvalues``
resolves ``.Values`` paths for the migrations that need a value); ``chartplan`` runs the
chart-level steps; ``helm`` proves a migration with the real ``helm``.

Computed apiVersions (issue 16, item 3), a pure library over texts:

- ``apiversions``: where a chart computes an apiVersion (a ``_helpers.tpl`` define, an
  ``if``/``else`` on ``.Capabilities``, a ``values.yaml`` default), what every release of a
  window gets, the verified edits that make every release get a served API, the findings,
  and the rows ``scan`` shows (``plan``, ``scan_rows``, ``apply_edits``);
- ``conditions``: which arm of any ``.Capabilities`` condition a window takes, and the opt-in
  removal of constant ones;
- ``sites`` (finding the computed apiVersions), ``tmpleval`` (running template logic with the
  origin of every output character), ``gotmpl`` (Go template text read into a tree with byte
  offsets), ``semver`` (Helm's ``semverCompare``), ``capabilities`` (``.Capabilities`` per
  release under ``helm template`` and on clusters; served APIs from the project's tables),
  ``valuesfile`` (values files read and edited through the splicing tree), ``collapse``
  (an ``if`` replaced by one arm without changing the rendering), ``edits``.
"""
