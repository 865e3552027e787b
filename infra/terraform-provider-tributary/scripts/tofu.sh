#!/usr/bin/env bash
# Prints the path of the OpenTofu binary the acceptance tests drive, building it once if needed.
#
# Nothing but packages can be downloaded here, so OpenTofu is built from the Go module proxy
# (`go install`; later tags carry replace directives that go install refuses). The binary is
# cached outside the build directory, keyed by version, so that clean clones (CI) reuse it:
# $TRIBUTARY_CACHE_DIR (default ~/.cache/tributary)/tofu-<version>/tofu. $TRIBUTARY_TOFU names
# a binary to use instead. Building takes about 10 CPU-minutes, once.
set -euo pipefail
VERSION="${TRIBUTARY_TOFU_VERSION:-v1.6.3}"
if [ -n "${TRIBUTARY_TOFU:-}" ]; then
  echo "$TRIBUTARY_TOFU"
  exit 0
fi
CACHE="${TRIBUTARY_CACHE_DIR:-${HOME:-/root}/.cache/tributary}/tofu-$VERSION"
if [ -x "$CACHE/tofu" ]; then
  echo "$CACHE/tofu"
  exit 0
fi
echo "terraform-provider-tributary: building OpenTofu $VERSION once into $CACHE (about 10 CPU-minutes)..." >&2
mkdir -p "$CACHE"
BUILD="$(mktemp -d "$CACHE/build.XXXXXX")"
trap 'rm -rf "$BUILD"' EXIT
start=$(date +%s)
# outside any module, so that go install resolves OpenTofu's own dependencies
(cd "$BUILD" && GOBIN="$BUILD" GOFLAGS=-mod=mod nice go install "github.com/opentofu/opentofu/cmd/tofu@$VERSION") >&2
mv "$BUILD/tofu" "$CACHE/tofu"
echo "terraform-provider-tributary: built OpenTofu $VERSION in $(( $(date +%s) - start ))s" >&2
echo "$CACHE/tofu"
