// Package natsimport turns the endpoints a NATS micro service advertises
// into registry manifests of kind nats, so each endpoint is a tool.
//
// A service is discovered with the micro discovery protocol: a request on
// $SRV.INFO.<service> that every running instance answers with its Info.
// Each endpoint becomes the tool NAME/<endpoint> (NAME defaults to the
// service's name) that sends its parameters as a JSON request to the
// endpoint's subject. Endpoint metadata describes the tool:
//
//	description  what the tool does, in plain words (else the service's description)
//	schema       JSON Schema (an object schema) of the request parameters
//	keywords     comma-separated search keywords
//	examples     a JSON array of example requests in plain words
//	permissions  comma-separated permissions the tool needs
//	timeout      how long a call may take, as a Go duration ("5s")
//
// An endpoint whose subject holds a wildcard cannot be called on a fixed
// subject and is skipped, with the reason.
package natsimport
