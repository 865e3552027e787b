package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"tributary.io/terraform-provider-tributary/internal/apiclient"
	"tributary.io/terraform-provider-tributary/internal/jobspec"
	"tributary.io/terraform-provider-tributary/internal/tributary"
)

var fingerprintInEvent = regexp.MustCompile(`\((sha256:[0-9a-f]{64})\)`)

// TestAccFingerprintIsTheServers applies specs to the real server and compares the fingerprint
// its event names with the one the provider computes: the provider's normalisation is the
// server's, byte for byte.
func TestAccFingerprintIsTheServers(t *testing.T) {
	if server == nil {
		t.Skip("acceptance test: set TF_ACC=1")
	}
	ctx := testContext(t)
	c := admin()
	files, _ := filepath.Glob("../jobspec/testdata/canonical/*.yaml")
	json, _ := filepath.Glob("../jobspec/testdata/canonical/*.json")
	for _, f := range json {
		if !strings.HasSuffix(f, ".canonical.json") {
			files = append(files, f)
		}
	}
	if len(files) < 3 {
		t.Fatalf("found %d specs to apply, expected at least 3", len(files))
	}
	specs := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		specs[filepath.Base(f)] = string(b)
	}
	specs["lifecycle job"] = "name: fp-trickle\n" + trickleSpec("2s")
	specs["lifecycle job reformatted"] = strings.Replace(trickleSpecReformatted, `"trickle"`, `"fp-trickle"`, 1)
	for label, text := range specs {
		t.Run(label, func(t *testing.T) {
			doc, err := jobspec.Parse(text, "")
			if err != nil {
				t.Fatal(err)
			}
			want, err := doc.Fingerprint()
			if err != nil {
				t.Fatal(err)
			}
			name := jobName(t, text)
			// stored stopped: applied and fingerprinted, never run
			_, _, err = c.ApplyJob(ctx, "default", name, tributary.Apply{SpecJSON: doc.JSON(),
				Desired: apiclient.DESIREDSTATE_STOPPED})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = c.DeleteJob(ctx, "default", name, 0) })
			events, err := c.Events(ctx, "default", name)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range events {
				if m := fingerprintInEvent.FindStringSubmatch(e.Message); m != nil {
					got = append(got, m[1])
				}
			}
			if len(got) == 0 || got[0] != want {
				t.Fatalf("the server's fingerprints %v; the provider's %s", got, want)
			}
		})
	}
}

func jobName(t *testing.T, text string) string {
	d, err := jobspec.Parse(text, "")
	if err != nil {
		t.Fatal(err)
	}
	canonical, err := d.Canonical()
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^\{"name":"([^"]+)"`).FindStringSubmatch(canonical)
	if m == nil {
		t.Fatalf("the spec names no job: %s", canonical)
	}
	return m[1]
}
