// Package pipeline runs nestor's passes on a parsed C file and splices the
// generated code back into the source text.
//
// # Invariants
//
// Optimize changes only the bytes between each "#pragma scop" line and its
// "#pragma endscop" line; every other byte of the file, the pragma lines
// included, is copied unchanged (the polycc convention, so the output drops
// into an existing build). Every pass leaves an ir.Program that passes
// ir.Check; under Options.Check the pipeline verifies it after each pass.
package pipeline
