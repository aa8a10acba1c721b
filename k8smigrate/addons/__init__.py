"""Field conversions of the add-on APIs (cert-manager, Gateway API, Istio, Flux, Traefik, CSI
snapshots, prometheus-operator), shared by their version steps and checks.

One module per project. Each function edits the document tree in place and reports through
the ``Context`` it is given, like a Kubernetes step's body; the step modules under
``migrations/`` declare which of them run, for which kinds and releases.
"""
