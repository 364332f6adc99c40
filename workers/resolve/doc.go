// Package resolve is the pure core of the resolve stage: it turns a routed
// intent and the manifest of its chosen tool into a ToolCall whose arguments
// meet the tool's JSON Schema.
//
// This first resolver is deterministic. It reads arguments from the intent
// text by these rules, in order; a parameter set by an earlier rule is not
// overwritten by a later one:
//
//  1. key/value pairs: key=value, key="quoted value", key='quoted', key: value
//     (the value runs to the next comma, semicolon or key). Keys match
//     property names case-insensitively and ignoring -, _, space and
//     camelCase differences (max-results, maxResults, "max results" all
//     match max_results). Pairs whose key names no property are left in the
//     text. A repeated key replaces the earlier value, except for arrays,
//     whose values accumulate.
//  2. property cues: a property's name followed by a value ("limit 50",
//     "with limit of 50", "units metric"); for numbers also the value first
//     ("20 lines"), or only the first word of a longer name ("duration 45"
//     for duration_minutes). For string properties the value must look like
//     one: a path, URL, address or number, or a run of capitalised words
//     ("location New York").
//  3. bare quoted values: a quoted value preceded by a property's name goes to
//     that property; any other goes to the first missing required string
//     property, then to the free-text property.
//  4. shapes: a path (/x, ./x, ../x, ~/x) fills a missing property named like
//     path/file/dir, a URL one named like url/link, an e-mail address one
//     named like email/to/recipient.
//  5. enum words: a word equal to one enum value of exactly one missing
//     property fills it ("checksum /etc/hosts with md5").
//  6. free text: when the only required parameter is a missing string that
//     is marked "x-toolyard-freetext": true or named query, q, text, prompt or
//     message, it gets the intent text minus the parts used above, minus
//     the words of the tool's name and id, trimmed of filler words ("run
//     the google maps scraper for tech companies, limit 50" → "tech
//     companies"). A tool without required parameters may mark one
//     optional string parameter as free text the same way.
//  7. defaults from the schema.
//
// Values are coerced to the property's type: integers and numbers (with
// thousands separators, 1,000), booleans (yes/no, true/false, on/off, 1/0),
// arrays (comma lists or JSON arrays, items coerced), objects (JSON), and
// enums by case-insensitive name. The result is then validated against the
// schema; failures are *InvalidError, missing required parameters
// *MissingError, and both tell the agent how to write the intent instead.
// Neither is worth retrying: the agent has to rephrase.
//
// Coerce applies the same type conversions to arguments that arrive
// already keyed (direct <tool_call>s), for the execute stage.
package resolve
