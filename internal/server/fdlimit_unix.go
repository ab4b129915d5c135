//go:build unix

package server

import "syscall"

// raiseFileLimit lifts the soft limit on open files to the hard one and
// returns the soft limit in force. Go does this itself at start (since 1.19,
// package syscall's init raises it to the hard limit less one, measured:
// a soft limit of 1024 under a hard one of 2048 is 2047 here), but
// something may have lowered it since (prlimit), and the connection budgets
// are sized from it. Within one of the hard limit it is left alone: Go then
// gives child processes their original limit back.
func raiseFileLimit() (soft, hard uint64, err error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, 0, err
	}
	if lim.Cur+1 < lim.Max {
		raised := lim
		raised.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &raised); err == nil {
			lim = raised
		}
	}
	return uint64(lim.Cur), uint64(lim.Max), nil
}
