package auth

import (
	"sync"
	"time"
)

// Readers' reports come from anyone, without an account, so the intake
// counts every report per client address under the sign-in throttle's
// backoff: a few reports cost nothing; past them each must wait, then
// twice as long, up to an hour; a day without a report forgets the
// address. The address is the one auth resolves through --trusted-proxies
// (httpx.Request.Client), /64 for IPv6, so one client cannot spread over
// its own block. It counts only one address's own reports: nobody can make
// another address wait.
var reportPerAddress = backoff{free: 10, first: time.Minute, most: time.Hour, forget: 24 * time.Hour}

// ReportThrottle limits readers' reports per client address, in memory
// (each replica its own). Its zero value is not usable: NewReportThrottle.
type ReportThrottle struct {
	mu      sync.Mutex
	strikes strikes
}

// NewReportThrottle returns an empty throttle.
func NewReportThrottle() *ReportThrottle {
	return &ReportThrottle{strikes: newStrikes(reportPerAddress, loginLimiterMaxKeys)}
}

// Take counts one report from the client at addr, unless the client must
// wait: then it counts nothing and returns how long.
func (t *ReportThrottle) Take(addr string, now time.Time) (wait time.Duration, ok bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := addressKey(addr)
	if d := t.strikes.until(key, now).Sub(now); d > 0 {
		return d, false
	}
	t.strikes.fail(key, now)
	return 0, true
}
