package provider

import (
	"context"
	"fmt"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
	"tributary.io/terraform-provider-tributary/internal/jobspec"
	"tributary.io/terraform-provider-tributary/internal/tributary"
)

// driftError is a job that changed outside Terraform after Terraform read it.
type driftError struct {
	project, name string
	read, now     int64
}

func (e *driftError) Error() string {
	now := ""
	if e.now > 0 {
		now = fmt.Sprintf(", now %d", e.now)
	}
	return fmt.Sprintf("job %s in project %s was changed outside Terraform after Terraform read it (version %d%s), "+
		"so Terraform did not overwrite the change. Run terraform plan to see it, then apply again to replace it with "+
		"the configuration", e.name, e.project, e.read, now)
}

// update makes the changes of the plan that the server keeps (spec and desired state), only if
// the job is still at the version Terraform read: it checks the version first, and the apply of a
// spec carries it as If-Match, so that a change in between is refused by the server too. It
// returns the job as last answered (nil if nothing changed), and the first error.
//
// A changed spec is rolled out as restore says: `savepoint` lets the server roll it out (a running
// job takes a savepoint and starts the new spec from it; a job at rest runs it when it next
// starts); `latest` and `none` stop a running job without a savepoint, apply the spec and resume
// from the latest checkpoint or without state. A job that is to stop is stopped with a savepoint
// if it runs; one that is to run is resumed from its restore policy (after a stop with a
// savepoint: that savepoint).
func update(ctx context.Context, c *tributary.Client, state, plan jobModel) (*tributary.Job, error) {
	project, name := plan.Project.ValueString(), plan.Name.ValueString()
	read := state.Version.ValueInt64()
	body, err := plan.apply()
	if err != nil {
		return nil, err
	}
	job, err := c.GetJob(ctx, project, name)
	if err != nil {
		return nil, err
	}
	if job.Version != read {
		return nil, &driftError{project: project, name: name, read: read, now: job.Version}
	}
	stop := plan.desired() == apiclient.DESIREDSTATE_STOPPED
	apply := func(j *tributary.Job, desired apiclient.DesiredState) (*tributary.Job, error) {
		a := body
		a.Desired, a.IfVersion = desired, j.Version
		applied, _, err := c.ApplyJob(ctx, project, name, a)
		if tributary.IsPreconditionFailed(err) {
			return j, &driftError{project: project, name: name, read: j.Version}
		}
		if err != nil {
			return j, err
		}
		return applied, nil
	}
	specChanged := jobChanged(state, plan)
	restore := plan.Restore.ValueString()
	switch {
	case specChanged && stop && job.DesiredState == apiclient.DESIREDSTATE_RUNNING:
		// stop first (the savepoint holds the old spec's state, which the new spec starts from)
		if restore == restoreSavepoint {
			job, err = stopWithSavepoint(ctx, c, job)
		} else {
			job, err = c.StopJob(ctx, project, name, false)
		}
		if err != nil {
			return job, err
		}
		return apply(job, "")
	case specChanged && (restore == restoreSavepoint || !active(job)):
		if restore == restoreSavepoint {
			return apply(job, plan.desired())
		}
		if job, err = apply(job, ""); err != nil || stop || job.DesiredState != apiclient.DESIREDSTATE_STOPPED {
			return job, err
		}
		return c.ResumeJob(ctx, project, name, restore)
	case specChanged:
		// restore latest or none on an active job: no savepoint
		if job, err = c.StopJob(ctx, project, name, false); err != nil {
			return job, err
		}
		if job, err = apply(job, ""); err != nil || stop {
			return job, err
		}
		return c.ResumeJob(ctx, project, name, restore)
	case stop && job.DesiredState == apiclient.DESIREDSTATE_RUNNING:
		return stopWithSavepoint(ctx, c, job)
	case !stop && job.DesiredState == apiclient.DESIREDSTATE_STOPPED:
		return c.ResumeJob(ctx, project, name, "")
	}
	return job, nil
}

// jobChanged says whether the plan changes the job's declaration: another meaning of its spec, a
// SQL text other than the one in the state (the plan keeps the state's text where the server
// says they mean the same), or a switch between the two.
func jobChanged(state, plan jobModel) bool {
	if !plan.Sql.IsNull() || !state.Sql.IsNull() {
		return !plan.Sql.Equal(state.Sql)
	}
	return !jobspec.Equivalent(state.Spec.ValueString(), plan.Spec.ValueString(), plan.Name.ValueString())
}

// active says whether the job has a run (starting, running, changing or stopping).
func active(j *tributary.Job) bool {
	switch j.ObservedState {
	case apiclient.OBSERVEDSTATE_CREATED, apiclient.OBSERVEDSTATE_STOPPED, apiclient.OBSERVEDSTATE_FINISHED,
		apiclient.OBSERVEDSTATE_FAILED:
		return false
	}
	return true
}

// stopWithSavepoint stops the job, with a savepoint if it runs: a job that is deploying,
// recovering or being changed is waited for first, as only a running job can take a savepoint.
// A job at rest is stopped without one.
func stopWithSavepoint(ctx context.Context, c *tributary.Client, job *tributary.Job) (*tributary.Job, error) {
	var err error
	switch job.ObservedState {
	case apiclient.OBSERVEDSTATE_DEPLOYING, apiclient.OBSERVEDSTATE_RECOVERING, apiclient.OBSERVEDSTATE_UPDATING,
		apiclient.OBSERVEDSTATE_RESCALING:
		if job, err = c.Await(ctx, job, tributary.Goal{}); err != nil {
			return job, err
		}
	}
	savepoint := job.ObservedState == apiclient.OBSERVEDSTATE_RUNNING
	stopped, err := c.StopJob(ctx, job.Project, job.Name, savepoint)
	if err != nil {
		return job, err
	}
	return stopped, nil
}
