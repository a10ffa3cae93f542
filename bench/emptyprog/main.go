// Command emptyprog does nothing: bench/hook.sh times it beside the hook as the floor of any Go
// program's start on the machine at hand (loading a static binary, the runtime's start), which
// varies several-fold between machines, so that a hook's own time can be told from it.
package main

func main() {}
