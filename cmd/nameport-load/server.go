package main

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver
)

// readyTimeout bounds how long `nameport serve` may take to answer /readyz.
const readyTimeout = 60 * time.Second

// server is one `nameport serve` child process at a time, always started
// with the same database, data directory and ports, so that a restart after
// SIGKILL looks to clients like the same server coming back.
type server struct {
	bin      string
	dbURL    string
	dataDir  string
	httpAddr string
	dnsAddr  string
	logPath  string
	extra    []string

	cmd    *exec.Cmd
	exited chan error
	log    *os.File
}

func newServer(bin, dbURL, dataDir string, extra []string) (*server, error) {
	httpPort, err := freePort()
	if err != nil {
		return nil, err
	}
	dnsPort, err := freePort()
	if err != nil {
		return nil, err
	}
	return &server{bin: bin, dbURL: dbURL, dataDir: dataDir, extra: extra,
		httpAddr: "127.0.0.1:" + strconv.Itoa(httpPort), dnsAddr: "127.0.0.1:" + strconv.Itoa(dnsPort),
		logPath: filepath.Join(dataDir, "nameport.log")}, nil
}

func (s *server) baseURL() string { return "http://" + s.httpAddr }

// errPortTaken is start's error when the server could not bind its ports:
// freePort's ports were free when it looked, but another process (a test
// running beside) may take one before the server binds it.
var errPortTaken = errors.New("a port was taken before the server could bind it")

// startFirst starts the server for the first time: when a port it was
// given is taken by then, with other ports, a few times. Clients learn
// the address after it, so changing it now misleads nobody.
func (s *server) startFirst(ctx context.Context) error {
	for range 5 {
		err := s.start(ctx)
		if !errors.Is(err, errPortTaken) {
			return err
		}
		httpPort, err := freePort()
		if err != nil {
			return err
		}
		dnsPort, err := freePort()
		if err != nil {
			return err
		}
		s.httpAddr, s.dnsAddr = "127.0.0.1:"+strconv.Itoa(httpPort), "127.0.0.1:"+strconv.Itoa(dnsPort)
	}
	return fmt.Errorf("nameport serve: %w, five times", errPortTaken)
}

// start runs the process and waits until GET /readyz answers 200.
func (s *server) start(ctx context.Context) error {
	if s.log == nil {
		f, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		s.log = f
	}
	// Where this start's lines begin: a bind failure is told by them.
	logStart, err := s.log.Seek(0, io.SeekEnd)
	if err != nil {
		return err
	}
	args := append([]string{"serve",
		"--database-url", s.dbURL,
		"--data-dir", s.dataDir,
		"--http-addr", s.httpAddr,
		"--dns-addr", s.dnsAddr,
	}, s.extra...)
	fmt.Fprintf(s.log, "\n=== nameport-load: starting %s %v at %s\n", s.bin, args, time.Now().Format(time.RFC3339Nano))
	cmd := exec.Command(s.bin, args...)
	// An empty directory of its own: viper reads a nameport.yaml, or even a
	// file named nameport (a binary), in the working directory as the
	// server's configuration.
	cmd.Dir = filepath.Join(s.dataDir, "cwd")
	if err := os.MkdirAll(cmd.Dir, 0o755); err != nil {
		return err
	}
	cmd.Stdout, cmd.Stderr = s.log, s.log
	cmd.SysProcAttr = childProcAttr()
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %s: %w", s.bin, err)
	}
	s.cmd = cmd
	s.exited = make(chan error, 1)
	go func() { s.exited <- cmd.Wait() }()

	deadline := time.Now().Add(readyTimeout)
	hc := &http.Client{Timeout: 2 * time.Second}
	for {
		select {
		case err := <-s.exited:
			s.exited <- err
			if s.bindFailed(logStart) {
				s.cmd = nil
				return errPortTaken
			}
			return fmt.Errorf("nameport serve exited before it was ready (%v); log: %s", err, s.logPath)
		case <-ctx.Done():
			return ctx.Err()
		default:
		}
		if resp, err := hc.Get(s.baseURL() + "/readyz"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("nameport serve was not ready within %s; log: %s", readyTimeout, s.logPath)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// bindFailed reports whether the log from offset from says the server
// could not bind an address.
func (s *server) bindFailed(from int64) bool {
	f, err := os.Open(s.logPath)
	if err != nil {
		return false
	}
	defer f.Close()
	tail, err := io.ReadAll(io.NewSectionReader(f, from, 1<<20))
	return err == nil && strings.Contains(string(tail), "address already in use")
}

// kill ends the process with SIGKILL: no shutdown, no flushing, like a
// power cut of the machine the server runs on.
func (s *server) kill() error {
	if s.cmd == nil {
		return errors.New("no server running")
	}
	fmt.Fprintf(s.log, "\n=== nameport-load: SIGKILL at %s\n", time.Now().Format(time.RFC3339Nano))
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return err
	}
	<-s.exited
	s.cmd = nil
	return nil
}

// stop asks for a graceful shutdown (SIGTERM) and waits for it; after
// timeout it kills the process and says so.
func (s *server) stop(timeout time.Duration) error {
	if s.cmd == nil {
		return nil
	}
	defer func() { s.cmd = nil }()
	fmt.Fprintf(s.log, "\n=== nameport-load: SIGTERM at %s\n", time.Now().Format(time.RFC3339Nano))
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		return err
	}
	select {
	case err := <-s.exited:
		if err != nil {
			return fmt.Errorf("nameport serve exited with %v after SIGTERM; log: %s", err, s.logPath)
		}
		return nil
	case <-time.After(timeout):
		_ = s.cmd.Process.Signal(syscall.SIGKILL)
		<-s.exited
		return fmt.Errorf("nameport serve did not stop within %s of SIGTERM; killed; log: %s", timeout, s.logPath)
	}
}

func (s *server) close() {
	if s.cmd != nil {
		_ = s.cmd.Process.Signal(syscall.SIGKILL)
		<-s.exited
		s.cmd = nil
	}
	if s.log != nil {
		s.log.Close()
	}
}

// freePort returns a port free now on 127.0.0.1 for both TCP and UDP (the
// DNS role binds both).
func freePort() (int, error) {
	for range 20 {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		port := l.Addr().(*net.TCPAddr).Port
		l.Close()
		u, err := net.ListenPacket("udp", "127.0.0.1:"+strconv.Itoa(port))
		if err != nil {
			continue
		}
		u.Close()
		return port, nil
	}
	return 0, errors.New("no port free for both TCP and UDP")
}

// createDatabase creates a fresh, empty database on the server of adminURL
// and returns its URL and a function that drops it.
func createDatabase(ctx context.Context, adminURL string) (string, func() error, error) {
	admin, err := sql.Open("pgx", adminURL)
	if err != nil {
		return "", nil, err
	}
	defer admin.Close()
	var suffix [6]byte
	_, _ = rand.Read(suffix[:])
	name := "nameport_load_" + hex.EncodeToString(suffix[:])
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		return "", nil, fmt.Errorf("create database %s: %w", name, err)
	}
	u, err := url.Parse(adminURL)
	if err != nil {
		return "", nil, err
	}
	u.Path = "/" + name
	drop := func() error {
		admin, err := sql.Open("pgx", adminURL)
		if err != nil {
			return err
		}
		defer admin.Close()
		_, err = admin.Exec("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)")
		return err
	}
	return u.String(), drop, nil
}
