package proxy

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
)

// A 500 KB request body is most of what the proxy allocates per request, and garbage as soon as
// the request has gone upstream: read into a buffer of its own each time, it makes the garbage
// collector run every few requests. Bodies whose length is announced are read into pooled
// buffers instead, handed back once nothing can read them any more: the handler is done, and
// every reader the upstream transport was given is closed.

// maxPooledBody: larger buffers are left to the garbage collector, so that one huge request
// does not stay pinned in the pool.
const maxPooledBody = 4 << 20

type bodyBuf struct {
	b    []byte
	refs atomic.Int32
}

var bodyBufs = sync.Pool{New: func() any { return new(bodyBuf) }}

// newBodyBuf returns a buffer of n bytes held once (by the caller).
func newBodyBuf(n int) *bodyBuf {
	if n > maxPooledBody {
		bb := &bodyBuf{b: make([]byte, n)}
		bb.refs.Store(1)
		return bb
	}
	bb := bodyBufs.Get().(*bodyBuf)
	if cap(bb.b) < n {
		// Headroom: a conversation's next request is a little larger.
		bb.b = make([]byte, n, min(n+n/8, maxPooledBody))
	}
	bb.b = bb.b[:n]
	bb.refs.Store(1)
	return bb
}

func (bb *bodyBuf) hold() { bb.refs.Add(1) }

// drop lets go of one hold; the last one hands the buffer back.
func (bb *bodyBuf) drop() {
	if bb.refs.Add(-1) == 0 && cap(bb.b) <= maxPooledBody {
		bodyBufs.Put(bb)
	}
}

// readPooledBody reads a body of the announced length into a pooled buffer.
func readPooledBody(r io.Reader, length int64) (*bodyBuf, error) {
	bb := newBodyBuf(int(length))
	if _, err := io.ReadFull(r, bb.b); err != nil {
		bb.drop()
		return nil, err
	}
	return bb, nil
}

// upstreamBody is the body sent upstream, as pieces of the client's body and the notices. The
// transport may close it from another goroutine while its write loop still reads (a cancelled
// request), so reads and the close are serialised: once Close has returned, no read copies
// from the buffer again, and the buffer may go to another request.
type upstreamBody struct {
	mu    sync.Mutex
	bufs  net.Buffers
	owner *bodyBuf // nil: nothing pooled
	done  bool
}

func newUpstreamBody(segs [][]byte, owner *bodyBuf) *upstreamBody {
	if owner != nil {
		owner.hold()
	}
	return &upstreamBody{bufs: append(net.Buffers(nil), segs...), owner: owner}
}

func (u *upstreamBody) Read(p []byte) (int, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.done {
		return 0, io.ErrClosedPipe
	}
	return u.bufs.Read(p)
}

func (u *upstreamBody) Close() error {
	u.mu.Lock()
	defer u.mu.Unlock()
	if !u.done {
		u.done = true
		u.bufs = nil
		if u.owner != nil {
			u.owner.drop()
		}
	}
	return nil
}
