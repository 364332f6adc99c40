// Package route is the pure core of the routing stage: it turns discovery's
// ranked candidates into a confidence tier — activate the top tool, offer
// alternatives, list weak matches, or report that nothing matched — and
// into a message that tells the agent what to do next.
package route
