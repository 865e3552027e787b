// Package tributary wraps the generated REST client (internal/apiclient) with what the provider
// needs around it: one error type carrying the server's problem+json (status, detail, and the
// JSON pointer of each invalid field), messages that name the server's URL when it cannot be
// reached, If-Match on versions, and paging.
package tributary

import (
	"context"
	"net/http"
	"strings"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
)

// Client talks to one Tributary server with one token.
type Client struct {
	// Endpoint is the server's base URL, without a trailing slash.
	Endpoint string
	api      *apiclient.APIClient
}

// New returns a client of the server at endpoint (http://host:port) that authenticates with
// token. Requests have no time limit of their own: an apply that rolls a change out waits for the
// savepoint, so callers bound each call with their context.
func New(endpoint, token, userAgent string) *Client {
	endpoint = strings.TrimRight(endpoint, "/")
	cfg := apiclient.NewConfiguration()
	cfg.Servers = apiclient.ServerConfigurations{{URL: endpoint}}
	cfg.UserAgent = userAgent
	cfg.HTTPClient = &http.Client{}
	if token != "" {
		cfg.AddDefaultHeader("Authorization", "Bearer "+token)
	}
	return &Client{Endpoint: endpoint, api: apiclient.NewAPIClient(cfg)}
}

// Health is GET /health (no token needed): nil if the server answers UP.
func (c *Client) Health(ctx context.Context) error {
	h, resp, err := c.api.HealthAPI.GetHealth(ctx).Execute()
	if err != nil {
		return c.wrap("check the server's health", resp, err)
	}
	if h.Status != "UP" {
		return &Error{Op: "check the server's health", URL: c.Endpoint, Status: resp.StatusCode,
			Detail: "the server is " + h.Status}
	}
	return nil
}
