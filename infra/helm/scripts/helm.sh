#!/usr/bin/env bash
# Prints the path of the Helm binary the chart's tests drive, building it once if needed.
#
# Nothing but packages can be downloaded here, so Helm is built from the Go module proxy
# (`go install`). The binary is cached outside the clone, keyed by version, so that clean
# clones (CI) reuse it: $TRIBUTARY_CACHE_DIR (default ~/.cache/tributary)/helm-<version>/helm.
# $TRIBUTARY_HELM names a binary to use instead. Building takes a few CPU-minutes, once.
set -euo pipefail
VERSION="${TRIBUTARY_HELM_VERSION:-v3.21.4}"
if [ -n "${TRIBUTARY_HELM:-}" ]; then
  echo "$TRIBUTARY_HELM"
  exit 0
fi
CACHE="${TRIBUTARY_CACHE_DIR:-${HOME:-/root}/.cache/tributary}/helm-$VERSION"
if [ -x "$CACHE/helm" ]; then
  echo "$CACHE/helm"
  exit 0
fi
echo "tributary-helm-chart: building Helm $VERSION once into $CACHE (a few CPU-minutes)..." >&2
mkdir -p "$CACHE"
BUILD="$(mktemp -d "$CACHE/build.XXXXXX")"
trap 'rm -rf "$BUILD"' EXIT
start=$(date +%s)
# outside any module, so that go install resolves Helm's own dependencies
(cd "$BUILD" && GOBIN="$BUILD" GOFLAGS=-mod=mod nice go install "helm.sh/helm/v3/cmd/helm@$VERSION") >&2
mv "$BUILD/helm" "$CACHE/helm"
echo "tributary-helm-chart: built Helm $VERSION in $(( $(date +%s) - start ))s" >&2
echo "$CACHE/helm"
