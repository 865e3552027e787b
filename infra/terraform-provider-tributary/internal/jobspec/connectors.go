package jobspec

import "math/big"

// The type-specific properties each source and sink type accepts, in the server's order (its
// ConnectorRules): the canonical form lists a connector's properties in this order, whatever the
// document's.

type propertyKind int

const (
	kindString propertyKind = iota
	kindInteger
	kindPositiveInteger
	kindNonNegativeInteger
	kindPositiveNumber
	kindPositiveDuration
	kindEnum
	kindStringList
	kindStringMap
	kindBoolean
)

type propertyRule struct {
	name     string
	kind     propertyKind
	required bool
	values   []string
}

type connectorRules struct {
	types []string // in the server's order
	rules map[string][]propertyRule
}

func req(name string, k propertyKind) propertyRule {
	return propertyRule{name: name, kind: k, required: true}
}
func opt(name string, k propertyKind) propertyRule { return propertyRule{name: name, kind: k} }
func oneOf(name string, values ...string) propertyRule {
	return propertyRule{name: name, kind: kindEnum, values: values}
}

var sourceRules = connectorRules{
	types: []string{"file", "datagen", "nexmark", "kafka"},
	rules: map[string][]propertyRule{
		"file": {req("path", kindString)},
		"datagen": {opt("count", kindPositiveInteger), opt("keys", kindPositiveInteger), opt("seed", kindInteger),
			opt("interval", kindPositiveDuration), opt("startTime", kindNonNegativeInteger)},
		"nexmark": {opt("events", kindPositiveInteger), oneOf("kind", "all", "person", "auction", "bid"),
			opt("seed", kindInteger), opt("eventRate", kindPositiveNumber), opt("startTime", kindNonNegativeInteger)},
		"kafka": {req("bootstrapServers", kindString), req("topic", kindString),
			oneOf("startFrom", "earliest", "latest"), opt("groupId", kindString), opt("properties", kindStringMap)},
	},
}

var sinkRules = connectorRules{
	types: []string{"file", "kafka", "stdout", "blackhole"},
	rules: map[string][]propertyRule{
		"file": {req("path", kindString), opt("changelog", kindBoolean)},
		"kafka": {req("bootstrapServers", kindString), req("topic", kindString), opt("keyFields", kindStringList),
			oneOf("delivery", "at-least-once", "exactly-once", "upsert"), opt("transactionalIdPrefix", kindString),
			opt("transactionTimeout", kindPositiveDuration), opt("properties", kindStringMap)},
		"stdout":    {},
		"blackhole": {},
	},
}

func connectorType(r *reader, c connectorRules) any {
	if !r.has("type") {
		r.fail("type", "is required")
		return nil
	}
	return r.enum("type", c.types, nil)
}

// properties reads the type's properties in rule order, then refuses unknown fields.
func properties(r *reader, typ any, c connectorRules) *Object {
	out := NewObject()
	t, ok := typ.(string)
	if !ok {
		return out // the type is wrong: already a problem
	}
	for _, rule := range c.rules[t] {
		if !r.has(rule.name) {
			if rule.required {
				r.fail(rule.name, "is required for this type")
			}
			continue
		}
		if v := rule.read(r); v != nil {
			out.Set(rule.name, v)
		}
	}
	r.rejectUnknown()
	return out
}

// read checks a present property and returns its value as the server keeps it.
func (p propertyRule) read(r *reader) any {
	v := r.field(p.name)
	switch p.kind {
	case kindString:
		return r.str(p.name, nil)
	case kindEnum:
		return r.enum(p.name, p.values, nil)
	case kindStringList:
		return r.stringList(p.name)
	case kindStringMap:
		return r.stringMap(p.name, true)
	case kindPositiveDuration:
		if r.duration(p.name, true, nil) == nil {
			return nil
		}
		return plain(v) // kept as written: "10s" stays "10s"
	case kindPositiveNumber:
		if r.positiveNumber(p.name) == nil {
			return nil
		}
		return plain(v)
	case kindBoolean:
		b, ok := v.(bool)
		if !ok {
			r.fail(p.name, "must be true or false")
			return nil
		}
		return b
	}
	i, ok := v.(int64)
	if _, isBig := v.(*big.Int); !ok || isBig {
		r.fail(p.name, "must be an integer")
		return nil
	}
	if p.kind == kindPositiveInteger && i <= 0 || p.kind == kindNonNegativeInteger && i < 0 {
		r.fail(p.name, "is out of range")
		return nil
	}
	return i
}
