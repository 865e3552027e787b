package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
	"tributary.io/terraform-provider-tributary/internal/tributary"
)

const appliedSQL = "CREATE TABLE gen (id BIGINT) WITH ('connector' = 'datagen');\n" +
	"CREATE TABLE sink (id BIGINT) WITH ('connector' = 'blackhole');\nINSERT INTO sink SELECT id FROM gen;\n"

func TestAnErrorOfTheSqlIsADiagnosticOnSqlWithItsLineAndColumn(t *testing.T) {
	var diags diag.Diagnostics
	line, column := int32(3), int32(25)
	addError(&diags, "Cannot create the job", &tributary.Error{Op: "apply job j", Status: 400,
		Detail: "/sql (line 3, column 25): Column 'ids' not found in any table", Fields: []apiclient.FieldError{
			{Pointer: "/sql", Line: &line, Column: &column, Message: "Column 'ids' not found in any table"},
		}})
	if len(diags) != 1 {
		t.Fatalf("want one diagnostic, got %v", diags)
	}
	d, ok := diags[0].(diag.DiagnosticWithPath)
	if !ok || !d.Path().Equal(path.Root("sql")) {
		t.Fatalf("the diagnostic is not on sql: %v", diags[0])
	}
	if want := "line 3, column 25: Column 'ids' not found in any table"; d.Detail() != want {
		t.Errorf("it says %q, want %q", d.Detail(), want)
	}
}

func validateConfig(t *testing.T, attrs map[string]any) diag.Diagnostics {
	s := jobSchema(t)
	resp := &resource.ValidateConfigResponse{}
	(&jobResource{}).ValidateConfig(context.Background(),
		resource.ValidateConfigRequest{Config: tfsdk.Config{Schema: s, Raw: jobValues(t, s, attrs)}}, resp)
	return resp.Diagnostics
}

func TestAJobIsGivenAsSpecOrAsSqlExactlyOnce(t *testing.T) {
	both := validateConfig(t, map[string]any{"name": "clicks", "spec": appliedSpec, "sql": appliedSQL})
	if !both.HasError() || !strings.Contains(both[0].Detail(), "set one of spec and sql") {
		t.Errorf("spec and sql together: %v", both)
	}
	neither := validateConfig(t, map[string]any{"name": "clicks"})
	if !neither.HasError() || neither[0].Summary() != "Neither spec nor sql" {
		t.Errorf("neither spec nor sql: %v", neither)
	}
	if d := validateConfig(t, map[string]any{"name": "clicks", "sql": appliedSQL}); d.HasError() {
		t.Errorf("sql alone: %v", d)
	}
}

func TestASqlJobChangesWhenItsTextDoesAndWhenItBecomesASpec(t *testing.T) {
	sql := jobModel{Name: types.StringValue("clicks"), Sql: types.StringValue(appliedSQL), Spec: types.StringNull()}
	same := sql
	if jobChanged(sql, same) {
		t.Error("the same text is no change")
	}
	edited := sql
	edited.Sql = types.StringValue(strings.Replace(appliedSQL, "id FROM", "id * 2 FROM", 1))
	if !jobChanged(sql, edited) {
		t.Error("another text is a change (the plan keeps the state's where the server says they mean the same)")
	}
	spec := jobModel{Name: types.StringValue("clicks"), Spec: types.StringValue(appliedSpec), Sql: types.StringNull()}
	if !jobChanged(sql, spec) || !jobChanged(spec, sql) {
		t.Error("switching between spec and sql is a change")
	}
}

func heldJob(sql *string) *tributary.Job {
	return &tributary.Job{Project: "default", Name: "clicks", Spec: []byte(`{"name":"clicks","sources":{},"sinks":{}}`),
		Sql: sql, DesiredState: apiclient.DESIREDSTATE_RUNNING, ObservedState: apiclient.OBSERVEDSTATE_RUNNING}
}

func TestReadingASqlJobKeepsATextThatMeansTheAppliedJob(t *testing.T) {
	server := appliedSQL
	reformatted := "-- a comment\n" + appliedSQL
	m := jobModel{Sql: types.StringValue(reformatted), Spec: types.StringNull()}
	m.setFromJob(heldJob(&server), func(text string) bool { return text == reformatted })
	if m.Sql.ValueString() != reformatted || !m.Spec.IsNull() {
		t.Errorf("a text meaning the job stays: sql %q, spec %v", m.Sql.ValueString(), m.Spec)
	}

	m = jobModel{Sql: types.StringValue(reformatted), Spec: types.StringNull()}
	m.setFromJob(heldJob(&server), func(string) bool { return false })
	if m.Sql.ValueString() != server {
		t.Errorf("a changed job's text is the server's: %q", m.Sql.ValueString())
	}

	imported := jobModel{Sql: types.StringNull(), Spec: types.StringNull()}
	imported.setFromJob(heldJob(&server), nil)
	if imported.Sql.ValueString() != server || !imported.Spec.IsNull() {
		t.Errorf("an imported SQL job is its SQL: sql %v, spec %v", imported.Sql, imported.Spec)
	}

	m = jobModel{Sql: types.StringValue(reformatted), Spec: types.StringNull()}
	m.setFromJob(heldJob(nil), func(string) bool { return false })
	if !m.Sql.IsNull() || !strings.Contains(m.Spec.ValueString(), "clicks") {
		t.Errorf("a job applied as a spec since is its spec: sql %v, spec %v", m.Sql, m.Spec)
	}
}
