// Package provider is the Terraform provider of Tributary: projects, API tokens and jobs as
// resources, jobs and savepoints as data sources.
package provider

import (
	"context"
	"net/url"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"tributary.io/terraform-provider-tributary/internal/tributary"
)

// Address is the provider's registry address.
const Address = "registry.terraform.io/tributary/tributary"

// Defaults when neither the provider block nor the environment says.
const (
	defaultEndpoint = "http://localhost:8080"
	defaultProject  = "default"
)

// New returns the provider's constructor, for providerserver and for tests.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &tributaryProvider{version: version} }
}

type tributaryProvider struct {
	version string
}

// configured is what resources and data sources get from the provider.
type configured struct {
	client  *tributary.Client
	project string
}

type providerModel struct {
	Endpoint types.String `tfsdk:"endpoint"`
	Token    types.String `tfsdk:"token"`
	Project  types.String `tfsdk:"project"`
}

func (p *tributaryProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "tributary"
	resp.Version = p.version
}

func (p *tributaryProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages Tributary projects, API tokens and streaming jobs " +
			"through its REST API.",
		Attributes: map[string]schema.Attribute{
			"endpoint": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The server's base URL. Default: `$TRIBUTARY_SERVER`, else `" + defaultEndpoint + "`.",
			},
			"token": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "An API token (`trb_...`) or the server's administrator token. Default: " +
					"`$TRIBUTARY_TOKEN`. Managing projects needs the administrator token, managing tokens role `admin`, " +
					"managing jobs role `editor`.",
			},
			"project": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The project of resources that do not name one. Default: `$TRIBUTARY_PROJECT`, else `" +
					defaultProject + "`.",
			},
		},
	}
}

func (p *tributaryProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if cfg.Endpoint.IsUnknown() || cfg.Token.IsUnknown() || cfg.Project.IsUnknown() {
		// known only once another resource is applied: resources are configured again then
		return
	}
	endpoint := firstOf(cfg.Endpoint, "TRIBUTARY_SERVER", defaultEndpoint)
	if u, err := url.Parse(endpoint); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		resp.Diagnostics.AddAttributeError(path.Root("endpoint"), "Invalid Tributary endpoint",
			"The endpoint must be an http:// or https:// URL such as "+defaultEndpoint+", not "+endpoint+".")
		return
	}
	token := firstOf(cfg.Token, "TRIBUTARY_TOKEN", "")
	if token == "" {
		resp.Diagnostics.AddAttributeError(path.Root("token"), "No Tributary token",
			"Set token in the provider block or TRIBUTARY_TOKEN to an API token of the project (or the server's "+
				"administrator token, TRIBUTARY_ADMIN_TOKEN of the server).")
		return
	}
	c := &configured{
		client:  tributary.New(endpoint, token, "terraform-provider-tributary/"+p.version),
		project: firstOf(cfg.Project, "TRIBUTARY_PROJECT", defaultProject),
	}
	resp.ResourceData = c
	resp.DataSourceData = c
}

// firstOf is the attribute's value if set, else the environment variable's, else def.
func firstOf(v types.String, env, def string) string {
	if !v.IsNull() && v.ValueString() != "" {
		return v.ValueString()
	}
	if e := os.Getenv(env); e != "" {
		return e
	}
	return def
}

func (p *tributaryProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{newProjectResource, newTokenResource, newJobResource}
}

func (p *tributaryProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{newJobDataSource, newSavepointsDataSource}
}
