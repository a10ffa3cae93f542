package api

import (
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
)

// TokenEnv is the environment variable that holds the bearer token when no --token-file is given.
const TokenEnv = "LOOPGUARD_TOKEN"

// RequireToken answers 401 to every request without "Authorization: Bearer <token>" and hands
// the others to next. GET /healthz stays open, so that a load balancer can probe the process.
// The comparison takes the same time whatever the token sent: both sides are hashed first, so
// neither their bytes nor their lengths leak through timing.
func RequireToken(token string, next http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet && r.URL.Path == "/healthz" {
			next.ServeHTTP(w, r)
			return
		}
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		sum := sha256.Sum256([]byte(got))
		if !ok || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="loopguard"`)
			msg := "missing bearer token (send Authorization: Bearer <token>)"
			if ok {
				msg = "wrong bearer token"
			}
			fail(w, http.StatusUnauthorized, msg)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// LoadToken reads the token from file (when not empty) or else from the environment variable
// TokenEnv. Surrounding white space, a file's final newline included, is not part of the token.
// An empty result means no token.
func LoadToken(file string, getenv func(string) string) (string, error) {
	if file == "" {
		return strings.TrimSpace(getenv(TokenEnv)), nil
	}
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("--token-file: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if tok == "" {
		return "", fmt.Errorf("--token-file %s: the file is empty", file)
	}
	return tok, nil
}

// ErrTokenRequired is returned by CheckExposure for a listener beyond loopback without a token.
var ErrTokenRequired = errors.New("listening beyond loopback needs a bearer token: give --token-file FILE or set " + TokenEnv)

// CheckExposure refuses a listener that other machines can reach unless a token guards it.
// Loopback stays open by default: only processes of this machine reach it.
func CheckExposure(addr net.Addr, token string) error {
	if token != "" {
		return nil
	}
	tcp, ok := addr.(*net.TCPAddr)
	if ok && tcp.IP.IsLoopback() {
		return nil
	}
	return fmt.Errorf("%s: %w", addr, ErrTokenRequired)
}
