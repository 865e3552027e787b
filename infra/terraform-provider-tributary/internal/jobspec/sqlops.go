package jobspec

import (
	"strconv"
	"strings"
)

// The server's JoinSpec and TopNSpec, field by field in record order.

// joinOf is an operator's join: left, right, on, window, between, stateTtlMillis; nil when absent.
func joinOf(o *reader) any {
	if o == nil {
		return nil
	}
	left := o.requiredString("left")
	right := o.requiredString("right")
	on := joinKeys(o)
	window := windowOf(o.object("window"))
	between := boundsOf(o.object("between"))
	ttl := o.duration("stateTtl", true, nil)
	o.rejectUnknown()
	if w, ok := window.(*Object); ok {
		lateness, _ := w.Get("allowedLatenessMillis")
		late, _ := w.Get("lateOutput")
		if lateness != int64(0) || late != nil {
			o.fail("window", "a window join takes no allowedLateness or lateOutput")
		}
	}
	if o.has("window") && o.has("between") {
		o.fail("between", "a join has a window or between, not both")
	}
	if o.has("stateTtl") && (o.has("window") || o.has("between")) {
		o.fail("stateTtl", "only a regular join keeps state that needs a time-to-live")
	}
	out := NewObject()
	out.Set("left", left)
	out.Set("right", right)
	out.Set("on", on)
	out.Set("window", window)
	out.Set("between", between)
	out.Set("stateTtlMillis", ttl)
	return out
}

// joinKeys is on: a non-empty list of {left, right}.
func joinKeys(o *reader) any {
	v := o.field("on")
	list, ok := v.([]any)
	if !ok || len(list) == 0 {
		o.fail("on", "is required: a non-empty list of key pairs such as {left: auction, right: id}")
		return nil
	}
	out := []any{}
	for i, e := range list {
		pair := objectReader(e, childPointer(o.ptr("on"), strconv.Itoa(i)), o.failed)
		if pair == nil {
			return nil
		}
		left := pair.requiredString("left")
		right := pair.requiredString("right")
		pair.rejectUnknown()
		if left == nil || right == nil {
			return nil
		}
		p := NewObject()
		p.Set("left", left)
		p.Set("right", right)
		out = append(out, p)
	}
	return out
}

// boundsOf is between: {lowerMillis, upperMillis}, signed durations with lower <= upper.
func boundsOf(o *reader) any {
	if o == nil {
		return nil
	}
	lower, lowerOK := signedDuration(o, "lower")
	upper, upperOK := signedDuration(o, "upper")
	o.rejectUnknown()
	if !lowerOK || !upperOK {
		return nil
	}
	if lower > upper {
		o.fail("upper", "must not be below lower")
		return nil
	}
	out := NewObject()
	out.Set("lowerMillis", lower)
	out.Set("upperMillis", upper)
	return out
}

// signedDuration is a required duration that may be negative (-5s, or a negative integer of ms).
func signedDuration(o *reader, name string) (int64, bool) {
	v := o.field(name)
	if v == nil {
		o.fail(name, "is required")
		return 0, false
	}
	negative := false
	if s, ok := v.(string); ok && strings.HasPrefix(strings.TrimSpace(s), "-") {
		negative = true
		v = strings.TrimSpace(s)[1:]
	} else if i, ok := v.(int64); ok && i < 0 {
		negative = true
		v = -i
	}
	millis, err := parseMillis(v)
	if err != nil {
		o.fail(name, "must be a duration such as 10s or -10s")
		return 0, false
	}
	if negative {
		millis = -millis
	}
	return millis, true
}

// topNOf is an operator's topN: partitionBy, orderBy, limit, rankField; nil when absent.
func topNOf(o *reader) any {
	if o == nil {
		return nil
	}
	partitionBy := o.stringList("partitionBy")
	if p, ok := partitionBy.([]any); !ok || !contains(p, "window_end") {
		o.fail("partitionBy", "must name window_end")
	}
	orderBy := sortKeys(o)
	limit := o.integer("limit")
	if n, ok := limit.(int64); !ok || n < 1 || n > 10_000 {
		o.fail("limit", "must be between 1 and 10000")
	}
	rankField := o.str("rankField", nil)
	o.rejectUnknown()
	out := NewObject()
	out.Set("partitionBy", partitionBy)
	out.Set("orderBy", orderBy)
	out.Set("limit", limit)
	out.Set("rankField", rankField)
	return out
}

// sortKeys is orderBy: a non-empty list of {field, desc (false), nulls (last)}.
func sortKeys(o *reader) any {
	list, ok := o.field("orderBy").([]any)
	if !ok || len(list) == 0 {
		o.fail("orderBy", "must be a non-empty list such as [{field: bids, desc: true}]")
		return nil
	}
	out := []any{}
	for i, e := range list {
		k := objectReader(e, childPointer(o.ptr("orderBy"), strconv.Itoa(i)), o.failed)
		if k == nil {
			return nil
		}
		field := k.requiredString("field")
		desc := false
		if v := k.field("desc"); v != nil {
			b, ok := v.(bool)
			if !ok {
				k.fail("desc", "must be true or false")
			}
			desc = b
		}
		nulls := k.enum("nulls", []string{"first", "last"}, "last")
		k.rejectUnknown()
		key := NewObject()
		key.Set("field", field)
		key.Set("desc", desc)
		key.Set("nulls", nulls)
		out = append(out, key)
	}
	return out
}

func contains(list []any, s string) bool {
	for _, e := range list {
		if e == s {
			return true
		}
	}
	return false
}
