package jobspec

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// A spec document is read into an ordered tree whose values are nil, bool, string, int64,
// *big.Int (an integer too large for int64), float64, []any or *Object. Integers and floats
// stay apart, as the server keeps them apart: an `eventRate` of 5 and one of 5.0 are different
// specs to it.

// Object is a JSON object that keeps its keys in document order.
type Object struct {
	keys   []string
	values map[string]any
}

// NewObject returns an empty object.
func NewObject() *Object {
	return &Object{values: map[string]any{}}
}

// Set adds key (at the end) or replaces its value (in place).
func (o *Object) Set(key string, value any) {
	if _, ok := o.values[key]; !ok {
		o.keys = append(o.keys, key)
	}
	o.values[key] = value
}

// Get returns the value of key and whether the object has it.
func (o *Object) Get(key string) (any, bool) {
	v, ok := o.values[key]
	return v, ok
}

// Keys returns the keys in document order.
func (o *Object) Keys() []string {
	return o.keys
}

// Len is the number of keys.
func (o *Object) Len() int {
	return len(o.keys)
}

// ParseDocument reads YAML or JSON text (JSON is read as YAML, as the server does) into a tree.
// An empty document is an error; duplicate keys are an error, as on the server.
func ParseDocument(text string) (any, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("malformed YAML/JSON: %s", strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return nil, fmt.Errorf("the spec is empty")
	}
	return fromYAML(doc.Content[0], 0)
}

// maxDepth bounds nesting (and alias expansion) well above what a spec needs.
const maxDepth = 64

func fromYAML(n *yaml.Node, depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("the spec is nested deeper than %d levels", maxDepth)
	}
	switch n.Kind {
	case yaml.AliasNode:
		return fromYAML(n.Alias, depth+1)
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return fromYAML(n.Content[0], depth+1)
	case yaml.SequenceNode:
		list := make([]any, 0, len(n.Content))
		for _, c := range n.Content {
			v, err := fromYAML(c, depth+1)
			if err != nil {
				return nil, err
			}
			list = append(list, v)
		}
		return list, nil
	case yaml.MappingNode:
		o := NewObject()
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind == yaml.AliasNode {
				k = k.Alias
			}
			if k.Kind != yaml.ScalarNode {
				return nil, fmt.Errorf("line %d: a key must be a plain value", k.Line)
			}
			v, err := fromYAML(n.Content[i+1], depth+1)
			if err != nil {
				return nil, err
			}
			o.Set(k.Value, v)
		}
		return o, nil
	case yaml.ScalarNode:
		return scalar(n)
	}
	return nil, fmt.Errorf("line %d: unsupported YAML node", n.Line)
}

func scalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!null":
		return nil, nil
	case "!!bool":
		var b bool
		if err := n.Decode(&b); err != nil {
			return nil, fmt.Errorf("line %d: %v", n.Line, err)
		}
		return b, nil
	case "!!int":
		if v, err := strconv.ParseInt(n.Value, 0, 64); err == nil {
			return v, nil
		}
		b, ok := new(big.Int).SetString(strings.ReplaceAll(n.Value, "_", ""), 0)
		if !ok {
			return nil, fmt.Errorf("line %d: %q is not an integer", n.Line, n.Value)
		}
		return b, nil
	case "!!float":
		var f float64
		if err := n.Decode(&f); err != nil {
			return nil, fmt.Errorf("line %d: %v", n.Line, err)
		}
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("line %d: %q is not a finite number", n.Line, n.Value)
		}
		return f, nil
	default:
		// strings, and what YAML 1.1 would type but the server reads as text (timestamps)
		return n.Value, nil
	}
}
