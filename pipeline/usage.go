package pipeline

import "github.com/nats-io/nats.go/jetstream"

// Limits a stream can fill, the "limit" label of toolyard_stream_usage_ratio.
const (
	LimitBytes    = "bytes"
	LimitMessages = "messages"
)

// reportedStreams are the streams whose usage a stage reading from reports:
// its own, and RESULT and AUDIT, which every stage writes and none reads.
func reportedStreams(own string) []string {
	out := []string{own}
	for _, s := range []string{StreamResult, StreamAudit} {
		if s != own {
			out = append(out, s)
		}
	}
	return out
}

// streamUsage is how full a stream is against each limit it has, from 0 to 1.
// A limit of zero or less is unlimited and reported as nothing: a stream
// without a size limit cannot fill, so no alert should watch it.
func streamUsage(info *jetstream.StreamInfo) map[string]float64 {
	out := map[string]float64{}
	if info == nil {
		return out
	}
	if lim := info.Config.MaxBytes; lim > 0 {
		out[LimitBytes] = float64(info.State.Bytes) / float64(lim)
	}
	if lim := info.Config.MaxMsgs; lim > 0 {
		out[LimitMessages] = float64(info.State.Msgs) / float64(lim)
	}
	return out
}
