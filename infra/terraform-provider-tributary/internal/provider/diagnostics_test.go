package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
	"tributary.io/terraform-provider-tributary/internal/tributary"
)

func TestEachInvalidFieldIsADiagnosticOnTheSpecWithItsPointerIntoTheSpec(t *testing.T) {
	var diags diag.Diagnostics
	addError(&diags, "Cannot create the job", &tributary.Error{Op: "apply job j", Status: 400,
		Detail: "the spec has 2 errors", Fields: []apiclient.FieldError{
			{Pointer: "/spec/operators/1/window/size", Message: "is required for a tumbling window"},
			{Pointer: "/spec", Message: "the job spec is empty"},
		}})
	if len(diags) != 2 {
		t.Fatalf("want one diagnostic per field, got %v", diags)
	}
	for i, want := range []string{"/operators/1/window/size: is required for a tumbling window",
		"(the whole spec): the job spec is empty"} {
		d, ok := diags[i].(diag.DiagnosticWithPath)
		if !ok || !d.Path().Equal(path.Root("spec")) {
			t.Errorf("diagnostic %d is not on the spec: %v", i, diags[i])
		}
		if !strings.HasPrefix(diags[i].Detail(), want) {
			t.Errorf("diagnostic %d says %q, want it to start with %q", i, diags[i].Detail(), want)
		}
	}
}

func TestAnErrorWithoutFieldsIsOneDiagnosticSayingWhatTheServerSaid(t *testing.T) {
	var diags diag.Diagnostics
	addError(&diags, "Cannot stop the job", &tributary.Error{Op: "stop job j in project p", Status: 409,
		Detail: "job 'j' is DEPLOYING: a savepoint needs a RUNNING job"})
	if len(diags) != 1 || diags[0].Summary() != "Cannot stop the job" ||
		diags[0].Detail() != "Cannot stop job j in project p: job 'j' is DEPLOYING: a savepoint needs a RUNNING job (HTTP 409)" {
		t.Fatalf("got %v", diags)
	}
}
