package route

import (
	"regexp"
	"strings"

	"github.com/toolyard/toolyard/schemas"
)

// Ids of the session meta-tools the commands name (the builtins of the
// execute stage).
const (
	ActivateID  = "toolyard/activate"
	FindToolsID = "toolyard/find_tools"
)

// Commands an agent is told to write. They name a meta-tool outright, so
// they are not left to discovery: in "activate files/checksum" the tool id
// is the most telling phrase and would win over the verb.
var (
	activateCmd  = regexp.MustCompile(`^(?i)activate\s+(?:the\s+)?(?:tool\s+)?(\S+)$`)
	findToolsCmd = regexp.MustCompile(`^(?i)find[_ ]tools?\s+(?:for\s+|that\s+)?(\S.*)$`)
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
