package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"tributary.io/terraform-provider-tributary/internal/tributary"
)

// projectResource is tributary_project: a project, created and deleted with the administrator
// token. Its id is its name; import by name.
type projectResource struct {
	cfg *configured
}

type projectModel struct {
	ID        types.String `tfsdk:"id"`
	Name      types.String `tfsdk:"name"`
	CreatedAt types.String `tfsdk:"created_at"`
}

func newProjectResource() resource.Resource { return &projectResource{} }

func (r *projectResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_project"
}

func (r *projectResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "A Tributary project: the unit of tenancy that jobs and API tokens belong to. Creating " +
			"and deleting projects needs the server's administrator token. A project that still has jobs cannot be " +
			"deleted, nor can the project `default`.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true, MarkdownDescription: "The project's name.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"name": schema.StringAttribute{
				Required: true, Validators: nameValidators(),
				MarkdownDescription: "The project's name, a DNS label. Changing it replaces the project.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"created_at": schema.StringAttribute{
				Computed: true, MarkdownDescription: "When the project was created (RFC 3339).",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
		},
	}
}

func (r *projectResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		r.cfg = req.ProviderData.(*configured)
	}
}

func (r *projectResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan projectModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	c := clientOf(ctx, r.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	p, err := c.CreateProject(ctx, plan.Name.ValueString())
	if tributary.StatusOf(err) == 409 {
		resp.Diagnostics.AddError("Project already exists", capitalize(err.Error())+
			"\n\nTo manage it with Terraform, import it: terraform import <resource address> "+plan.Name.ValueString())
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Cannot create the project", err)
		return
	}
	plan.ID = types.StringValue(p.Name)
	plan.CreatedAt = types.StringValue(p.CreatedAt.UTC().Format(time.RFC3339Nano))
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *projectResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state projectModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	c := clientOf(ctx, r.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	p, err := c.GetProject(ctx, state.ID.ValueString())
	if tributary.IsNotFound(err) {
		resp.State.RemoveResource(ctx)
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Cannot read the project", err)
		return
	}
	state.Name = types.StringValue(p.Name)
	state.CreatedAt = types.StringValue(p.CreatedAt.UTC().Format(time.RFC3339Nano))
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Update has nothing to change on the server: every attribute replaces the project.
func (r *projectResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan projectModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *projectResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state projectModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	c := clientOf(ctx, r.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if err := c.DeleteProject(ctx, state.ID.ValueString()); err != nil && !tributary.IsNotFound(err) {
		addError(&resp.Diagnostics, "Cannot delete the project", err)
	}
}

func (r *projectResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	resource.ImportStatePassthroughID(ctx, path.Root("id"), req, resp)
}
