//! A TLS terminator on 127.0.0.1 for `connect wss://` tests: a test CA (written as PEM,
//! for `SSL_CERT_FILE`) signs a certificate for 127.0.0.1; each TLS connection is relayed
//! as plain bytes to the game's `ws://` listener, as a real deployment's terminator does.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
use tokio_rustls::rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use tokio_rustls::rustls::ServerConfig;

/// The running terminator: its port and the CA certificate that clients must trust.
pub struct TlsFront {
    /// Where it listens (127.0.0.1).
    pub addr: SocketAddr,
    /// The test CA's certificate, PEM.
    pub ca_pem: PathBuf,
    _thread: std::thread::JoinHandle<()>,
}

impl TlsFront {
    /// Starts a terminator in front of `backend` (a `HOST:PORT` on 127.0.0.1); the CA's
    /// PEM is written into `dir`.
    pub fn start(backend: String, dir: &Path) -> TlsFront {
        let ca_key = KeyPair::generate().unwrap();
        let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        let ca_cert = ca_params.self_signed(&ca_key).unwrap();
        let issuer = Issuer::new(ca_params, ca_key);
        let leaf_key = KeyPair::generate().unwrap();
        let leaf =
            CertificateParams::new(vec!["127.0.0.1".to_string()]).unwrap().signed_by(&leaf_key, &issuer).unwrap();
        let ca_pem = dir.join("test-ca.pem");
        std::fs::write(&ca_pem, ca_cert.pem()).unwrap();

        let provider = Arc::new(tokio_rustls::rustls::crypto::ring::default_provider());
        let chain: Vec<CertificateDer<'static>> = vec![leaf.der().clone()];
        let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der()));
        let config = ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(chain, key)
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let addr = listener.local_addr().unwrap();
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
            rt.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).unwrap();
                while let Ok((tcp, _)) = listener.accept().await {
                    let (acceptor, backend) = (acceptor.clone(), backend.clone());
                    tokio::spawn(async move {
                        // a client that refuses the certificate ends here
                        let Ok(mut tls) = acceptor.accept(tcp).await else { return };
                        let Ok(mut plain) = tokio::net::TcpStream::connect(backend).await else { return };
                        let _ = tokio::io::copy_bidirectional(&mut tls, &mut plain).await;
                    });
                }
            });
        });
        TlsFront { addr, ca_pem, _thread: thread }
    }
}
