package main

import "nestor/internal/cli"

func main() { cli.Main() }
