//go:build !cuda || opencl

package main

func cudaLibraries() string { return "" }
