// A Toolyard agent in JavaScript (Node 20 or later, the official NATS
// client): it publishes one output of a session and prints the receipt and
// every result as JSON lines, as 'toolyard publish --wait' does.
//
//   node docs/examples/agent.mjs --nats nats://127.0.0.1:4222 --creds demo.creds --session demo "[TOOL: uptime]"
//
// With an agent credential ('toolyard creds agent --session demo') a client
// may only do what this one does, in this order (docs/contract.md):
//   1. connect with the inbox prefix _INBOX.<session>: replies reach an
//      agent there and nowhere else;
//   2. read the RESULT stream with an ordered consumer filtered on
//      result.<session>, from new messages on, before publishing, so that
//      no result is missed;
//   3. publish the output to agent.output.<session> through JetStream, with
//      a message id: published again, it runs nothing twice, and its
//      answers are read from the stream (the receipt's text_sha256 says
//      whether they are this text's: an id used for another text is an
//      error, not that text's answers);
//   4. wait for the receipt, which names the intents, then for one result
//      per intent.
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { createHash, randomUUID } from "node:crypto";
import { connect, credsAuthenticator } from "@nats-io/transport-node";
import { jetstream, DeliverPolicy } from "@nats-io/jetstream";

const { values: opts, positionals } = parseArgs({
  options: {
    nats: { type: "string", default: process.env.TOOLYARD_NATS || "nats://127.0.0.1:4222" },
    creds: { type: "string" },
    session: { type: "string" },
    "message-id": { type: "string" },
    timeout: { type: "string", default: "30" },
  },
  allowPositionals: true,
});
if (!opts.creds || !opts.session || positionals.length !== 1) {
  console.error('usage: node agent.mjs --creds FILE --session S [--nats URL] [--message-id ID] [--timeout SECONDS] "TEXT"');
  process.exit(2);
}
const session = opts.session;
const messageId = opts["message-id"] || randomUUID().replaceAll("-", "");

// A refused permission, an unreachable server: one line, not a stack.
const fail = (err) => {
  console.error(`agent: ${err.message}${err.cause ? ` (${err.cause.message})` : ""}`);
  process.exit(1);
};
process.on("uncaughtException", fail);
process.on("unhandledRejection", fail);

const timer = setTimeout(() => {
  console.error(`no complete answer within ${opts.timeout}s`);
  process.exit(1);
}, Number(opts.timeout) * 1000);

const nc = await connect({
  servers: opts.nats,
  authenticator: credsAuthenticator(readFileSync(opts.creds)),
  inboxPrefix: `_INBOX.${session}`,
});
const js = jetstream(nc);

// One filter subject, as a string: the client then names it in the
// create request's subject, which is what an agent may publish to (an
// array is sent to $JS.API.CONSUMER.CREATE.RESULT, which is refused).
const read = async (policy) =>
  (await js.consumers.get("RESULT", { filter_subjects: `result.${session}`, deliver_policy: policy })).consume();
let messages = await read(DeliverPolicy.New);

const ack = await js.publish(`agent.output.${session}`, JSON.stringify({ session_id: session, message_id: messageId, text: positionals[0] }), {
  msgID: `${session}:${messageId}`,
});
if (ack.duplicate) {
  // Published before: nothing runs again, and the answers are already in
  // the stream, from the session's start.
  messages.stop();
  messages = await read(DeliverPolicy.All);
}

const textSHA256 = createHash("sha256").update(positionals[0]).digest("hex");
let waiting = null; // the receipt's intents still without a result
const answered = new Set(); // intents answered, before the receipt too
let failed = false;
for await (const m of messages) {
  const r = m.json();
  if (r.message_id !== messageId) {
    continue; // another output of the session
  }
  if (ack.duplicate && !r.intent_id && r.text_sha256 && r.text_sha256 !== textSHA256) {
    console.error(`agent: message id ${messageId} was used for another text of session ${session}: nothing ran; publish with another --message-id`);
    failed = true;
    break;
  }
  console.log(JSON.stringify(r));
  if (r.intent_id) {
    answered.add(r.intent_id);
  } else if (r.status === "accepted") {
    waiting = new Set(r.intent_ids || []);
  } else {
    failed = true; // the output as a whole was refused (too large, not JSON …)
    break;
  }
  if (waiting !== null && [...waiting].every((id) => answered.has(id))) {
    break;
  }
}
clearTimeout(timer);
await nc.close();
process.exit(failed ? 1 : 0);
