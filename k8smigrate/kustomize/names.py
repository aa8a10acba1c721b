"""The file names kustomize reads as a kustomization.

Apart from ``graph`` so that a run looks for kustomize trees without importing the code that
reads one (most runs find none).
"""

NAMES = ("kustomization.yaml", "kustomization.yml", "Kustomization")
"""File names kustomize recognises as a kustomization (``api/konfig/general.go``)."""
