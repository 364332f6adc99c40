package schemas

// Ids of Toolyard's meta-tools: the builtins the execute stage registers
// beside every registry's tools, which routing's commands name and the
// training job reads in the audit. One place, so the stages agree.
const (
	MetaHelpID      = "toolyard/help"
	MetaSearchID    = "toolyard/search"
	MetaLoadID      = "toolyard/load"
	MetaFindToolsID = "toolyard/find_tools"
	MetaActivateID  = "toolyard/activate"
)
