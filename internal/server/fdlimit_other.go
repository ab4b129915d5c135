//go:build !unix

package server

import "errors"

func raiseFileLimit() (soft, hard uint64, err error) {
	return 0, 0, errors.New("no file descriptor limit on this system")
}
