// Package schemas holds the contracts every Toolyard stage exchanges: the Go
// types of each message, the JSON Schema documents that describe them to the
// outside world, and the validation applied at every stage boundary.
//
// Every message carries a version field "v". A stage accepts messages whose
// version it knows (Version and below) and rejects newer ones with a clear
// error instead of guessing at fields it does not understand.
package schemas

// Version is the message-contract version this build writes and the newest it reads.
const Version = 1
