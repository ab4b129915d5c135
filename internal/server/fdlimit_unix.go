//go:build unix

package server

import "syscall"

// raiseFileLimit lifts the soft limit on open files to the hard one and
// returns the soft limit in force. Go does this itself at start (since 1.19,
// in package syscall's init) but a parent may have lowered the soft limit
// with prlimit since, and the connection budgets are sized from it.
func raiseFileLimit() (soft, hard uint64, err error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, 0, err
	}
	if lim.Cur < lim.Max {
		raised := lim
		raised.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err == nil {
			lim = raised
		}
	}
	return uint64(lim.Cur), uint64(lim.Max), nil
}
