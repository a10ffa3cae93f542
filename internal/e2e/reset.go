package e2e

// Reset forgets the requests recorded so far, so that a long benchmark against the server
// (bench/proxyload) does not keep every body it was sent.
func (s *Server) Reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = nil
	s.errs = nil
}
