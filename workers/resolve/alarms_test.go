package resolve

import (
	"testing"
)

var (
	alarmWake = manifest("t/wake_up", "Wake-up call", `{"type":"object","required":["time"],"properties":{
		"time":{"type":"string","description":"Clock time, e.g. 07:15"}}}`)
	alarmTable = manifest("t/book_table", "Book table", `{"type":"object","required":["time"],"properties":{
		"time":{"type":"string","description":"Clock time of the booking"},"party_size":{"type":"integer","description":"Number of guests"}}}`)
)

// TestAlarmHour: on a tool named for alarms or waking, "for" and a bare
// hour is the clock time; elsewhere "for 8" is a count or a length.
func TestAlarmHour(t *testing.T) {
	checkGuesses(t, []guessCase{
		{"bare hour", ruleAlarm, "set an alarm for 6", M{"time": "06:00"}},
		{"with a day", ruleAlarm, "alarm for 9 tomorrow please", M{"time": "09:00"}},
		{"hour in words", ruleAlarm, "I need an alarm for eight", M{"time": "08:00"}},
		{"part of the day", ruleAlarm, "an alarm for 10 tonight", M{"time": "22:00"}},
		{"24-hour", ruleAlarm, "alarm for 17", M{"time": "17:00"}},
		{"repeat days kept", ruleAlarm, "an alarm for 6 on weekdays", M{"time": "06:00", "days": "weekdays"}},
		{"wake tool", alarmWake, "book a wake-up call for 5", M{"time": "05:00"}},
		// Negatives: a length, a count, another tool.
		{"length", ruleAlarm, "an alarm for 8 minutes", M{}},
		{"timer takes a length", ruleTimer, "a timer for 8", M{}},
		{"table for 8", alarmTable, "book a table for 8", M{"party_size": int64(8)}},
		{"with minutes, as before", ruleAlarm, "alarm for 6:40", M{"time": "06:40"}},
	})
}
