package pipeline

// HoldSecretsForTest scrubs s's secrets from logs until release, as the
// runner does while it handles a message.
func HoldSecretsForTest(s *Scrubber) (release func()) { return holdSecrets(s) }
