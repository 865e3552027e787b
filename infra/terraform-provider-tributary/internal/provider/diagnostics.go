package provider

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"tributary.io/terraform-provider-tributary/internal/tributary"
)

// addError adds err to diags. The invalid fields of a refused job spec become one diagnostic each
// on the spec attribute, "<pointer>: <message>" with the pointer into the spec document (the
// server's pointer without its "/spec" prefix, as `tributary apply` prints it); an invalid
// parallelism one on the parallelism attribute; an error of a SQL job's text one on the sql
// attribute, "line L, column C: <message>".
func addError(diags *diag.Diagnostics, summary string, err error) {
	var e *tributary.Error
	if !errors.As(err, &e) || len(e.Fields) == 0 {
		diags.AddError(summary, capitalize(err.Error()))
		return
	}
	for _, f := range e.Fields {
		switch {
		case f.Pointer == "/spec" || strings.HasPrefix(f.Pointer, "/spec/"):
			pointer := strings.TrimPrefix(f.Pointer, "/spec")
			if pointer == "" {
				pointer = "(the whole spec)"
			}
			diags.AddAttributeError(path.Root("spec"), "Invalid job spec",
				fmt.Sprintf("%s: %s\n\nThe server refused the spec: %s.", pointer, f.Message, e.Detail))
		case f.Pointer == "/sql":
			diags.AddAttributeError(path.Root("sql"), "Invalid SQL job", fmt.Sprintf("%s: %s",
				tributary.Where(f), f.Message))
		case f.Pointer == "/parallelism" || f.Pointer == "parallelism":
			diags.AddAttributeError(path.Root("parallelism"), "Invalid parallelism", capitalize(f.Message)+".")
		default:
			diags.AddError(summary, fmt.Sprintf("%s: %s (%s)", f.Pointer, f.Message, e.Detail))
		}
	}
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// client returns the configured client, or adds an error if the provider is not configured.
func clientOf(_ context.Context, c *configured, diags *diag.Diagnostics) *tributary.Client {
	if c == nil {
		diags.AddError("Provider not configured",
			"The Tributary provider was not configured; its endpoint or token may depend on a value not known yet.")
		return nil
	}
	return c.client
}
