package provider

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
	"tributary.io/terraform-provider-tributary/internal/tributary"
)

const (
	defaultApplyTimeout  = 10 * time.Minute
	defaultDeleteTimeout = 5 * time.Minute
	// readTimeout bounds a refresh, which has no timeout of its own.
	readTimeout = time.Minute
)

// Create applies the spec only if no job of that name exists (If-None-Match: *), then rescales
// it to a configured parallelism and waits for the desired state. A job that fails meanwhile is
// kept in the state (Terraform marks it tainted, to be replaced by the next apply).
func (r *jobResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan jobModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	c := clientOf(ctx, r.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Create(ctx, defaultApplyTimeout)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	apply, err := plan.apply()
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("spec"), "Invalid job spec", capitalize(err.Error()))
		return
	}
	project, name := plan.Project.ValueString(), plan.Name.ValueString()
	apply.Desired, apply.CreateOnly = plan.desired(), true
	job, _, err := c.ApplyJob(ctx, project, name, apply)
	if tributary.IsPreconditionFailed(err) {
		resp.Diagnostics.AddError("Job already exists", fmt.Sprintf("Project %s already has a job %s. To manage "+
			"it with Terraform, import it: terraform import <resource address> %s/%s", project, name, project, name))
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Cannot create the job", err)
		return
	}
	job, err = r.settle(ctx, c, job, plan)
	resp.Diagnostics.Append(plan.setFromJob(job, nil)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	if err != nil {
		addError(&resp.Diagnostics, "The job was created but did not get to "+plan.DesiredState.ValueString(), err)
	}
}

// sameSQLOf asks the server whether a SQL text means job as it holds it (a failure to ask: it
// does not, so the state takes the server's text).
func sameSQLOf(ctx context.Context, c *tributary.Client, job *tributary.Job) sameSQL {
	return func(text string) bool {
		same, err := c.SameSQLJob(ctx, job.Project, job.Name, text)
		return err == nil && same
	}
}

// settle rescales the job to the configured parallelism if it differs, then waits for the desired
// state (at that parallelism). It returns the job as last read.
func (r *jobResource) settle(ctx context.Context, c *tributary.Client, job *tributary.Job, plan jobModel) (*tributary.Job, error) {
	stopped := plan.desired() == apiclient.DESIREDSTATE_STOPPED
	want := int32(0)
	if !plan.Parallelism.IsNull() && !plan.Parallelism.IsUnknown() {
		want = int32(plan.Parallelism.ValueInt64())
	}
	if want > 0 && (job.Parallelism == nil || *job.Parallelism != want) {
		var err error
		if !stopped {
			// a job rescales once it runs: not while it deploys
			if job, err = c.Await(ctx, job, tributary.Goal{}); err != nil {
				return job, err
			}
		}
		if job.Parallelism == nil || *job.Parallelism != want {
			rescaled, err := c.RescaleJob(ctx, job.Project, job.Name, want)
			if err != nil {
				return job, err
			}
			job = rescaled
		}
	}
	goal := tributary.Goal{Stopped: stopped}
	if !stopped {
		goal.Parallelism = want
	}
	return c.Await(ctx, job, goal)
}

// Read refreshes the job; a job deleted outside Terraform leaves the state, so that the plan
// creates it again.
func (r *jobResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state jobModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	c := clientOf(ctx, r.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, readTimeout)
	defer cancel()
	job, err := c.GetJob(ctx, state.Project.ValueString(), state.Name.ValueString())
	if tributary.IsNotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Cannot read the job", err)
		return
	}
	resp.Diagnostics.Append(state.setFromJob(job, sameSQLOf(ctx, c, job))...)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Update brings the job to the plan (see update in job_update.go), then waits for its desired state.
func (r *jobResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, state jobModel
	var configured types.Int64
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("parallelism"), &configured)...)
	c := clientOf(ctx, r.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Update(ctx, defaultApplyTimeout)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if configured.IsNull() {
		plan.Parallelism = types.Int64Null() // not an override: whatever the job runs at
	}
	job, err := update(ctx, c, state, plan)
	if err == nil {
		job, err = r.settle(ctx, c, job, plan)
	}
	if job == nil {
		addError(&resp.Diagnostics, "Cannot update the job", err)
		return
	}
	// Even after an error the job may have changed: the state records what the server holds (its
	// spec, if it is not the planned one), so that the next plan shows what is left to do.
	resp.Diagnostics.Append(plan.setFromJob(job, sameSQLOf(ctx, c, job))...)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	if err != nil {
		addError(&resp.Diagnostics, "Cannot update the job", err)
	}
}

// Delete stops a running job with a savepoint first (savepoint_on_destroy), then deletes it if
// it is still at the version read.
func (r *jobResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state jobModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	c := clientOf(ctx, r.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := state.Timeouts.Delete(ctx, defaultDeleteTimeout)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	project, name := state.Project.ValueString(), state.Name.ValueString()
	job, err := c.GetJob(ctx, project, name)
	if tributary.IsNotFound(err) {
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Cannot delete the job", err)
		return
	}
	if state.SavepointOnDestroy.ValueBool() && job.DesiredState == apiclient.DESIREDSTATE_RUNNING &&
		job.ObservedState != apiclient.OBSERVEDSTATE_FINISHED && job.ObservedState != apiclient.OBSERVEDSTATE_FAILED {
		if job, err = stopWithSavepoint(ctx, c, job); err != nil {
			addError(&resp.Diagnostics, "Cannot stop the job with a savepoint before deleting it", fmt.Errorf(
				"%w\n\nSet savepoint_on_destroy = false to delete the job without a savepoint", err))
			return
		}
	}
	if err := c.DeleteJob(ctx, project, name, job.Version); err != nil && !tributary.IsNotFound(err) {
		addError(&resp.Diagnostics, "Cannot delete the job", err)
	}
}
