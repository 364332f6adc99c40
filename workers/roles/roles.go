package roles

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nats-io/jwt/v2"

	"github.com/toolyard/toolyard/pipeline"
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
	"github.com/toolyard/toolyard/workers/discover/embed"
	"github.com/toolyard/toolyard/workers/effects"
	"github.com/toolyard/toolyard/workers/join"
	"github.com/toolyard/toolyard/workers/models"
	"github.com/toolyard/toolyard/workers/predict"
	"github.com/toolyard/toolyard/workers/registry"
	"github.com/toolyard/toolyard/workers/service"
	"github.com/toolyard/toolyard/workers/session"
)

// StageStreams is the stream each stage's durable consumer reads; the
// consumer is named after the stage. TestStageStreams checks it against
// the stage bindings.
var StageStreams = map[string]string{
	bind.StageParse:    pipeline.StreamAgent,
	session.StageName:  pipeline.StreamAgent,
	bind.StageDiscover: pipeline.StreamPipe,
	bind.StageRoute:    pipeline.StreamPipe,
	bind.StageChoose:   pipeline.StreamPipe,
	bind.StageAnswer:   pipeline.StreamPipe,
	bind.StageResolve:  pipeline.StreamPipe,
	bind.StageExecute:  pipeline.StreamPipe,
	bind.StageJoin:     pipeline.StreamPipe,
	// the shards of 'toolyard replay --workers' (cmd/toolyard/replay_shards.go)
	StageReplay: StreamReplay,
}

// Consumer names a durable consumer of a stream.
type Consumer struct{ Stream, Name, Why string }

// Retired are durable consumers an earlier version's stages created and
// this version's do not read. 'toolyard up' deletes them (left, each shows
// a backlog that grows forever); until then agents may not read them.
var Retired = []Consumer{
	{pipeline.StreamResult, bind.StageJoin, "the join stage reads the results of nested intents on pipe.join.>, not every result"},
}

// The sharded replay's stage, stream, its subjects and job store.
const (
	StageReplay    = "replay"
	StreamReplay   = "REPLAY"
	ReplaySubjects = "replay.>"
	ReplayJobs     = "replay_jobs"
)

// AllStages lists every stage, in a stable order.
func AllStages() []string {
	names := make([]string, 0, len(StageStreams))
	for n := range StageStreams {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Admin may do everything.
func Admin() jwt.Permissions { return jwt.Permissions{} }

// Buckets a worker reads (KV watches, gets and listings are ordered
// consumers and direct gets on their streams) and the ones it writes. The
// registry and the models are read-only to workers: only an admin changes
// what runs.
var (
	workerReadsKV   = []string{registry.Bucket, models.Bucket, session.Bucket, effects.ExecutionsBucket, effects.OutputsIndexBucket, embed.VectorBucket, join.Bucket, predict.Bucket}
	workerWritesKV  = []string{session.Bucket, effects.ExecutionsBucket, effects.OutputsIndexBucket, embed.VectorBucket, join.Bucket, predict.Bucket}
	workerReadsObj  = []string{effects.OutputsBucket, models.ObjectBucket, ReplayJobs}
	workerWritesObj = []string{effects.OutputsBucket}
)

// workerCommon is what every worker needs whatever its stages.
func workerCommon(p *jwt.Permissions) {
	p.Pub.Allow.Add(
		// what stages publish
		"pipe.>", "result.>", "audit.>", "dlq.>", "replay.part.>",
		// reading streams, creating what is missing (never updating)
		"$JS.API.INFO", "$JS.API.STREAM.INFO.*", "$JS.API.STREAM.CREATE.*", "$JS.API.STREAM.NAMES", "$JS.API.STREAM.LIST",
		"$JS.API.STREAM.MSG.GET.*", "$JS.API.DIRECT.GET.>",
		// passing on an agent's requests for its results (service.APIProxy;
		// stream info is above)
		"$JS.API.CONSUMER.CREATE."+pipeline.StreamResult+".*."+schemas.ResultSubject("*"),
	)
	for _, b := range workerReadsKV {
		readStream(p, "KV_"+b)
	}
	for _, b := range workerReadsObj {
		readStream(p, "OBJ_"+b)
	}
	for _, b := range workerWritesKV {
		p.Pub.Allow.Add("$KV." + b + ".>")
	}
	for _, b := range workerWritesObj {
		p.Pub.Allow.Add("$O." + b + ".>")
	}
	p.Sub.Allow.Add(
		"_INBOX.>",
		// the micro service a worker may answer
		service.Name+".>", "$SRV.>", pipeline.APIProxy+".>",
		// dead-lettering: the server's max-deliveries advisories
		"$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES.>",
	)
	// A worker answers service requests: one reply per request.
	p.Resp = &jwt.ResponsePermission{MaxMsgs: 1}
}

// readStream allows the ephemeral ordered consumers a client reads a
// stream with (watches, listings, gets).
func readStream(p *jwt.Permissions, stream string) {
	// Written with wildcards for the verb (create, info, delete, next):
	// the whole permission set travels in every CONNECT, whose line the
	// server caps (4 KiB by default).
	p.Pub.Allow.Add(
		"$JS.API.CONSUMER.*."+stream, "$JS.API.CONSUMER.*."+stream+".>",
		"$JS.API.CONSUMER.MSG.NEXT."+stream+".*", "$JS.FC."+stream+".>",
	)
}

// Worker may run the given stages (every stage when none is given).
func Worker(stages ...string) (jwt.Permissions, error) {
	if len(stages) == 0 {
		stages = append(AllStages(), predict.StageName)
	}
	var p jwt.Permissions
	workerCommon(&p)
	for _, st := range stages {
		if st == predict.StageName {
			// The predict stage follows agent.stream.> with a consumer of
			// its own (predict.Run), and writes the prefetch bucket.
			readStream(&p, pipeline.StreamAgent)
			continue
		}
		stream, ok := StageStreams[st]
		if !ok {
			return jwt.Permissions{}, fmt.Errorf("no stage %q (stages: %s)", st, strings.Join(AllStages(), ", "))
		}
		if st == bind.StageExecute {
			// The executor keeps --keep-outputs large outputs per tool:
			// deleting an older one purges its chunks from the object
			// store's stream (by subject; the store is the executor's own).
			for _, b := range workerWritesObj {
				p.Pub.Allow.Add("$JS.API.STREAM.PURGE.OBJ_" + b)
			}
		}
		// only this stage's durable consumer: a worker of one stage cannot
		// take, ack or reconfigure another stage's work.
		c := stream + "." + st
		p.Pub.Allow.Add(
			"$JS.API.CONSUMER.CREATE."+c, "$JS.API.CONSUMER.CREATE."+c+".>", "$JS.API.CONSUMER.DURABLE.CREATE."+c,
			"$JS.API.CONSUMER.INFO."+c, "$JS.API.CONSUMER.MSG.NEXT."+c, "$JS.ACK."+c+".>",
		)
	}
	return p, nil
}

// ToolsInbox is the reply-subject prefix of the tools credential: outside
// _INBOX, so a tool's connection cannot read other clients' replies.
const ToolsInbox = "_TOOLS_INBOX"

// Tools may call NATS-request tools: publish to the subjects manifests name,
// which no allow list can know, so everything is allowed but Toolyard's own
// namespaces and the server's; replies arrive on ToolsInbox only. The
// execute stage publishes tool requests on a connection of its own with
// this credential, so a tool's subject can never reach a stream, a bucket
// or another stage's work.
func Tools() jwt.Permissions {
	var p jwt.Permissions
	p.Pub.Allow.Add(">")
	p.Pub.Deny.Add("$JS.>", "$KV.>", "$O.>", "$SYS.>", "$SRV.>", "_INBOX.>", ToolsInbox+".>",
		"agent.>", "pipe.>", "result.>", "audit.>", "dlq.>", service.Name+".>", pipeline.APIProxy+".>",
		// the sharded replay's stream: its shards are jobs replay workers run
		ReplaySubjects)
	p.Sub.Allow.Add(ToolsInbox + ".>")
	return p
}

// AgentInbox is the reply-subject prefix of an agent's credential: its
// first session's. A client connecting with the credential sets it as its
// inbox prefix (pipeline/auth.InboxPrefix reads it from the file).
func AgentInbox(session string) string { return "_INBOX." + session }

// Agent may act for the given sessions only. An agent credential belongs
// to the AGENTS account (auth.Keys.MintAgent), which reaches Toolyard's
// streams through pipeline.AgentShares alone; these permissions narrow
// that to the agent's sessions.
func Agent(sessions ...string) (jwt.Permissions, error) {
	if len(sessions) == 0 {
		return jwt.Permissions{}, fmt.Errorf("an agent credential needs at least one session")
	}
	var p jwt.Permissions
	p.Sub.Allow.Add(AgentInbox(sessions[0]) + ".>")
	// Reading results: ordered consumers on RESULT, which the server only
	// creates with the session's result subject as filter.
	p.Pub.Allow.Add("$JS.API.STREAM.INFO."+pipeline.StreamResult,
		"$JS.API.CONSUMER.MSG.NEXT."+pipeline.StreamResult+".*", "$JS.API.CONSUMER.INFO."+pipeline.StreamResult+".*",
		"$JS.API.CONSUMER.DELETE."+pipeline.StreamResult+".*")
	// ... but never the stages' durable consumers there, nor those of an
	// earlier version's stages: they read every session's results.
	durable := slices.Clone(Retired)
	for st, stream := range StageStreams {
		durable = append(durable, Consumer{Stream: stream, Name: st})
	}
	for _, c := range durable {
		if c.Stream == pipeline.StreamResult {
			p.Pub.Deny.Add("$JS.API.CONSUMER.DELETE."+c.Stream+"."+c.Name, "$JS.API.CONSUMER.MSG.NEXT."+c.Stream+"."+c.Name)
		}
	}
	for _, s := range sessions {
		if !schemas.ValidSessionID(s) {
			return jwt.Permissions{}, fmt.Errorf("session %q: a session id is 1-128 letters, digits, '-' or '_'", s)
		}
		p.Pub.Allow.Add(
			schemas.AgentOutputSubject(s), schemas.AgentStreamSubject(s),
			// ending its session, as the contract says (the same as the
			// session.end endpoint below)
			schemas.AgentEndSubject(s),
			"$JS.API.CONSUMER.CREATE."+pipeline.StreamResult+".*."+schemas.ResultSubject(s),
		)
		for _, ep := range service.Endpoints() {
			p.Pub.Allow.Add(service.SessionSubject(ep, s))
		}
		// watching its tool set: every write of the session's key in the
		// sessions bucket, as it happens (a feed from TOOLYARD)
		p.Sub.Allow.Add(session.SetSubject(s))
	}
	return p, nil
}
