// Command packtables writes the packed form of assoc's shipped tables:
// for each tables/<type>.txt and tables/<type>.more.txt, the .bin beside
// it (assoc's tablebin.go), the form a process loads. Run it with go
// generate in assoc.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"nestor/assoc"
)

func main() {
	dir := flag.String("dir", "tables", "the directory of the text tables")
	flag.Parse()
	var names []string
	for _, t := range assoc.Types() {
		names = append(names, t.String(), t.String()+".more")
	}
	for _, name := range names {
		src := filepath.Join(*dir, name+".txt")
		tb, err := assoc.ReadTableFile(src)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			fail(err)
		}
		data, err := tb.MarshalBinary()
		if err != nil {
			fail(fmt.Errorf("%s: %v", src, err))
		}
		dst := filepath.Join(*dir, name+".bin")
		if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, data) {
			continue
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			fail(err)
		}
		fmt.Printf("wrote %s: %d entries, %d bytes\n", dst, len(tb.Entries), len(data))
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "packtables:", err)
	os.Exit(1)
}
