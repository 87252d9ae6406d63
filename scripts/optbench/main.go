// Command optbench measures nestor's own time as a user sees it: the wall
// time of whole "nestor opt FILE -o /dev/null" processes on the corpus
// files, with their real headers. It builds nestor from this module (or
// runs -nestor), runs every file -rounds times in turns, and prints each
// file's median, then the median and the worst over all runs, of the wall
// time and of the CPU time (user + system, all threads: on a loaded
// machine the better guide to the wall time of an idle one), with the CPU
// model, the number of CPUs and the load average. Between the files' runs
// it times "nestor version", which only starts the process: its median is
// the start-up every run pays (package initialization of everything
// cmd/nestor links), apart from the work on the file.
//
//	go run ./scripts/optbench                  # warm cache (one untimed run per file first)
//	go run ./scripts/optbench -cache off       # no preprocessing cache (NESTOR_CACHE=off)
//	go run ./scripts/optbench -cold            # every run starts from an empty cache
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

func main() {
	rounds := flag.Int("rounds", 5, "timed runs of each file")
	nestor := flag.String("nestor", "", "the nestor binary (default: built from this module)")
	cache := flag.String("cache", "", "NESTOR_CACHE for the runs: a folder, or off (default: a new temporary folder)")
	cold := flag.Bool("cold", false, "empty the cache before every run")
	glob := flag.String("files", "testdata/kernels/*.c", "the files, a glob")
	flag.Parse()
	files, _ := filepath.Glob(*glob)
	if len(files) == 0 {
		fail("no files match %s (run from the repository root)", *glob)
	}
	tmp, err := os.MkdirTemp("", "optbench-")
	if err != nil {
		fail("%v", err)
	}
	defer os.RemoveAll(tmp)
	if *nestor == "" {
		*nestor = filepath.Join(tmp, "nestor")
		if out, err := exec.Command("go", "build", "-o", *nestor, "./cmd/nestor").CombinedOutput(); err != nil {
			fail("go build: %v\n%s", err, out)
		}
	}
	if *cache == "" {
		*cache = filepath.Join(tmp, "cache")
	}
	var cpu []time.Duration // user + system time of each timed run
	run := func(file string) time.Duration {
		if *cold && *cache != "off" {
			os.RemoveAll(*cache)
		}
		cmd := exec.Command(*nestor, "opt", file, "-o", os.DevNull)
		cmd.Env = append(os.Environ(), "NESTOR_CACHE="+*cache)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		d := time.Since(start)
		if err != nil {
			fail("%s: %v\n%s", file, err, out)
		}
		cpu = append(cpu, cmd.ProcessState.UserTime()+cmd.ProcessState.SystemTime())
		return d
	}
	if !*cold {
		for _, f := range files {
			run(f) // fills the cache; not timed
		}
	}
	cpu = nil
	times := map[string][]time.Duration{}
	var all, startWall, startCPU []time.Duration
	for range *rounds {
		for k, f := range files {
			d := run(f)
			times[f] = append(times[f], d)
			all = append(all, d)
			if k%4 == 0 {
				w, c := startup(*nestor)
				startWall, startCPU = append(startWall, w), append(startCPU, c)
			}
		}
	}
	fmt.Printf("nestor opt FILE -o /dev/null, %d runs per file, NESTOR_CACHE=%s, cold=%v\n", *rounds, *cache, *cold)
	fmt.Printf("cpu: %s, %d CPUs, load average %s\n", cpuModel(), numCPU(), loadAvg())
	for _, f := range files {
		ts := times[f]
		fmt.Printf("  %-28s median %4.0f ms  worst %4.0f ms\n", filepath.Base(f), ms(median(ts)), ms(slices.Max(ts)))
	}
	fmt.Printf("all %d runs: wall median %.0f ms, worst %.0f ms; CPU (user+system) median %.0f ms, worst %.0f ms\n",
		len(all), ms(median(all)), ms(slices.Max(all)), ms(median(cpu)), ms(slices.Max(cpu)))
	fmt.Printf("start-up (nestor version, %d runs): wall median %.0f ms; CPU median %.0f ms\n",
		len(startWall), ms(median(startWall)), ms(median(startCPU)))
}

// startup times one "nestor version" process: wall, and user + system.
func startup(nestor string) (wall, cpu time.Duration) {
	cmd := exec.Command(nestor, "version")
	start := time.Now()
	if out, err := cmd.CombinedOutput(); err != nil {
		fail("%s version: %v\n%s", nestor, err, out)
	}
	return time.Since(start), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
}

func median(ts []time.Duration) time.Duration {
	s := slices.Clone(ts)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

func cpuModel() string {
	b, _ := os.ReadFile("/proc/cpuinfo")
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown"
}

func numCPU() int {
	b, _ := os.ReadFile("/proc/cpuinfo")
	return strings.Count(string(b), "\nprocessor") + strings.Count(string(b[:min(len(b), 9)]), "processor")
}

func loadAvg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "optbench: "+format+"\n", args...)
	os.Exit(1)
}
