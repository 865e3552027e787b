package jobspec

import (
	"fmt"
	"math/big"
	"regexp"
	"strconv"
)

// reader reads the fields of one object of a spec as the server's parser reads them (its
// ObjectReader): a JSON null counts as absent, every field asked for becomes known, and
// rejectUnknown refuses the others. The first problem is kept in the shared *problem and every
// later read returns the zero value: a spec the server would refuse has no canonical form.
type reader struct {
	obj     *Object
	pointer string
	known   map[string]bool
	failed  *problem
}

type problem struct {
	err error
}

func (p *problem) set(pointer, format string, args ...any) {
	if p.err == nil {
		p.err = &ShapeError{Pointer: pointer, Message: fmt.Sprintf(format, args...)}
	}
}

// ShapeError says where a document differs from what the server's parser accepts.
type ShapeError struct {
	Pointer string
	Message string
}

func (e *ShapeError) Error() string {
	if e.Pointer == "" {
		return e.Message
	}
	return e.Pointer + ": " + e.Message
}

func childPointer(pointer, name string) string {
	return pointer + "/" + escapePointer(name)
}

func escapePointer(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '~':
			out = append(out, '~', '0')
		case '/':
			out = append(out, '~', '1')
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}

// objectReader is a reader of v, or nil (with a problem) if v is not an object.
func objectReader(v any, pointer string, failed *problem) *reader {
	o, ok := v.(*Object)
	if !ok {
		failed.set(pointer, "must be an object, found %s", describe(v))
		return nil
	}
	return &reader{obj: o, pointer: pointer, known: map[string]bool{}, failed: failed}
}

func (r *reader) ptr(name string) string { return childPointer(r.pointer, name) }

func (r *reader) fail(name, format string, args ...any) {
	r.failed.set(r.ptr(name), format, args...)
}

// field is the value of name, nil when absent or null.
func (r *reader) field(name string) any {
	r.known[name] = true
	v, _ := r.obj.Get(name)
	return v
}

func (r *reader) has(name string) bool { return r.field(name) != nil }

func (r *reader) requiredString(name string) any {
	if !r.has(name) {
		r.fail(name, "is required")
		return nil
	}
	return r.str(name, nil)
}

// str is a non-blank string, def when absent.
func (r *reader) str(name string, def any) any {
	v := r.field(name)
	if v == nil {
		return def
	}
	s, ok := v.(string)
	if !ok {
		r.fail(name, "must be a string, found %s", describe(v))
		return nil
	}
	if javaBlank(s) {
		r.fail(name, "must not be empty")
		return nil
	}
	return s
}

func (r *reader) enum(name string, allowed []string, def any) any {
	v := r.str(name, def)
	if v == nil {
		return nil
	}
	for _, a := range allowed {
		if v == a {
			return v
		}
	}
	r.fail(name, "%q is not one of %v", v, allowed)
	return nil
}

// integer is an integer that fits a Java int.
func (r *reader) integer(name string) any {
	v := r.field(name)
	if v == nil {
		return nil
	}
	i, ok := v.(int64)
	if !ok || i < -1<<31 || i > 1<<31-1 {
		r.fail(name, "must be an integer, found %s", describe(v))
		return nil
	}
	return i
}

// positiveNumber is a number greater than 0, as a double.
func (r *reader) positiveNumber(name string) any {
	v := r.field(name)
	if v == nil {
		return nil
	}
	f, ok := doubleValue(v)
	if !ok || f <= 0 {
		r.fail(name, "must be a number greater than 0")
		return nil
	}
	return f
}

// duration is the milliseconds of a duration (10s, 500ms, or an integer of ms), def when absent.
func (r *reader) duration(name string, positive bool, def any) any {
	v := r.field(name)
	if v == nil {
		return def
	}
	millis, err := parseMillis(v)
	if err != nil || (positive && millis <= 0) {
		r.fail(name, "must be a duration such as 10s")
		return nil
	}
	return millis
}

// stringList is a list of non-blank strings; one string is a list of one.
func (r *reader) stringList(name string) any {
	v := r.field(name)
	if v == nil {
		return nil
	}
	if s, ok := v.(string); ok {
		v = []any{s}
	}
	list, ok := v.([]any)
	if !ok {
		r.fail(name, "must be a list of strings, found %s", describe(v))
		return nil
	}
	out := make([]any, 0, len(list))
	for i, e := range list {
		s, ok := e.(string)
		if !ok || javaBlank(s) {
			r.failed.set(childPointer(r.ptr(name), strconv.Itoa(i)), "must be a non-empty string")
			return nil
		}
		out = append(out, s)
	}
	return out
}

// stringMap is an object of name to non-blank string in document order; with scalars, numbers
// and booleans too, kept as their Java text.
func (r *reader) stringMap(name string, scalars bool) any {
	v := r.field(name)
	if v == nil {
		return nil
	}
	m := objectReader(v, r.ptr(name), r.failed)
	if m == nil {
		return nil
	}
	out := NewObject()
	for _, k := range m.obj.Keys() {
		e, _ := m.obj.Get(k)
		s, isString := e.(string)
		switch {
		case isString && !javaBlank(s):
			out.Set(k, s)
		case !isString && scalars && isScalar(e):
			out.Set(k, javaText(e))
		default:
			m.fail(k, "must be a non-empty string")
			return nil
		}
	}
	return out
}

// object is a reader of a nested object, nil when absent (or not an object, with a problem).
func (r *reader) object(name string) *reader {
	v := r.field(name)
	if v == nil {
		return nil
	}
	return objectReader(v, r.ptr(name), r.failed)
}

func (r *reader) rejectUnknown() {
	for _, k := range r.obj.Keys() {
		if !r.known[k] {
			r.fail(k, "unknown field '%s'", k)
			return
		}
	}
}

// durationPattern is the server's: Java's \s is [ \t\n\x0B\f\r] and \d is [0-9].
var durationPattern = regexp.MustCompile(`^[ \t\n\x0B\f\r]*([0-9]+)[ \t\n\x0B\f\r]*(ms|s|m|h|d)?[ \t\n\x0B\f\r]*$`)

// parseMillis mirrors the server's Durations.parseMillis of a string or an integer, including
// its wrap-around on overflowing units.
func parseMillis(v any) (int64, error) {
	switch x := v.(type) {
	case int64:
		if x < 0 {
			return 0, fmt.Errorf("must not be negative")
		}
		return x, nil
	case string:
		m := durationPattern.FindStringSubmatch(x)
		if m == nil {
			return 0, fmt.Errorf("not a duration")
		}
		n, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return 0, err
		}
		switch m[2] {
		case "", "ms":
			return n, nil
		case "s":
			return n * 1_000, nil
		case "m":
			return n * 60_000, nil
		case "h":
			return n * 3_600_000, nil
		default:
			return n * 86_400_000, nil
		}
	}
	return 0, fmt.Errorf("not a duration")
}

func doubleValue(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	case *big.Int:
		f, _ := new(big.Float).SetInt(x).Float64()
		return f, true
	}
	return 0, false
}

func isScalar(v any) bool {
	switch v.(type) {
	case string, bool, int64, float64, *big.Int:
		return true
	}
	return false
}

// plain is the server's JsonValues.toPlain: integers that fit a long stay integers, others are doubles.
func plain(v any) any {
	if b, ok := v.(*big.Int); ok {
		f, _ := doubleValue(b)
		return f
	}
	return v
}

// javaBlank is Java's String.isBlank: empty or only Character.isWhitespace characters.
func javaBlank(s string) bool {
	for _, r := range s {
		if !javaWhitespace(r) {
			return false
		}
	}
	return true
}

func javaWhitespace(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\x0B' || r == '\f' || r == '\r' || (r >= 0x1C && r <= 0x1F):
		return true
	case r == 0xA0 || r == 0x2007 || r == 0x202F:
		return false // non-breaking spaces are not whitespace to Java
	case r == ' ' || r == 0x1680 || (r >= 0x2000 && r <= 0x200A) || r == 0x2028 || r == 0x2029 || r == 0x205F || r == 0x3000:
		return true
	}
	return false
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "nothing"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64, *big.Int:
		return "a number"
	case []any:
		return "a list"
	}
	return "an object"
}
