// Command nameportctl is the registrar CLI of Nameport.
package main

import (
	"os"

	"github.com/nameport/nameport/cli"
)

func main() {
	os.Exit(cli.Execute(os.Args[1:], os.Stdout, os.Stderr))
}
