package tributary

import (
	"context"
	"fmt"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
)

// CreateProject creates a project (needs the administrator token).
func (c *Client) CreateProject(ctx context.Context, name string) (*apiclient.Project, error) {
	p, resp, err := c.api.ProjectsAPI.CreateProject(ctx).ProjectCreate(apiclient.ProjectCreate{Name: name}).Execute()
	return p, c.wrap("create project "+name, resp, err)
}

// GetProject reads a project.
func (c *Client) GetProject(ctx context.Context, name string) (*apiclient.Project, error) {
	p, resp, err := c.api.ProjectsAPI.GetProject(ctx, name).Execute()
	return p, c.wrap("read project "+name, resp, err)
}

// DeleteProject deletes an empty project and revokes its tokens (needs the administrator token).
func (c *Client) DeleteProject(ctx context.Context, name string) error {
	resp, err := c.api.ProjectsAPI.DeleteProject(ctx, name).Execute()
	return c.wrap("delete project "+name, resp, err)
}

// CreateToken creates an API token of a project; the result holds its secret, shown only now.
func (c *Client) CreateToken(ctx context.Context, project string, t apiclient.ApiTokenCreate) (*apiclient.ApiTokenCreated, error) {
	created, resp, err := c.api.TokensAPI.CreateApiToken(ctx, project).ApiTokenCreate(t).Execute()
	return created, c.wrap(fmt.Sprintf("create token %s in project %s", t.Name, project), resp, err)
}

// FindToken finds a project's token by id among its tokens (the API has no GET of one token);
// nil if there is none, or it was revoked.
func (c *Client) FindToken(ctx context.Context, project, id string) (*apiclient.ApiToken, error) {
	token := ""
	for {
		req := c.api.TokensAPI.ListApiTokens(ctx, project).PageSize(500)
		if token != "" {
			req = req.PageToken(token)
		}
		page, resp, err := req.Execute()
		if err != nil {
			return nil, c.wrap("list the tokens of project "+project, resp, err)
		}
		for i := range page.Items {
			if page.Items[i].Id == id {
				return &page.Items[i], nil
			}
		}
		if page.NextPageToken == nil || *page.NextPageToken == "" {
			return nil, nil
		}
		token = *page.NextPageToken
	}
}

// RevokeToken revokes a token.
func (c *Client) RevokeToken(ctx context.Context, project, id string) error {
	resp, err := c.api.TokensAPI.RevokeApiToken(ctx, project, id).Execute()
	return c.wrap(fmt.Sprintf("revoke token %s in project %s", id, project), resp, err)
}
