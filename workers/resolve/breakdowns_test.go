package resolve

import (
	"testing"
)

var (
	bdMetrics = manifest("t/metric_series", "Metric series", `{"type":"object","required":["metric"],"properties":{
		"metric":{"type":"string","enum":["churn","bookings","refunds","signups"]},
		"grain":{"type":"string","enum":["day","week","month"]},
		"group_by":{"type":"array","items":{"type":"string"},"description":"Dimensions to split the metric by"}}}`)
	bdReport = manifest("t/report", "Usage report", `{"type":"object","required":["measure"],"properties":{
		"measure":{"type":"string","enum":["storage","requests"]},
		"dimension":{"type":"string","description":"One dimension to break the numbers down by"}}}`)
	bdFiles = manifest("t/list_files", "List files", `{"type":"object","required":["path"],"properties":{
		"path":{"type":"string"},"sort":{"type":"string"}}}`)
)

func init() {
	ruleCases["breakdowns"] = []ruleCase{
		{bdMetrics, "signups by billing plan", map[string]any{"metric": "signups", "group_by": []any{"billing plan"}}},
		{bdReport, "storage by team", map[string]any{"measure": "storage", "dimension": "team"}},
	}
}

// TestBreakdowns: "by" and plain words name the dimensions; a grain, an
// order, a name or a time after "by" are not dimensions.
func TestBreakdowns(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"one dimension", bdMetrics, "churn by customer segment", M{"metric": "churn", "group_by": []any{"customer segment"}}},
		{"two, with and", bdMetrics, "bookings by region and device", M{"metric": "bookings", "group_by": []any{"region", "device"}}},
		{"two, with a comma", bdMetrics, "bookings by region, device and browser", M{"metric": "bookings", "group_by": []any{"region", "device", "browser"}}},
		{"broken down by", bdMetrics, "refunds broken down by payment method", M{"metric": "refunds", "group_by": []any{"payment method"}}},
		{"grain", bdMetrics, "bookings by month", M{"metric": "bookings", "grain": "month"}},
		{"grain and dimension", bdMetrics, "bookings by week by region", M{"metric": "bookings", "grain": "week", "group_by": []any{"region"}}},
		{"single text parameter", bdReport, "requests by endpoint", M{"measure": "requests", "dimension": "endpoint"}},
		// Negatives.
		{"order is no dimension", bdMetrics, "bookings by region, sorted by total", M{"metric": "bookings", "group_by": []any{"region"}}},
		{"sorted by", bdMetrics, "bookings sorted by region", M{"metric": "bookings"}},
		{"a name", bdMetrics, "bookings by Marta", M{"metric": "bookings"}},
		{"single parameter, two dimensions", bdReport, "requests by endpoint and status", M{"measure": "requests"}},
		{"no such parameter", bdFiles, "list /srv by size", M{"path": "/srv"}},
	})
}

// TestAxes: a chart's measure before by/against/vs, its axis after; no
// axes after an order word, before a deadline or a name, or for a tool
// with one axis parameter.
func TestAxes(t *testing.T) {
	axes := []string{"x", "y"}
	checkGuessesOn(t, ruleChart, axes, []textCase{
		{"bar chart of revenue by region", M{"x": "region", "y": "revenue"}},
		{"plot unit price against floor area", M{"x": "floor area", "y": "unit price"}},
		{"line chart of cost per month", M{"x": "month", "y": "cost"}},
		{"pie of sales vs channel, from the orders table", M{"x": "channel", "y": "sales"}},
		// Negatives.
		{"bar chart of regions sorted by revenue", M{}},
		{"a chart of revenue by Friday", M{}},
		{"a chart of revenue by tomorrow", M{}},
		{"a chart by Ana", M{}},
	})
	checkGuessesOn(t, ruleChartOneAxis, []string{"y"}, []textCase{
		{"bar chart of revenue by region", M{}},
	})
}

// TestScopes: where in a system a thing lives, after in/on; no idiom, no
// time, no capitalised name (a place's), nothing for two scopes missing.
func TestScopes(t *testing.T) {
	checkGuessesOn(t, ruleVMs, []string{"region"}, []textCase{
		{"reboot vm web-3 in eu-central-1", M{"region": "eu-central-1"}},
		{"reboot vm web-3 on us-west-2 now", M{"region": "us-west-2"}},
		// Negatives.
		{"reboot vm web-3 in detail", M{}},
		{"reboot vm web-3 in March", M{}},
		// A capitalised place is the places rule's, as written.
		{"reboot vm web-3 in Frankfurt", M{"region": "Frankfurt"}},
		{"reboot vm web-3 in 5 minutes", M{}},
	})
	checkGuessesOn(t, rulePods, []string{"namespace"}, []textCase{
		{"restart the pods of cart in payments", M{"namespace": "payments"}},
		{"restart the pods of cart in the staging namespace", M{"namespace": "staging"}},
		{"restart the pods of cart in order", M{}},
	})
	twoScopes := manifest("t/k8s", "Get pods", `{"type":"object","properties":{
		"namespace":{"type":"string"},"cluster":{"type":"string"}}}`)
	checkGuessesOn(t, twoScopes, []string{"namespace", "cluster"}, []textCase{
		{"get pods in payments", M{}},
	})
}

// TestPrefixedIDs: a code's letters name its parameter, exactly or as the
// opening of a word of three letters or more; two such parameters, or
// none, take nothing.
func TestPrefixedIDs(t *testing.T) {
	checkGuessesOn(t, ruleReviews, []string{"sku", "invoice_ref"}, []textCase{
		{"reviews of SKU-300", M{"sku": "SKU-300"}},
		{"reviews of INV-77", M{"invoice_ref": "INV-77"}},
		// "IN" is too short to open invoice; "AB-12" names nothing.
		{"reviews of IN-77", M{}},
		{"reviews of AB-12", M{}},
	})
}
