//! Secrets of a deployment read from files (Docker secrets are files under `/run/secrets`),
//! so that no password or token sits in a command line, an environment variable or a stack
//! file: the database password ([`PASSWORD_FILE_VAR`]) and the admin's token (`serve
//! --admin-token-file`).

use std::path::Path;

use anyhow::{bail, Context};

/// The variable naming a file whose first line is the database password, put into a
/// `postgres://` URL that has none (the stack's services and `docker exec` into them).
pub const PASSWORD_FILE_VAR: &str = "MJAI_SIM_DB_PASSWORD_FILE";

/// The store URL `db` with the password of [`PASSWORD_FILE_VAR`] when that variable is set
/// and `db` is a `postgres://` or `postgresql://` URL without a password; otherwise `db`
/// unchanged. Errors (one line naming the file): the file cannot be read or is empty.
pub fn with_password_file(db: &str) -> anyhow::Result<String> {
    match std::env::var_os(PASSWORD_FILE_VAR).filter(|v| !v.is_empty()) {
        Some(file) => with_password_from(db, Path::new(&file)),
        None => Ok(db.to_string()),
    }
}

/// [`with_password_file`] with the file given.
pub fn with_password_from(db: &str, file: &Path) -> anyhow::Result<String> {
    let Ok(mut url) = url::Url::parse(db) else { return Ok(db.to_string()) };
    if !matches!(url.scheme(), "postgres" | "postgresql") || url.password().is_some() {
        return Ok(db.to_string());
    }
    let password = first_line(file).context(PASSWORD_FILE_VAR)?;
    if url.set_password(Some(&password)).is_err() {
        bail!("{db}: this URL cannot hold a password; give postgres://USER@HOST:PORT/NAME");
    }
    Ok(url.to_string())
}

/// The first line of `file`, without its line end. Errors (one line naming the file and
/// the fix): unreadable, or empty.
pub fn first_line(file: &Path) -> anyhow::Result<String> {
    let text = std::fs::read_to_string(file)
        .with_context(|| format!("cannot read {}: give a readable file (a Docker secret)", file.display()))?;
    let line = text.lines().next().unwrap_or("").trim_end_matches('\r').to_string();
    if line.is_empty() {
        bail!("{} is empty: its first line must hold the secret", file.display());
    }
    Ok(line)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(text: &str) -> tempfile::NamedTempFile {
        let f = tempfile::NamedTempFile::new().unwrap();
        std::fs::write(f.path(), text).unwrap();
        f
    }

    #[test]
    fn the_password_goes_into_a_postgres_url_without_one_percent_encoded() {
        let f = secret("p@ss/w:rd\nignored\n");
        let url = with_password_from("postgres://mjai@db:5432/mjai", f.path()).unwrap();
        assert_eq!(url, "postgres://mjai:p%40ss%2Fw%3Ard@db:5432/mjai");
    }

    #[test]
    fn a_url_with_a_password_or_a_sqlite_file_is_kept() {
        let f = secret("other\n");
        for db in ["postgres://u:given@h/d", "mjai-sim-serve.sqlite", "sqlite:x.sqlite"] {
            assert_eq!(with_password_from(db, f.path()).unwrap(), db);
        }
    }

    #[test]
    fn an_empty_or_missing_file_is_a_one_line_error_naming_it() {
        let f = secret("\n");
        let e = format!("{:#}", with_password_from("postgres://u@h/d", f.path()).unwrap_err());
        assert!(e.contains("is empty") && e.contains(&f.path().display().to_string()), "{e}");
        let e = format!("{:#}", with_password_from("postgres://u@h/d", Path::new("/nonexistent/pw")).unwrap_err());
        assert!(e.contains("cannot read /nonexistent/pw") && !e.contains('\n'), "{e}");
    }
}
