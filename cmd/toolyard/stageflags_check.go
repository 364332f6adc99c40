package main

import "fmt"

// checkRunner refuses runner settings that would silently mean something
// else: a concurrency under 1 ran at the default 4 while the log said 0,
// an --ack-wait of 0 took the server's 30 s, and a --max-deliver under 1
// made the consumer redeliver forever, so a message whose workers keep
// dying was never dead-lettered.
func (f *stageFlags) checkRunner() error {
	switch {
	case f.concurrency < 1:
		return fmt.Errorf("--concurrency %d: want at least 1 message at a time per stage", f.concurrency)
	case f.ackWait <= 0:
		return fmt.Errorf("--ack-wait %s: want a positive duration (how long a message may go unacknowledged)", f.ackWait)
	case f.maxDeliver < 1:
		return fmt.Errorf("--max-deliver %d: want at least 1 delivery before a failing message is dead-lettered", f.maxDeliver)
	}
	return nil
}
