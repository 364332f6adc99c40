package main

import (
	"fmt"

	"github.com/toolyard/toolyard/pipeline/auth"
	"github.com/toolyard/toolyard/workers/roles"
)

// checkStageCreds refuses, before connecting, a credential that may not
// take the work of one of the stages: a credential minted for another
// stage would otherwise surface as "context deadline exceeded" seconds
// later, its cause only in an asynchronous permissions-violation line.
func checkStageCreds(file string, stages []string) error {
	if file == "" {
		return nil
	}
	for _, st := range stages {
		stream, ok := roles.StageStreams[st]
		if !ok {
			continue // predict and replay read without a stage consumer of their own
		}
		subject := "$JS.API.CONSUMER.MSG.NEXT." + stream + "." + st
		ok, err := auth.MayPublish(file, subject)
		if err != nil {
			// A missing or unreadable file: connecting says so, with
			// where credentials come from.
			return nil
		}
		if !ok {
			return fmt.Errorf("credential %s may not take stage %s's work (it may not publish %s): use the worker credential of every stage (KEYS/creds/worker.creds) or mint one for it with 'toolyard creds worker --data KEYS --stage %s'", file, st, subject, st)
		}
	}
	return nil
}
