// Command meshprobe drives real gRPC traffic through an Istio-style mesh for chaoskit's tests.
//
//	meshprobe serve  --backend IDENTITY=127.0.0.1:PORT ...
//	    one plain gRPC server per backend; each answers grpc.health.v1.Health/Check and names
//	    itself in the response header "x-served-by", so a caller can tell which one served.
//	meshprobe client --control 127.0.0.1:PORT
//	    a proxyless xDS client (grpc-go, bootstrap from GRPC_XDS_BOOTSTRAP_CONFIG): it keeps one
//	    channel per xds:/// target open, so configuration changes reach it as they would reach
//	    a long-running service, and runs bounded batches of RPCs on request:
//	    POST /send {"routes":[{"name","target","metadata"}],"requests","concurrency","timeoutMs"}
//	    answers, per route, the count of each gRPC status code, who served, and latency
//	    percentiles.
//
// grpc-go and not @grpc/grpc-js-xds: grpc-js-xds 1.14 drops an update that adds a fault to a
// route which had none (its resource comparison only walks the old object's keys), so a
// fault written after the client connected would silently never apply.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"net"
	"net/http"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	_ "google.golang.org/grpc/xds" // registers the xds:/// resolver and the xDS balancers
)

const servedByHeader = "x-served-by"

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: meshprobe serve|client [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "client":
		err = client(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "meshprobe:", err)
		os.Exit(1)
	}
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

// ---- backends ----

type backend struct {
	healthpb.UnimplementedHealthServer
	identity string
}

func (b *backend) Check(ctx context.Context, _ *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	if err := grpc.SetHeader(ctx, metadata.Pairs(servedByHeader, b.identity)); err != nil {
		return nil, err
	}
	return &healthpb.HealthCheckResponse{Status: healthpb.HealthCheckResponse_SERVING}, nil
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	var backends multiFlag
	fs.Var(&backends, "backend", "IDENTITY=HOST:PORT (repeatable)")
	_ = fs.Parse(args)
	if len(backends) == 0 {
		return errors.New("serve: no --backend given")
	}
	var servers []*grpc.Server
	for _, spec := range backends {
		identity, addr, ok := strings.Cut(spec, "=")
		if !ok {
			return fmt.Errorf("serve: --backend %q is not IDENTITY=HOST:PORT", spec)
		}
		lis, err := net.Listen("tcp", addr)
		if err != nil {
			return fmt.Errorf("serve: %s: %w", identity, err)
		}
		s := grpc.NewServer()
		healthpb.RegisterHealthServer(s, &backend{identity: identity})
		servers = append(servers, s)
		go func() { _ = s.Serve(lis) }()
		fmt.Printf("serving %s on %s\n", identity, lis.Addr())
	}
	waitForSignal()
	for _, s := range servers {
		s.Stop()
	}
	return nil
}

func waitForSignal() {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, syscall.SIGTERM, syscall.SIGINT)
	<-ch
}

// ---- client ----

type routeSpec struct {
	Name     string            `json:"name"`
	Target   string            `json:"target"`
	Metadata map[string]string `json:"metadata"`
}

type sendRequest struct {
	Routes      []routeSpec `json:"routes"`
	Requests    int         `json:"requests"`
	Concurrency int         `json:"concurrency"`
	TimeoutMs   int         `json:"timeoutMs"`
}

type latency struct {
	Min float64 `json:"min"`
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

type routeResult struct {
	Requests int            `json:"requests"`
	Codes    map[string]int `json:"codes"`
	ServedBy map[string]int `json:"servedBy"`
	Messages map[string]int `json:"messages"`
	Latency  latency        `json:"latencyMs"`
}

type prober struct {
	mu    sync.Mutex
	conns map[string]*grpc.ClientConn
}

func (p *prober) conn(target string) (*grpc.ClientConn, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if cc, ok := p.conns[target]; ok {
		return cc, nil
	}
	cc, err := grpc.NewClient(target, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		return nil, err
	}
	p.conns[target] = cc
	return cc, nil
}

func (p *prober) run(req sendRequest, r routeSpec) (*routeResult, error) {
	cc, err := p.conn(r.Target)
	if err != nil {
		return nil, err
	}
	client := healthpb.NewHealthClient(cc)
	timeout := time.Duration(req.TimeoutMs) * time.Millisecond
	type outcome struct {
		code     codes.Code
		message  string
		servedBy string
		took     time.Duration
	}
	outcomes := make([]outcome, req.Requests)
	next := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(req.Concurrency, req.Requests); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				ctx, cancel := context.WithTimeout(context.Background(), timeout)
				if len(r.Metadata) > 0 {
					ctx = metadata.NewOutgoingContext(ctx, metadata.New(r.Metadata))
				}
				var header metadata.MD
				began := time.Now()
				_, err := client.Check(ctx, &healthpb.HealthCheckRequest{}, grpc.Header(&header))
				took := time.Since(began)
				cancel()
				o := outcome{code: status.Code(err), took: took}
				if err != nil {
					o.message = status.Convert(err).Message()
				}
				if v := header.Get(servedByHeader); len(v) > 0 {
					o.servedBy = v[0]
				}
				outcomes[i] = o
			}
		}()
	}
	for i := 0; i < req.Requests; i++ {
		next <- i
	}
	close(next)
	wg.Wait()

	res := &routeResult{
		Requests: req.Requests,
		Codes:    map[string]int{},
		ServedBy: map[string]int{},
		Messages: map[string]int{},
	}
	took := make([]float64, 0, len(outcomes))
	for _, o := range outcomes {
		res.Codes[o.code.String()]++
		if o.servedBy != "" {
			res.ServedBy[o.servedBy]++
		}
		if o.message != "" && len(res.Messages) < 8 {
			res.Messages[o.message]++
		} else if o.message != "" {
			if _, ok := res.Messages[o.message]; ok {
				res.Messages[o.message]++
			}
		}
		took = append(took, float64(o.took.Microseconds())/1000)
	}
	sort.Float64s(took)
	res.Latency = latency{
		Min: percentile(took, 0),
		P50: percentile(took, 50),
		P90: percentile(took, 90),
		P99: percentile(took, 99),
		Max: percentile(took, 100),
	}
	return res, nil
}

// percentile is the nearest-rank percentile of sorted values.
func percentile(sorted []float64, p float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(math.Ceil(p / 100 * float64(len(sorted))))
	return sorted[max(rank, 1)-1]
}

func client(args []string) error {
	fs := flag.NewFlagSet("client", flag.ExitOnError)
	control := fs.String("control", "127.0.0.1:0", "HOST:PORT of the control endpoint")
	_ = fs.Parse(args)
	if os.Getenv("GRPC_XDS_BOOTSTRAP_CONFIG") == "" && os.Getenv("GRPC_XDS_BOOTSTRAP") == "" {
		return errors.New("client: set GRPC_XDS_BOOTSTRAP_CONFIG (or GRPC_XDS_BOOTSTRAP)")
	}
	p := &prober{conns: map[string]*grpc.ClientConn{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("POST /send", func(w http.ResponseWriter, r *http.Request) {
		var req sendRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if req.Requests <= 0 || req.Concurrency <= 0 || len(req.Routes) == 0 {
			http.Error(w, "routes, requests and concurrency are required", http.StatusBadRequest)
			return
		}
		if req.TimeoutMs <= 0 {
			req.TimeoutMs = 10_000
		}
		results := make(map[string]*routeResult, len(req.Routes))
		var mu sync.Mutex
		var wg sync.WaitGroup
		var firstErr error
		for _, route := range req.Routes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				res, err := p.run(req, route)
				mu.Lock()
				defer mu.Unlock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("route %s: %w", route.Name, err)
				}
				results[route.Name] = res
			}()
		}
		wg.Wait()
		if firstErr != nil {
			http.Error(w, firstErr.Error(), http.StatusInternalServerError)
			return
		}
		w.Header().Set("content-type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"routes": results})
	})
	lis, err := net.Listen("tcp", *control)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(lis) }()
	fmt.Printf("control on %s\n", lis.Addr())
	waitForSignal()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	for _, cc := range p.conns {
		_ = cc.Close()
	}
	return nil
}
