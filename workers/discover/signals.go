package discover

import (
	"math"
	"slices"
)

// Signals are discovery's named pieces of evidence about a candidate tool.
// Each is one entry of the signals table below: a name (what calibration
// documents and training reports use), a short doc, and its computation
// from the candidate and the pool it was ranked in. Calibration models name
// the signals they weigh; the eval report and the training job read them by
// name through SignalValues. To add a signal, add its constant and one
// entry: nothing else indexes them by position.
//
// A signal that has no evidence for a candidate is 0 (the sentence
// encoder's without an encoder, the usage signals without a usage model),
// so a model fitted without it is unchanged by its presence.
const (
	// FeatureFused is the fused ranking score.
	FeatureFused = "fused"
	// FeatureMargin is the fused score minus the runner-up's.
	FeatureMargin = "margin"
	// FeatureCosine is the cosine of the intent and tool vectors.
	FeatureCosine = "cosine"
	// FeatureCosineMargin is the cosine minus the runner-up's best cosine.
	FeatureCosineMargin = "cosine_margin"
	// FeatureCoverage is the idf-weighted share of the intent's describing
	// words the tool contains.
	FeatureCoverage = "coverage"
	// FeatureMention is the specificity of an exact name mention, 0 without.
	FeatureMention = "mention"
	// FeatureAgree is 1 when both sides rank the tool first.
	FeatureAgree = "agree"
	// FeatureBoth is 1 when both sides proposed the tool.
	FeatureBoth = "both"
	// FeatureKeywordLogit is the logit of the keyword engine's own
	// confidence heuristic (fit × share + mention), clipped to ±8.
	FeatureKeywordLogit = "keyword_logit"
	// FeatureKnown is the idf-weighted share of the intent's describing
	// words that any tool contains (the same for every candidate): chat and
	// questions no tool serves use words the registry does not.
	FeatureKnown = "known"
	// FeatureSoftCoverage is coverage with paraphrases credited by the
	// word-vector cosine of each describing word to the tool's words.
	FeatureSoftCoverage = "soft_coverage"
	// FeatureSoftKnown is the idf-weighted share of the describing words
	// some pooled tool matches, softly (the same for every candidate).
	FeatureSoftKnown = "soft_known"
	// FeatureToolCoverage is the idf-weighted share of the tool's own words
	// the intent matches, exactly or by word-vector cosine: how much of what
	// the tool does is what was asked.
	FeatureToolCoverage = "tool_coverage"
	// FeatureCosineBest is the best cosine of any pooled tool (the same for
	// every candidate): how close the registry comes to the intent at all.
	FeatureCosineBest = "cosine_best"
	// FeatureDescribing is log(1 + the number of the intent's describing
	// terms), the same for every candidate.
	FeatureDescribing = "describing_words"
	// FeatureMarginExcess is the fused margin beyond 1, max(0, margin-1):
	// a lead of more than one whole term of evidence (fusion adds terms in
	// [0, 1]). Right answers grow likelier with the margin faster above
	// that than below, which one linear margin weight cannot say; without
	// it the model averaged the two slopes and put clear winners too low and
	// close calls too high, exactly where routing activates.
	FeatureMarginExcess = "margin_excess"
	// FeatureEncoderCosine is the sentence encoder's cosine of the intent
	// and the tool (WithEncoder; 0 without an encoder).
	FeatureEncoderCosine = "encoder_cosine"
	// FeatureEncoderMargin is the encoder cosine minus the runner-up's best.
	FeatureEncoderMargin = "encoder_margin"
	// FeatureEncoderBest is the best encoder cosine of any pooled tool (the
	// same for every candidate): the sentence encoder's view of how close
	// the registry comes to the intent.
	FeatureEncoderBest = "encoder_best"
	// FeatureSelfServe is the sentence encoder's best cosine of the request
	// to what the agent does by itself (selfserve.go; the same for every
	// candidate, 0 without an encoder): requests an agent answers on its
	// own read like its abilities, not like any tool.
	FeatureSelfServe = "self_serve"
	// FeatureUsageText is the BM25 strength of the tool's learned intents
	// (usage.go): the request scored against what agents asked when they
	// wanted this tool, relative to the best tool's, in [0, 1]; 0 without a
	// usage model or without history for the tool.
	FeatureUsageText = "usage_text"
	// FeatureUsageClass is the usage classifier's P(tool | request)
	// (classifier.go), 0 without one or for a tool without history.
	FeatureUsageClass = "usage_class"
	// FeatureUsageVectorClass is the vector classifier's P(tool | request)
	// (vectorclass.go), 0 without one or for a tool without history.
	FeatureUsageVectorClass = "usage_vector_class"
	// FeatureUsageTextVote is the share of the request's best BM25 matches
	// among single learned intents that were intents for this tool.
	FeatureUsageTextVote = "usage_text_vote"
	// FeatureUsageNear is the cosine of the request to the nearest learned
	// intent of the tool (usage.go), 0 without history for the tool.
	FeatureUsageNear = "usage_near"
	// FeatureUsageVote is the share of the request's nearest learned
	// intents (usage.go) that were intents for this tool.
	FeatureUsageVote = "usage_vote"
	// FeatureUsageMargin is usage_near minus the runner-up's best.
	FeatureUsageMargin = "usage_margin"
	// FeatureUsageBest is the best usage_near of any pooled tool (the same
	// for every candidate): how close the request is to anything agents
	// asked before.
	FeatureUsageBest = "usage_best"
	// FeatureUsageAgree is the share of the six usage signals on which the
	// tool leads the pool (0 without history): the learned evidence agreeing
	// on one tool is surer than any one signal's strength says.
	FeatureUsageAgree = "usage_agree"
	// FeatureRegistrySize is log10(1 + the number of registered tools), the
	// same for every candidate: the same lead means more among 30 distinct
	// tools than among 4,000 that overlap, so calibration fitted across
	// registries of different sizes needs to know which it is looking at.
	FeatureRegistrySize = "registry_size"
	// FeaturePhraseMatch is the share of the intent's describing terms that
	// lie in a run of words equal to one of the tool's names or keywords
	// (phrase.go).
	FeaturePhraseMatch = "phrase_match"
	// FeatureActionConflict is 1 when the request asks for a kind of
	// effect (read, create, update, delete) the tool names none of
	// (action.go): "delete the message" and a tool that posts one.
	FeatureActionConflict = "action_conflict"
)

// signal is one entry of the table: its value for candidate i of a pool.
type signal struct {
	name  string
	doc   string
	value func(c *poolContext, i int) float64
}

// poolContext is what signals compare a candidate with: the pool, in
// ranking order, and the pool-wide figures some signals need.
type poolContext struct {
	ps []*pooled
	// kw is the keyword engine's own confidence of each candidate.
	kw []float64
	// The best and second-best fused score, cosine, encoder cosine and
	// nearest learned intent, for margins to each candidate's runner-up.
	fused, cosine, enc, usage [2]float64
	// usageMax is the pool's best of each usage signal (usageOf).
	usageMax [len(usageOfPooled)]float64
}

// usageOfPooled are a candidate's usage signals, for usage_agree.
var usageOfPooled = [...]func(p *pooled) float64{
	func(p *pooled) float64 { return p.useClass },
	func(p *pooled) float64 { return p.useVectorClass },
	func(p *pooled) float64 { return p.useText },
	func(p *pooled) float64 { return p.useTextVote },
	func(p *pooled) float64 { return p.useNear },
	func(p *pooled) float64 { return p.useVote },
}

// usageAgree is the share of the usage signals on which candidate i leads.
func (c *poolContext) usageAgree(i int) float64 {
	n := 0
	for k, f := range usageOfPooled {
		if v := f(c.ps[i]); v > 0 && v >= c.usageMax[k] {
			n++
		}
	}
	return float64(n) / float64(len(usageOfPooled))
}

func newPoolContext(ps []*pooled) *poolContext {
	evs := make([]evidence, len(ps))
	for i, p := range ps {
		evs[i] = evidence{score: p.bm25, coverage: p.coverage, mention: p.mention}
	}
	c := &poolContext{ps: ps, kw: confidences(evs)}
	c.fused[0], c.fused[1] = top2(ps, func(p *pooled) float64 { return p.fused })
	c.cosine[0], c.cosine[1] = top2(ps, func(p *pooled) float64 { return p.cosine })
	c.enc[0], c.enc[1] = top2(ps, func(p *pooled) float64 { return p.encCosine })
	c.usage[0], c.usage[1] = top2(ps, func(p *pooled) float64 { return p.useNear })
	for k, f := range usageOfPooled {
		for _, p := range ps {
			c.usageMax[k] = max(c.usageMax[k], f(p))
		}
	}
	return c
}

// runnerUp is the best value of the other candidates, given the pool's best
// and second best: the margin of the best is over the second, every other
// candidate's over the best.
func runnerUp(v float64, top [2]float64) float64 {
	if v == top[0] {
		return top[1]
	}
	return top[0]
}

func (c *poolContext) fusedMargin(i int) float64 {
	return c.ps[i].fused - runnerUp(c.ps[i].fused, c.fused)
}

// signals is the table. Its order is only the order FeatureNames lists.
var signals = []signal{
	{FeatureFused, "the fused ranking score", func(c *poolContext, i int) float64 { return c.ps[i].fused }},
	{FeatureMargin, "fused score minus the runner-up's", (*poolContext).fusedMargin},
	{FeatureCosine, "cosine of the intent and tool vectors", func(c *poolContext, i int) float64 { return c.ps[i].cosine }},
	{FeatureCosineMargin, "cosine minus the runner-up's best cosine", func(c *poolContext, i int) float64 {
		return c.ps[i].cosine - runnerUp(c.ps[i].cosine, c.cosine)
	}},
	{FeatureCoverage, "idf-weighted share of the intent's describing words the tool contains (and kinds of value it takes: a path, a URL, an address)", func(c *poolContext, i int) float64 { return c.ps[i].coverage }},
	{FeatureMention, "specificity of an exact name mention, 0 without", func(c *poolContext, i int) float64 { return c.ps[i].mention }},
	{FeatureAgree, "1 when the keyword and vector sides both rank the tool first", func(c *poolContext, i int) float64 {
		return b2f(c.ps[i].kwRank == 0 && c.ps[i].vecRank == 0)
	}},
	{FeatureBoth, "1 when both sides proposed the tool", func(c *poolContext, i int) float64 {
		return b2f(c.ps[i].kwRank >= 0 && c.ps[i].vecRank >= 0)
	}},
	{FeatureKeywordLogit, "logit of the keyword engine's confidence heuristic, clipped to ±8", func(c *poolContext, i int) float64 { return logit(c.kw[i], 8) }},
	{FeatureKnown, "share of the intent's describing words (and kinds of value) any tool contains (takes)", func(c *poolContext, i int) float64 { return c.ps[i].known }},
	{FeatureSoftCoverage, "coverage with paraphrases credited by word-vector cosine", func(c *poolContext, i int) float64 { return c.ps[i].soft }},
	{FeatureSoftKnown, "share of the describing words some pooled tool matches softly", func(c *poolContext, i int) float64 { return c.ps[i].softKnown }},
	{FeatureToolCoverage, "share of the tool's own words the intent matches", func(c *poolContext, i int) float64 { return c.ps[i].toolCov }},
	{FeatureCosineBest, "best cosine of any pooled tool", func(c *poolContext, i int) float64 { return c.cosine[0] }},
	{FeatureDescribing, "log(1 + the intent's describing terms)", func(c *poolContext, i int) float64 { return c.ps[i].describing }},
	{FeatureMarginExcess, "fused margin beyond one whole evidence term", func(c *poolContext, i int) float64 { return math.Max(0, c.fusedMargin(i)-1) }},
	{FeatureEncoderCosine, "sentence encoder cosine of the intent and the tool", func(c *poolContext, i int) float64 { return c.ps[i].encCosine }},
	{FeatureEncoderMargin, "encoder cosine minus the runner-up's best", func(c *poolContext, i int) float64 {
		return c.ps[i].encCosine - runnerUp(c.ps[i].encCosine, c.enc)
	}},
	{FeatureEncoderBest, "best encoder cosine of any pooled tool", func(c *poolContext, i int) float64 { return c.enc[0] }},
	{FeatureSelfServe, "encoder cosine of the request to what the agent does by itself", func(c *poolContext, i int) float64 { return c.ps[i].selfServe }},
	{FeatureUsageText, "BM25 strength of the tool's learned intents", func(c *poolContext, i int) float64 { return c.ps[i].useText }},
	{FeatureUsageClass, "the usage classifier's probability of the tool", func(c *poolContext, i int) float64 { return c.ps[i].useClass }},
	{FeatureUsageVectorClass, "the vector classifier's probability of the tool", func(c *poolContext, i int) float64 { return c.ps[i].useVectorClass }},
	{FeatureUsageTextVote, "share of the best BM25-matching learned intents that were for the tool", func(c *poolContext, i int) float64 { return c.ps[i].useTextVote }},
	{FeatureUsageNear, "cosine to the tool's nearest learned intent", func(c *poolContext, i int) float64 { return c.ps[i].useNear }},
	{FeatureUsageVote, "share of the nearest learned intents that were for the tool", func(c *poolContext, i int) float64 { return c.ps[i].useVote }},
	{FeatureUsageMargin, "usage_near minus the runner-up's best", func(c *poolContext, i int) float64 {
		return c.ps[i].useNear - runnerUp(c.ps[i].useNear, c.usage)
	}},
	{FeatureUsageBest, "best usage_near of any pooled tool", func(c *poolContext, i int) float64 { return c.usage[0] }},
	{FeatureUsageAgree, "share of the usage signals on which the tool leads the pool", (*poolContext).usageAgree},
	{FeatureRegistrySize, "log10(1 + the number of registered tools)", func(c *poolContext, i int) float64 { return c.ps[i].registry }},
	{FeaturePhraseMatch, "share of the describing words inside a run equal to a name or keyword of the tool", func(c *poolContext, i int) float64 { return c.ps[i].phraseMatch }},
	{FeatureActionConflict, "1 when the request asks for a kind of effect (read, create, update, delete) the tool names none of", func(c *poolContext, i int) float64 { return b2f(c.ps[i].actionConflict) }},
}

// signalIndex is the position of a named signal in the table, -1 if none.
func signalIndex(name string) int {
	return slices.IndexFunc(signals, func(s signal) bool { return s.name == name })
}

// FeatureNames lists every signal a Calibration may use.
func FeatureNames() []string {
	out := make([]string, len(signals))
	for i, s := range signals {
		out[i] = s.name
	}
	return out
}

// SignalDoc is a signal's one-line description, "" for an unknown name.
func SignalDoc(name string) string {
	if i := signalIndex(name); i >= 0 {
		return signals[i].doc
	}
	return ""
}

// poolFeatures computes every signal of every candidate, in table order.
func poolFeatures(ps []*pooled) [][]float64 {
	c := newPoolContext(ps)
	out := make([][]float64, len(ps))
	for i := range ps {
		x := make([]float64, len(signals))
		for j, s := range signals {
			x[j] = s.value(c, i)
		}
		out[i] = x
	}
	return out
}
