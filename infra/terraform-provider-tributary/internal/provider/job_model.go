package provider

import (
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
	"tributary.io/terraform-provider-tributary/internal/jobspec"
	"tributary.io/terraform-provider-tributary/internal/tributary"
)

type jobModel struct {
	ID                 types.String   `tfsdk:"id"`
	Project            types.String   `tfsdk:"project"`
	Name               types.String   `tfsdk:"name"`
	Spec               types.String   `tfsdk:"spec"`
	Sql                types.String   `tfsdk:"sql"`
	DesiredState       types.String   `tfsdk:"desired_state"`
	Parallelism        types.Int64    `tfsdk:"parallelism"`
	Restore            types.String   `tfsdk:"restore"`
	SavepointOnDestroy types.Bool     `tfsdk:"savepoint_on_destroy"`
	Version            types.Int64    `tfsdk:"version"`
	ObservedState      types.String   `tfsdk:"observed_state"`
	MaxParallelism     types.Int64    `tfsdk:"max_parallelism"`
	Failure            types.String   `tfsdk:"failure"`
	LastCheckpoint     types.Object   `tfsdk:"last_checkpoint"`
	Timeouts           timeouts.Value `tfsdk:"timeouts"`
}

var checkpointTypes = map[string]attr.Type{"id": types.Int64Type, "completed_at": types.StringType}

// desired is the API's desired state of the model's.
func (m *jobModel) desired() apiclient.DesiredState {
	if m.DesiredState.ValueString() == "stopped" {
		return apiclient.DESIREDSTATE_STOPPED
	}
	return apiclient.DESIREDSTATE_RUNNING
}

// document is the model's spec, named after the job.
func (m *jobModel) document() (*jobspec.Document, error) {
	return jobspec.Parse(m.Spec.ValueString(), m.Name.ValueString())
}

// apply is what applying the model sends: its SQL, or its spec as JSON.
func (m *jobModel) apply() (tributary.Apply, error) {
	if !m.Sql.IsNull() {
		return tributary.Apply{SQL: m.Sql.ValueString()}, nil
	}
	doc, err := m.document()
	if err != nil {
		return tributary.Apply{}, err
	}
	return tributary.Apply{SpecJSON: doc.JSON()}, nil
}

// sameSQL says whether a SQL job's text means the job as the server holds it.
type sameSQL func(text string) bool

// isSQL says whether the model declares the job as SQL: its sql is set, or (an import) neither
// is and the server holds the job as SQL.
func (m *jobModel) isSQL(j *tributary.Job) bool {
	if !m.Sql.IsNull() {
		return true
	}
	return (m.Spec.IsNull() || m.Spec.IsUnknown()) && j != nil && j.Sql != nil
}

// setFromJob copies what the server says into the model. The spec stays the model's text when it
// means what the server holds; else it becomes the server's, written like the model's text. A SQL
// job's text stays the model's when it is the server's or means the same (same, the server's dry
// run); else it becomes the server's (the server's spec, when the job is no longer SQL). The
// parallelism of a job without deployed tasks stays the model's.
func (m *jobModel) setFromJob(j *tributary.Job, same sameSQL) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(j.Project + "/" + j.Name)
	m.Project = types.StringValue(j.Project)
	m.Name = types.StringValue(j.Name)
	if m.isSQL(j) && m.setSQLFromJob(j, same) {
		m.Spec = types.StringNull()
	} else {
		m.Sql = types.StringNull()
		diags.Append(m.setSpecFromJob(j)...)
	}
	m.setStatusFromJob(j, &diags)
	return diags
}

// setSQLFromJob sets the model's SQL from the server's; false when the server holds a spec that
// the model's SQL does not mean.
func (m *jobModel) setSQLFromJob(j *tributary.Job, same sameSQL) bool {
	prior := m.Sql
	if !prior.IsNull() && !prior.IsUnknown() && (j.Sql != nil && *j.Sql == prior.ValueString() ||
		same != nil && same(prior.ValueString())) {
		return true
	}
	if j.Sql == nil {
		return false
	}
	m.Sql = types.StringValue(*j.Sql)
	return true
}

func (m *jobModel) setSpecFromJob(j *tributary.Job) diag.Diagnostics {
	var diags diag.Diagnostics
	server := string(j.Spec)
	prior := m.Spec.ValueString()
	if m.Spec.IsNull() || m.Spec.IsUnknown() || !jobspec.Equivalent(prior, server, j.Name) {
		text, err := jobspec.Render(server, prior)
		if err != nil {
			diags.AddError("Cannot read the job's spec", "The server's spec of job "+j.Name+" cannot be read: "+err.Error())
			text = server
		}
		m.Spec = types.StringValue(text)
	}
	return diags
}

func (m *jobModel) setStatusFromJob(j *tributary.Job, diags *diag.Diagnostics) {
	m.DesiredState = types.StringValue(strings.ToLower(string(j.DesiredState)))
	m.ObservedState = types.StringValue(string(j.ObservedState))
	if j.Parallelism != nil {
		m.Parallelism = types.Int64Value(int64(*j.Parallelism))
	} else if m.Parallelism.IsUnknown() {
		m.Parallelism = types.Int64Null()
	}
	m.MaxParallelism = types.Int64Value(int64(j.MaxParallelism))
	m.Version = types.Int64Value(j.Version)
	m.Failure = types.StringNull()
	if j.Failure != nil {
		m.Failure = types.StringValue(j.Failure.Reason)
	}
	m.LastCheckpoint = types.ObjectNull(checkpointTypes)
	if cp := j.LastCheckpoint; cp != nil {
		completed := types.StringNull()
		if cp.CompletedAt != nil {
			completed = types.StringValue(cp.CompletedAt.UTC().Format(time.RFC3339Nano))
		}
		obj, d := types.ObjectValue(checkpointTypes, map[string]attr.Value{
			"id": types.Int64Value(cp.Id), "completed_at": completed})
		diags.Append(d...)
		m.LastCheckpoint = obj
	}
	if m.Restore.IsNull() || m.Restore.IsUnknown() {
		m.Restore = types.StringValue(restoreSavepoint)
	}
	if m.SavepointOnDestroy.IsNull() || m.SavepointOnDestroy.IsUnknown() {
		m.SavepointOnDestroy = types.BoolValue(true)
	}
}
