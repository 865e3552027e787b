package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
)

// jobDataSource is data.tributary_job: a job as the server holds it.
type jobDataSource struct {
	cfg *configured
}

type jobDataModel struct {
	ID             types.String `tfsdk:"id"`
	Project        types.String `tfsdk:"project"`
	Name           types.String `tfsdk:"name"`
	Spec           types.String `tfsdk:"spec"`
	Sql            types.String `tfsdk:"sql"`
	DesiredState   types.String `tfsdk:"desired_state"`
	ObservedState  types.String `tfsdk:"observed_state"`
	Version        types.Int64  `tfsdk:"version"`
	Parallelism    types.Int64  `tfsdk:"parallelism"`
	MaxParallelism types.Int64  `tfsdk:"max_parallelism"`
	Failure        types.String `tfsdk:"failure"`
	LastCheckpoint types.Object `tfsdk:"last_checkpoint"`
	UpdatedAt      types.String `tfsdk:"updated_at"`
}

func newJobDataSource() datasource.DataSource { return &jobDataSource{} }

func (d *jobDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_job"
}

func (d *jobDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A job as the server holds it, whoever manages it.",
		Attributes: map[string]schema.Attribute{
			"id":      computed("`<project>/<name>`."),
			"project": schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: "The job's project. Default: the provider's `project`."},
			"name":    schema.StringAttribute{Required: true, MarkdownDescription: "The job's name."},
			"spec": computed("The spec as the server holds it, as JSON: read fields with " +
				"`jsondecode(data.tributary_job.x.spec)`. For a job applied as SQL, the spec it compiles to."),
			"sql":             computed("For a job applied as SQL, its text as applied; else null."),
			"desired_state":   computed("`running` or `stopped`."),
			"observed_state":  computed("What the job is doing (`running`, `stopped`, `failed`, ...)."),
			"version":         schema.Int64Attribute{Computed: true, MarkdownDescription: "The job's version (its ETag)."},
			"parallelism":     schema.Int64Attribute{Computed: true, MarkdownDescription: "The parallelism it runs at; null when no task is deployed."},
			"max_parallelism": schema.Int64Attribute{Computed: true, MarkdownDescription: "The number of key groups in effect."},
			"failure":         computed("Why the job failed last, while it is `failed` or `recovering`."),
			"updated_at":      computed("When the job last changed (RFC 3339)."),
			"last_checkpoint": schema.SingleNestedAttribute{Computed: true,
				MarkdownDescription: "The latest completed checkpoint, or null.",
				Attributes: map[string]schema.Attribute{
					"id":           schema.Int64Attribute{Computed: true, MarkdownDescription: "The checkpoint's number."},
					"completed_at": computed("When it completed (RFC 3339)."),
				}},
		},
	}
}

func (d *jobDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if req.ProviderData != nil {
		d.cfg = req.ProviderData.(*configured)
	}
}

func (d *jobDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m jobDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	c := clientOf(ctx, d.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Project.IsNull() {
		m.Project = types.StringValue(d.cfg.project)
	}
	j, err := c.GetJob(ctx, m.Project.ValueString(), m.Name.ValueString())
	if err != nil {
		addError(&resp.Diagnostics, "Cannot read the job", err)
		return
	}
	// the job resource's conversion, for the attributes they share
	var r jobModel
	resp.Diagnostics.Append(r.setFromJob(j, nil)...)
	m.ID, m.DesiredState, m.ObservedState, m.Version = r.ID, r.DesiredState, r.ObservedState, r.Version
	m.Parallelism, m.MaxParallelism, m.Failure, m.LastCheckpoint = r.Parallelism, r.MaxParallelism, r.Failure, r.LastCheckpoint
	m.Spec = types.StringValue(string(j.Spec))
	m.Sql = types.StringPointerValue(j.Sql)
	m.UpdatedAt = types.StringValue(j.UpdatedAt.UTC().Format(time.RFC3339Nano))
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

// savepointsDataSource is data.tributary_savepoints: a job's savepoints, newest first.
type savepointsDataSource struct {
	cfg *configured
}

type savepointsModel struct {
	ID         types.String `tfsdk:"id"`
	Project    types.String `tfsdk:"project"`
	Job        types.String `tfsdk:"job"`
	Latest     types.String `tfsdk:"latest"`
	Savepoints types.List   `tfsdk:"savepoints"`
}

var savepointTypes = map[string]attr.Type{
	"id": types.StringType, "status": types.StringType, "trigger": types.StringType,
	"triggered_at": types.StringType, "completed_at": types.StringType, "duration_ms": types.Int64Type,
	"size_bytes": types.Int64Type, "parallelism": types.Int64Type,
}

func newSavepointsDataSource() datasource.DataSource { return &savepointsDataSource{} }

func (d *savepointsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_savepoints"
}

func (d *savepointsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	str := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	num := func(desc string) schema.Int64Attribute {
		return schema.Int64Attribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "A job's savepoints, newest first: those it took when stopped (`stop`), when a changed spec " +
			"was rolled out (`rollout`) and on request (`user`), also those of a deleted job of the same name.",
		Attributes: map[string]schema.Attribute{
			"id":      str("`<project>/<job>`."),
			"project": schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: "The job's project. Default: the provider's `project`."},
			"job":     schema.StringAttribute{Required: true, MarkdownDescription: "The job's name."},
			"latest":  str("The id of the newest completed savepoint, or null if there is none."),
			"savepoints": schema.ListNestedAttribute{Computed: true, MarkdownDescription: "The savepoints, newest first.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":           str("The savepoint's id (`sp-<n>`): a resume's `savepointId`."),
					"status":       str("`in-progress`, `completed` or `failed`."),
					"trigger":      str("Who took it: `user`, `stop` or `rollout`; null for savepoints of older versions."),
					"triggered_at": str("When it was triggered (RFC 3339)."),
					"completed_at": str("When it completed (RFC 3339)."),
					"duration_ms":  num("From trigger to completion, in milliseconds."),
					"size_bytes":   num("The size of the keyed state it holds."),
					"parallelism":  num("The job's parallelism when it was taken."),
				}}},
		},
	}
}

func (d *savepointsDataSource) Configure(_ context.Context, req datasource.ConfigureRequest, _ *datasource.ConfigureResponse) {
	if req.ProviderData != nil {
		d.cfg = req.ProviderData.(*configured)
	}
}

func (d *savepointsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m savepointsModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	c := clientOf(ctx, d.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Project.IsNull() {
		m.Project = types.StringValue(d.cfg.project)
	}
	all, err := c.Savepoints(ctx, m.Project.ValueString(), m.Job.ValueString())
	if err != nil {
		addError(&resp.Diagnostics, "Cannot list the savepoints", err)
		return
	}
	m.ID = types.StringValue(m.Project.ValueString() + "/" + m.Job.ValueString())
	m.Latest = types.StringNull()
	items := make([]attr.Value, 0, len(all))
	for _, sp := range all {
		if m.Latest.IsNull() && sp.Status == apiclient.SNAPSHOTSTATUS_COMPLETED {
			m.Latest = types.StringValue(sp.Id)
		}
		obj, diags := types.ObjectValue(savepointTypes, map[string]attr.Value{
			"id":           types.StringValue(sp.Id),
			"status":       types.StringValue(string(sp.Status)),
			"trigger":      types.StringPointerValue(sp.Trigger),
			"triggered_at": types.StringValue(sp.TriggeredAt.UTC().Format(time.RFC3339Nano)),
			"completed_at": timeValue(sp.CompletedAt),
			"duration_ms":  types.Int64PointerValue(sp.DurationMillis),
			"size_bytes":   types.Int64PointerValue(sp.SizeBytes),
			"parallelism":  int32Value(sp.Parallelism),
		})
		resp.Diagnostics.Append(diags...)
		items = append(items, obj)
	}
	list, diags := types.ListValue(types.ObjectType{AttrTypes: savepointTypes}, items)
	resp.Diagnostics.Append(diags...)
	m.Savepoints = list
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func timeValue(t *time.Time) types.String {
	if t == nil {
		return types.StringNull()
	}
	return types.StringValue(t.UTC().Format(time.RFC3339Nano))
}

func int32Value(v *int32) types.Int64 {
	if v == nil {
		return types.Int64Null()
	}
	return types.Int64Value(int64(*v))
}
