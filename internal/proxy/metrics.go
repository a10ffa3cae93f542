package proxy

import (
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
)

// metrics are the proxy's Prometheus series. They use the official client library
// (github.com/prometheus/client_golang): its text exposition, histogram buckets and Go runtime
// collectors are what every Prometheus server and dashboard expects, and writing them by hand
// would be a second, untested copy. Only this package imports it, never the core package.
type metrics struct {
	requests *prometheus.CounterVec   // by api and status code
	notices  *prometheus.CounterVec   // by plugin and kind
	added    *prometheus.HistogramVec // seconds between receiving a request and sending it upstream, by api
	streams  prometheus.Gauge         // streaming responses being relayed now
	skipped  *prometheus.CounterVec   // requests forwarded unguarded, by reason
}

func newMetrics(reg prometheus.Registerer) *metrics {
	m := &metrics{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "loopguard_proxy_requests_total",
			Help: "Requests handled, by API (anthropic, chat, responses, gemini, other) and HTTP status sent to the client.",
		}, []string{"api", "status"}),
		notices: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "loopguard_proxy_notices_total",
			Help: "Notices inserted into upstream requests, by plugin and kind.",
		}, []string{"plugin", "kind"}),
		added: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "loopguard_proxy_added_latency_seconds",
			Help:    "Time between receiving a model API request and sending it upstream (reading the body, rebuilding the conversation, inserting notices).",
			Buckets: []float64{.0001, .00025, .0005, .001, .002, .005, .01, .025, .05, .1, .25},
		}, []string{"api"}),
		streams: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "loopguard_proxy_streams_in_flight",
			Help: "Streaming responses (text/event-stream) being relayed to clients now.",
		}),
		skipped: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "loopguard_proxy_unguarded_total",
			Help: "Model API requests forwarded without looking for loops, by reason (invalid_json, encoded_body, unknown_previous_response, store_error, internal_error).",
		}, []string{"reason"}),
	}
	if reg != nil {
		reg.MustRegister(m.requests, m.notices, m.added, m.streams, m.skipped)
	}
	return m
}

// registerCache exposes the guard's prefix cache: how often a request resumed from a cached
// prefix, and what the cache holds against its bounds.
func registerCache(reg prometheus.Registerer, c *prefixCache) {
	if reg == nil || c == nil {
		return
	}
	reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "loopguard_proxy_prefix_cache_hits_total",
			Help: "Requests that resumed from a cached prefix of their conversation instead of replaying it whole.",
		}, func() float64 { return float64(c.hits.Load()) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "loopguard_proxy_prefix_cache_misses_total",
			Help: "Requests that found no cached prefix of their conversation and replayed it whole.",
		}, func() float64 { return float64(c.misses.Load()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "loopguard_proxy_prefix_cache_entries",
			Help: "Conversation prefixes held by the prefix cache.",
		}, func() float64 { n, _ := c.stats(); return float64(n) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "loopguard_proxy_prefix_cache_bytes",
			Help: "Bytes held by the prefix cache, as it counts them (snapshots and planned notices).",
		}, func() float64 { _, b := c.stats(); return float64(b) }),
	)
}

// NewRegistry returns a registry with the Go runtime and process collectors, for /metrics.
func NewRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}
