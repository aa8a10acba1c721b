"""Templated manifests: Helm charts (Go templates) and Jinja2 templates, migrated through YAML skeletons."""
