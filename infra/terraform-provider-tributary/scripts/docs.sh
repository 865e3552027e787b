#!/usr/bin/env bash
# Regenerates docs/ (the registry's layout) from the provider's schema and examples/ with
# tfplugindocs, offline: OpenTofu (scripts/tofu.sh) exports the schema of a local build through a
# dev_overrides configuration, so tfplugindocs neither builds nor downloads Terraform.
set -euo pipefail
cd "$(dirname "$0")/.."
TOFU="$(bash scripts/tofu.sh)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/bin/terraform-provider-tributary" .
cat >"$work/cli.tfrc" <<CONFIG
provider_installation {
  dev_overrides { "tributary/tributary" = "$work/bin" }
  direct {}
}
CONFIG
cat >"$work/main.tf" <<'CONFIG'
terraform {
  required_providers {
    tributary = { source = "tributary/tributary" }
  }
}
CONFIG
(cd "$work" && TF_CLI_CONFIG_FILE="$work/cli.tfrc" "$TOFU" providers schema -json) |
  # tfplugindocs looks the provider up by its Terraform registry address
  sed 's#registry.opentofu.org/tributary/tributary#registry.terraform.io/hashicorp/tributary#' >"$work/schema.json"
go run github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs@v0.25.0 generate \
  --provider-name tributary --rendered-provider-name Tributary --providers-schema "$work/schema.json"
