package provider

import (
	"context"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// dnsLabel is the server's rule for project and job names.
var dnsLabel = stringvalidator.RegexMatches(regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`),
	"must be a DNS label: at most 63 lower-case letters, digits and '-', starting and ending with a letter or digit")

func nameValidators() []validator.String { return []validator.String{dnsLabel} }

// plannedProject sets the planned project to the provider's when the configuration names none;
// a resource whose project so changes is replaced, as if the configuration had changed it.
func plannedProject(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, project string) {
	var configured, prior types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("project"), &configured)...)
	if !configured.IsNull() {
		return
	}
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("project"), project)...)
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("project"), &prior)...)
		if !prior.IsNull() && prior.ValueString() != project {
			resp.RequiresReplace = append(resp.RequiresReplace, path.Root("project"))
		}
	}
}
