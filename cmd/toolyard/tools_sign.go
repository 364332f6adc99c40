package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/nats-io/nkeys"
	"github.com/spf13/cobra"

	"github.com/toolyard/toolyard/schemas"
	"github.com/toolyard/toolyard/workers/registry/sign"
)

const signingHelp = `Signatures are ed25519, made with an nkeys account key (seed "SA…", public key
"A…"; make one with 'toolyard tools keygen'). A signature covers the whole manifest
except its own "sig" member (canonical JSON: sorted keys, no spaces) and, for
subprocess tools and MCP servers started as a command, the sha256 of every file the
command line names that exists (absolute, or relative to the executor's dir; not
commands looked up on PATH, not files under /bin, /usr/bin, /usr/lib and the like),
and of a file a parameter is fixed to ("const": the script a kiwi tool hands down),
and of every file the executor declares in "files" (libraries it sources, helpers it
runs: absolute, or relative to its dir).
Each signature carries a serial (the signing time in milliseconds by default, or
--serial N): the registry and the workers refuse a signed manifest older than one
they have seen for the same id (downgraded_tool), so an old signed version cannot be
brought back.
Execute workers started with --require-signed --trusted-keys A… run only tools
whose signature verifies, and answer the others unsigned_tool, bad_signature,
untrusted_key, revoked_key (--revoked-keys-file) or downgraded_tool.`

func newToolsKeygen() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "keygen --out SEED_FILE",
		Short: "Create a tool-signing key (an nkeys account key) and print its public key",
		Long: `Writes a new account seed to SEED_FILE (mode 0600; an existing file is never
overwritten) and prints the public key, which workers trust with --trusted-keys.

` + signingHelp,
		Example: `  toolyard tools keygen --out ~/.toolyard/signing.nk`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			kp, err := sign.NewKey()
			if err != nil {
				return err
			}
			defer kp.Wipe()
			seed, err := kp.Seed()
			if err != nil {
				return err
			}
			f, err := os.OpenFile(out, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
			if err != nil {
				return fmt.Errorf("write the seed: %w", err)
			}
			_, err = f.Write(append(seed, '\n'))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fmt.Errorf("write the seed: %w", err)
			}
			pub, _ := kp.PublicKey()
			fmt.Fprintln(cmd.OutOrStdout(), pub)
			return nil
		},
	}
	c.Flags().StringVar(&out, "out", "", "file to write the seed to (required; kept secret)")
	_ = c.MarkFlagRequired("out")
	return c
}

func newToolsSign(g *globalFlags) *cobra.Command {
	var keyFile, out string
	var inRegistry bool
	var serial int64
	c := &cobra.Command{
		Use:   "sign --key SEED_FILE (MANIFEST_FILE… | --registry ID|PREFIX/|GLOB…)",
		Short: "Sign tool manifests (and the scripts they run) so --require-signed workers run them",
		Long: `Signs every manifest in each file — JSONL, a JSON array, or one JSON object — and
writes the file back in the same shape (or to --out). Sign after the last change to a
manifest or its scripts: any later change makes workers refuse the tool. Import the
signed file with 'toolyard tools import --replace'. Importing with --namespace changes
the ids and so breaks the signatures: sign the ids as they will be registered.

With --registry, signs tools already in the server's registry (by id, or every tool
under a PREFIX/ such as the NAME/ of an MCP or NATS import) and writes them back:
review what an importer brought in, then sign it. A later re-import that changes a
tool drops its signature, as it should.

` + signingHelp,
		Example: `  toolyard tools sign --key ~/.toolyard/signing.nk tools.jsonl
  toolyard tools sign --key signing.nk --out - tool.json | toolyard tools add -
  toolyard tools sign --key signing.nk --registry everything/ weather/forecast`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out != "" && (len(args) > 1 || inRegistry) {
				return errors.New("--out takes one input file")
			}
			kp, err := sign.LoadKey(keyFile)
			if err != nil {
				return err
			}
			defer kp.Wipe()
			pub, _ := kp.PublicKey()
			if inRegistry {
				return signRegistry(cmd, g, kp, pub, args, sign.WithSerial(serial))
			}
			for _, file := range args {
				mf, err := readManifestFile(file)
				if err != nil {
					return err
				}
				for i, m := range mf.manifests {
					if mf.manifests[i], err = sign.Sign(m, kp, sign.WithSerial(serial)); err != nil {
						return fmt.Errorf("%s: %w", file, err)
					}
				}
				dest := file
				if out != "" {
					dest = out
				}
				if err := mf.write(dest, cmd.OutOrStdout()); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "%s: %d tool(s) signed by %s\n", file, len(mf.manifests), pub)
			}
			return nil
		},
	}
	c.Flags().StringVar(&keyFile, "key", "", "account seed file (SA…) to sign with (required)")
	c.Flags().StringVar(&out, "out", "", "write the signed manifests here instead of back to the file (- for standard output)")
	c.Flags().BoolVar(&inRegistry, "registry", false, "sign tools in the server's registry: the arguments are tool ids, PREFIX/ for every tool under it, or globs ('github/*')")
	c.Flags().Int64Var(&serial, "serial", 0, "signature serial (must grow with every version of a tool); default: the signing time in milliseconds, or one more than the tool's current serial")
	_ = c.MarkFlagRequired("key")
	return c
}

func newToolsVerify(g *globalFlags) *cobra.Command {
	var keys []string
	var keysFile, revokedFile string
	var inRegistry bool
	c := &cobra.Command{
		Use:   "verify --trusted-keys A… (MANIFEST_FILE… | --registry [ID|PREFIX/|GLOB…])",
		Short: "Check tool signatures as --require-signed workers do",
		Long: `Prints one line per tool: ok, or why a --require-signed worker would refuse it.
Exits with status 1 if any tool would be refused. With --registry, checks the tools in
the server's registry (all, or those named by id, PREFIX/ or glob).

` + signingHelp,
		Example: `  toolyard tools verify --trusted-keys ABCD… tools.jsonl
  toolyard tools verify --trusted-keys-file trusted.txt --registry`,
		Args: func(cmd *cobra.Command, args []string) error {
			if !inRegistry && len(args) == 0 {
				return errors.New("give manifest files, or --registry")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if keysFile != "" {
				more, err := sign.ReadKeys(keysFile)
				if err != nil {
					return err
				}
				keys = append(keys, more...)
			}
			trust, err := sign.NewTrust(keys...)
			if err != nil {
				return fmt.Errorf("--trusted-keys: %w", err)
			}
			if revokedFile != "" {
				if err := trust.RevokeFile(revokedFile); err != nil {
					return fmt.Errorf("--revoked-keys-file: %w", err)
				}
			}
			var ms []schemas.Manifest
			if inRegistry {
				if ms, err = registryTools(cmd, g, args); err != nil {
					return err
				}
			}
			for _, file := range args {
				if inRegistry {
					break
				}
				mf, err := readManifestFile(file)
				if err != nil {
					return err
				}
				ms = append(ms, mf.manifests...)
			}
			bad := 0
			for _, m := range ms {
				if m.Executor != nil && m.Executor.Kind == schemas.ExecBuiltin {
					fmt.Fprintf(cmd.OutOrStdout(), "%s\tok\tbuiltin (runs in-process, needs no signature)\n", m.ID)
					continue
				}
				if err := sign.Verify(m, trust); err != nil {
					bad++
					fmt.Fprintf(cmd.OutOrStdout(), "%s\trefused\t%v\n", m.ID, err)
					continue
				}
				fmt.Fprintf(cmd.OutOrStdout(), "%s\tok\tsigned by %s\n", m.ID, m.Signature.Key)
			}
			if bad > 0 {
				return exitCode(1)
			}
			return nil
		},
	}
	c.Flags().StringSliceVar(&keys, "trusted-keys", nil, "public account nkeys (A…) to trust, comma-separated")
	c.Flags().StringVar(&keysFile, "trusted-keys-file", "", "file of trusted public keys, one per line")
	c.Flags().StringVar(&revokedFile, "revoked-keys-file", "", "revocation list: public keys whose signatures are refused, one per line")
	c.Flags().BoolVar(&inRegistry, "registry", false, "check the server's registry instead of files: all tools, or those named by id, PREFIX/ or glob")
	return c
}

// manifestFile is a file of manifests and the shape it was written in.
type manifestFile struct {
	manifests []schemas.Manifest
	shape     string // "array", "object" (one, indented) or "lines"
	mode      os.FileMode
}

func readManifestFile(file string) (*manifestFile, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	mf := &manifestFile{shape: "lines", mode: 0o644}
	if fi, err := os.Stat(file); err == nil {
		mf.mode = fi.Mode().Perm()
	}
	trimmed := bytes.TrimSpace(data)
	var raws []json.RawMessage
	if bytes.HasPrefix(trimmed, []byte("[")) {
		mf.shape = "array"
		if err := json.Unmarshal(trimmed, &raws); err != nil {
			return nil, fmt.Errorf("%s: JSON array: %w", file, err)
		}
	} else {
		dec := json.NewDecoder(bytes.NewReader(data))
		for {
			var raw json.RawMessage
			err := dec.Decode(&raw)
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				return nil, fmt.Errorf("%s: manifest %d: %w", file, len(raws)+1, err)
			}
			raws = append(raws, raw)
		}
		if len(raws) == 1 && bytes.Contains(trimmed, []byte("\n")) {
			mf.shape = "object"
		}
	}
	if len(raws) == 0 {
		return nil, fmt.Errorf("%s: no manifests", file)
	}
	for i, raw := range raws {
		m, err := schemas.ValidateManifest(raw)
		if err != nil {
			return nil, fmt.Errorf("%s: manifest %d: %w", file, i+1, err)
		}
		mf.manifests = append(mf.manifests, m)
	}
	return mf, nil
}

// write puts the manifests in dest ("-": w) in the file's shape, replacing
// a file atomically.
func (mf *manifestFile) write(dest string, w io.Writer) error {
	var buf bytes.Buffer
	switch mf.shape {
	case "object":
		b, err := json.MarshalIndent(mf.manifests[0], "", "  ")
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	default:
		lines := make([]string, len(mf.manifests))
		for i, m := range mf.manifests {
			b, err := json.Marshal(m)
			if err != nil {
				return err
			}
			lines[i] = string(b)
		}
		if mf.shape == "array" {
			buf.WriteString("[\n" + strings.Join(lines, ",\n") + "\n]\n")
		} else {
			buf.WriteString(strings.Join(lines, "\n") + "\n")
		}
	}
	if dest == "-" {
		bw := bufio.NewWriter(w)
		_, _ = bw.Write(buf.Bytes())
		return bw.Flush()
	}
	tmp, err := os.CreateTemp(filepath.Dir(dest), "."+filepath.Base(dest)+".sign-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(buf.Bytes()); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mf.mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), dest)
}

// registryTools are the registered tools named by ids, PREFIX/ or globs,
// as tools remove takes them (all when none are named); an argument that
// matches nothing is an error.
func registryTools(cmd *cobra.Command, g *globalFlags, patterns []string) ([]schemas.Manifest, error) {
	store, closeFn, err := openStore(cmd.Context(), g)
	if err != nil {
		return nil, err
	}
	defer closeFn()
	all, err := store.List(cmd.Context())
	if err != nil {
		return nil, err
	}
	if len(patterns) == 0 {
		return all, nil
	}
	ids, _, _, err := matchToolIDs(all, nil, patterns)
	if err != nil {
		return nil, err
	}
	byID := make(map[string]schemas.Manifest, len(all))
	for _, m := range all {
		byID[m.ID] = m
	}
	out := make([]schemas.Manifest, 0, len(ids))
	for _, id := range ids {
		out = append(out, byID[id])
	}
	return out, nil
}

// signRegistry signs the registered tools named by ids or PREFIX/ and
// writes them back.
func signRegistry(cmd *cobra.Command, g *globalFlags, kp nkeys.KeyPair, pub string, patterns []string, opts ...sign.Option) error {
	ms, err := registryTools(cmd, g, patterns)
	if err != nil {
		return err
	}
	signed := make([]schemas.Manifest, len(ms))
	for i, m := range ms {
		if signed[i], err = sign.Sign(m, kp, opts...); err != nil {
			return err
		}
	}
	store, closeFn, err := openStore(cmd.Context(), g)
	if err != nil {
		return err
	}
	defer closeFn()
	rep, err := store.Import(cmd.Context(), signed, true)
	if err != nil {
		return err
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d tool(s) signed by %s (%d changed, %d already signed so)\n", len(signed), pub, len(rep.Replaced)+len(rep.Added), len(rep.Unchanged))
	return nil
}
