#!/usr/bin/env bash
# The chart's tests, as `mvn verify` runs them (from this module's pom.xml):
#   1. helm lint --strict with the least values a user must give (test/values-minimal.yaml) and with
#      the AWS example (tributary/values-aws.yaml);
#   2. go vet and go test in test/: renders the chart with helm template under several values,
#      decodes every manifest strictly into the Kubernetes API's own types (k8s.io/api), checks
#      references, selectors, ports and names, and asserts what the values must produce; broken
#      values must fail;
#   3. tofu fmt -check -recursive on ../terraform (OpenTofu as the Terraform provider's tests build
#      and cache it; `tofu validate` needs the AWS provider, which cannot be downloaded here).
# Helm is built once from the Go module proxy and cached (scripts/helm.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v go >/dev/null 2>&1; then
  echo "tributary-helm-chart: Go is needed for the chart's tests (1.26 or later)" >&2
  exit 1
fi
start=$(date +%s)
HELM="$(bash scripts/helm.sh)"
echo "tributary-helm-chart: Helm: $HELM ($(( $(date +%s) - start ))s)"

echo "tributary-helm-chart: helm lint"
"$HELM" lint --strict tributary -f test/values-minimal.yaml
"$HELM" lint --strict tributary -f tributary/values-aws.yaml

echo "tributary-helm-chart: go vet, go test (rendered manifests against the Kubernetes types)"
(cd test && go vet ./... && TRIBUTARY_HELM="$HELM" go test -count=1 ./...)

if [ -d ../terraform ]; then
  TOFU="$(bash ../terraform-provider-tributary/scripts/tofu.sh)"
  echo "tributary-helm-chart: tofu fmt -check -recursive ../terraform"
  # (fmt reads no CLI configuration: an empty one keeps a missing ~/.terraformrc from warning)
  if ! TF_CLI_CONFIG_FILE=/dev/null "$TOFU" fmt -check -recursive -diff ../terraform; then
    echo "tributary-helm-chart: ../terraform is not formatted: run tofu fmt -recursive infra/terraform" >&2
    exit 1
  fi
fi
echo "tributary-helm-chart: all checks passed in $(( $(date +%s) - start ))s"
