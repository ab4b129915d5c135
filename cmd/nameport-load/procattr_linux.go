package main

import "syscall"

// childProcAttr makes the kernel kill the server when this program dies, so
// an interrupted run leaves no server behind.
func childProcAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}
