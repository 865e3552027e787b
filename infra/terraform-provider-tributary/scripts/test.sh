#!/usr/bin/env bash
# The provider's tests, as `mvn verify` runs them (from this module's pom.xml, after the API
# client was generated into internal/apiclient): go vet, the unit tests, then the acceptance tests
# (TF_ACC=1) against a real Tributary server they start from the api module's jar
# ($TRIBUTARY_API_JAR, $TRIBUTARY_API_CLASSPATH), driven by OpenTofu (scripts/tofu.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v go >/dev/null 2>&1; then
  echo "terraform-provider-tributary: Go is needed for the provider's tests (1.25.8 or later)" >&2
  exit 1
fi
if [ ! -f internal/apiclient/client.go ]; then
  echo "terraform-provider-tributary: the generated API client is missing; run mvn pre-integration-test in this module" >&2
  exit 1
fi
start=$(date +%s)
TOFU="$(bash scripts/tofu.sh)"
echo "terraform-provider-tributary: OpenTofu: $TOFU ($(( $(date +%s) - start ))s)"

echo "terraform-provider-tributary: go vet"
go vet ./...

echo "terraform-provider-tributary: unit tests"
go test -count=1 ./...

echo "terraform-provider-tributary: acceptance tests (TF_ACC=1)"
mkdir -p target
log="$PWD/target/acceptance-tests.log"
cli_config="$(mktemp)"
trap 'rm -f "$cli_config"' EXIT
if ! TF_ACC=1 \
  TF_ACC_TERRAFORM_PATH="$TOFU" \
  TF_ACC_PROVIDER_NAMESPACE=hashicorp \
  TF_ACC_PROVIDER_HOST=registry.opentofu.org \
  TF_CLI_CONFIG_FILE="$cli_config" \
  CHECKPOINT_DISABLE=1 \
  go test -count=1 -p 1 -timeout 20m -v ./... >"$log" 2>&1; then
  cat "$log"
  echo "terraform-provider-tributary: acceptance tests failed (output above, also in $log)" >&2
  exit 1
fi
grep -E '^(--- |    --- |ok |FAIL)' "$log"
echo "terraform-provider-tributary: all tests passed in $(( $(date +%s) - start ))s"
