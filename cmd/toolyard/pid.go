package main

import (
	"os"
	"strconv"
)

func pidString() string { return strconv.Itoa(os.Getpid()) }
