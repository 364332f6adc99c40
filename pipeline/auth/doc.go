// Package auth runs the embedded NATS server in operator mode, so every
// connection authenticates and carries only the permissions its role needs.
//
// The design is the one NATS supports natively for decentralised auth,
// kept in the data directory rather than in an account server:
//
//   - an operator key signs three accounts: TOOLYARD (JetStream enabled,
//     where every stream and bucket lives), AGENTS (agents, reaching
//     TOOLYARD only through the subjects it shares with them: see Share)
//     and SYS (the server's system account);
//   - the server trusts the operator and preloads the account JWTs into an
//     in-memory resolver, so it verifies users without any lookup;
//   - users are JWTs signed by their account's key (TOOLYARD for admins,
//     workers and tools, AGENTS for agents), each with its subject
//     permissions and, for agents, an expiry. Minting a credential needs
//     only the account key file: no server restart, no reload.
//
// The seeds are written once, 0600, under DATA/auth/; credential files
// (JWT + user seed, the format the nats CLI and every NATS client reads)
// go to DATA/creds/.
package auth
