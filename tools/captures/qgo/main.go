// SPDX-License-Identifier: MIT
//
// qgo: a QUIC client and server on quic-go (Debian's
// golang-github-lucas-clemente-quic-go-dev, 0.29) that make traffic to
// capture: N connections, C of them at a time, each one stream carrying
// -up bytes from the client and -down bytes back; TLS secrets written to
// a key log (SSLKEYLOGFILE format).  See tools/captures/README.md.
//
// Build (offline, Debian's packages):
//
//	GO111MODULE=off GOPATH=/usr/share/gocode go build -o qgo .
package main

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	_ "unsafe" // go:linkname

	quic "github.com/lucas-clemente/quic-go"
	"github.com/lucas-clemente/quic-go/http3"
)

// quic-go starts a key update after this many packets sent or received
// with the current keys (100,000 by default); a package variable of an
// internal package, reached by its link name.
//
//go:linkname keyUpdateInterval github.com/lucas-clemente/quic-go/internal/handshake.KeyUpdateInterval
var keyUpdateInterval uint64

const alpn = "aesecb-capture"

func versionOf(s string) (quic.VersionNumber, error) {
	switch s {
	case "1", "v1":
		return quic.Version1, nil
	case "2", "v2":
		return quic.Version2, nil
	case "29", "draft29", "draft-29":
		return quic.VersionDraft29, nil
	}
	return 0, fmt.Errorf("unknown version %q (v1, v2, draft29)", s)
}

func suiteOf(s string) ([]uint16, error) {
	switch s {
	case "", "any":
		return nil, nil
	case "aes128":
		return []uint16{tls.TLS_AES_128_GCM_SHA256}, nil
	case "aes256":
		return []uint16{tls.TLS_AES_256_GCM_SHA384}, nil
	case "chacha":
		return []uint16{tls.TLS_CHACHA20_POLY1305_SHA256}, nil
	}
	return nil, fmt.Errorf("unknown cipher %q (aes128, aes256, chacha)", s)
}

func selfSigned() (tls.Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "localhost"},
		DNSNames:     []string{"localhost"},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(24 * time.Hour),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return tls.Certificate{}, err
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, nil
}

// one stream: the client sends the size it wants back (8 bytes, big
// endian) and -up bytes, then ends its side; the server reads to the
// end and answers with that many bytes.
func serveStream(s quic.Stream) error {
	var hdr [8]byte
	if _, err := io.ReadFull(s, hdr[:]); err != nil {
		return err
	}
	if _, err := io.Copy(io.Discard, s); err != nil {
		return err
	}
	if err := writeN(s, binary.BigEndian.Uint64(hdr[:])); err != nil {
		return err
	}
	return s.Close()
}

var zeros = make([]byte, 64*1024)

func writeN(w io.Writer, n uint64) error {
	for n > 0 {
		k := uint64(len(zeros))
		if n < k {
			k = n
		}
		if _, err := w.Write(zeros[:k]); err != nil {
			return err
		}
		n -= k
	}
	return nil
}

func server(addr string, n int, conf *quic.Config, tconf *tls.Config, retry bool) error {
	if retry {
		conf.RequireAddressValidation = func(net.Addr) bool { return true }
	}
	ln, err := quic.ListenAddr(addr, tconf, conf)
	if err != nil {
		return err
	}
	defer ln.Close()
	fmt.Fprintf(os.Stderr, "qgo server: listening on %s\n", ln.Addr())
	var wg sync.WaitGroup
	var failed int64
	for i := 0; n == 0 || i < n; i++ {
		c, err := ln.Accept(context.Background())
		if err != nil {
			return err
		}
		wg.Add(1)
		go func(c quic.Connection) {
			defer wg.Done()
			s, err := c.AcceptStream(context.Background())
			if err == nil {
				err = serveStream(s)
			}
			if err != nil {
				atomic.AddInt64(&failed, 1)
				fmt.Fprintf(os.Stderr, "qgo server: %v\n", err)
				c.CloseWithError(1, "stream failed")
				return
			}
			// the client closes when it has read the answer
			<-c.Context().Done()
		}(c)
	}
	wg.Wait()
	if failed != 0 {
		return fmt.Errorf("%d connections failed", failed)
	}
	return nil
}

func clientConn(addr string, conf *quic.Config, tconf *tls.Config, up, down uint64) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	c, err := quic.DialAddrContext(ctx, addr, tconf, conf)
	if err != nil {
		return err
	}
	s, err := c.OpenStreamSync(ctx)
	if err != nil {
		return err
	}
	var hdr [8]byte
	binary.BigEndian.PutUint64(hdr[:], down)
	if _, err := s.Write(hdr[:]); err != nil {
		return err
	}
	if err := writeN(s, up); err != nil {
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	got, err := io.Copy(io.Discard, s)
	if err != nil {
		return err
	}
	if uint64(got) != down {
		return fmt.Errorf("read %d bytes, want %d", got, down)
	}
	return c.CloseWithError(0, "")
}

func client(addr string, n, conc int, conf *quic.Config, tconf *tls.Config, up, down uint64) error {
	if conc <= 0 || conc > n {
		conc = n
	}
	work := make(chan int)
	var wg sync.WaitGroup
	var failed int64
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				if err := clientConn(addr, conf.Clone(), tconf.Clone(), up, down); err != nil {
					atomic.AddInt64(&failed, 1)
					fmt.Fprintf(os.Stderr, "qgo client: %v\n", err)
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	if failed != 0 {
		return fmt.Errorf("%d of %d connections failed", failed, n)
	}
	return nil
}

// HTTP/3: GET /SIZE is answered with SIZE bytes; the server stops a
// second after its n-th answer.
func h3server(addr string, n int, conf *quic.Config, tconf *tls.Config) error {
	var served int64
	done := make(chan struct{})
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		size, err := strconv.ParseUint(strings.TrimPrefix(r.URL.Path, "/"), 10, 64)
		if err != nil {
			http.Error(w, "GET /SIZE", http.StatusNotFound)
			return
		}
		w.Header().Set("content-length", strconv.FormatUint(size, 10))
		if err := writeN(w, size); err != nil {
			fmt.Fprintf(os.Stderr, "qgo server: %v\n", err)
		}
		if atomic.AddInt64(&served, 1) == int64(n) {
			close(done)
		}
	})
	srv := &http3.Server{Addr: addr, TLSConfig: tconf, QuicConfig: conf, Handler: handler}
	errc := make(chan error, 1)
	go func() { errc <- srv.ListenAndServe() }()
	select {
	case <-done:
		time.Sleep(time.Second)
		return srv.Close()
	case err := <-errc:
		return err
	}
}

func h3client(addr string, n, conc int, conf *quic.Config, tconf *tls.Config, down uint64) error {
	if conc <= 0 || conc > n {
		conc = n
	}
	work := make(chan int)
	var wg sync.WaitGroup
	var failed int64
	url := fmt.Sprintf("https://%s/%d", addr, down)
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range work {
				// a connection of its own for each request
				rt := &http3.RoundTripper{TLSClientConfig: tconf.Clone(), QuicConfig: conf.Clone()}
				err := func() error {
					resp, err := (&http.Client{Transport: rt}).Get(url)
					if err != nil {
						return err
					}
					defer resp.Body.Close()
					got, err := io.Copy(io.Discard, resp.Body)
					if err != nil {
						return err
					}
					if resp.StatusCode != 200 || uint64(got) != down {
						return fmt.Errorf("%s: status %d, %d bytes", url, resp.StatusCode, got)
					}
					return nil
				}()
				rt.Close()
				if err != nil {
					atomic.AddInt64(&failed, 1)
					fmt.Fprintf(os.Stderr, "qgo client: %v\n", err)
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
	if failed != 0 {
		return fmt.Errorf("%d of %d connections failed", failed, n)
	}
	return nil
}

func main() {
	mode := flag.String("mode", "", "server or client")
	addr := flag.String("addr", "127.0.0.1:4433", "server address")
	n := flag.Int("n", 1, "connections (server: exit after this many; 0: never)")
	conc := flag.Int("c", 0, "client: connections at a time (0: all)")
	up := flag.Uint64("up", 1000, "client: bytes sent on the stream")
	down := flag.Uint64("down", 10000, "client: bytes asked back")
	keylog := flag.String("keylog", os.Getenv("SSLKEYLOGFILE"), "key log file (appended)")
	ku := flag.Uint64("keyupdate", 0, "packets between key updates (0: quic-go's 100,000)")
	version := flag.String("version", "v1", "client: QUIC version (v1, v2, draft29)")
	cipher := flag.String("cipher", "any", "TLS cipher suite (aes128, aes256, chacha, any)")
	retry := flag.Bool("retry", false, "server: send a Retry to every client")
	limit := flag.Duration("timeout", 10*time.Minute, "give up after this long")
	h3 := flag.Bool("h3", false, "HTTP/3 (GET /SIZE) instead of the stream protocol")
	flag.Parse()

	if *ku != 0 {
		keyUpdateInterval = *ku
	}
	suites, err := suiteOf(*cipher)
	if err != nil {
		fmt.Fprintln(os.Stderr, "qgo:", err)
		os.Exit(2)
	}
	tconf := &tls.Config{NextProtos: []string{alpn}, CipherSuites: suites}
	if *keylog != "" {
		f, err := os.OpenFile(*keylog, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, "qgo:", err)
			os.Exit(2)
		}
		defer f.Close()
		tconf.KeyLogWriter = f
	}
	conf := &quic.Config{
		MaxIdleTimeout:        30 * time.Second,
		HandshakeIdleTimeout:  30 * time.Second,
		MaxIncomingStreams:    10,
		MaxIncomingUniStreams: -1,
	}
	if *h3 {
		// HTTP/3 needs unidirectional streams (control, QPACK)
		conf.MaxIncomingStreams = 0
		conf.MaxIncomingUniStreams = 0
	}
	time.AfterFunc(*limit, func() {
		fmt.Fprintf(os.Stderr, "qgo %s: gave up after %v\n", *mode, *limit)
		os.Exit(3)
	})
	switch *mode {
	case "server":
		cert, err2 := selfSigned()
		if err2 != nil {
			err = err2
			break
		}
		tconf.Certificates = []tls.Certificate{cert}
		conf.Versions = []quic.VersionNumber{quic.Version1, quic.Version2, quic.VersionDraft29}
		if *h3 {
			if *retry {
				conf.RequireAddressValidation = func(net.Addr) bool { return true }
			}
			err = h3server(*addr, *n, conf, tconf)
		} else {
			err = server(*addr, *n, conf, tconf, *retry)
		}
	case "client":
		v, err2 := versionOf(*version)
		if err2 != nil {
			err = err2
			break
		}
		conf.Versions = []quic.VersionNumber{v}
		tconf.InsecureSkipVerify = true
		if *h3 {
			err = h3client(*addr, *n, *conc, conf, tconf, *down)
		} else {
			err = client(*addr, *n, *conc, conf, tconf, *up, *down)
		}
	default:
		err = errors.New("-mode server or -mode client")
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "qgo %s: %v\n", *mode, err)
		os.Exit(1)
	}
}
