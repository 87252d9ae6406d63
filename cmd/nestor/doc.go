// Command nestor is a loop-nest optimizer for the static-control parts of C
// programs (regions marked #pragma scop ... #pragma endscop).
//
// Usage:
//
//	nestor opt   FILE.c|- [-o OUT.c|-] [-I dir] [-D NAME[=VALUE]]
//	nestor check FILE.c [-I dir] [-D NAME[=VALUE]] [--param n=V] [--runs N] [--threads 1,N]
//	nestor version
//
// Run "nestor help COMMAND" or "nestor COMMAND --help" for the flags of a
// command. Exit status: 0 on success, 1 when the input is rejected or a
// check fails, 2 on a usage error (a bad flag prints the error and one
// usage line).
package main
