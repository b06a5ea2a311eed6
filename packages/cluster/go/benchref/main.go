// benchref: the bench's reference client. It does what a bench scenario does, the way the
// ecosystem's own client does it at its fastest: client-go with its client-side rate limit off
// (QPS < 0), N workers over one HTTP/2 connection. Its figure is what the apiserver allows.
// It prints {"seconds": …, "requests": …} last, the clock around the API work only.
//
//	benchref count     -n NS -l SELECTOR [-phase P]
//	benchref terminate -n NS -l SELECTOR (-qty N | -pattern RE) [-workers W]
//	benchref drain     -node NAME [-workers W]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

var requests atomic.Int64

func main() {
	if len(os.Args) < 2 {
		fail(fmt.Errorf("usage: benchref count|terminate|drain [flags]"))
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	ns := fs.String("n", "", "namespace")
	selector := fs.String("l", "", "label selector")
	phase := fs.String("phase", "", "count only pods in this phase")
	qty := fs.Int("qty", 0, "terminate: how many pods, at random")
	pattern := fs.String("pattern", "", "terminate: every pod whose name matches (from its start)")
	node := fs.String("node", "", "drain: the node")
	workers := fs.Int("workers", 64, "concurrent requests")
	_ = fs.Parse(os.Args[2:])

	config, err := clientcmd.NewNonInteractiveDeferredLoadingClientConfig(
		clientcmd.NewDefaultClientConfigLoadingRules(), &clientcmd.ConfigOverrides{}).ClientConfig()
	if err != nil {
		fail(err)
	}
	config.QPS = -1 // no client-side rate limit: the apiserver is the only limit
	config.UserAgent = "chaoskit-bench-reference"
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fail(err)
	}
	ctx := context.Background()
	started := time.Now()
	var out any
	switch os.Args[1] {
	case "count":
		pods, err := list(ctx, client, *ns, metav1.ListOptions{LabelSelector: *selector})
		if err != nil {
			fail(err)
		}
		n := 0
		for _, p := range pods {
			if *phase == "" || string(p.Status.Phase) == *phase {
				n++
			}
		}
		out = n
	case "terminate":
		out, err = terminate(ctx, client, *ns, *selector, *qty, *pattern, *workers)
	case "drain":
		out, err = drain(ctx, client, *node, *workers)
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fail(err)
	}
	line, _ := json.Marshal(map[string]any{
		"result":   out,
		"seconds":  time.Since(started).Seconds(),
		"requests": requests.Load(),
	})
	fmt.Println(string(line))
}

func fail(err error) {
	fmt.Fprintf(os.Stderr, "benchref: %v\n", err)
	os.Exit(1)
}

// list pages through the pods as chaoskit does (500 a page, the apiserver's default chunk).
func list(ctx context.Context, c *kubernetes.Clientset, ns string, opts metav1.ListOptions) ([]corev1.Pod, error) {
	var pods []corev1.Pod
	opts.Limit = 500
	for {
		requests.Add(1)
		page, err := c.CoreV1().Pods(ns).List(ctx, opts)
		if err != nil {
			return nil, err
		}
		pods = append(pods, page.Items...)
		if page.Continue == "" {
			return pods, nil
		}
		opts.Continue = page.Continue
	}
}

// each runs do on every pod with `workers` goroutines; the first error wins.
func each(pods []corev1.Pod, workers int, do func(corev1.Pod) error) error {
	work := make(chan corev1.Pod)
	var first error
	var once sync.Once
	var wg sync.WaitGroup
	for range max(1, workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range work {
				requests.Add(1)
				if err := do(p); err != nil {
					once.Do(func() { first = err })
				}
			}
		}()
	}
	for _, p := range pods {
		work <- p
	}
	close(work)
	wg.Wait()
	return first
}

// terminate: terminate_pods with grace_period 0 — list, choose, delete.
func terminate(ctx context.Context, c *kubernetes.Clientset, ns, selector string, qty int, pattern string, workers int) (int, error) {
	pods, err := list(ctx, c, ns, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return 0, err
	}
	var chosen []corev1.Pod
	if pattern != "" {
		re, err := regexp.Compile("^(?:" + pattern + ")")
		if err != nil {
			return 0, err
		}
		for _, p := range pods {
			if re.MatchString(p.Name) {
				chosen = append(chosen, p)
			}
		}
	} else {
		rand.Shuffle(len(pods), func(i, j int) { pods[i], pods[j] = pods[j], pods[i] })
		chosen = pods[:min(qty, len(pods))]
	}
	grace := int64(0)
	err = each(chosen, workers, func(p corev1.Pod) error {
		return c.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{GracePeriodSeconds: &grace})
	})
	return len(chosen), err
}

// drain: drain_nodes — cordon, evict every pod of the node (none here is a DaemonSet's or
// mirror pod), then wait until they are gone.
func drain(ctx context.Context, c *kubernetes.Clientset, node string, workers int) (int, error) {
	requests.Add(1)
	if _, err := c.CoreV1().Nodes().Patch(ctx, node, types.StrategicMergePatchType,
		[]byte(`{"spec":{"unschedulable":true}}`), metav1.PatchOptions{}); err != nil {
		return 0, err
	}
	onNode := metav1.ListOptions{FieldSelector: "spec.nodeName=" + node}
	pods, err := list(ctx, c, "", onNode)
	if err != nil {
		return 0, err
	}
	err = each(pods, workers, func(p corev1.Pod) error {
		return c.PolicyV1().Evictions(p.Namespace).Evict(ctx, &policyv1.Eviction{
			ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace},
		})
	})
	if err != nil {
		return 0, err
	}
	for {
		left, err := list(ctx, c, "", onNode)
		if err != nil {
			return 0, err
		}
		gone := true
		for _, p := range left {
			for _, q := range pods {
				if p.UID == q.UID {
					gone = false
				}
			}
		}
		if gone {
			return len(pods), nil
		}
		time.Sleep(100 * time.Millisecond)
	}
}
