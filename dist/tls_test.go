package dist

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// pemFiles writes a certificate and its key as PEM files in dir.
func pemFiles(t *testing.T, dir, name string, der []byte, key *ecdsa.PrivateKey) (certFile, keyFile string) {
	t.Helper()
	kb, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, name+".pem"), filepath.Join(dir, name+"-key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kb}), 0o600); err != nil {
		t.Fatal(err)
	}
	return certFile, keyFile
}

// testPKI makes a CA and, signed by it, a server certificate for
// 127.0.0.1 and a client certificate.
func testPKI(t *testing.T, dir string) (ca *x509.Certificate, caFile string, srv tls.Certificate, client TLSFiles) {
	t.Helper()
	newKey := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	now := time.Now()
	caKey := newKey()
	caTmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "nestor test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		t.Fatal(err)
	}
	ca, _ = x509.ParseCertificate(caDER)
	caFile, _ = pemFiles(t, dir, "ca", caDER, caKey)
	leaf := func(serial int64, name string, usage x509.ExtKeyUsage, ips []net.IP) (string, string) {
		k := newKey()
		tmpl := &x509.Certificate{SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: name},
			NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour), IPAddresses: ips,
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage}}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &k.PublicKey, caKey)
		if err != nil {
			t.Fatal(err)
		}
		return pemFiles(t, dir, name, der, k)
	}
	sc, sk := leaf(2, "server", x509.ExtKeyUsageServerAuth, []net.IP{net.ParseIP("127.0.0.1")})
	if srv, err = tls.LoadX509KeyPair(sc, sk); err != nil {
		t.Fatal(err)
	}
	cc, ck := leaf(3, "worker", x509.ExtKeyUsageClientAuth, nil)
	return ca, caFile, srv, TLSFiles{CA: caFile, Cert: cc, Key: ck}
}

// TestTLS: coordinator and worker reach a server that requires TLS with
// client certificates through TLSFiles; without a client certificate, or
// without the CA, a worker cannot connect.
func TestTLS(t *testing.T) {
	dir := t.TempDir()
	ca, caFile, srvCert, client := testPKI(t, dir)
	pool := x509.NewCertPool()
	pool.AddCert(ca)
	srv, err := server.NewServer(&server.Options{
		Host: "127.0.0.1", Port: server.RANDOM_PORT, JetStream: true, StoreDir: t.TempDir(),
		NoLog: true, NoSigs: true, TLSVerify: true, TLSTimeout: 10,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{srvCert}, ClientCAs: pool,
			ClientAuth: tls.RequireAndVerifyClientCert, MinVersion: tls.VersionTLS12},
	})
	if err != nil {
		t.Fatal(err)
	}
	go srv.Start()
	defer srv.Shutdown()
	if !srv.ReadyForConnections(testTimeout) {
		t.Fatal("server did not start")
	}
	url := strings.Replace(srv.ClientURL(), "nats://", "tls://", 1)

	for _, bad := range []TLSFiles{{CA: caFile}, {Cert: client.Cert, Key: client.Key}, {CA: caFile, Cert: client.Cert}} {
		if err := Work(context.Background(), WorkerOptions{URL: url, TLS: bad}, nil); err == nil {
			t.Errorf("TLS %+v: a worker connected", bad)
		}
	}
	ctx := context.Background()
	c, err := Start(ctx, Options{Server: url, TLS: client, LocalSlots: -1, Prefix: "nestor.test.tls"})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	wctx, cancel := context.WithCancel(ctx)
	done := make(chan error)
	go func() {
		done <- Work(wctx, WorkerOptions{URL: url, TLS: client, Prefix: "nestor.test.tls", Slots: 2}, testEvaluators(t.TempDir()))
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	if _, err := c.Submit(ctx, squareTasks(1, 2, 3)); err != nil {
		t.Fatal(err)
	}
	for _, r := range takeResults(t, c, 3) {
		checkSquare(t, r)
	}
}
