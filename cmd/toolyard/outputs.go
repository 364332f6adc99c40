package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/effects"
)

func newOutputs(g *globalFlags) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "outputs",
		Short: "Fetch tool outputs too large to travel in a result",
		Long: `A tool output over 64 KiB is kept in the JetStream object store "outputs"; the
result carries its first 4 KiB as output.content and a reference as output.ref
({"bucket": "outputs", "name": "<tool>/<session>/<intent>", "size": …, "digest": …}).
The last --keep-outputs outputs of each tool are kept (10 by default), for at
most --execution-ttl (24h by default).`,
	}
	open := func(ctx context.Context) (*effects.Outputs, func(), error) {
		return openClient(g, "toolyard-outputs", func(js jetstream.JetStream) (*effects.Outputs, error) {
			return effects.LookupOutputs(ctx, js)
		})
	}
	var timeout time.Duration
	get := &cobra.Command{
		Use:   "get REF | -",
		Short: "Print a stored output in full",
		Long: `Prints the whole output a result's output.ref names. REF is the reference's name
(with or without the "outputs/" bucket prefix) or the ref object as JSON. With
"-", reads result JSON lines (as 'toolyard publish --wait' prints them) from
standard input and prints the full output of every result that has a ref.

A reference whose output was deleted (the tool has produced --keep-outputs
newer ones) or replaced (the same call ran again) is an error, exit status 1.`,
		Example: `  toolyard outputs get outputs/files/read/demo/turn-7.0
  toolyard publish --session demo --wait "[TOOL: print the big log]" | toolyard outputs get -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if timeout <= 0 {
				return fmt.Errorf("--timeout %s: want a positive duration", timeout)
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			var refs []schemas.OutputRef
			if args[0] == "-" {
				var err error
				if refs, err = refsFromResults(cmd.InOrStdin()); err != nil {
					return err
				}
				if len(refs) == 0 {
					return fmt.Errorf("no result on standard input has an output.ref (outputs up to 64 KiB are in output.content)")
				}
			} else {
				ref, err := effects.ParseRef(args[0])
				if err != nil {
					return err
				}
				refs = []schemas.OutputRef{ref}
			}
			o, closeConn, err := open(ctx)
			if err != nil {
				return err
			}
			defer closeConn()
			for _, ref := range refs {
				if ref.Bucket != effects.OutputsBucket {
					return fmt.Errorf("reference %s/%s: only the %q bucket holds outputs", ref.Bucket, ref.Name, effects.OutputsBucket)
				}
				data, err := o.Get(ctx, ref)
				if err != nil {
					return err
				}
				if _, err := cmd.OutOrStdout().Write(data); err != nil {
					return err
				}
			}
			return nil
		},
	}
	get.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "how long to wait for the server")
	list := &cobra.Command{
		Use:   "list TOOL",
		Short: "List the stored outputs of a tool, oldest first",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if timeout <= 0 {
				return fmt.Errorf("--timeout %s: want a positive duration", timeout)
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			o, closeConn, err := open(ctx)
			if err != nil {
				return err
			}
			defer closeConn()
			names, err := o.Names(ctx, args[0])
			if err != nil {
				return err
			}
			for _, n := range names {
				fmt.Fprintln(cmd.OutOrStdout(), effects.OutputsBucket+"/"+n)
			}
			return nil
		},
	}
	list.Flags().DurationVar(&timeout, "timeout", 30*time.Second, "how long to wait for the server")
	cmd.AddCommand(get, list)
	return cmd
}

// refsFromResults finds the output references in result JSON lines.
func refsFromResults(r io.Reader) ([]schemas.OutputRef, error) {
	var refs []schemas.OutputRef
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 8<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var res schemas.Result
		if err := json.Unmarshal([]byte(line), &res); err != nil {
			return nil, fmt.Errorf("standard input line %d is not a result: %w", n, err)
		}
		if res.Output != nil && res.Output.Ref != nil {
			refs = append(refs, *res.Output.Ref)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read standard input: %w", err)
	}
	return refs, nil
}
