// Package testserver starts a real Tributary server for tests: `tributary server` from the api
// module's jar (or bin/tributary, which builds it) on a free port, over a temporary data
// directory, with an administrator token of the test's.
package testserver

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"tributary.io/terraform-provider-tributary/internal/tributary"
)

// Server is a running server process.
type Server struct {
	// URL is the server's base URL (http://localhost:<port>).
	URL string
	// AdminToken is the administrator token the server was started with.
	AdminToken string
	// DataDir is the server's data directory, removed by Stop.
	DataDir string

	cmd  *exec.Cmd
	log  *os.File
	done chan struct{}
}

var serving = regexp.MustCompile(`Tributary is serving on (http://\S+)`)

// Start starts a server and returns once GET /health answers UP, or fails after startTimeout.
//
// The server runs from $TRIBUTARY_API_JAR and the classpath in $TRIBUTARY_API_CLASSPATH (a
// file), by default the api module's build in this repository; without them, from bin/tributary.
func Start(startTimeout time.Duration) (*Server, error) {
	dir, err := os.MkdirTemp("", "tributary-acc-")
	if err != nil {
		return nil, err
	}
	s := &Server{DataDir: dir, AdminToken: "acc-admin-" + randomHex(12), done: make(chan struct{})}
	if s.log, err = os.Create(filepath.Join(dir, "server.log")); err != nil {
		return nil, err
	}
	s.cmd, err = command(filepath.Join(dir, "data"))
	if err != nil {
		return nil, err
	}
	s.cmd.Dir = dir // relative file paths in specs resolve here
	// golden specs include a 25M records/s generator: above the default per-source rate quota
	s.cmd.Env = append(os.Environ(), "TRIBUTARY_ADMIN_TOKEN="+s.AdminToken, "TRIBUTARY_QUOTA_MAX_RECORDS_PER_SECOND=1e9")
	s.cmd.Stdout = s.log
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		return nil, fmt.Errorf("cannot start the Tributary server (%s): %w", s.cmd.Path, err)
	}
	urls := make(chan string, 1)
	go s.copyStderr(stderr, urls)
	go func() { _ = s.cmd.Wait(); close(s.done) }()

	deadline := time.Now().Add(startTimeout)
	select {
	case s.URL = <-urls:
	case <-s.done:
		return nil, fmt.Errorf("the Tributary server exited before serving; its output:\n%s", s.Output())
	case <-time.After(time.Until(deadline)):
		s.Stop()
		return nil, fmt.Errorf("the Tributary server did not serve within %s; its output:\n%s", startTimeout, s.Output())
	}
	if err := s.awaitHealthy(deadline); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// command is the server's command line: the jar and its classpath if built, else bin/tributary.
func command(dataDir string) (*exec.Cmd, error) {
	root := repositoryRoot()
	jar := envOr("TRIBUTARY_API_JAR", filepath.Join(root, "api", "target", "tributary-api-0.1.0-SNAPSHOT.jar"))
	cpFile := envOr("TRIBUTARY_API_CLASSPATH", filepath.Join(root, "api", "target", "classpath.txt"))
	args := []string{"server", "--port", "0", "--data-dir", dataDir}
	cp, err := os.ReadFile(cpFile)
	if _, jarErr := os.Stat(jar); jarErr == nil && err == nil {
		java := []string{"-Xmx1g", "-XX:+UseSerialGC", "-cp", jar + string(os.PathListSeparator) +
			strings.TrimSpace(string(cp)), "io.tributary.cli.Main"}
		return exec.Command("java", append(java, args...)...), nil
	}
	bin := filepath.Join(root, "bin", "tributary")
	if _, err := os.Stat(bin); err != nil {
		return nil, fmt.Errorf("neither the server's jar (%s) nor bin/tributary (%s) exists", jar, bin)
	}
	return exec.Command(bin, args...), nil
}

// copyStderr writes the server's stderr to its log and sends the URL once it serves.
func (s *Server) copyStderr(r io.Reader, urls chan<- string) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1024*1024)
	sent := false
	for sc.Scan() {
		line := sc.Text()
		fmt.Fprintln(s.log, line)
		if m := serving.FindStringSubmatch(line); m != nil && !sent {
			urls <- m[1]
			sent = true
		}
	}
}

func (s *Server) awaitHealthy(deadline time.Time) error {
	c := tributary.New(s.URL, "", "testserver")
	var last error
	for pause := 50 * time.Millisecond; time.Now().Before(deadline); pause = min(2*pause, time.Second) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		last = c.Health(ctx)
		cancel()
		if last == nil {
			return nil
		}
		select {
		case <-s.done:
			return fmt.Errorf("the Tributary server exited; its output:\n%s", s.Output())
		case <-time.After(pause):
		}
	}
	return fmt.Errorf("the Tributary server at %s is not healthy: %v", s.URL, last)
}

var stopOnce sync.Map

// Stop ends the server (SIGTERM, then SIGKILL after 20 s) and removes its data directory.
func (s *Server) Stop() {
	if _, done := stopOnce.LoadOrStore(s, true); done {
		return
	}
	if s.cmd.Process != nil {
		_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-s.done:
		case <-time.After(20 * time.Second):
			_ = syscall.Kill(-s.cmd.Process.Pid, syscall.SIGKILL)
			<-s.done
		}
	}
	_ = s.log.Close()
	if os.Getenv("TRIBUTARY_ACC_KEEP_DATA") == "" {
		_ = os.RemoveAll(s.DataDir)
	}
}

// Output is what the server printed so far (its last 8 KiB).
func (s *Server) Output() string {
	b, _ := os.ReadFile(filepath.Join(s.DataDir, "server.log"))
	if len(b) > 8192 {
		b = b[len(b)-8192:]
	}
	return string(b)
}

// Client is a client of the server with the administrator token.
func (s *Server) Client() *tributary.Client {
	return tributary.New(s.URL, s.AdminToken, "acceptance-test")
}

// repositoryRoot is the repository's root: four levels above this file's directory.
func repositoryRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", "..", "..", ".."))
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

func randomHex(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return hex.EncodeToString(b)
}
