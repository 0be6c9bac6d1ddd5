// SPDX-License-Identifier: MIT
//
// qquinn: a QUIC client and server on quinn 0.9 (Debian's
// librust-quinn-dev) that make traffic to capture, speaking the same
// protocol as qgo (tools/captures/qgo): on one bidirectional stream the
// client sends the number of bytes it wants back (8 bytes, big endian) and
// -up bytes, then ends its side; the server reads to the end and answers.
// TLS secrets go to $SSLKEYLOGFILE (rustls's KeyLogFile).
//
//   qquinn -mode server -addr A -n N -cert PEM -key PEM [-retry]
//          [-cipher aes128|aes256|chacha|any] [-keyupdate MS]
//   qquinn -mode client -addr A -n N -c C -up U -down D [-version v1|draft29]
//          [-cipher ...] [-keyupdate MS] [-share]
//
// -keyupdate MS: each side starts a key update every MS milliseconds of
// a connection's life (quinn's force_key_update; by time, so that the
// peer has acknowledged the last one long before: a key update forced
// while data is only being buffered comes before the previous one is
// acknowledged, which quinn does and tshark 4.0 cannot follow).  -share:
// the client's connections share one UDP socket (one endpoint; tshark
// 4.0 then keeps one TLS state for all of them and decrypts only the
// last handshake's), else each has its own.
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

struct Opts {
    mode: String,
    addr: SocketAddr,
    n: usize,
    conc: usize,
    up: u64,
    down: u64,
    cert: String,
    key: String,
    retry: bool,
    cipher: String,
    keyupdate: u64,
    version: u32,
    timeout: u64,
    share: bool,
}

const ALPN: &[u8] = b"aesecb-capture";

fn usage(why: &str) -> ! {
    eprintln!("qquinn: {}", why);
    std::process::exit(2)
}

fn parse() -> Opts {
    let mut o = Opts {
        mode: String::new(),
        addr: "127.0.0.1:4433".parse().unwrap(),
        n: 1,
        conc: 0,
        up: 1000,
        down: 10000,
        cert: String::new(),
        key: String::new(),
        retry: false,
        cipher: "any".into(),
        keyupdate: 0,
        version: 1,
        timeout: 600,
        share: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if a == "-retry" || a == "-share" {
            if a == "-retry" {
                o.retry = true;
            } else {
                o.share = true;
            }
            i += 1;
            continue;
        }
        let v = args.get(i + 1).unwrap_or_else(|| usage(&format!("{} needs a value", a)));
        let num = |s: &str| -> u64 { s.parse().unwrap_or_else(|_| usage(&format!("{}: not a number: {}", a, s))) };
        match a {
            "-mode" => o.mode = v.clone(),
            "-addr" => o.addr = v.parse().unwrap_or_else(|_| usage("-addr: HOST:PORT")),
            "-n" => o.n = num(v) as usize,
            "-c" => o.conc = num(v) as usize,
            "-up" => o.up = num(v),
            "-down" => o.down = num(v),
            "-cert" => o.cert = v.clone(),
            "-key" => o.key = v.clone(),
            "-cipher" => o.cipher = v.clone(),
            "-keyupdate" => o.keyupdate = num(v),
            "-timeout" => o.timeout = num(v),
            "-version" => {
                o.version = match v.as_str() {
                    "v1" | "1" => 1,
                    "draft29" | "29" => 0xff00_001d,
                    _ => usage("-version: v1 or draft29"),
                }
            }
            _ => usage(&format!("unknown option {}", a)),
        }
        i += 2;
    }
    o
}

fn suites(name: &str) -> Vec<rustls::SupportedCipherSuite> {
    use rustls::cipher_suite::*;
    match name {
        "aes128" => vec![TLS13_AES_128_GCM_SHA256],
        "aes256" => vec![TLS13_AES_256_GCM_SHA384],
        "chacha" => vec![TLS13_CHACHA20_POLY1305_SHA256],
        "any" => vec![TLS13_AES_128_GCM_SHA256, TLS13_AES_256_GCM_SHA384, TLS13_CHACHA20_POLY1305_SHA256],
        _ => usage("-cipher: aes128, aes256, chacha or any"),
    }
}

struct NoVerify;

impl rustls::client::ServerCertVerifier for NoVerify {
    fn verify_server_cert(
        &self,
        _end_entity: &rustls::Certificate,
        _intermediates: &[rustls::Certificate],
        _server_name: &rustls::ServerName,
        _scts: &mut dyn Iterator<Item = &[u8]>,
        _ocsp: &[u8],
        _now: std::time::SystemTime,
    ) -> Result<rustls::client::ServerCertVerified, rustls::Error> {
        Ok(rustls::client::ServerCertVerified::assertion())
    }
}

type Res<T> = Result<T, Box<dyn std::error::Error + Send + Sync>>;

// write n zero bytes
async fn write_n(s: &mut quinn::SendStream, n: u64) -> Res<()> {
    let buf = vec![0u8; 64 * 1024];
    let mut left = n;
    while left > 0 {
        let k = std::cmp::min(left, buf.len() as u64) as usize;
        s.write_all(&buf[..k]).await?;
        left -= k as u64;
    }
    Ok(())
}

// a key update every `ms` milliseconds while the connection lives
fn key_updates(conn: &quinn::Connection, ms: u64) {
    if ms == 0 {
        return;
    }
    let conn = conn.clone();
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_millis(ms));
        tick.tick().await;
        loop {
            tokio::select! {
                _ = conn.closed() => return,
                _ = tick.tick() => conn.force_key_update(),
            }
        }
    });
}

async fn read_all(r: &mut quinn::RecvStream) -> Res<u64> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    while let Some(k) = r.read(&mut buf).await? {
        total += k as u64;
    }
    Ok(total)
}

async fn serve(conn: quinn::Connection, every: u64) -> Res<()> {
    key_updates(&conn, every);
    let (mut send, mut recv) = conn.accept_bi().await?;
    let mut hdr = [0u8; 8];
    recv.read_exact(&mut hdr).await?;
    read_all(&mut recv).await?;
    write_n(&mut send, u64::from_be_bytes(hdr)).await?;
    send.finish().await?;
    // the client closes once it has read the answer
    let _ = conn.closed().await;
    Ok(())
}

async fn server(o: Opts) -> Res<()> {
    let certs: Vec<rustls::Certificate> =
        rustls_pemfile::certs(&mut std::io::BufReader::new(std::fs::File::open(&o.cert)?))?
            .into_iter()
            .map(rustls::Certificate)
            .collect();
    let key = rustls_pemfile::pkcs8_private_keys(&mut std::io::BufReader::new(std::fs::File::open(&o.key)?))?
        .pop()
        .ok_or("-key: no PKCS#8 key")?;
    let mut tls = rustls::ServerConfig::builder()
        .with_cipher_suites(&suites(&o.cipher))
        .with_safe_default_kx_groups()
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .with_no_client_auth()
        .with_single_cert(certs, rustls::PrivateKey(key))?;
    tls.alpn_protocols = vec![ALPN.to_vec()];
    tls.key_log = Arc::new(rustls::KeyLogFile::new());
    tls.max_early_data_size = 0;
    let mut cfg = quinn::ServerConfig::with_crypto(Arc::new(tls));
    cfg.use_retry(o.retry);
    let ep = quinn::Endpoint::server(cfg, o.addr)?;
    eprintln!("qquinn server: listening on {}", ep.local_addr()?);
    let mut tasks = Vec::new();
    for _ in 0..o.n {
        let connecting = ep.accept().await.ok_or("endpoint closed")?;
        let every = o.keyupdate;
        tasks.push(tokio::spawn(async move {
            let conn = connecting.await?;
            serve(conn, every).await
        }));
    }
    let mut failed = 0;
    for t in tasks {
        if let Err(e) = t.await? {
            eprintln!("qquinn server: {}", e);
            failed += 1;
        }
    }
    ep.wait_idle().await;
    if failed > 0 {
        return Err(format!("{} connections failed", failed).into());
    }
    Ok(())
}

async fn client_conn(ep: &quinn::Endpoint, o: &Opts) -> Res<()> {
    let conn = ep.connect(o.addr, "localhost")?.await?;
    key_updates(&conn, o.keyupdate);
    let (mut send, mut recv) = conn.open_bi().await?;
    send.write_all(&o.down.to_be_bytes()).await?;
    write_n(&mut send, o.up).await?;
    send.finish().await?;
    let got = read_all(&mut recv).await?;
    if got != o.down {
        return Err(format!("read {} bytes, want {}", got, o.down).into());
    }
    conn.close(0u32.into(), b"");
    Ok(())
}

async fn client(o: Opts) -> Res<()> {
    let mut tls = rustls::ClientConfig::builder()
        .with_cipher_suites(&suites(&o.cipher))
        .with_safe_default_kx_groups()
        .with_protocol_versions(&[&rustls::version::TLS13])?
        .with_custom_certificate_verifier(Arc::new(NoVerify))
        .with_no_client_auth();
    tls.alpn_protocols = vec![ALPN.to_vec()];
    tls.key_log = Arc::new(rustls::KeyLogFile::new());
    let mut cfg = quinn::ClientConfig::new(Arc::new(tls));
    cfg.version(o.version);
    let mut transport = quinn::TransportConfig::default();
    transport.max_idle_timeout(Some(Duration::from_secs(30).try_into()?));
    cfg.transport_config(Arc::new(transport));
    let bind: SocketAddr = if o.addr.is_ipv6() { "[::1]:0".parse()? } else { "127.0.0.1:0".parse()? };
    let mut ep = quinn::Endpoint::client(bind)?;
    ep.set_default_client_config(cfg.clone());
    let conc = if o.conc == 0 || o.conc > o.n { o.n } else { o.conc };
    let o = Arc::new(o);
    let next = Arc::new(AtomicUsize::new(0));
    let failed = Arc::new(AtomicUsize::new(0));
    let mut workers = Vec::new();
    for _ in 0..conc {
        let (ep, o, next, failed, cfg) = (ep.clone(), o.clone(), next.clone(), failed.clone(), cfg.clone());
        workers.push(tokio::spawn(async move {
            while next.fetch_add(1, Ordering::SeqCst) < o.n {
                let r = if o.share {
                    client_conn(&ep, &o).await
                } else {
                    // an endpoint (a UDP socket) of its own
                    match quinn::Endpoint::client(bind) {
                        Ok(mut own) => {
                            own.set_default_client_config(cfg.clone());
                            let r = client_conn(&own, &o).await;
                            own.wait_idle().await;
                            r
                        }
                        Err(e) => Err(e.into()),
                    }
                };
                if let Err(e) = r {
                    eprintln!("qquinn client: {}", e);
                    failed.fetch_add(1, Ordering::SeqCst);
                }
            }
        }));
    }
    for w in workers {
        w.await?;
    }
    ep.wait_idle().await;
    let f = failed.load(Ordering::SeqCst);
    if f > 0 {
        return Err(format!("{} of {} connections failed", f, o.n).into());
    }
    Ok(())
}

#[tokio::main]
async fn main() {
    let o = parse();
    let limit = Duration::from_secs(o.timeout);
    let mode = o.mode.clone();
    let work = async move {
        match mode.as_str() {
            "server" => server(o).await,
            "client" => client(o).await,
            _ => usage("-mode server or -mode client"),
        }
    };
    match tokio::time::timeout(limit, work).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => {
            eprintln!("qquinn: {}", e);
            std::process::exit(1)
        }
        Err(_) => {
            eprintln!("qquinn: gave up after {:?}", limit);
            std::process::exit(3)
        }
    }
}
