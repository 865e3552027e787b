package jobspec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The canonical form must be the server's byte for byte: the golden files were written by the
// server's parser and Jackson (see testdata/canonical/README.md).
func TestCanonicalMatchesTheServersGoldenFiles(t *testing.T) {
	inputs, err := filepath.Glob("testdata/canonical/*.*")
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, in := range inputs {
		if strings.HasSuffix(in, ".canonical.json") || strings.HasSuffix(in, ".md") {
			continue
		}
		seen++
		t.Run(filepath.Base(in), func(t *testing.T) {
			text := read(t, in)
			want := strings.TrimSpace(read(t, strings.TrimSuffix(strings.TrimSuffix(in, ".yaml"), ".json")+".canonical.json"))
			doc, err := Parse(text, "")
			if err != nil {
				t.Fatal(err)
			}
			got, err := doc.Canonical()
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("canonical form differs from the server's\n got: %s\nwant: %s", got, want)
			}
		})
	}
	if seen < 3 {
		t.Fatalf("found %d golden inputs, expected at least 3", seen)
	}
}

func TestFingerprintIsTheServers(t *testing.T) {
	doc, err := Parse(read(t, "testdata/canonical/clicks.yaml"), "")
	if err != nil {
		t.Fatal(err)
	}
	fp, err := doc.Fingerprint()
	if err != nil {
		t.Fatal(err)
	}
	// SHA-256 of clicks.canonical.json, the bytes the server hashes
	const want = "sha256:564e712804e0e9ef184039caa424ed2181e9f1e69f90fbd31076468b0ab2031e"
	if fp != want {
		t.Fatalf("fingerprint %s, want %s", fp, want)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
