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

// setFromJob copies what the server says into the model. The spec stays the model's text when it
// means what the server holds; else it becomes the server's, written like the model's text. The
// parallelism of a job without deployed tasks stays the model's.
func (m *jobModel) setFromJob(j *tributary.Job) diag.Diagnostics {
	var diags diag.Diagnostics
	m.ID = types.StringValue(j.Project + "/" + j.Name)
	m.Project = types.StringValue(j.Project)
	m.Name = types.StringValue(j.Name)
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
	return diags
}
