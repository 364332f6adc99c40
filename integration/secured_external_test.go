package integration

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// writeTLS writes a CA and a server certificate for 127.0.0.1 signed by
// it; it returns the paths of the CA, the certificate and the key.
func writeTLS(t *testing.T, dir string) (ca, cert, key string) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "toolyard test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	srvKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	srvTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		KeyUsage: x509.KeyUsageDigitalSignature,
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		t.Fatal(err)
	}
	srvDER, err := x509.CreateCertificate(rand.Reader, srvTmpl, caCert, &srvKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(srvKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, cert, key = filepath.Join(dir, "ca.pem"), filepath.Join(dir, "server.pem"), filepath.Join(dir, "server-key.pem")
	for path, block := range map[string]*pem.Block{
		ca: {Type: "CERTIFICATE", Bytes: caDER}, cert: {Type: "CERTIFICATE", Bytes: srvDER}, key: {Type: "EC PRIVATE KEY", Bytes: keyDER},
	} {
		if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return ca, cert, key
}

// The stages run against an external NATS server secured the way an
// operator secures a cluster: TLS, and the trust 'toolyard creds
// server-config' writes. Workers reach it with --creds and --tls-ca; an
// agent with its own credential; an anonymous or plain-text client fails.
func TestSecuredExternalServer(t *testing.T) {
	dir := t.TempDir()
	keys := filepath.Join(dir, "keys")
	authConf := filepath.Join(dir, "auth.conf")
	toolyard(t, "creds", "server-config", "--data", keys, "--out", authConf)
	ca, cert, key := writeTLS(t, dir)
	port := freePort(t)
	conf := filepath.Join(dir, "nats.conf")
	if err := os.WriteFile(conf, []byte(fmt.Sprintf(`listen: 127.0.0.1:%d
jetstream { store_dir: %q, max_file_store: `+testMaxFileStore+` }
tls { cert_file: %q, key_file: %q }
include ./auth.conf
`, port, filepath.Join(dir, "js"), cert, key)), 0o600); err != nil {
		t.Fatal(err)
	}
	node := &clusterNode{Conf: conf}
	node.Start(t)
	t.Cleanup(node.Stop)
	url := fmt.Sprintf("tls://127.0.0.1:%d", port)
	admin, worker := filepath.Join(keys, "creds", "admin.creds"), filepath.Join(keys, "creds", "worker.creds")

	if nc, err := nats.Connect(url, nats.RootCAs(ca)); err == nil {
		nc.Close()
		t.Fatal("an anonymous client connected to the secured server")
	}
	if nc, err := nats.Connect(fmt.Sprintf("nats://127.0.0.1:%d", port), nats.UserCredentials(admin)); err == nil {
		nc.Close()
		t.Fatal("a client without TLS connected to the server that requires it")
	}

	reg, recordFile := testRegistry(t)
	toolyard(t, "tools", "import", "--nats", url, "--creds", admin, "--tls-ca", ca, reg)
	w := startProcess(t, "worker", "--nats", url, "--creds", worker, "--tls-ca", ca, "--http", "",
		"--stage", "parse,discover,route,choose,answer,resolve,execute,join")
	w.WaitOutput(t, "worker started", 60*time.Second)

	agent := filepath.Join(dir, "agent.creds")
	toolyard(t, "creds", "agent", "--data", keys, "--session", "ext", "--out", agent)
	out := toolyard(t, "publish", "--nats", url, "--creds", agent, "--tls-ca", ca, "--session", "ext", "--wait", "--timeout", "60s",
		`<tool_call name="test/record">{"label": "over-tls"}</tool_call>`)
	if !strings.Contains(out, `"status":"executed"`) {
		t.Fatalf("the agent's call did not run on the secured server:\n%s\nworker:\n%s", out, w.Output.String())
	}
	if len(records(t, recordFile)["over-tls"]) != 1 {
		t.Errorf("the tool did not run once: %v", records(t, recordFile))
	}
	if strings.Contains(w.Output.String(), "Permissions Violation") {
		t.Errorf("the worker credential lacks a permission the stages use:\n%s", w.Output.String())
	}
}
