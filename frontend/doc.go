// Package frontend turns C source into ir.Programs: it preprocesses and
// parses a file with modernc.org/cc/v4, finds the regions marked
// #pragma scop / #pragma endscop, and translates each into an ir.Program,
// reporting every construct outside the supported subset as a positioned
// error "file:line:col: not a static control part: <why>".
package frontend
