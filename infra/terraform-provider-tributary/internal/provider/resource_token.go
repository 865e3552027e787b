package provider

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
	"tributary.io/terraform-provider-tributary/internal/tributary"
)

// tokenResource is tributary_token: an API token of a project. The server keeps only a hash of
// the secret, so the secret is known only to the create that made it; an imported token has none.
// Nothing of a token can change: every attribute replaces it.
type tokenResource struct {
	cfg *configured
}

type tokenModel struct {
	ID        types.String `tfsdk:"id"`
	Project   types.String `tfsdk:"project"`
	Name      types.String `tfsdk:"name"`
	Role      types.String `tfsdk:"role"`
	ExpiresAt types.String `tfsdk:"expires_at"`
	Prefix    types.String `tfsdk:"prefix"`
	CreatedAt types.String `tfsdk:"created_at"`
	Secret    types.String `tfsdk:"secret"`
}

func newTokenResource() resource.Resource { return &tokenResource{} }

func (r *tokenResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_token"
}

func (r *tokenResource) Schema(_ context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	replace := []planmodifier.String{stringplanmodifier.RequiresReplace()}
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	resp.Schema = schema.Schema{
		MarkdownDescription: "An API token of a project, with a role: `viewer` reads, `editor` also changes jobs, " +
			"`admin` also manages the project's tokens. Managing tokens needs role `admin` (or the administrator " +
			"token).\n\nThe secret is known only when the token is created: the server keeps its hash. It is kept " +
			"in the Terraform state (mark outputs that use it `sensitive`). An imported token has no secret. " +
			"A token cannot change: changing any argument revokes it and creates a new one, with a new secret.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{Computed: true, PlanModifiers: keep,
				MarkdownDescription: "The token's id (`tok_...`), not its secret."},
			"project": schema.StringAttribute{Optional: true, Computed: true, Validators: nameValidators(),
				PlanModifiers:       []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()},
				MarkdownDescription: "The project. Default: the provider's `project`."},
			"name": schema.StringAttribute{Required: true, PlanModifiers: replace,
				Validators:          []validator.String{stringvalidator.LengthBetween(1, 128)},
				MarkdownDescription: "What the token is for."},
			"role": schema.StringAttribute{Required: true, PlanModifiers: replace,
				Validators:          []validator.String{stringvalidator.OneOf("viewer", "editor", "admin")},
				MarkdownDescription: "`viewer`, `editor` or `admin`. Changing it replaces the token."},
			"expires_at": schema.StringAttribute{Optional: true, PlanModifiers: replace,
				Validators:          []validator.String{rfc3339{}},
				MarkdownDescription: "When the token stops working (RFC 3339). Default: never."},
			"prefix": schema.StringAttribute{Computed: true, PlanModifiers: keep,
				MarkdownDescription: "The first characters of the secret, to recognise it."},
			"created_at": schema.StringAttribute{Computed: true, PlanModifiers: keep,
				MarkdownDescription: "When the token was created (RFC 3339)."},
			"secret": schema.StringAttribute{Computed: true, Sensitive: true, PlanModifiers: keep,
				MarkdownDescription: "The bearer token, known only to the apply that created it; null for an imported token."},
		},
	}
}

func (r *tokenResource) Configure(_ context.Context, req resource.ConfigureRequest, _ *resource.ConfigureResponse) {
	if req.ProviderData != nil {
		r.cfg = req.ProviderData.(*configured)
	}
}

// ModifyPlan fills in the provider's project.
func (r *tokenResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if !req.Plan.Raw.IsNull() && r.cfg != nil {
		plannedProject(ctx, req, resp, r.cfg.project)
	}
}

func (r *tokenResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan tokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	c := clientOf(ctx, r.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	body := apiclient.ApiTokenCreate{Name: plan.Name.ValueString(), Role: apiclient.TokenRole(plan.Role.ValueString())}
	if !plan.ExpiresAt.IsNull() {
		t, _ := time.Parse(time.RFC3339, plan.ExpiresAt.ValueString())
		body.ExpiresAt = &t
	}
	created, err := c.CreateToken(ctx, plan.Project.ValueString(), body)
	if err != nil {
		addError(&resp.Diagnostics, "Cannot create the token", err)
		return
	}
	plan.ID = types.StringValue(created.Id)
	plan.Prefix = types.StringValue(created.Prefix)
	plan.CreatedAt = types.StringValue(created.CreatedAt.UTC().Format(time.RFC3339Nano))
	plan.Secret = types.StringValue(created.Secret)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *tokenResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state tokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	c := clientOf(ctx, r.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	t, err := c.FindToken(ctx, state.Project.ValueString(), state.ID.ValueString())
	if tributary.IsNotFound(err) || (err == nil && t == nil) {
		resp.State.RemoveResource(ctx) // revoked, or its project is gone
		return
	}
	if err != nil {
		addError(&resp.Diagnostics, "Cannot read the token", err)
		return
	}
	state.Name = types.StringValue(t.Name)
	state.Role = types.StringValue(string(t.Role))
	state.Prefix = types.StringValue(t.Prefix)
	state.CreatedAt = types.StringValue(t.CreatedAt.UTC().Format(time.RFC3339Nano))
	state.ExpiresAt = sameInstant(state.ExpiresAt, t.ExpiresAt)
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

// Update has nothing to change on the server: every argument replaces the token.
func (r *tokenResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan tokenModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
}

func (r *tokenResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state tokenModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	c := clientOf(ctx, r.cfg, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	err := c.RevokeToken(ctx, state.Project.ValueString(), state.ID.ValueString())
	if err != nil && !tributary.IsNotFound(err) {
		addError(&resp.Diagnostics, "Cannot revoke the token", err)
	}
}

// ImportState takes "project/token_id". The secret cannot be recovered: it stays null.
func (r *tokenResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	project, id, ok := strings.Cut(req.ID, "/")
	if !ok || project == "" || id == "" {
		resp.Diagnostics.AddError("Invalid import id",
			fmt.Sprintf("Import a token as <project>/<token id>, for example default/tok_8f3a2c, not %q.", req.ID))
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("project"), project)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), id)...)
}

// sameInstant keeps the written expiry when the server's is the same instant in another form.
func sameInstant(written types.String, server *time.Time) types.String {
	if server == nil {
		return types.StringNull()
	}
	if t, err := time.Parse(time.RFC3339, written.ValueString()); err == nil && t.Equal(*server) {
		return written
	}
	return types.StringValue(server.UTC().Format(time.RFC3339))
}

// rfc3339 validates a timestamp.
type rfc3339 struct{}

func (rfc3339) Description(context.Context) string {
	return "an RFC 3339 timestamp, such as 2027-01-01T00:00:00Z"
}
func (v rfc3339) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }
func (rfc3339) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := time.Parse(time.RFC3339, req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid timestamp",
			fmt.Sprintf("%q is not an RFC 3339 timestamp such as 2027-01-01T00:00:00Z.", req.ConfigValue.ValueString()))
	}
}
