#!/bin/sh
# The Helm plugin's command: `helm k8smigrate [COMMAND] ARGS...` runs `k8smigrate COMMAND ARGS...`,
# and `apply --in-place --verify-render` when no command is given; the helm that runs the plugin
# ($HELM_BIN) is the one that renders.
set -eu
if [ -n "${K8SMIGRATE:-}" ]; then
  run="$K8SMIGRATE"
elif command -v k8smigrate >/dev/null 2>&1; then
  run=k8smigrate
else
  echo "helm k8smigrate: k8smigrate is not installed (pip install k8smigrate), or set K8SMIGRATE" >&2
  exit 2
fi
if [ -n "${HELM_BIN:-}" ]; then
  export K8SMIGRATE_HELM="$HELM_BIN"
fi
case "${1:-}" in
  scan|diff|apply|list|explain|--version|-h|--help) exec $run "$@" ;;
  "") exec $run --help ;;
  *) exec $run apply --in-place --verify-render "$@" ;;
esac
