// Package kiwi imports kiwi-style Python tools: a project's
// .ai/tools/**/*.py files, whose metadata lives in the module itself. The
// source is read statically — tokenised and its top-level literals
// evaluated, as Python's ast.literal_eval would — so nothing is executed and
// no Python is needed to import.
//
// # Metadata (module-level assignments of literals)
//
//	__version__     required; a semantic version (MAJOR.MINOR.PATCH[-pre][+build])
//	__tool_type__   required; one of ToolTypes: python, script, api, runtime
//	__executor_id__ required; the registry tool that runs this one (e.g. a
//	                python runtime tool, which is a subprocess): the manifest's
//	                executor delegates to it
//	__category__    optional; becomes a keyword for discovery
//	__permissions__ optional; a list of permission names ("fs.read", "net");
//	                type api adds "net"
//
// A value must be a literal (a string, adjacent strings, a number, True,
// False, None, a list, tuple or dict of literals); a name, a call or an
// f-string is refused with the line it is on. Annotated assignments
// (__version__: str = "1.0.0") count; the last assignment wins.
//
// # Description and parameters (the module docstring)
//
// The description is the docstring's text before its first section; a
// section is a line of its own like "Config Schema:" or "Args:" (not
// indented), or a numpydoc heading underlined with dashes. When the module
// starts with the metadata assignments instead of a docstring (as kiwi's
// examples do), the first bare string among those leading assignments is
// the docstring.
//
// The parameters come from the "Config Schema:" section, in one of two forms.
//
// A JSON block (optionally inside a ``` fence): a whole JSON Schema object
// ({"type": "object", "properties": …, "required": […]}), or a map from each
// parameter name to its schema, where "required": true marks required ones:
//
//	Config Schema:
//	    {"query": {"type": "string", "required": true}, "limit": {"type": "integer", "default": 10}}
//
// Or one parameter per line, Google-docstring style, continuation lines
// indented under it:
//
//	Config Schema:
//	    query (str): What to search for.
//	    limit (int, optional): How many results. Defaults to 10.
//	    mode (str, one of fast|thorough, default fast): Search depth.
//	    tags (list[str] | None): Only results with these tags.
//	    region (Literal["eu", "us"]): Where to search.
//	    - verbose (bool, default False) — Log progress.
//
// A line is "[- ]name [(type[, modifiers])][: description]" (" - " or " — "
// may stand for the colon). Types: str, int, float, bool, list, dict, any,
// path, url, email, date, datetime and their JSON Schema names (string,
// integer, number, boolean, array, object); list[X], List[X], list of X,
// X[], dict[str, X], Optional[X], X | None, int | str, Literal[...].
// Modifiers: optional, required, default X (also "default: X", "defaults
// to X"), one of a|b|c. A parameter is required unless it is optional, has
// a default (in the parentheses, or "Defaults to X" / "(default: X)" in its
// description), or its type admits None. Defaults are checked against the
// type. Anything the parser cannot read is refused with the line and what
// to write instead.
//
// # Signature
//
// An optional signature line comes first (second after a shebang):
//
//	# kiwi-mcp:validated:<RFC 3339 timestamp>:<sha256 hex>
//
// The hash is the SHA-256 of the file's bytes without that line. A file
// whose signature line is malformed or whose hash does not match is
// refused, saying which; Sign writes the line. Options.RequireSigned also
// refuses unsigned files.
//
// # Manifests
//
// A tool at .ai/tools/scraping/maps.py becomes NAMESPACE/scraping/maps
// (namespace "kiwi" by default), delegating to __executor_id__. Since a
// delegation passes the call's parameters down the chain, the tool's file
// reaches its runtime as the fixed parameter script_path (a const with that
// default), which the runtime's argv can name: a python runtime tool is
// {"kind": "subprocess", "argv": ["python3", "{script_path}"]}.
package kiwi
