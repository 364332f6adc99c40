package route

import (
	"regexp"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// Ids of the session meta-tools the commands name (the builtins of the
// execute stage).
const (
	ActivateID  = schemas.MetaActivateID
	FindToolsID = schemas.MetaFindToolsID
	LoadID      = schemas.MetaLoadID
	HelpID      = schemas.MetaHelpID
)

// Commands an agent is told to write. They name a meta-tool outright, so
// they are not left to discovery: in "activate files/checksum" the tool id
// is the most telling phrase and would win over the verb.
// The same holds for the forms the help text teaches for load and help
// with a tool id ("show the manifest of files/checksum", "help with
// files/checksum"): only an id (a/b) makes them commands, so "help me
// write a letter" is still discovery's to answer.
var (
	activateCmd  = regexp.MustCompile(`^(?i)activate\s+(?:the\s+)?(?:tool\s+)?(\S+)$`)
	findToolsCmd = regexp.MustCompile(`^(?i)find[_ ]tools?\s+(?:for\s+|that\s+)?(\S.*)$`)
	loadCmd      = regexp.MustCompile(`^(?i)(?:(?:show|load|get)\s+(?:me\s+)?the\s+(?:full\s+)?manifest\s+(?:of|for)\s+(?:the\s+tool\s+)?|load\s+(?:the\s+)?(?:tool\s+)?)[\w.-]+/[\w.-]+$`)
	helpCmd      = regexp.MustCompile(`^(?i)help\s+(?:with|on|for)\s+(?:the\s+tool\s+)?[\w.-]+/[\w.-]+$`)
)

// command routes an explicit meta-tool command to its builtin, certain.
func command(in schemas.Intent) (Decision, bool) {
	text := strings.Join(strings.Fields(in.Text), " ")
	var id, desc string
	switch {
	case activateCmd.MatchString(text):
		id, desc = ActivateID, "Add a tool to this session's active tool set and show how to call it."
	case findToolsCmd.MatchString(text):
		id, desc = FindToolsID, "Search the registry and add the best matching tools to this session's active tool set."
	case loadCmd.MatchString(text):
		id, desc = LoadID, "Show the full manifest of a tool by its id."
	case helpCmd.MatchString(text):
		id, desc = HelpID, "Explain one tool: what it does, its parameters and an example call."
	default:
		return Decision{}, false
	}
	c := schemas.Candidate{ToolID: id, Name: id[strings.IndexByte(id, '/')+1:], Description: desc,
		Server: "toolyard", Score: 1, Confidence: 1, MatchType: schemas.MatchKeyword}
	return Decision{
		Tier:    schemas.TierActivated,
		Matches: []schemas.Candidate{c},
		Message: activatedMessage(quoteIntent(in.Text), []schemas.Candidate{c}),
	}, true
}
