package redisstore

import (
	"net"
	"os"
	"strings"
	"testing"

	"github.com/loopguard/loopguard/internal/store/storetest"
	"github.com/loopguard/loopguard/internal/testenv"
)

// The cross-process test re-runs this test binary as a child process (storetest.RunHelper).
func TestMain(m *testing.M) {
	storetest.RunHelper(nil)
	os.Exit(m.Run())
}

// redisServer is a redis-server process owned by one test.
type redisServer struct {
	addr string
	url  string
}

// startRedis runs a private redis-server for the duration of the test (see testenv.Redis:
// skipped without redis-server, failed under CI=true).
func startRedis(tb testing.TB) *redisServer {
	tb.Helper()
	url := testenv.Redis(tb)
	return &redisServer{url: url, addr: strings.TrimSuffix(strings.TrimPrefix(url, "redis://"), "/0")}
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

var (
	mustOpen = storetest.MustOpen
	mustGet  = storetest.MustGet
	put      = storetest.Put
)
