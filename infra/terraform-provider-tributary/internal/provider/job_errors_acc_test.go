package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// The server's validation errors are diagnostics on the spec, each with its JSON pointer into the
// spec: reported by the plan, before anything is applied.
func TestAccJobInvalidSpecIsReportedByThePlan(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providers,
		Steps: []resource.TestStep{{
			Config: `
resource "tributary_job" "bad" {
  name = "bad-window"
  spec = <<-EOT
    sources:
      clicks: {type: datagen, eventTime: {field: ts}}
    operators:
      - {id: per-key, input: clicks, keyBy: key, window: {type: tumbling}, aggregate: {n: "count(*)"}}
    sinks:
      out: {input: per-kee, type: blackhole}
  EOT
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`(?s)Invalid job spec.*/operators/0/window/size: is required for a\s+tumbling window.*/sinks/out/input:`),
		}},
	})
}

// A job that fails to start fails the apply with the job's failure reason.
func TestAccJobFailureFailsTheApplyWithItsReason(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providers,
		Steps: []resource.TestStep{{
			Config: `
resource "tributary_job" "broken" {
  name = "broken"
  spec = <<-EOT
    sources:
      lines: {type: file, path: no-such-file.jsonl}
    sinks:
      out: {input: lines, type: blackhole}
  EOT
}
`,
			ExpectError: regexp.MustCompile(`(?is)job broken failed: .*no-such-file\.jsonl' is\s+neither a file nor a directory`),
		}},
	})
}

// A spec that names another job than the resource is refused before any plan.
func TestAccJobSpecNamingAnotherJobIsRefused(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providers,
		Steps: []resource.TestStep{{
			Config: `
resource "tributary_job" "named" {
  name = "one"
  spec = "name: two\nsources: {s: {type: datagen}}\nsinks: {o: {input: s, type: blackhole}}"
}
`,
			PlanOnly:    true,
			ExpectError: regexp.MustCompile(`/name: is "two" but the job's name is "one"`),
		}},
	})
}

// A server that cannot be reached is a diagnostic naming its URL.
func TestAccUnreachableServerIsNamed(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providers,
		Steps: []resource.TestStep{{
			Config: `
provider "tributary" {
  endpoint = "http://127.0.0.1:9"
}

resource "tributary_project" "p" {
  name = "unreachable"
}
`,
			ExpectError: regexp.MustCompile(`(?is)cannot reach the Tributary server at\s+http://127\.0\.0\.1:9.*connection refused`),
		}},
	})
}
