package designer

import "fmt"

// ValidationError reports input the design cannot accept. Field is the path of the field at fault,
// in the same form as finding paths ("name", "overview/scale", "access_patterns/3/peak_rps").
type ValidationError struct {
	Field   string
	Message string
}

func (e *ValidationError) Error() string { return e.Field + ": " + e.Message }

func Invalid(field, format string, args ...any) error {
	return &ValidationError{Field: field, Message: fmt.Sprintf(format, args...)}
}
