"""The finding codes of templated manifests (``K8SM-TPL-…``), with their level and meaning."""

from __future__ import annotations

TEMPLATE_CODES = {
    "K8SM-TPL-001": "error: the template does not lex (a Go text/template or Jinja2 syntax error); file left unchanged",
    "K8SM-TPL-002": "error: a document the YAML skeleton cannot represent; left unchanged (info when nothing in "
    "it would be migrated)",
    "K8SM-TPL-003": "error: the migration would lose, copy or re-indent template text; document left unchanged",
    "K8SM-TPL-004": "error: the template writes one key twice outside an if/else; document left unchanged",
    "K8SM-TPL-005": "error: an apiVersion the template computes can render an API removed at the target",
    "K8SM-TPL-006": "info: scan: an apiVersion the chart computes, per range of releases, and where it comes from",
    "K8SM-TPL-010": "error: --verify-render: the migrated chart does not render",
    "K8SM-TPL-011": "error: --verify-render: a rendered document is still on an API removed at the target",
    "K8SM-TPL-012": "error: --verify-render: a rendered document differs from migrating the rendered output",
    "K8SM-TPL-013": "info: --verify-render: every rendered document equals migrating the rendered output",
}
