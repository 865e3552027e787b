package provider

import (
	"context"
	"math/big"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

const appliedSpec = `parallelism: 2
sources:
  clicks: {type: datagen, eventTime: {field: ts}}
operators:
  - {id: w, input: clicks, keyBy: key, window: {type: tumbling, size: 10s}, aggregate: {n: "count(*)"}}
sinks:
  out: {input: w, type: blackhole}
`

// the same job: JSON, fields in another order, 10000ms, its name written out
const appliedSpecAsJSON = `{"name": "clicks", "sinks": {"out": {"type": "blackhole", "input": "w"}},
 "operators": [{"window": {"size": "10000ms", "type": "tumbling"}, "aggregate": {"n": "count(*)"},
   "keyBy": ["key"], "input": "clicks", "id": "w"}],
 "sources": {"clicks": {"type": "datagen", "eventTime": {"field": "ts"}}}, "parallelism": {"initial": 2}}`

const changedSpec = `parallelism: 2
sources:
  clicks: {type: datagen, eventTime: {field: ts}}
operators:
  - {id: w, input: clicks, keyBy: key, window: {type: tumbling, size: 20s}, aggregate: {n: "count(*)"}}
sinks:
  out: {input: w, type: blackhole}
`

func jobSchema(t *testing.T) schema.Schema {
	var resp resource.SchemaResponse
	(&jobResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	return resp.Schema
}

// jobValues is a job resource object: the given attributes, the others null.
func jobValues(t *testing.T, s schema.Schema, attrs map[string]any) tftypes.Value {
	typ := s.Type().TerraformType(context.Background()).(tftypes.Object)
	values := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		v, ok := attrs[name]
		switch x := v.(type) {
		case int:
			values[name] = tftypes.NewValue(at, big.NewFloat(float64(x)))
		case nil:
			if ok {
				values[name] = tftypes.NewValue(at, tftypes.UnknownValue)
			} else {
				values[name] = tftypes.NewValue(at, nil)
			}
		default:
			values[name] = tftypes.NewValue(at, x)
		}
	}
	return tftypes.NewValue(typ, values)
}

// applied is the state of a running job applied from appliedSpec.
func applied() map[string]any {
	return map[string]any{
		"id": "default/clicks", "project": "default", "name": "clicks", "spec": appliedSpec,
		"desired_state": "running", "restore": "savepoint", "savepoint_on_destroy": true,
		"version": 3, "observed_state": "running", "parallelism": 2, "max_parallelism": 128,
	}
}

func with(m map[string]any, changes map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		out[k] = v
	}
	for k, v := range changes {
		out[k] = v
	}
	return out
}

type planInputs struct {
	plan   tfsdk.Plan
	state  tfsdk.State
	config tfsdk.Config
}

// inputs builds a plan over state; config is the plan without the computed-only attributes
// (and without parallelism unless configured).
func inputs(t *testing.T, state, plan map[string]any, configuredParallelism bool) planInputs {
	s := jobSchema(t)
	config := map[string]any{}
	for _, k := range []string{"project", "name", "spec", "desired_state", "restore", "savepoint_on_destroy"} {
		config[k] = plan[k]
	}
	if configuredParallelism {
		config["parallelism"] = plan["parallelism"]
	}
	in := planInputs{
		plan:   tfsdk.Plan{Schema: s, Raw: jobValues(t, s, plan)},
		config: tfsdk.Config{Schema: s, Raw: jobValues(t, s, config)},
		state:  tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(context.Background()), nil)},
	}
	if state != nil {
		in.state.Raw = jobValues(t, s, state)
	}
	return in
}

func planSpec(t *testing.T, in planInputs) types.String {
	var state, plan, config types.String
	ctx := context.Background()
	in.state.GetAttribute(ctx, path.Root("spec"), &state)
	in.plan.GetAttribute(ctx, path.Root("spec"), &plan)
	in.config.GetAttribute(ctx, path.Root("spec"), &config)
	req := planmodifier.StringRequest{Path: path.Root("spec"), StateValue: state, PlanValue: plan, ConfigValue: config,
		Plan: in.plan, State: in.state, Config: in.config}
	resp := &planmodifier.StringResponse{PlanValue: plan}
	specEquivalence{}.PlanModifyString(ctx, req, resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	return resp.PlanValue
}

func TestSpecEquivalencePlansTheStateForAReformattedSpec(t *testing.T) {
	in := inputs(t, applied(), with(applied(), map[string]any{"spec": appliedSpecAsJSON}), false)
	if got := planSpec(t, in); got.ValueString() != appliedSpec {
		t.Errorf("planned spec %q, want the applied one", got.ValueString())
	}
}

func TestSpecEquivalencePlansAChangedSpec(t *testing.T) {
	in := inputs(t, applied(), with(applied(), map[string]any{"spec": changedSpec}), false)
	if got := planSpec(t, in); got.ValueString() != changedSpec {
		t.Errorf("planned spec %q, want the changed one", got.ValueString())
	}
}

func TestSpecEquivalencePlansTheConfigurationOnCreate(t *testing.T) {
	in := inputs(t, nil, with(applied(), map[string]any{"spec": appliedSpecAsJSON}), false)
	if got := planSpec(t, in); got.ValueString() != appliedSpecAsJSON {
		t.Errorf("planned spec %q, want the configured one", got.ValueString())
	}
}

// plannedVersion runs the version's plan modifier, as the framework does after marking it unknown.
func plannedVersion(t *testing.T, in planInputs) types.Int64 {
	ctx := context.Background()
	var state types.Int64
	in.state.GetAttribute(ctx, path.Root("version"), &state)
	req := planmodifier.Int64Request{Path: path.Root("version"), StateValue: state, PlanValue: types.Int64Unknown(),
		ConfigValue: types.Int64Null(), Plan: in.plan, State: in.state, Config: in.config}
	resp := &planmodifier.Int64Response{PlanValue: types.Int64Unknown()}
	unchangedOnServerInt64{}.PlanModifyInt64(ctx, req, resp)
	return resp.PlanValue
}

func TestComputedAttributesKeepTheirStateUnlessTheServerChanges(t *testing.T) {
	cases := []struct {
		name        string
		changes     map[string]any
		configured  bool
		wantUnknown bool
	}{
		{"only restore changes", map[string]any{"restore": "none"}, false, false},
		{"only savepoint_on_destroy changes", map[string]any{"savepoint_on_destroy": false}, false, false},
		{"the spec is reformatted", map[string]any{"spec": appliedSpecAsJSON, "restore": "latest"}, false, false},
		{"the configured parallelism is the current one", map[string]any{"restore": "none"}, true, false},
		{"the spec changes", map[string]any{"spec": changedSpec}, false, true},
		{"the job is to stop", map[string]any{"desired_state": "stopped"}, false, true},
		{"the configured parallelism differs", map[string]any{"parallelism": 3}, true, true},
		{"the spec is not known yet", map[string]any{"spec": nil}, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := plannedVersion(t, inputs(t, applied(), with(applied(), c.changes), c.configured))
			if got.IsUnknown() != c.wantUnknown {
				t.Errorf("planned version %v; unknown wanted: %v", got, c.wantUnknown)
			}
			if !c.wantUnknown && got.ValueInt64() != 3 {
				t.Errorf("planned version %v, want the state's 3", got)
			}
		})
	}
}

func TestAConfiguredParallelismIsPlannedAsConfigured(t *testing.T) {
	in := inputs(t, applied(), with(applied(), map[string]any{"parallelism": 4}), true)
	ctx := context.Background()
	req := planmodifier.Int64Request{Path: path.Root("parallelism"), StateValue: types.Int64Value(2),
		PlanValue: types.Int64Value(4), ConfigValue: types.Int64Value(4), Plan: in.plan, State: in.state, Config: in.config}
	resp := &planmodifier.Int64Response{PlanValue: req.PlanValue}
	unchangedOnServerInt64{}.PlanModifyInt64(ctx, req, resp)
	if resp.PlanValue.ValueInt64() != 4 {
		t.Errorf("planned parallelism %v, want the configured 4", resp.PlanValue)
	}
}

func TestObservedStateIsUnknownWhenTheJobIsResumed(t *testing.T) {
	stopped := with(applied(), map[string]any{"desired_state": "stopped", "observed_state": "stopped"})
	in := inputs(t, stopped, with(stopped, map[string]any{"desired_state": "running"}), false)
	ctx := context.Background()
	req := planmodifier.StringRequest{Path: path.Root("observed_state"), StateValue: types.StringValue("stopped"),
		PlanValue: types.StringUnknown(), ConfigValue: types.StringNull(), Plan: in.plan, State: in.state, Config: in.config}
	resp := &planmodifier.StringResponse{PlanValue: req.PlanValue}
	unchangedOnServerString{}.PlanModifyString(ctx, req, resp)
	if !resp.PlanValue.IsUnknown() {
		t.Errorf("planned observed_state %v, want unknown", resp.PlanValue)
	}
}
