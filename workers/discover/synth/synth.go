// Package synth generates realistic synthetic tool registries of any size,
// deterministically, for benchmarks at 1k to 1M tools: namespaced ids,
// snake_case names, descriptions in the style of real tool catalogues, and
// JSON Schema parameters.
package synth

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

var (
	domains = strings.Fields(`crm billing invoices payroll inventory shipping logistics warehouse marketing analytics
		calendar email chat tickets support hr recruiting finance accounting tax legal contracts compliance security
		monitoring logging metrics alerts incidents deploys builds tests code repos issues docs wiki search maps
		weather travel flights hotels restaurants recipes fitness health pharmacy insurance banking payments crypto
		stocks news social video music photos storage backups databases queues dns certificates network vpn devices
		iot sensors energy solar vehicles fleet parking retail ecommerce catalog pricing reviews surveys education
		courses exams library translation speech ocr pdf spreadsheets slides forms signatures printing scanning`)
	verbs = strings.Fields(`get list create update delete search find fetch export import sync archive restore
		schedule cancel approve reject assign close reopen merge split summarize translate convert validate check
		monitor track analyze forecast estimate compare rank recommend notify send publish upload download scan
		generate render preview book reserve refund charge transfer calculate measure detect classify extract tag`)
	objects = strings.Fields(`record report invoice order customer contact lead account user team project task
		ticket event meeting message document file folder image video playlist booking payment transaction
		shipment package route location address review rating comment post campaign segment metric dashboard
		alert incident deployment build release branch commit issue page article course lesson certificate
		policy claim prescription appointment device reading schedule quote price product listing`)
	qualifiers = strings.Fields(`recent pending active archived overdue weekly monthly daily shared private public
		draft scheduled failed urgent international domestic premium trial enterprise`)
	paramNames = strings.Fields(`id name query limit offset start_date end_date status owner email region currency
		amount format language timezone tags category priority page_size sort_by include_archived`)
)

// Tools returns n manifests, the same for the same n and seed.
func Tools(n int, seed uint64) []schemas.Manifest {
	r := rand.New(rand.NewPCG(seed, 0x70015))
	out := make([]schemas.Manifest, 0, n)
	seen := make(map[string]bool, n)
	for i := 0; len(out) < n; i++ {
		d, v, o := pick(r, domains), pick(r, verbs), pick(r, objects)
		q := pick(r, qualifiers)
		name := v + "_" + q + "_" + o
		id := d + "/" + name
		if seen[id] {
			id = fmt.Sprintf("%s/%s_%d", d, name, i)
		}
		seen[id] = true
		out = append(out, schemas.Manifest{
			ID: id, Name: name, Server: d, Type: "tool",
			Description: description(r, d, v, q, o),
			Keywords:    []string{d, o, v},
			Parameters:  parameters(r, o),
			Examples:    []string{fmt.Sprintf("%s the %s %ss in %s", v, q, o, d)},
		})
	}
	return out
}

func pick(r *rand.Rand, words []string) string { return words[r.IntN(len(words))] }

func description(r *rand.Rand, d, v, q, o string) string {
	templates := []string{
		"%[1]s %[2]s %[3]ss in the %[4]s system, with their status, owner and last change.",
		"Use this to %[1]s %[2]s %[3]ss from %[4]s. Returns a page of results; filter by date, owner or tag.",
		"%[1]s a %[2]s %[3]s for the %[4]s team and report what changed.",
		"Connects to the %[4]s service to %[1]s %[2]s %[3]ss and their related %[5]ss.",
	}
	t := templates[r.IntN(len(templates))]
	s := fmt.Sprintf(t, v, q, o, d, pick(r, objects))
	return strings.ToUpper(s[:1]) + s[1:]
}

func parameters(r *rand.Rand, o string) json.RawMessage {
	props := map[string]any{}
	var required []string
	for i, n := 0, 1+r.IntN(4); i < n; i++ {
		p := pick(r, paramNames)
		typ := "string"
		if p == "limit" || p == "offset" || p == "page_size" || p == "amount" {
			typ = "integer"
		}
		props[p] = map[string]any{"type": typ, "description": fmt.Sprintf("The %s of the %s", strings.ReplaceAll(p, "_", " "), o)}
		if i == 0 {
			required = append(required, p)
		}
	}
	b, _ := json.Marshal(map[string]any{"type": "object", "properties": props, "required": required})
	return b
}

// Queries returns n plain-language requests aimed at tools of the registry
// (the i-th at tools[i*stride]), phrased unlike the descriptions.
func Queries(tools []schemas.Manifest, n int, seed uint64) []string {
	r := rand.New(rand.NewPCG(seed, 0xC0FFEE))
	out := make([]string, n)
	for i := range out {
		m := tools[r.IntN(len(tools))]
		parts := strings.Split(m.Name, "_")
		out[i] = fmt.Sprintf("please %s all the %s %ss we have in %s", parts[0], parts[1], parts[len(parts)-1], m.Server)
	}
	return out
}
