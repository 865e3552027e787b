#!/usr/bin/env bash
# Builds the provider into target/bin/terraform-provider-tributary, for a dev_overrides
# configuration: generates the API client from openapi/tributary.yaml first if it is missing
# (Maven runs the generator; this module's pom.xml configures it).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -f internal/apiclient/client.go ] || [ ../../openapi/tributary.yaml -nt internal/apiclient/client.go ]; then
  echo "terraform-provider-tributary: generating the API client from openapi/tributary.yaml" >&2
  mvn -q -B ${MAVEN_ARGS:-} org.openapitools:openapi-generator-maven-plugin:generate@go-client >&2
fi
go build -o target/bin/terraform-provider-tributary .
echo "$PWD/target/bin/terraform-provider-tributary"
