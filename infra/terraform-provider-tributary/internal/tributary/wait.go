package tributary

import (
	"context"
	"errors"
	"fmt"
	"time"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
)

// Goal is what a job should have reached after a change.
type Goal struct {
	// Stopped: stopped (or finished, or created and never started); else running (or, for a
	// bounded job, finished).
	Stopped bool
	// Parallelism, when not 0 and the goal is running, must be the job's current parallelism.
	Parallelism int32
}

func (g Goal) String() string {
	if g.Stopped {
		return "stop"
	}
	if g.Parallelism > 0 {
		return fmt.Sprintf("run at parallelism %d", g.Parallelism)
	}
	return "run"
}

func (g Goal) reached(j *Job) bool {
	s := j.ObservedState
	if g.Stopped {
		return s == apiclient.OBSERVEDSTATE_STOPPED || s == apiclient.OBSERVEDSTATE_FINISHED ||
			s == apiclient.OBSERVEDSTATE_CREATED
	}
	if s == apiclient.OBSERVEDSTATE_FINISHED {
		return true
	}
	return s == apiclient.OBSERVEDSTATE_RUNNING &&
		(g.Parallelism == 0 || (j.Parallelism != nil && *j.Parallelism == g.Parallelism))
}

// FailedError is a job that failed while a change was waited for.
type FailedError struct {
	Job    string
	Reason string
}

func (e *FailedError) Error() string {
	return fmt.Sprintf("job %s failed: %s", e.Job, e.Reason)
}

// Await polls the job from changed (the server's answer to the change) until it reaches goal,
// fails, or ctx ends. A failure counts only if it is not older than the change: resuming a failed
// job does not end the wait because of its old failure. Polls start every 100 ms and back off to
// one second.
func (c *Client) Await(ctx context.Context, changed *Job, goal Goal) (*Job, error) {
	pause := 100 * time.Millisecond
	job := changed
	started := time.Now()
	for {
		if goal.reached(job) {
			return job, nil
		}
		if f := job.Failure; job.ObservedState == apiclient.OBSERVEDSTATE_FAILED && f != nil &&
			!f.At.Before(changed.UpdatedAt) {
			return job, &FailedError{Job: job.Name, Reason: f.Reason}
		}
		timer := time.NewTimer(pause)
		select {
		case <-ctx.Done():
			timer.Stop()
			last := ""
			if job.Failure != nil {
				last = " (last failure: " + job.Failure.Reason + ")"
			}
			return job, fmt.Errorf("timed out after %s waiting for job %s to %s; it is %s%s",
				time.Since(started).Round(time.Second), job.Name, goal, job.ObservedState, last)
		case <-timer.C:
		}
		if pause *= 2; pause > time.Second {
			pause = time.Second
		}
		next, err := c.GetJob(ctx, job.Project, job.Name)
		if err != nil {
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				continue // reported as a timeout above
			}
			return job, err
		}
		job = next
	}
}
