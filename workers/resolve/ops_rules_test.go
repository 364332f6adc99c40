package resolve

import "testing"

// Tools of a DevOps kind, invented for these tests: branches and
// repositories look alike, things are known by their number (#42), and
// switches are named by words of the request (dry run).
var (
	opsMergeRequest = manifest("t/open_merge_request", "Open merge request", `{"type":"object","required":["project","source_branch","title"],"properties":{
		"project":{"type":"string","description":"Project as group/name"},
		"source_branch":{"type":"string","description":"Branch with the changes"},
		"target_branch":{"type":"string","description":"Branch to merge into"},
		"title":{"type":"string"}}}`)
	opsNewBranch = manifest("t/new_branch", "New branch", `{"type":"object","required":["repository","branch"],"properties":{
		"repository":{"type":"string","description":"owner/name"},
		"branch":{"type":"string"},
		"start_point":{"type":"string","description":"Branch or commit to start from"}}}`)
	opsBuild = manifest("t/start_build", "Start build", `{"type":"object","required":["pipeline"],"properties":{
		"pipeline":{"type":"string"},"ref":{"type":"string","description":"Git ref to build"}}}`)
	opsCloseIssue = manifest("t/close_issue", "Close issue", `{"type":"object","required":["repo","issue_number"],"properties":{
		"repo":{"type":"string"},"issue_number":{"type":"integer","minimum":1}}}`)
	opsApprove = manifest("t/approve_pull_request", "Approve", `{"type":"object","required":["number"],"properties":{
		"number":{"type":"integer"},"comment":{"type":"string"}}}`)
	opsTwoNumbers = manifest("t/link_issues", "Link", `{"type":"object","properties":{
		"issue_number":{"type":"integer"},"parent_number":{"type":"integer"}}}`)
	opsPurge = manifest("t/purge_cache", "Purge cache", `{"type":"object","required":["zone"],"properties":{
		"zone":{"type":"string","description":"Zone, e.g. example.com"},
		"dry_run":{"type":"boolean"},"hard":{"type":"boolean","description":"Drop instead of revalidate"}}}`)
	opsUpdate = manifest("t/update_record", "Update record", `{"type":"object","required":["key"],"properties":{
		"key":{"type":"string"},"update":{"type":"boolean"}}}`)
	opsTicketState = manifest("t/set_ticket_state", "Set ticket state", `{"type":"object","required":["ticket","state"],"properties":{
		"ticket":{"type":"integer"},
		"state":{"type":"string","enum":["open","in_progress","waiting_on_customer","closed"]}}}`)
	opsRecord = manifest("t/add_record", "Add DNS record", `{"type":"object","required":["kind"],"properties":{
		"kind":{"type":"string","enum":["A","AAAA","MX","TXT"]},"host":{"type":"string"}}}`)
	opsTail = manifest("t/tail_logs", "Tail logs", `{"type":"object","required":["service"],"properties":{
		"service":{"type":"string"},"environment":{"type":"string"},"lines":{"type":"integer"}}}`)
	opsAssign = manifest("t/file_task", "File task", `{"type":"object","required":["title"],"properties":{
		"title":{"type":"string"},"assignees":{"type":"array","items":{"type":"string"}}}}`)
	opsVolume = manifest("t/create_volume", "Create volume", `{"type":"object","required":["name"],"properties":{
		"name":{"type":"string","description":"Globally unique volume name"},"zone":{"type":"string"}}}`)
	opsReview = manifest("t/review_change", "Review change", `{"type":"object","required":["change_number"],"properties":{
		"change_number":{"type":"integer"},"body":{"type":"string"}}}`)
	opsRollback = manifest("t/rollback_release", "Rollback release", `{"type":"object","required":["release"],"properties":{
		"release":{"type":"string"}}}`)
	opsSnapshot = manifest("t/snapshot_create", "Snapshot create", `{"type":"object","required":["volume"],"properties":{
		"volume":{"type":"string"}}}`)
	opsTicket = manifest("t/open_ticket", "Open ticket", `{"type":"object","required":["title"],"properties":{
		"title":{"type":"string"},"priority":{"type":"string","enum":["low","high"]}}}`)
)

// The new rules' cases (TestRules runs them with and without each rule),
// kept here beside the tools they use.
func init() {
	// flags reads a boolean named by words of the request, and so the
	// switches that states reads first ("open now", "lamp on").
	coveredBy["states"] = "flags"
	ruleCases["refs"] = []ruleCase{
		// "from" is where the change comes from, "into" where it goes; the
		// repository-shaped branch is no project.
		{opsMergeRequest, "open a merge request on web/shop from bugfix/cart-total into release-3 titled Cart total is off",
			M{"project": "web/shop", "source_branch": "bugfix/cart-total", "target_branch": "release-3", "title": "Cart total is off"}},
		// "a branch called X" is the branch, "off main" where it starts.
		{opsNewBranch, "create a branch called feat/dark-mode off main in acme/site",
			M{"repository": "acme/site", "branch": "feat/dark-mode", "start_point": "main"}},
		// A lone ref takes "on branch X", "tag X" and "on main".
		{opsBuild, "start the nightly pipeline on branch release/4.1", M{"pipeline": "nightly", "ref": "release/4.1"}},
		{opsBuild, "build pipeline web from tag v3.0.0", M{"pipeline": "web", "ref": "v3.0.0"}},
	}
	ruleCases["numbered"] = []ruleCase{
		{opsCloseIssue, "close #42 in acme/site", M{"repo": "acme/site", "issue_number": int64(42)}},
		// "PR" is the initials of the tool's pull request.
		{opsApprove, "approve PR 310", M{"number": int64(310)}},
		{opsApprove, "approve PR #311", M{"number": int64(311)}},
	}
	ruleCases["flags"] = []ruleCase{
		{opsPurge, "purge the cache of zone shop.example.com, dry run", M{"zone": "shop.example.com", "dry_run": true}},
		{opsPurge, "purge zone shop.example.com with hard enabled", M{"zone": "shop.example.com", "hard": true}},
		{opsPurge, "purge zone shop.example.com, no dry run", M{"zone": "shop.example.com", "dry_run": false}},
	}
	ruleCases["enum_phrases"] = []ruleCase{
		{opsTicketState, "set ticket 1042 to waiting on customer", M{"ticket": int64(1042), "state": "waiting_on_customer"}},
		{opsTicketState, "mark ticket 7 in progress", M{"ticket": int64(7), "state": "in_progress"}},
	}
}

// TestOpsRuleNegatives: what the new rules leave alone.
func TestOpsRuleNegatives(t *testing.T) {
	checkGuesses(t, []guessCase{
		// refs: a word with no mark of a ref is none ("from scratch"), and
		// "on" takes only a default branch's name (acme/web is a repository).
		{"refs", opsBuild, "build pipeline web from scratch", M{"pipeline": "web"}},
		{"refs", opsNewBranch, "create a branch on acme/web", M{"repository": "acme/web"}},
		// numbered: two numbers of things, which is which is not said; a
		// code in capitals that is no initials of the tool's stays a code.
		{"numbered", opsTwoNumbers, "link #12", M{}},
		{"numbered", opsApprove, "approve it, see VGA 2", M{}},
		// flags: the request's verb alone is no flag; a flag's words out
		// of order are none.
		{"flags", opsUpdate, "update key 42", M{"key": "42"}},
		{"flags", opsPurge, "run a purge of zone a.example.com", M{"zone": "a.example.com"}},
		// enum_phrases: two members written, which is not said; a member
		// denied is not written.
		{"enum_phrases", opsTicketState, "ticket 9 moves from in progress to waiting on customer", M{"ticket": int64(9)}},
		{"enum_phrases", opsTicketState, "ticket 9 is not in progress but waiting on customer", M{"ticket": int64(9), "state": "waiting_on_customer"}},
	})
}

// TestOpsValues: the readings the DevOps requests needed of rules that
// were there (each positive with its negatives).
func TestOpsValues(t *testing.T) {
	checkGuesses(t, []guessCase{
		// enum_words: the article "a" is no member "A" in capitals.
		{"article", opsRecord, "add a TXT record for mail", M{"kind": "TXT"}},
		{"article", opsRecord, "add an A record", M{"kind": "A"}},
		{"article", opsRecord, "add a record", M{}},
		// heads: a bare name in lower case after its noun, when the noun
		// opens its phrase and the word ends it.
		{"bare name", opsTail, "tail logs for service checkout in environment staging", M{"service": "checkout", "environment": "staging"}},
		{"bare name", opsTail, "show the service logs", M{}},
		{"bare name", opsTail, "tail the environment staging logs", M{}},
		// lists: the list after the parameter's own noun, not the words
		// before it.
		{"named list", opsAssign, "file a task titled Flaky test, assignees kim and lee", M{"title": "Flaky test", "assignees": []any{"kim", "lee"}}},
		// titled: a name written as one slug is the whole name; a
		// description's "Globally" is no glob.
		{"slug", opsVolume, "create a volume named data-vol-01 in zone b", M{"name": "data-vol-01", "zone": "b"}},
		{"slug", opsVolume, "create a volume named Fast Disk", M{"name": "Fast Disk"}},
		// colon_content: what a colon introduces, to an optional body.
		{"colon body", opsReview, "review change #12: needs a changelog entry", M{"change_number": int64(12), "body": "needs a changelog entry"}},
		// verb_object: the tool's word written as two, and the tool's words
		// run on after the verb.
		{"verb object", opsRollback, "roll back checkout-v2", M{"release": "checkout-v2"}},
		{"verb object", opsSnapshot, "snapshot create orders-db", M{"volume": "orders-db"}},
		{"verb object", opsSnapshot, "snapshot the volume", M{}},
		// durations: a length written compact.
		{"compact length", ruleTimer, "start a timer for 45m", M{"duration": "45m"}},
		// cues: a title written as a sentence runs to the end of its clause.
		{"sentence title", opsTicket, "open a ticket with the title Fix the flaky login test", M{"title": "Fix the flaky login test"}},
		{"sentence title", opsTicket, "open a ticket with title Outage, priority high", M{"title": "Outage", "priority": "high"}},
	})
}
