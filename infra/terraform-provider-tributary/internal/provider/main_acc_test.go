package provider

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"tributary.io/terraform-provider-tributary/internal/testserver"
	"tributary.io/terraform-provider-tributary/internal/tributary"
)

// The acceptance tests (TF_ACC=1) run against one real Tributary server that TestMain starts on
// a free port over a temporary data directory; the provider reaches it through TRIBUTARY_SERVER
// and TRIBUTARY_TOKEN (the server's administrator token), as a user's would.
var server *testserver.Server

func TestMain(m *testing.M) {
	if os.Getenv("TF_ACC") == "" {
		os.Exit(m.Run())
	}
	s, err := testserver.Start(3 * time.Minute)
	if err != nil {
		fmt.Fprintln(os.Stderr, "acceptance tests: cannot start the Tributary server:", err)
		os.Exit(1)
	}
	server = s
	os.Setenv("TRIBUTARY_SERVER", s.URL)
	os.Setenv("TRIBUTARY_TOKEN", s.AdminToken)
	os.Unsetenv("TRIBUTARY_PROJECT")
	code := m.Run()
	if code != 0 {
		fmt.Fprintf(os.Stderr, "acceptance tests failed; the server's last output:\n%s\n", s.Output())
	}
	s.Stop()
	os.Exit(code)
}

// providers runs the provider in the test's process.
var providers = map[string]func() (tfprotov6.ProviderServer, error){
	"tributary": providerserver.NewProtocol6WithError(New("acceptance-test")()),
}

// admin is a client of the test server with its administrator token, for what tests do or check
// behind Terraform's back.
func admin() *tributary.Client { return server.Client() }

func testContext(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}
