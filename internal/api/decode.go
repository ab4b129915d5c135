package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// jsonFormat is huma's JSON format with request bodies read by decodeJSON.
var jsonFormat = huma.Format{Marshal: huma.DefaultJSONFormat.Marshal, Unmarshal: decodeJSON}

// errNUL refuses text with a NUL character: no field of ours holds one,
// PostgreSQL cannot store one and SQLite cuts text at one.
var errNUL = errors.New("Text may not contain NUL characters (\\u0000)")

// decodeJSON is json.Unmarshal with errors a person can read: huma shows
// them as they are, and encoding/json's speak of Go types ("cannot
// unmarshal number 1e+300 into Go struct field recordInputBody.ttl of type
// int"). huma decodes each body twice, first into an any to validate it
// against the schema; that first pass also refuses NUL characters.
func decodeJSON(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return readableJSONError(err)
	}
	if p, ok := v.(*any); ok && bytes.Contains(data, []byte(`\u0000`)) && holdsNUL(*p) {
		return errNUL
	}
	return nil
}

func holdsNUL(v any) bool {
	switch v := v.(type) {
	case string:
		return strings.ContainsRune(v, 0)
	case []any:
		for _, x := range v {
			if holdsNUL(x) {
				return true
			}
		}
	case map[string]any:
		for k, x := range v {
			if strings.ContainsRune(k, 0) || holdsNUL(x) {
				return true
			}
		}
	}
	return false
}

func readableJSONError(err error) error {
	var syntax *json.SyntaxError
	if errors.As(err, &syntax) {
		return fmt.Errorf("The request body is not valid JSON (%s, at byte %d)", syntax.Error(), syntax.Offset)
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		field := typ.Field
		if field == "" {
			field = "The request body"
		}
		value := strings.TrimPrefix(typ.Value, "number ")
		switch typ.Type.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			if value != typ.Value {
				return fmt.Errorf("%s must be a whole number in range, not %s", field, value)
			}
			return fmt.Errorf("%s must be a whole number, not %s", field, typ.Value)
		case reflect.Float32, reflect.Float64:
			return fmt.Errorf("%s must be a number in range, not %s", field, value)
		}
		return fmt.Errorf("%s has the wrong type (%s)", field, typ.Value)
	}
	return err
}
