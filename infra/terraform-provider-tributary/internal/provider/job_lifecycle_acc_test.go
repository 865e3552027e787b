package provider

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
	"tributary.io/terraform-provider-tributary/internal/jobspec"
	"tributary.io/terraform-provider-tributary/internal/tributary"
)

const (
	lifeProject = "acc-life"
	lifeJob     = "trickle"
	jobAddr     = "tributary_job.trickle"
	tokenAddr   = "tributary_token.ci"
)

// trickleSpec is an unbounded job whose tumbling window has the given size, without its name
// (the resource adds it). Its source is throttled to stay light.
func trickleSpec(size string) string {
	return `parallelism: {initial: 1, max: 4}
sources:
  clicks: {type: datagen, keys: 10, interval: 10ms, maxRecordsPerSecond: 200, eventTime: {field: ts}}
operators:
  - {id: per-key, input: clicks, keyBy: key, window: {type: tumbling, size: ` + size + `}, aggregate: {n: "count(*)"}}
sinks:
  out: {input: per-key, type: blackhole}
`
}

// trickleSpecReformatted means what trickleSpec("2s") means, written as JSON in another order.
const trickleSpecReformatted = `{
  "sinks": {"out": {"type": "blackhole", "input": "per-key"}},
  "operators": [{"aggregate": {"n": "count(*)"}, "window": {"size": "2000ms", "type": "tumbling"},
                 "keyBy": ["key"], "input": "clicks", "id": "per-key"}],
  "sources": {"clicks": {"eventTime": {"field": "ts"}, "maxRecordsPerSecond": 200.0, "interval": "10ms",
                         "keys": 10, "type": "datagen"}},
  "parallelism": {"max": 4, "initial": 1},
  "name": "trickle"
}`

type lifeConfig struct {
	spec        string
	desired     string
	parallelism int
	role        string
	withoutJob  bool
	savepoints  bool // add data.tributary_savepoints read after the job's apply
}

func (c lifeConfig) hcl() string {
	role := c.role
	if role == "" {
		role = "editor"
	}
	var b strings.Builder
	fmt.Fprintf(&b, `
resource "tributary_project" "life" {
  name = %q
}

resource "tributary_token" "ci" {
  project = tributary_project.life.name
  name    = "ci pipeline"
  role    = %q
}
`, lifeProject, role)
	if c.withoutJob {
		return b.String()
	}
	fmt.Fprintf(&b, `
resource "tributary_job" "trickle" {
  project       = tributary_project.life.name
  name          = %q
  desired_state = %q
  spec          = <<-EOT
%s
EOT
`, lifeJob, orDefault(c.desired, "running"), c.spec)
	if c.parallelism > 0 {
		fmt.Fprintf(&b, "  parallelism = %d\n", c.parallelism)
	}
	b.WriteString("}\n")
	if c.savepoints {
		b.WriteString(`
data "tributary_savepoints" "trickle" {
  project    = tributary_project.life.name
  job        = tributary_job.trickle.name
  depends_on = [tributary_job.trickle]
}
`)
	}
	return b.String()
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// TestAccJobLifecycle manages a project, a token and a job end to end against the real server.
func TestAccJobLifecycle(t *testing.T) {
	var firstSecret string
	var versionBefore int64
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: providers,
		CheckDestroy:             projectGone(lifeProject),
		Steps: []resource.TestStep{
			{
				// create a project, a token and a running job
				Config: lifeConfig{spec: trickleSpec("1s")}.hcl(),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(jobAddr, "id", lifeProject+"/"+lifeJob),
					resource.TestCheckResourceAttr(jobAddr, "observed_state", "running"),
					resource.TestCheckResourceAttr(jobAddr, "parallelism", "1"),
					resource.TestCheckResourceAttr(jobAddr, "max_parallelism", "128"),
					resource.TestCheckNoResourceAttr(jobAddr, "failure"),
					resource.TestCheckResourceAttrSet(tokenAddr, "secret"),
					resource.TestCheckResourceAttrWith(tokenAddr, "prefix", prefixOf(tokenAddr)),
					captureSecret(tokenAddr, &firstSecret),
					secretWorks(&firstSecret, true),
					captureVersion(&versionBefore),
				),
			},
			{
				// a changed spec is rolled out by savepoint, the version grows
				Config: lifeConfig{spec: trickleSpec("2s"), savepoints: true}.hcl(),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(jobAddr, "observed_state", "running"),
					versionGrew(&versionBefore),
					serverSpecMeans(trickleSpec("2s")),
					resource.TestCheckResourceAttr("data.tributary_savepoints.trickle", "savepoints.0.trigger", "rollout"),
					resource.TestCheckResourceAttr("data.tributary_savepoints.trickle", "savepoints.0.status", "completed"),
					resource.TestCheckResourceAttrPair("data.tributary_savepoints.trickle", "latest",
						"data.tributary_savepoints.trickle", "savepoints.0.id"),
				),
			},
			{
				// the same spec reformatted (JSON, other order, 2000ms): nothing to do
				Config: lifeConfig{spec: trickleSpecReformatted}.hcl(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// stop: with a savepoint
				Config: lifeConfig{spec: trickleSpec("2s"), desired: "stopped"}.hcl(),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(jobAddr, "observed_state", "stopped"),
					resource.TestCheckResourceAttr(jobAddr, "desired_state", "stopped"),
					newestSavepoint(lifeProject, lifeJob, "stop"),
				),
			},
			{
				// resume: from the savepoint the stop took
				Config: lifeConfig{spec: trickleSpec("2s")}.hcl(),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(jobAddr, "observed_state", "running"),
					restoredFromNewestSavepoint(lifeProject, lifeJob),
				),
			},
			{
				// a change behind Terraform's back shows in the plan as drift and is undone by apply
				PreConfig: func() { applyBehindTerraform(t, trickleSpec("1s")) },
				Config:    lifeConfig{spec: trickleSpec("2s")}.hcl(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{
						plancheck.ExpectResourceAction(jobAddr, plancheck.ResourceActionUpdate),
						plannedSpecChange{from: trickleSpec("1s"), to: trickleSpec("2s")},
					},
				},
				Check: serverSpecMeans(trickleSpec("2s")),
			},
			{
				// a change between Terraform's read and its apply is not overwritten (If-Match)
				Config: lifeConfig{spec: trickleSpec("3s")}.hcl(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{behindTerraform{t: t, spec: trickleSpec("5s")}},
				},
				ExpectError: regexp.MustCompile(`changed\s+outside\s+Terraform\s+after\s+Terraform\s+read\s+it`),
			},
			{
				// the refused apply changed nothing: the job has the other change, which the refresh shows
				Config: lifeConfig{spec: trickleSpec("5s")}.hcl(),
				Check:  serverSpecMeans(trickleSpec("5s")),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
				},
			},
			{
				// a parallelism override rescales the job (through a savepoint), with the spec change
				Config: lifeConfig{spec: trickleSpec("2s"), parallelism: 2}.hcl(),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(jobAddr, "parallelism", "2"),
					resource.TestCheckResourceAttr(jobAddr, "observed_state", "running"),
					serverSpecMeans(trickleSpec("2s")),
					serverParallelism(2),
				),
			},
			{
				// import by project/name: the same state, the spec as the server holds it
				ResourceName:            jobAddr,
				ImportState:             true,
				ImportStateId:           lifeProject + "/" + lifeJob,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"spec", "last_checkpoint", "timeouts"},
				ImportStateCheck:        importedSpecMeans(trickleSpec("2s")),
			},
			{
				// import a token by project/id: everything but the secret
				ResourceName:            tokenAddr,
				ImportState:             true,
				ImportStateIdFunc:       tokenImportID,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"secret"},
				ImportStateCheck:        importedWithoutSecret,
			},
			{
				// destroying the job stops it with a savepoint, which outlives it
				Config: lifeConfig{withoutJob: true}.hcl(),
				Check:  jobGoneWithStopSavepoint(lifeProject, lifeJob),
			},
			{
				// changing a token's role replaces it: the old secret stops working
				Config: lifeConfig{withoutJob: true, role: "viewer"}.hcl(),
				ConfigPlanChecks: resource.ConfigPlanChecks{
					PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(tokenAddr, plancheck.ResourceActionReplace)},
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(tokenAddr, "role", "viewer"),
					secretWorks(&firstSecret, false),
				),
			},
		},
	})
}

// ---- checks

func prefixOf(addr string) resource.CheckResourceAttrWithFunc {
	return func(prefix string) error {
		if !strings.HasPrefix(prefix, "trb_") {
			return fmt.Errorf("prefix %q does not look like a token's", prefix)
		}
		return nil
	}
}

func captureSecret(addr string, into *string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		*into = s.RootModule().Resources[addr].Primary.Attributes["secret"]
		return nil
	}
}

// secretWorks checks that the token's secret may (or no longer may) list the project's jobs.
func secretWorks(secret *string, works bool) resource.TestCheckFunc {
	return func(*terraform.State) error {
		c := tributary.New(server.URL, *secret, "acceptance-test")
		_, err := c.GetProject(context.Background(), lifeProject)
		switch {
		case works && err != nil:
			return fmt.Errorf("the token's secret does not work: %w", err)
		case !works && tributary.StatusOf(err) != 401:
			return fmt.Errorf("the old token's secret should be refused with 401, got %v", err)
		}
		return nil
	}
}

func captureVersion(into *int64) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		v, err := strconv.ParseInt(s.RootModule().Resources[jobAddr].Primary.Attributes["version"], 10, 64)
		*into = v
		return err
	}
}

func versionGrew(before *int64) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		v, _ := strconv.ParseInt(s.RootModule().Resources[jobAddr].Primary.Attributes["version"], 10, 64)
		if v <= *before {
			return fmt.Errorf("version %d did not grow from %d", v, *before)
		}
		return nil
	}
}

func serverJob() (*tributary.Job, error) {
	return admin().GetJob(context.Background(), lifeProject, lifeJob)
}

// serverSpecMeans checks that the server holds a spec meaning text.
func serverSpecMeans(text string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		job, err := serverJob()
		if err != nil {
			return err
		}
		if !jobspec.Equivalent(string(job.Spec), text, lifeJob) {
			return fmt.Errorf("the server's spec %s does not mean\n%s", job.Spec, text)
		}
		return nil
	}
}

func serverParallelism(p int32) resource.TestCheckFunc {
	return func(*terraform.State) error {
		job, err := serverJob()
		if err != nil {
			return err
		}
		if job.Parallelism == nil || *job.Parallelism != p {
			return fmt.Errorf("the job runs at parallelism %v, want %d", job.Parallelism, p)
		}
		return nil
	}
}

func newestSavepoint(project, job, trigger string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		sps, err := admin().Savepoints(context.Background(), project, job)
		if err != nil {
			return err
		}
		if len(sps) == 0 || sps[0].Trigger == nil || *sps[0].Trigger != trigger ||
			sps[0].Status != apiclient.SNAPSHOTSTATUS_COMPLETED {
			return fmt.Errorf("the newest savepoint of job %s is not a completed one taken by %s: %+v", job, trigger, sps)
		}
		return nil
	}
}

// restoredFromNewestSavepoint checks that the job's last start restored its newest savepoint.
func restoredFromNewestSavepoint(project, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ctx := context.Background()
		job, err := admin().GetJob(ctx, project, name)
		if err != nil {
			return err
		}
		sps, err := admin().Savepoints(ctx, project, name)
		if err != nil || len(sps) == 0 {
			return fmt.Errorf("no savepoints: %v", err)
		}
		rp := job.RestorePolicy
		if rp.From != "savepoint" || rp.SavepointId == nil || *rp.SavepointId != sps[0].Id {
			return fmt.Errorf("the job resumed with restore policy %+v, not from savepoint %s", rp, sps[0].Id)
		}
		return nil
	}
}

func importedSpecMeans(text string) resource.ImportStateCheckFunc {
	return func(states []*terraform.InstanceState) error {
		if len(states) != 1 {
			return fmt.Errorf("imported %d instances", len(states))
		}
		if spec := states[0].Attributes["spec"]; !jobspec.Equivalent(spec, text, lifeJob) {
			return fmt.Errorf("the imported spec\n%s\ndoes not mean\n%s", spec, text)
		}
		return nil
	}
}

func tokenImportID(s *terraform.State) (string, error) {
	rs := s.RootModule().Resources[tokenAddr]
	return rs.Primary.Attributes["project"] + "/" + rs.Primary.ID, nil
}

func importedWithoutSecret(states []*terraform.InstanceState) error {
	if secret, ok := states[0].Attributes["secret"]; ok && secret != "" {
		return fmt.Errorf("an imported token has a secret %q", secret)
	}
	return nil
}

// jobGoneWithStopSavepoint checks that the job is deleted and that its stop savepoint stayed:
// a job created again under its name lists it (then that job is deleted too).
func jobGoneWithStopSavepoint(project, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		ctx := context.Background()
		c := admin()
		if _, err := c.GetJob(ctx, project, name); !tributary.IsNotFound(err) {
			return fmt.Errorf("the job should be deleted, but reading it gave %v", err)
		}
		doc, _ := jobspec.Parse(trickleSpec("2s"), name)
		if _, _, err := c.ApplyJob(ctx, project, name, tributary.Apply{SpecJSON: doc.JSON(),
			Desired: apiclient.DESIREDSTATE_STOPPED}); err != nil {
			return err
		}
		defer func() { _ = c.DeleteJob(ctx, project, name, 0) }()
		return newestSavepoint(project, name, "stop")(nil)
	}
}

func projectGone(name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if _, err := admin().GetProject(context.Background(), name); !tributary.IsNotFound(err) {
			return fmt.Errorf("project %s should be deleted, but reading it gave %v", name, err)
		}
		return nil
	}
}

// ---- changes behind Terraform's back

// applyBehindTerraform applies a spec to the job directly, as another tool would.
func applyBehindTerraform(t *testing.T, spec string) {
	doc, err := jobspec.Parse(spec, lifeJob)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testContext(t)
	job, _, err := admin().ApplyJob(ctx, lifeProject, lifeJob, tributary.Apply{SpecJSON: doc.JSON()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := admin().Await(ctx, job, tributary.Goal{}); err != nil {
		t.Fatal(err)
	}
}

// behindTerraform is a plan check that changes the job after Terraform planned (and read it),
// before it applies.
type behindTerraform struct {
	t    *testing.T
	spec string
}

func (b behindTerraform) CheckPlan(_ context.Context, _ plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	applyBehindTerraform(b.t, b.spec)
}

// plannedSpecChange checks that the plan changes the job's spec from what means from to what means to.
type plannedSpecChange struct{ from, to string }

func (p plannedSpecChange) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != jobAddr {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		b, _ := before["spec"].(string)
		a, _ := after["spec"].(string)
		if !jobspec.Equivalent(b, p.from, lifeJob) || !jobspec.Equivalent(a, p.to, lifeJob) {
			resp.Error = fmt.Errorf("the plan changes the spec from\n%s\nto\n%s", b, a)
		}
		return
	}
	resp.Error = fmt.Errorf("the plan does not change %s", jobAddr)
}
