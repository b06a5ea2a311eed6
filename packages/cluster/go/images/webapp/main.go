// Command webapp is the demo's web app on chaoskit's local real nodes, and its client.
//
//	webapp serve [-http :8080] [-grpc :9090]
//	    answers HTTP GET / with "served-by <pod name>" and gRPC grpc.health.v1.Health/Check
//	    (naming itself in the response header "x-served-by"); /healthz for probes.
//	webapp load -url http://HOST:PORT/ [-grpc HOST:PORT] [-every 100ms] [-report 1s] [-for 10m]
//	    sends one HTTP request (and one gRPC call, with -grpc) every -every, for at most -for,
//	    and prints one JSON line per -report: the counts of that interval, who served them, and
//	    the totals. Bounded in time, so a forgotten client stops by itself.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
)

const servedByHeader = "x-served-by"

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: webapp serve|load [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "load":
		err = load(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "webapp:", err)
		os.Exit(1)
	}
}

func identity() string {
	name, _ := os.Hostname()
	return name
}

type servedBy struct {
	*health.Server
	name string
}

func (s servedBy) Check(ctx context.Context, req *healthpb.HealthCheckRequest) (*healthpb.HealthCheckResponse, error) {
	_ = grpc.SetHeader(ctx, metadata.Pairs(servedByHeader, s.name))
	return s.Server.Check(ctx, req)
}

func serve(args []string) error {
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	httpAddr := fs.String("http", ":8080", "HTTP listen address")
	grpcAddr := fs.String("grpc", ":9090", "gRPC listen address (empty: none)")
	_ = fs.Parse(args)
	name := identity()

	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	mux.HandleFunc("GET /", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = fmt.Fprintf(w, "served-by %s\n", name)
	})
	httpLis, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(httpLis) }()
	fmt.Printf("%s serving HTTP on %s\n", name, httpLis.Addr())

	var gs *grpc.Server
	if *grpcAddr != "" {
		grpcLis, err := net.Listen("tcp", *grpcAddr)
		if err != nil {
			return err
		}
		gs = grpc.NewServer()
		healthpb.RegisterHealthServer(gs, servedBy{health.NewServer(), name})
		go func() { _ = gs.Serve(grpcLis) }()
		fmt.Printf("%s serving gRPC on %s\n", name, grpcLis.Addr())
	}

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	<-stop
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = srv.Shutdown(ctx)
	if gs != nil {
		gs.GracefulStop()
	}
	return nil
}

type interval struct {
	At       string         `json:"at"`
	OK       int            `json:"ok"`
	Failed   int            `json:"failed"`
	GrpcOK   int            `json:"grpcOk,omitempty"`
	GrpcFail int            `json:"grpcFailed,omitempty"`
	ServedBy map[string]int `json:"servedBy"`
	Errors   map[string]int `json:"errors,omitempty"`
	TotalOK  int            `json:"totalOk"`
	TotalBad int            `json:"totalFailed"`
}

func load(args []string) error {
	fs := flag.NewFlagSet("load", flag.ExitOnError)
	url := fs.String("url", "", "the HTTP URL to GET")
	grpcTarget := fs.String("grpc", "", "HOST:PORT of a gRPC health service to call too")
	every := fs.Duration("every", 100*time.Millisecond, "time between requests")
	report := fs.Duration("report", time.Second, "time between report lines")
	limit := fs.Duration("for", 10*time.Minute, "stop after this long")
	_ = fs.Parse(args)
	if *url == "" {
		return errors.New("load: -url is required")
	}
	// A new connection per request: kube-proxy picks a backend per connection, so each request
	// may land on any pod, as a Service's clients see it.
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	var check func() (string, error)
	if *grpcTarget != "" {
		cc, err := grpc.NewClient(*grpcTarget, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return err
		}
		defer cc.Close()
		hc := healthpb.NewHealthClient(cc)
		check = func() (string, error) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			var header metadata.MD
			_, err := hc.Check(ctx, &healthpb.HealthCheckRequest{}, grpc.Header(&header))
			return strings.Join(header.Get(servedByHeader), ","), err
		}
	}

	stop := make(chan os.Signal, 1)
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	deadline := time.After(*limit)
	tick := time.NewTicker(*every)
	defer tick.Stop()
	out := time.NewTicker(*report)
	defer out.Stop()
	cur := interval{ServedBy: map[string]int{}, Errors: map[string]int{}}
	enc := json.NewEncoder(os.Stdout)
	for {
		select {
		case <-stop:
			return nil
		case <-deadline:
			return nil
		case now := <-out.C:
			cur.At = now.UTC().Format(time.RFC3339Nano)
			_ = enc.Encode(cur)
			cur = interval{ServedBy: map[string]int{}, Errors: map[string]int{}, TotalOK: cur.TotalOK, TotalBad: cur.TotalBad}
		case <-tick.C:
			body, err := get(client, *url)
			if err != nil {
				cur.Failed++
				cur.TotalBad++
				cur.Errors[short(err)]++
			} else {
				cur.OK++
				cur.TotalOK++
				cur.ServedBy[strings.TrimPrefix(body, "served-by ")]++
			}
			if check != nil {
				if _, err := check(); err != nil {
					cur.GrpcFail++
				} else {
					cur.GrpcOK++
				}
			}
		}
	}
}

func get(client *http.Client, url string) (string, error) {
	res, err := client.Get(url)
	if err != nil {
		return "", err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 4096))
	if err != nil {
		return "", err
	}
	if res.StatusCode != http.StatusOK {
		return "", fmt.Errorf("HTTP %d", res.StatusCode)
	}
	return strings.TrimSpace(string(body)), nil
}

// short keeps an error's last part: the same failure counts as one kind whatever the address.
func short(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		return msg[i+2:]
	}
	return msg
}
