package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/booldefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// jobResource is tributary_job: a streaming job, applied from its spec like `tributary apply`,
// then driven to its desired state. See job_*.go for its parts.
type jobResource struct {
	cfg *configured
}

var (
	_ resource.ResourceWithImportState    = (*jobResource)(nil)
	_ resource.ResourceWithModifyPlan     = (*jobResource)(nil)
	_ resource.ResourceWithValidateConfig = (*jobResource)(nil)
)

func newJobResource() resource.Resource { return &jobResource{} }

func (r *jobResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_job"
}

// Restore policies of a spec change on a running job.
const (
	restoreSavepoint = "savepoint"
	restoreLatest    = "latest"
	restoreNone      = "none"
)

func (r *jobResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	// computed attributes that only a change on the server changes
	serverInt := []planmodifier.Int64{unchangedOnServerInt64{}}
	serverString := []planmodifier.String{unchangedOnServerString{}}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A streaming job, applied from its spec (YAML or JSON, as `tributary apply -f` reads it) " +
			"or its SQL, and driven to its desired state. Create and update wait until the job runs (or is stopped) and fail " +
			"with the job's failure reason if it fails meanwhile.\n\n" +
			"The plan shows no change when the spec's text changes but not its meaning: the provider compares " +
			"specs the way the server fingerprints them (formatting, YAML or JSON, the order of an object's fields " +
			"and how a duration is written do not matter; the order of sources, sinks, `select` and `aggregate` " +
			"entries does). A SQL job's text is compared by the server: its dry run of a changed text says " +
			"whether it means the job as applied. Updates are conditional on the job's version as last read, so a " +
			"change made outside Terraform in between is reported instead of overwritten.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, MarkdownDescription: "`<project>/<name>`.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}},
			"project": schema.StringAttribute{Optional: true, Computed: true, Validators: nameValidators(),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()},
				MarkdownDescription: "The job's project. Default: the provider's `project`. Changing it replaces the job."},
			"name": schema.StringAttribute{Required: true, Validators: nameValidators(),
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
				MarkdownDescription: "The job's name, a DNS label. The spec's `name` must be the same, or absent " +
					"(the provider then adds it). Changing it replaces the job."},
			"spec": schema.StringAttribute{Optional: true,
				PlanModifiers: []planmodifier.String{specEquivalence{}},
				MarkdownDescription: "The job spec, YAML or JSON (for example `file(\"job.yaml\")`). The server " +
					"validates it when planning; each invalid field is reported with its JSON pointer into the spec. " +
					"Exactly one of `spec` and `sql`."},
			"sql": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The job written as SQL (for example `file(\"job.sql\")`): SET statements for " +
					"its settings, CREATE TABLE for its sources and sinks, INSERT INTO ... SELECT for what it does " +
					"(see the README, \"SQL jobs\"). The server compiles and validates it when planning; each error " +
					"is reported with its line and column. A text that means the applied job (reformatted, " +
					"commented) plans no change. Exactly one of `spec` and `sql`."},
			"desired_state": schema.StringAttribute{Optional: true, Computed: true,
				Default:    stringdefault.StaticString("running"),
				Validators: []validator.String{stringvalidator.OneOf("running", "stopped")},
				MarkdownDescription: "`running` (default) or `stopped`. Stopping a running job takes a savepoint " +
					"first; resuming restores it (or the latest checkpoint)."},
			"parallelism": schema.Int64Attribute{Optional: true, Computed: true,
				Validators:    []validator.Int64{int64validator.Between(1, 32768)},
				PlanModifiers: serverInt,
				MarkdownDescription: "Set: the parallelism the job runs at, overriding the spec's initial " +
					"parallelism (within the spec's bounds); the job is rescaled through a savepoint when it " +
					"differs. Unset: the parallelism the job runs at now (or last ran at, while it is not deployed)."},
			"restore": schema.StringAttribute{Optional: true, Computed: true,
				Default:    stringdefault.StaticString(restoreSavepoint),
				Validators: []validator.String{stringvalidator.OneOf(restoreSavepoint, restoreLatest, restoreNone)},
				MarkdownDescription: "How a changed spec is rolled out to a running job: `savepoint` (default, as " +
					"the server does it: savepoint, stop, start the new spec from the savepoint), `latest` (stop " +
					"without a savepoint, start from the latest checkpoint) or `none` (stop, start without state: " +
					"the job's state is discarded)."},
			"savepoint_on_destroy": schema.BoolAttribute{Optional: true, Computed: true,
				Default: booldefault.StaticBool(true),
				MarkdownDescription: "Whether destroying a running job stops it with a savepoint first (default " +
					"`true`). The savepoint outlives the job: a job created again with the same name lists it " +
					"among its savepoints and can be resumed from it."},
			"version": schema.Int64Attribute{Computed: true, PlanModifiers: serverInt,
				MarkdownDescription: "The job's version (its ETag), which grows with every change of its spec, " +
					"desired state, restore policy or parallelism."},
			"observed_state": schema.StringAttribute{Computed: true, PlanModifiers: serverString,
				MarkdownDescription: "What the job is doing: `created`, `deploying`, `running`, `rescaling`, " +
					"`updating`, `recovering`, `stopping`, `stopped`, `failed` or `finished`."},
			"max_parallelism": schema.Int64Attribute{Computed: true, PlanModifiers: serverInt,
				MarkdownDescription: "The number of key groups in effect (the spec's `maxParallelism` or its default)."},
			"failure": schema.StringAttribute{Computed: true, PlanModifiers: serverString,
				MarkdownDescription: "Why the job failed last, while it is `failed` or `recovering`; else null."},
			"last_checkpoint": schema.SingleNestedAttribute{Computed: true,
				PlanModifiers:       []planmodifier.Object{unchangedOnServerObject{}},
				MarkdownDescription: "The job's latest completed checkpoint, or null before its first.",
				Attributes: map[string]schema.Attribute{
					"id":           schema.Int64Attribute{Computed: true, MarkdownDescription: "The checkpoint's number."},
					"completed_at": schema.StringAttribute{Computed: true, MarkdownDescription: "When it completed (RFC 3339)."},
				}},
			"timeouts": timeouts.Attributes(ctx, timeouts.Opts{Create: true, Update: true, Delete: true,
				CreateDescription: "How long create waits for the job to run (or be stopped). Default 10m.",
				UpdateDescription: "How long update waits for the job to run (or be stopped). Default 10m.",
				DeleteDescription: "How long destroy waits for the savepoint and the deletion. Default 5m."}),
		},
	}
}

func (r *jobResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		r.cfg = req.ProviderData.(*configured)
	}
}

// ImportState takes "project/name". The spec is then the server's, as YAML; a configuration
// whose spec means the same plans no change.
func (r *jobResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	project, name, ok := strings.Cut(req.ID, "/")
	if !ok || project == "" || name == "" || strings.Contains(name, "/") {
		resp.Diagnostics.AddError("Invalid import id",
			fmt.Sprintf("Import a job as <project>/<name>, for example default/clicks-per-user, not %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), req.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("project"), project)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
	// what only Terraform knows: the defaults, as a configuration that leaves them out plans them
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("restore"), restoreSavepoint)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("savepoint_on_destroy"), true)...)
}
