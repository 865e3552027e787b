// Package jobspec reads Tributary job specs (YAML or JSON) the way the server does, to tell
// whether two texts mean the same job without asking the server.
//
// The server stores an applied spec's text and a fingerprint: the SHA-256 of the spec its parser
// makes of the text, written as canonical JSON. Applying a text with the same fingerprint changes
// nothing. Canonical builds that same JSON here, byte for byte, so two texts are Equivalent
// exactly when the server would fingerprint them alike: formatting, YAML or JSON, comments,
// quoting, the order of an object's fields and the way a duration is written (10s or 10000ms) do
// not matter; the order of map entries (sources, sinks, select, aggregate) does, as it does to the
// server. A text the server's parser would refuse has no canonical form; such texts are
// equivalent only if they are identical.
package jobspec

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Document is a parsed spec document: its top-level object, in document order.
type Document struct {
	root *Object
}

// Parse reads a YAML or JSON spec. With a non-empty jobName, a document without a `name` gets
// that name (as its first field), so a spec may leave the job's name to the resource; a document
// naming another job is an error.
func Parse(text, jobName string) (*Document, error) {
	tree, err := ParseDocument(text)
	if err != nil {
		return nil, err
	}
	root, ok := tree.(*Object)
	if !ok {
		return nil, fmt.Errorf("the spec must be an object (a YAML mapping), found %s", describe(tree))
	}
	if jobName == "" {
		return &Document{root: root}, nil
	}
	if name, _ := root.Get("name"); name != nil {
		if name != jobName {
			return nil, &ShapeError{Pointer: "/name", Message: fmt.Sprintf(
				"is %s but the job's name is %q: they must be the same (or leave name out of the spec)",
				quoteValue(name), jobName)}
		}
		return &Document{root: root}, nil
	}
	named := NewObject()
	named.Set("name", jobName)
	for _, k := range root.Keys() {
		if k != "name" {
			v, _ := root.Get(k)
			named.Set(k, v)
		}
	}
	return &Document{root: named}, nil
}

// JSON is the document as compact JSON, in document order, with every value as the server reads
// it from the text (floats keep a decimal point, so 5.0 stays a float).
func (d *Document) JSON() string {
	var sb strings.Builder
	writeJSON(&sb, d.root)
	return sb.String()
}

// Canonical is the server's canonical JSON of the spec, or a *ShapeError saying where the server's
// parser would refuse the document.
func (d *Document) Canonical() (string, error) {
	c, err := canonical(d.root)
	if err != nil {
		return "", err
	}
	var sb strings.Builder
	writeJSON(&sb, c)
	return sb.String(), nil
}

// Fingerprint is the server's fingerprint of the spec ("sha256:<hex>").
func (d *Document) Fingerprint() (string, error) {
	c, err := d.Canonical()
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256([]byte(c))
	return "sha256:" + hex.EncodeToString(sum[:]), nil
}

// Equivalent says whether applying text b to a job whose spec is text a would change nothing
// on the server. Texts that cannot be read, or that the server would refuse, are equivalent
// only when identical.
func Equivalent(a, b, jobName string) bool {
	if a == b {
		return true
	}
	ca, errA := canonicalText(a, jobName)
	cb, errB := canonicalText(b, jobName)
	return errA == nil && errB == nil && ca == cb
}

func canonicalText(text, jobName string) (string, error) {
	d, err := Parse(text, jobName)
	if err != nil {
		return "", err
	}
	return d.Canonical()
}

func quoteValue(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	var sb strings.Builder
	writeJSON(&sb, v)
	return sb.String()
}
