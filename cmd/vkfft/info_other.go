//go:build !cuda

package main

func cudaLibraries() string { return "" }
