package route

import (
	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/bind"
)

// TierSubject is where routing hands an intent of a tier, so that each tier
// can have its own pool of workers:
//
//	activated         pipe.resolve.<session>            (resolve, then execute)
//	multiple_matches  pipe.choose.<session>             (choose: disambiguator or answer)
//	weak_matches      pipe.answer.weak_matches.<session> (answer)
//	not_found         pipe.answer.not_found.<session>    (answer)
func TierSubject(tier, session string) string {
	switch tier {
	case schemas.TierActivated:
		return bind.PipeSubject(bind.StageResolve, session)
	case schemas.TierMultiple:
		return bind.PipeSubject(bind.StageChoose, session)
	}
	return bind.PipePrefix + bind.StageAnswer + "." + tier + "." + session
}
