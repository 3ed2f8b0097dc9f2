package main

import (
	"fmt"
	"net"
	"os"
	"syscall"
)

// samePeer refuses a control-socket peer that is neither the server's own
// user nor root: the socket's mode already says so, and this holds even if
// the mode was loosened or the folder is shared.
func samePeer(conn net.Conn) error {
	uc, ok := conn.(*net.UnixConn)
	if !ok {
		return fmt.Errorf("not a unix connection")
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return err
	}
	if cerr != nil {
		return cerr
	}
	if me := os.Getuid(); int(cred.Uid) != me && cred.Uid != 0 {
		return fmt.Errorf("peer uid %d (pid %d) is not this server's user (uid %d)", cred.Uid, cred.Pid, me)
	}
	return nil
}
