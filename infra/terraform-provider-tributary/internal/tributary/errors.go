package tributary

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
)

// Error is a request the server refused, or one that never reached it.
type Error struct {
	// Op says what was attempted ("apply job clicks").
	Op string
	// URL is the server's base URL.
	URL string
	// Status is the HTTP status, 0 when the server could not be reached.
	Status int
	// Detail is the server's problem detail, or why the server could not be reached.
	Detail string
	// Fields are the invalid fields of a 400, each with its JSON pointer into the request body.
	Fields []apiclient.FieldError
	// Retryable is the problem's retryable flag.
	Retryable bool
}

func (e *Error) Error() string {
	if e.Status == 0 {
		return fmt.Sprintf("cannot reach the Tributary server at %s to %s: %s", e.URL, e.Op, e.Detail)
	}
	msg := fmt.Sprintf("cannot %s: %s (HTTP %d)", e.Op, e.Detail, e.Status)
	for _, f := range e.Fields {
		msg += "\n  " + Where(f) + ": " + f.Message
	}
	return msg
}

// Where says where a field error is: "line L, column C" in SQL text, else its JSON pointer.
func Where(f apiclient.FieldError) string {
	if f.Line != nil && f.Column != nil {
		return fmt.Sprintf("line %d, column %d", *f.Line, *f.Column)
	}
	return f.Pointer
}

// StatusOf is the HTTP status of err if the server answered it, else 0.
func StatusOf(err error) int {
	var e *Error
	if errors.As(err, &e) {
		return e.Status
	}
	return 0
}

// IsNotFound says whether the server answered 404.
func IsNotFound(err error) bool { return StatusOf(err) == http.StatusNotFound }

// IsPreconditionFailed says whether the server answered 412 (a stale If-Match, or an
// If-None-Match: * on an existing job).
func IsPreconditionFailed(err error) bool { return StatusOf(err) == http.StatusPreconditionFailed }

// wrap turns what the generated client returned into an *Error.
func (c *Client) wrap(op string, resp *http.Response, err error) error {
	if err == nil {
		return nil
	}
	if resp == nil {
		return &Error{Op: op, URL: c.Endpoint, Detail: reachability(err)}
	}
	e := &Error{Op: op, URL: c.Endpoint, Status: resp.StatusCode, Detail: http.StatusText(resp.StatusCode)}
	var api *apiclient.GenericOpenAPIError
	var body []byte
	if errors.As(err, &api) {
		body = api.Body()
	}
	var p apiclient.Problem
	if len(body) > 0 && json.Unmarshal(body, &p) == nil && p.Title != "" {
		if p.Detail != nil && *p.Detail != "" {
			e.Detail = *p.Detail
		} else {
			e.Detail = p.Title
		}
		e.Fields = p.Errors
		e.Retryable = p.Retryable != nil && *p.Retryable
	} else if resp.StatusCode < 300 {
		// a 2xx whose body this client could not read
		e.Detail = "unexpected response: " + err.Error()
	}
	return e
}

// reachability says why a request got no answer, in the words of the network error.
func reachability(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		msg := op.Err.Error()
		if i := strings.LastIndex(msg, ": "); i >= 0 {
			msg = msg[i+2:] // "connect: connection refused" -> "connection refused"
		}
		return msg
	}
	return err.Error()
}
