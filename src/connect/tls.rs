//! TLS for `wss://` URLs of `mjai-sim connect` (riichi.dev's servers, or mjai-sim behind a
//! TLS terminator): rustls with the ring provider, trusting Mozilla's roots (webpki-roots)
//! and, when the environment names one, every certificate in the PEM file `SSL_CERT_FILE`
//! (OpenSSL's variable: a private CA, or a self-signed server's certificate).
//!
//! The game side speaks plain `ws://` only; put a TLS terminator in front of it.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use rustls::ClientConfig;
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::CertificateDer;

/// The variable naming extra trusted certificates (a PEM file).
pub const CERT_FILE_VAR: &str = "SSL_CERT_FILE";

/// The client configuration for `wss://` connections: Mozilla's roots, plus the
/// certificates of the PEM file that `SSL_CERT_FILE` names when it is set. Made once per
/// process (a bridge that reconnects does not read the file again).
///
/// Errors (one line naming the fix): that file cannot be read, holds no certificate, or a
/// certificate in it is malformed; rustls refuses its default protocol versions.
pub fn client_config() -> Result<Arc<ClientConfig>, String> {
    static CONFIG: OnceLock<Result<Arc<ClientConfig>, String>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let extra = match std::env::var_os(CERT_FILE_VAR) {
                Some(path) if !path.is_empty() => certificates_in(Path::new(&path)).map_err(|e| e.to_string())?,
                _ => Vec::new(),
            };
            config_with(extra).map_err(|e| e.to_string())
        })
        .clone()
}

/// [`client_config`] with `extra` trusted certificates beside Mozilla's roots.
pub fn config_with(extra: Vec<CertificateDer<'static>>) -> anyhow::Result<Arc<ClientConfig>> {
    let mut roots = rustls::RootCertStore { roots: webpki_roots::TLS_SERVER_ROOTS.to_vec() };
    for cert in extra {
        roots.add(cert).map_err(|e| anyhow::anyhow!("{CERT_FILE_VAR}: a certificate is not usable ({e})"))?;
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| anyhow::anyhow!("TLS: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// The certificates of the PEM file at `path`. Errors: it cannot be read, a block in it is
/// malformed, or it holds none.
pub fn certificates_in(path: &Path) -> anyhow::Result<Vec<CertificateDer<'static>>> {
    let shown = path.display();
    let certs = CertificateDer::pem_file_iter(path)
        .map_err(|e| anyhow::anyhow!("{CERT_FILE_VAR}={shown}: cannot read it ({e}); point it at a PEM file"))?
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!("{CERT_FILE_VAR}={shown}: not a PEM certificate file ({e})"))?;
    if certs.is_empty() {
        anyhow::bail!("{CERT_FILE_VAR}={shown} holds no certificate; point it at a PEM file");
    }
    Ok(certs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_without_certificates_is_a_one_line_error() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty.pem");
        std::fs::write(&empty, "not a certificate\n").unwrap();
        let e = certificates_in(&empty).unwrap_err().to_string();
        assert!(e.contains("holds no certificate") && !e.contains('\n'), "{e}");
        let e = certificates_in(&dir.path().join("missing.pem")).unwrap_err().to_string();
        assert!(e.contains("cannot read it"), "{e}");
    }

    #[test]
    fn the_default_configuration_trusts_mozillas_roots() {
        assert!(config_with(Vec::new()).is_ok());
        assert!(webpki_roots::TLS_SERVER_ROOTS.len() > 100);
    }
}
