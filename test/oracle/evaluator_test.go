package oracle

import (
	"encoding/json"
	"errors"

	"dynaloom/internal/designer"
	"dynaloom/internal/designer/dynamo"
)

// evaluate is the implementation under test.
var evaluate = dynamo.EvaluateJSON

func askEvaluator(d designer.Design, op string, body []byte) answer {
	raw, err := evaluate(d, op, body)
	if err != nil {
		var ee *dynamo.EvalError
		if errors.As(err, &ee) {
			return answer{errType: ee.Type, errMsg: ee.Message}
		}
		return answer{errType: "(not an EvalError)", errMsg: err.Error()}
	}
	var resp map[string]any
	if err := json.Unmarshal(raw, &resp); err != nil {
		return answer{raw: raw, errType: "(invalid JSON)", errMsg: err.Error()}
	}
	return answer{raw: raw, resp: resp}
}
