package tributary

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
)

// Job is the API's job resource.
type Job = apiclient.Job

// ETag is the If-Match value of a job version.
func ETag(version int64) string {
	return `"` + strconv.FormatInt(version, 10) + `"`
}

// GetJob reads a job.
func (c *Client) GetJob(ctx context.Context, project, name string) (*Job, error) {
	job, resp, err := c.api.JobsAPI.GetJob(ctx, project, name).Execute()
	return job, c.wrap(fmt.Sprintf("read job %s in project %s", name, project), resp, err)
}

// Apply says how to apply a spec or a SQL job.
type Apply struct {
	// SpecJSON is the spec document as JSON; empty when SQL is given.
	SpecJSON string
	// SQL is the text of a job written as SQL, instead of a spec.
	SQL string
	// Desired is RUNNING or STOPPED; empty keeps the job's own (RUNNING for a new job).
	Desired apiclient.DesiredState
	// IfVersion, when not 0, applies only if the job is still at this version (If-Match).
	IfVersion int64
	// CreateOnly applies only if the job does not exist (If-None-Match: *).
	CreateOnly bool
}

// ApplyJob is the idempotent PUT of a job; created says whether it created the job.
func (c *Client) ApplyJob(ctx context.Context, project, name string, a Apply) (job *Job, created bool, err error) {
	var body apiclient.JobApply
	if a.SQL != "" {
		body.Sql = &a.SQL
	} else {
		spec := json.RawMessage(a.SpecJSON)
		body.Spec = &spec
	}
	if a.Desired != "" {
		d := a.Desired
		body.DesiredState = &d
	}
	req := c.api.JobsAPI.ApplyJob(ctx, project, name).JobApply(body)
	if a.IfVersion != 0 {
		req = req.IfMatch(ETag(a.IfVersion))
	}
	if a.CreateOnly {
		req = req.IfNoneMatch("*")
	}
	job, resp, err := req.Execute()
	if err != nil {
		return nil, false, c.wrap(fmt.Sprintf("apply job %s in project %s", name, project), resp, err)
	}
	return job, resp.StatusCode == http.StatusCreated, nil
}

// PlanJob is the dry run of an apply: the execution plan, or every validation error.
func (c *Client) PlanJob(ctx context.Context, project, specJSON string) (*apiclient.ExecutionPlan, error) {
	spec := json.RawMessage(specJSON)
	plan, resp, err := c.api.PlansAPI.PlanJob(ctx, project).
		PlanRequest(apiclient.PlanRequest{Spec: &spec}).Execute()
	return plan, c.wrap(fmt.Sprintf("validate the spec in project %s", project), resp, err)
}

// PlanSQL is the dry run of applying the SQL job text as job name: its plan (whose change says
// whether it means the job as applied), or every error, each with its line and column.
func (c *Client) PlanSQL(ctx context.Context, project, name, text string) (*apiclient.ExecutionPlan, error) {
	plan, resp, err := c.api.PlansAPI.PlanJob(ctx, project).
		PlanRequest(apiclient.PlanRequest{Sql: &text, Name: &name}).Execute()
	return plan, c.wrap(fmt.Sprintf("validate the SQL of job %s in project %s", name, project), resp, err)
}

// SameSQLJob says whether text means what job name in project runs as applied: the server's
// dry run of it changes nothing. Text the server refuses does not.
func (c *Client) SameSQLJob(ctx context.Context, project, name, text string) (bool, error) {
	plan, err := c.PlanSQL(ctx, project, name, text)
	if StatusOf(err) == http.StatusBadRequest {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return plan.Change != nil && plan.Change.Action == "none", nil
}

// StopJob stops a job, after a savepoint if asked (which needs a running job).
func (c *Client) StopJob(ctx context.Context, project, name string, savepoint bool) (*Job, error) {
	job, resp, err := c.api.JobActionsAPI.StopJob(ctx, project, name).
		StopRequest(apiclient.StopRequest{Savepoint: &savepoint}).Execute()
	return job, c.wrap(fmt.Sprintf("stop job %s in project %s", name, project), resp, err)
}

// ResumeJob starts a job at rest. from is latest, none, or empty for the job's own restore policy
// (after a stop with a savepoint: that savepoint).
func (c *Client) ResumeJob(ctx context.Context, project, name, from string) (*Job, error) {
	req := c.api.JobActionsAPI.ResumeJob(ctx, project, name)
	if from != "" {
		req = req.RestorePolicy(apiclient.RestorePolicy{From: from})
	}
	job, resp, err := req.Execute()
	return job, c.wrap(fmt.Sprintf("resume job %s in project %s", name, project), resp, err)
}

// RescaleJob sets a job's parallelism (a running job keeps its state through a savepoint).
func (c *Client) RescaleJob(ctx context.Context, project, name string, parallelism int32) (*Job, error) {
	job, resp, err := c.api.JobActionsAPI.RescaleJob(ctx, project, name).
		RescaleRequest(apiclient.RescaleRequest{Parallelism: &parallelism}).Execute()
	return job, c.wrap(fmt.Sprintf("rescale job %s in project %s", name, project), resp, err)
}

// DeleteJob deletes a job; with ifVersion not 0, only if it is still at that version.
func (c *Client) DeleteJob(ctx context.Context, project, name string, ifVersion int64) error {
	req := c.api.JobsAPI.DeleteJob(ctx, project, name)
	if ifVersion != 0 {
		req = req.IfMatch(ETag(ifVersion))
	}
	resp, err := req.Execute()
	return c.wrap(fmt.Sprintf("delete job %s in project %s", name, project), resp, err)
}

// Savepoints lists a job's savepoints, newest first (every page).
func (c *Client) Savepoints(ctx context.Context, project, name string) ([]apiclient.Savepoint, error) {
	var all []apiclient.Savepoint
	token := ""
	for {
		req := c.api.SavepointsAPI.ListSavepoints(ctx, project, name).PageSize(500)
		if token != "" {
			req = req.PageToken(token)
		}
		page, resp, err := req.Execute()
		if err != nil {
			return nil, c.wrap(fmt.Sprintf("list the savepoints of job %s in project %s", name, project), resp, err)
		}
		all = append(all, page.Items...)
		if page.NextPageToken == nil || *page.NextPageToken == "" {
			return all, nil
		}
		token = *page.NextPageToken
	}
}

// Events lists a job's newest lifecycle events, newest first (one page).
func (c *Client) Events(ctx context.Context, project, name string) ([]apiclient.JobEvent, error) {
	page, resp, err := c.api.EventsAPI.ListJobEvents(ctx, project, name).PageSize(500).Execute()
	if err != nil {
		return nil, c.wrap(fmt.Sprintf("list the events of job %s in project %s", name, project), resp, err)
	}
	return page.Items, nil
}
