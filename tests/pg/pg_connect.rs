//! Opening a PostgreSQL store that cannot be used answers one line naming the fix, told by
//! the server's SQLSTATE (a missing database: 3D000) or by the connection failing (nothing
//! listening), never by the message's wording.

use mjai_sim::tournament::store::{Store, StoreError};

use crate::pg_support::{free_port, PgCluster};

fn open(url: &str) -> StoreError {
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    match rt.block_on(Store::open_url(url, 2)) {
        Ok(_) => panic!("{url} opened"),
        Err(e) => e,
    }
}

#[test]
fn a_missing_database_names_createdb_and_a_closed_port_names_the_host() {
    let pg = PgCluster::start();
    let missing = pg.url().replace("/postgres", "/no_such_db");
    let e = open(&missing).to_string();
    assert!(e.contains("create the database (createdb NAME)"), "{e}");
    assert!(!e.contains('\n'), "one line: {e}");
    // The same server's own database opens (the URL above differs only in its name).
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(Store::open_url(&pg.url(), 2)).expect("the cluster's own database opens");

    let closed = format!("postgres://mjai@127.0.0.1:{}/postgres", free_port());
    let e = open(&closed).to_string();
    assert!(e.contains("check that PostgreSQL runs and the host and port in --db"), "{e}");
}
