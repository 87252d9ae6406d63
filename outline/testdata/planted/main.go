// Command planted writes an XLS IR package with a planted repeated motif
// (outline.Planted) to standard output, for timing nestor outline on
// large graphs:
//
//	go run ./outline/testdata/planted -nodes 100000 -size 12 -copies 50 -fanout > big.ir
package main

import (
	"flag"
	"fmt"
	"os"

	"nestor/outline"
	"nestor/outline/xls"
)

func main() {
	var s outline.PlantSpec
	flag.Uint64Var(&s.Seed, "seed", 1, "random seed")
	flag.IntVar(&s.Size, "size", 12, "operations of the motif")
	flag.IntVar(&s.Copies, "copies", 20, "exact copies of the motif")
	flag.IntVar(&s.Nodes, "nodes", 1000, "nodes of the function, about")
	flag.BoolVar(&s.FanOut, "fanout", false, "a motif node feeds two others")
	flag.BoolVar(&s.Mutated, "mutated", false, "as many decoys, one operation changed")
	flag.Parse()
	p, saving := outline.Planted(s)
	fmt.Fprintf(os.Stderr, "%d nodes, planted saving %d\n", len(p.Funcs[0].Nodes), saving)
	if err := xls.Write(os.Stdout, p); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
