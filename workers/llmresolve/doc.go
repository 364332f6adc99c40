// Package llmresolve is the LLM resolver of the resolve stage and the LLM
// disambiguation of routing's medium tier. It talks to any langchaingo
// llms.Model: Ollama (e.g. functiongemma) or an OpenAI-compatible chat
// endpoint (NewModel). It is off unless configured; the deterministic
// resolver (workers/resolve) stays the default and the fallback.
//
// # Resolution in two phases
//
//  1. Analysis: the model sees the request, a little of its context and a
//     compact inventory of the routed candidates only (server, tool id,
//     description, parameters with types, allowed values and whether they
//     are required; never whole JSON Schemas, which crowd out the
//     reasoning of small models) and answers
//     {"use_tool": true, "server": …, "tool": …, "confidence": …, "reasoning": …}.
//  2. Arguments: for the chosen tool only, the model answers a JSON object of
//     arguments.
//
// When the medium tier's disambiguator already chose the tool (the routed
// hand-off's DecidedBy), only the second phase runs.
//
// Either phase may also be answered in the <tool_call> element form
// (meta_tool, item_type, action, item_id, parameters, confidence; decoded by
// workers/parse), in FunctionGemma's call syntax
// (<start_function_call>call:name{key:<escape>value<escape>}<end_function_call>),
// or as <error>reason</error> ({"error": "reason"} in JSON mode, WithJSONMode,
// where the server constrains answers to JSON). Text around the answer,
// <think> blocks and code fences are ignored.
//
// Arguments are coerced like a direct call's (strings to the declared
// types), stripped of nulls for optional parameters, and validated against
// the tool's JSON Schema; parameters the schema does not declare are a
// problem too. An answer that cannot be used (not parseable, a tool that is
// not a candidate, invalid arguments) gets one corrective retry that quotes
// the problem.
//
// Outcomes:
//
//   - valid arguments: the call, decision resolved_llm;
//   - the model not confident (confidence below WithMinConfidence, 0.7 by
//     default), use_tool false, or <error> in the analysis: no guess; the
//     agent is offered the candidates as multiple_matches, the model's pick
//     first, decision llm_unsure;
//   - anything else (the retry failed too, <error> in the argument phase,
//     the model unreachable, the WithTimeout deadline, 20s by default): the
//     deterministic resolver resolves the routed tool, decision
//     resolved_fallback, with the reason in the audit record's error.
//
// A missing confidence counts as routing's confidence in the chosen tool.
//
// A model that is down or hangs would cost every intent the timeout: after
// WithBreaker's run of requests without an answer (3 by default) the model
// is skipped for a cooldown (30s) and the deterministic resolver answers at
// once; then one request probes whether the model is back.
//
// # Medium-tier disambiguation
//
// Disambiguate asks the analysis question about a multiple_matches intent,
// with the conversation that preceded it, and names the candidate to
// activate only when the model picks one of them with at least the minimum
// confidence. On any failure it names none, and routing answers the agent
// with the alternatives as it would without a model.
package llmresolve
