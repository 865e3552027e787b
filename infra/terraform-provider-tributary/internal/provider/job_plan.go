package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"tributary.io/terraform-provider-tributary/internal/jobspec"
	"tributary.io/terraform-provider-tributary/internal/tributary"
)

// specEquivalence plans the spec in the state when the configured text means the same job
// (jobspec.Equivalent): reformatting a spec plans no change.
type specEquivalence struct{}

func (specEquivalence) Description(context.Context) string {
	return "a spec that means what the applied one means plans no change"
}
func (m specEquivalence) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

func (specEquivalence) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.StateValue.IsNull() || req.PlanValue.IsUnknown() || req.PlanValue.IsNull() {
		return
	}
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	if name.IsUnknown() {
		return
	}
	if jobspec.Equivalent(req.StateValue.ValueString(), req.PlanValue.ValueString(), name.ValueString()) {
		resp.PlanValue = req.StateValue
	}
}

// changesServer says whether applying the plan changes the job on the server: its spec (by
// meaning), its desired state, or a configured parallelism.
func changesServer(ctx context.Context, plan tfsdk.Plan, state tfsdk.State, config tfsdk.Config) bool {
	var p, s jobModel
	var configured types.Int64
	if plan.Get(ctx, &p).HasError() || state.Get(ctx, &s).HasError() ||
		config.GetAttribute(ctx, path.Root("parallelism"), &configured).HasError() {
		return true
	}
	if p.Spec.IsUnknown() || p.Sql.IsUnknown() || p.Name.IsUnknown() || p.Project.IsUnknown() ||
		p.DesiredState.IsUnknown() || configured.IsUnknown() {
		return true
	}
	return !p.Name.Equal(s.Name) || !p.Project.Equal(s.Project) || jobChanged(s, p) ||
		!p.DesiredState.Equal(s.DesiredState) ||
		(!configured.IsNull() && !configured.Equal(s.Parallelism))
}

// unchangedOnServer* keep a computed attribute's state value when the plan does not change the
// job on the server (say, only `restore` changes), and leave it unknown when it does. An
// attribute that is also configured (parallelism) plans its configuration.
type unchangedOnServer struct{}

func (unchangedOnServer) Description(context.Context) string {
	return "kept unless the job changes on the server"
}
func (m unchangedOnServer) MarkdownDescription(ctx context.Context) string { return m.Description(ctx) }

// keep says whether the state value stands.
func (unchangedOnServer) keep(ctx context.Context, stateNull, configNull bool, plan tfsdk.Plan, state tfsdk.State,
	config tfsdk.Config) bool {
	return !stateNull && configNull && !changesServer(ctx, plan, state, config)
}

type unchangedOnServerInt64 struct{ unchangedOnServer }
type unchangedOnServerString struct{ unchangedOnServer }
type unchangedOnServerObject struct{ unchangedOnServer }

func (m unchangedOnServerInt64) PlanModifyInt64(ctx context.Context, req planmodifier.Int64Request, resp *planmodifier.Int64Response) {
	if !req.ConfigValue.IsNull() || req.StateValue.IsNull() && req.State.Raw.IsNull() {
		return
	}
	if m.keep(ctx, req.State.Raw.IsNull(), req.ConfigValue.IsNull(), req.Plan, req.State, req.Config) {
		resp.PlanValue = req.StateValue
	} else {
		resp.PlanValue = types.Int64Unknown()
	}
}

func (m unchangedOnServerString) PlanModifyString(ctx context.Context, req planmodifier.StringRequest, resp *planmodifier.StringResponse) {
	if req.State.Raw.IsNull() {
		return
	}
	if m.keep(ctx, false, req.ConfigValue.IsNull(), req.Plan, req.State, req.Config) {
		resp.PlanValue = req.StateValue
	} else {
		resp.PlanValue = types.StringUnknown()
	}
}

func (m unchangedOnServerObject) PlanModifyObject(ctx context.Context, req planmodifier.ObjectRequest, resp *planmodifier.ObjectResponse) {
	if req.State.Raw.IsNull() {
		return
	}
	if m.keep(ctx, false, req.ConfigValue.IsNull(), req.Plan, req.State, req.Config) {
		resp.PlanValue = req.StateValue
	} else {
		resp.PlanValue = types.ObjectUnknown(checkpointTypes)
	}
}

// ValidateConfig refuses, before any plan, a job given both or neither as spec and as SQL, and a
// spec that is not YAML or JSON or that names another job.
func (r *jobResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var spec, sql, name types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("spec"), &spec)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("sql"), &sql)...)
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("name"), &name)...)
	switch {
	case !spec.IsNull() && !sql.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("sql"), "Both spec and sql",
			"A job is written as a spec or as SQL: set one of spec and sql.")
		return
	case spec.IsNull() && sql.IsNull():
		resp.Diagnostics.AddAttributeError(path.Root("spec"), "Neither spec nor sql",
			"Set spec (YAML or JSON) or sql (the job written as SQL).")
		return
	}
	if spec.IsNull() || spec.IsUnknown() || name.IsUnknown() || name.IsNull() {
		return
	}
	if _, err := jobspec.Parse(spec.ValueString(), name.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("spec"), "Invalid job spec", capitalize(err.Error()))
	}
}

// ModifyPlan fills in the provider's project and the id, and has the server validate a new or
// changed spec (its dry run, which changes nothing), so that `terraform plan` reports each invalid
// field with its JSON pointer.
func (r *jobResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || r.cfg == nil {
		return
	}
	plannedProject(ctx, req, resp, r.cfg.project)
	var plan jobModel
	resp.Diagnostics.Append(resp.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() || plan.Project.IsUnknown() || plan.Name.IsUnknown() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"),
		plan.Project.ValueString()+"/"+plan.Name.ValueString())...)
	if !plan.Sql.IsNull() {
		r.modifySQLPlan(ctx, req, resp, plan)
		return
	}
	if plan.Spec.IsUnknown() {
		return
	}
	if !req.State.Raw.IsNull() {
		var prior types.String
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("spec"), &prior)...)
		if jobspec.Equivalent(prior.ValueString(), plan.Spec.ValueString(), plan.Name.ValueString()) {
			return
		}
	}
	doc, err := plan.document()
	if err != nil {
		return // ValidateConfig reported it
	}
	_, err = r.cfg.client.PlanJob(ctx, plan.Project.ValueString(), doc.JSON())
	if tributary.IsNotFound(err) {
		return // the project is created by this apply: the apply validates the spec
	}
	if err != nil {
		addError(&resp.Diagnostics, "Cannot validate the job spec", err)
	}
}

// modifySQLPlan has the server judge a SQL job's text: a text other than the state's that means
// the job as applied plans the state's (and with it no change); any other new text is validated by
// the server's dry run, so that `terraform plan` reports each error with its line and column.
func (r *jobResource) modifySQLPlan(ctx context.Context, req resource.ModifyPlanRequest,
	resp *resource.ModifyPlanResponse, plan jobModel) {
	if plan.Sql.IsUnknown() {
		return
	}
	project, name, text := plan.Project.ValueString(), plan.Name.ValueString(), plan.Sql.ValueString()
	var prior types.String
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("sql"), &prior)...)
		if prior.ValueString() == text && !prior.IsNull() {
			return
		}
	}
	p, err := r.cfg.client.PlanSQL(ctx, project, name, text)
	if tributary.IsNotFound(err) {
		return // the project is created by this apply: the apply validates the text
	}
	if err != nil {
		addError(&resp.Diagnostics, "Cannot validate the job's SQL", err)
		return
	}
	if prior.IsNull() || p.Change == nil || p.Change.Action != "none" {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("sql"), prior)...)
	if !changesServer(ctx, resp.Plan, req.State, req.Config) {
		keepComputed(ctx, req, resp)
	}
}

// keepComputed plans the state's values of the attributes only the server changes (where the
// configuration does not set them), for a plan that changes nothing on the server.
func keepComputed(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	keep[types.Int64](ctx, req, resp, "version")
	keep[types.String](ctx, req, resp, "observed_state")
	keep[types.Int64](ctx, req, resp, "max_parallelism")
	keep[types.String](ctx, req, resp, "failure")
	keep[types.Object](ctx, req, resp, "last_checkpoint")
	keep[types.Int64](ctx, req, resp, "parallelism")
}

func keep[T attr.Value](ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse,
	name string) {
	var configured, value T
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(name), &configured)...)
	if !configured.IsNull() {
		return
	}
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(name), &value)...)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root(name), value)...)
}
