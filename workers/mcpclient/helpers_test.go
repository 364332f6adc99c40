package mcpclient_test

import (
	"encoding/json"
	"net/http"
)

type httptestRequest = http.Request

func jsonUnmarshal(raw json.RawMessage, v any) error {
	if len(raw) == 0 {
		return nil
	}
	return json.Unmarshal(raw, v)
}
