package pipeline_test

import (
	"github.com/nats-io/nats.go"

	"github.com/toolyard/toolyard/pipeline"
)

func natsMsg(o pipeline.Out) *nats.Msg {
	return &nats.Msg{Subject: o.Subject, Data: o.Data, Header: o.Header}
}
