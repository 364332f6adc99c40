package resolve

import (
	"testing"
)

var (
	// carryExport writes a table out; carryImport loads a file into a
	// table; carryDoc files a document in a folder; carryRename sets a
	// title.
	carryExport = manifest("t/export_rows", "Export rows", `{"type":"object","properties":{
		"table":{"type":"string","description":"Table to export"},
		"format":{"type":"string","description":"File format"},
		"workbook":{"type":"string","description":"Existing workbook name; a new one if omitted"},
		"tab":{"type":"string","description":"Tab name"}}}`)
	carryImport = manifest("t/import_rows", "Import rows", `{"type":"object","required":["path","table"],"properties":{
		"path":{"type":"string","description":"File to load"},
		"table":{"type":"string","description":"Destination table"}}}`)
	carryRename = manifest("t/retitle", "Retitle", `{"type":"object","required":["title"],"properties":{
		"title":{"type":"string","description":"New title"}}}`)
	carryFolder = manifest("t/file_doc", "File doc", `{"type":"object","required":["folder"],"properties":{
		"folder":{"type":"string","description":"Folder to file the document in"}}}`)
)

// TestCarryGuards: what a thing is carried to is not the thing; a product
// before a thing's noun names none; "a new X" names no X. Negatives stay.
func TestCarryGuards(t *testing.T) {
	checkGuesses(t, []guessCase{
		// carriesTo: after a carrying verb, "<thing> to X" is where it goes.
		{"format after to", carryExport, "export the invoices table to Parquet", M{"table": "invoices"}},
		{"product after to", carryExport, "copy the weekly totals table to Microsoft Excel", M{"table": "weekly totals"}},
		{"send to a place", carryExport, "send the refunds table to S3", M{"table": "refunds"}},
		// productOnly: a product word and the noun name no workbook or tab.
		{"product before the noun", carryExport, "export the leads table into a Google workbook", M{"table": "leads"}},
		{"product run, noun capitalised", carryExport, "dump the leads table into Google Tab", M{"table": "leads"}},
		// unnamedThing: "a new X" names no X.
		{"a new table", carryImport, "load ./in/parts.csv into the lake as a new table", M{"path": "./in/parts.csv"}},
		{"a new folder", carryFolder, "file this in a new folder so I can find it", M{}},
		// Negatives: a value after "to" with a setting verb; a named thing.
		{"set to", carryRename, "set the title to Quarterly Plan", M{"title": "Quarterly Plan"}},
		{"named workbook", carryExport, "export the leads table into the Pipeline workbook", M{"table": "leads", "workbook": "Pipeline"}},
		{"new table named", carryImport, `load ./in/parts.csv as a new table "parts_2025"`, M{"path": "./in/parts.csv", "table": "parts_2025"}},
		{"table after into", carryImport, "load ./in/parts.csv into the parts table", M{"path": "./in/parts.csv", "table": "parts"}},
	})
}
