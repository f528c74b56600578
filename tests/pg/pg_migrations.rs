//! The two migration trees, `migrations/` (SQLite) and `migrations_pg/` (PostgreSQL), give
//! the same schema but for the dialect: both are applied to real databases (a SQLite file,
//! a throwaway PostgreSQL cluster), read back by introspection (tables, columns with their
//! types, nullability and defaults, primary keys, unique constraints, named indexes,
//! foreign keys), the documented differences are taken out ([`normalise`] and the tables
//! below), and what is left must be equal. A column, table, index or key added to one tree
//! only fails the test, naming it.
//!
//! The documented differences (src/tournament/store/mod.rs, docs/guide-scale-out.md):
//! - Both hold many tournaments (a SQLite file since 20261206000020: a server's leagues, a
//!   season's final), but the tenant column `t` references `tournament (id)` in PostgreSQL
//!   only; in SQLite it defaults to 1. So `t` is left out of every key, index and
//!   foreign key, its default is ignored, and foreign keys to `tournament` are PostgreSQL's.
//! - `tournament.id` is a `BIGSERIAL` in PostgreSQL (SQLite's rows are numbered by
//!   `Store::create`), and
//!   `tournament.tid` is unique there (many tournaments by name).
//! - Types are compared through [`TYPES`] (`BLOB` is `BYTEA`); a primary key's columns are
//!   not null (SQLite allows a NULL in a non-integer key, a quirk nothing relies on).
//! - SQLite's `20261123000002_workers.sql` (the scale-out columns added to the first
//!   tables) is folded into PostgreSQL's first migration, and `20261206000020_many_leagues.sql`
//!   (the first tables keyed by `t` too, which PostgreSQL's were from the start) has no
//!   PostgreSQL twin; the other files pair up by name.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::pg_support::PgCluster;
use sqlx::Row;

/// Each engine's spelling of a column type and the one both are compared as. A type in
/// neither list fails the test: add it here only when both engines store it alike.
const TYPES: &[(&str, &str, &str)] = &[
    // (SQLite as declared, PostgreSQL's information_schema, compared as)
    ("BIGINT", "bigint", "bigint"),
    ("INTEGER", "integer", "integer"),
    ("TEXT", "text", "text"),
    ("BLOB", "bytea", "bytes"),
    ("DOUBLE PRECISION", "double precision", "double"),
];

/// Migrations of SQLite's tree that PostgreSQL's folds into another file.
const SQLITE_ONLY_FILES: &[&str] = &["20261123000002_workers.sql", "20261206000020_many_leagues.sql"];

/// Facts found in PostgreSQL's schema only, by design (see the module docs).
const POSTGRES_ONLY: &[&str] = &["unique tournament (tid)"];

/// Differences that are not dialect but are known and left as they are: each one is
/// reported, and the test fails once one is gone (then remove it here).
const KNOWN_DRIFT: &[(&str, &str)] = &[(
    "foreign key game_files (game_idx) -> games (idx)",
    "PostgreSQL's game_files references its game; SQLite's, created by ALTERs in \
     20261123000002_workers.sql, does not (SQLite cannot add a foreign key to an existing \
     table without rebuilding it)",
)];

/// One engine's schema as facts: `"column bots.name"` → `"text not null"`, and so on.
type Facts = BTreeMap<String, String>;

#[derive(Default)]
struct Schema {
    /// `(table, column)` → (type as compared, not null, default as written).
    columns: BTreeMap<(String, String), (String, bool, Option<String>)>,
    /// table → primary key columns in key order.
    primary_keys: BTreeMap<String, Vec<String>>,
    /// `(table, columns)` of each unique constraint other than the primary key.
    uniques: Vec<(String, Vec<String>)>,
    /// named index → (table, columns, unique, partial).
    indexes: BTreeMap<String, (String, Vec<String>, bool, bool)>,
    /// `(table, columns, referenced table, referenced columns)`.
    foreign_keys: Vec<(String, Vec<String>, String, Vec<String>)>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn compared_type(ty: &str, engine: usize) -> String {
    let found = TYPES.iter().find(|t| [t.0, t.1][engine].eq_ignore_ascii_case(ty.trim()));
    let engine = ["SQLite", "PostgreSQL"][engine];
    found.map(|t| t.2.to_string()).unwrap_or_else(|| panic!("{engine} type {ty} is not in TYPES"))
}

/// The schema with the documented differences taken out, as facts.
fn normalise(s: &Schema) -> Facts {
    let no_t = |cols: &[String]| cols.iter().filter(|c| *c != "t").cloned().collect::<Vec<_>>().join(", ");
    let mut facts = Facts::new();
    for ((table, column), (ty, not_null, default)) in &s.columns {
        let key = s.primary_keys.get(table).is_some_and(|k| k.contains(column));
        let default = default
            .as_deref()
            .filter(|d| column != "t" && !d.starts_with("nextval("))
            .map(|d| format!(" default {}", d.split("::").next().unwrap_or(d)));
        let null = if *not_null || key { "not null" } else { "null" };
        facts.insert(format!("column {table}.{column}"), format!("{ty} {null}{}", default.unwrap_or_default()));
    }
    for (table, cols) in &s.primary_keys {
        facts.insert(format!("primary key {table}"), format!("({})", no_t(cols)));
    }
    for (table, cols) in &s.uniques {
        facts.insert(format!("unique {table} ({})", no_t(cols)), "yes".into());
    }
    for (name, (table, cols, unique, partial)) in &s.indexes {
        let kind = match (unique, partial) {
            (true, true) => "unique, partial",
            (true, false) => "unique",
            (false, true) => "partial",
            (false, false) => "plain",
        };
        facts.insert(format!("index {name}"), format!("{table} ({}), {kind}", no_t(cols)));
    }
    for (table, cols, to, to_cols) in s.foreign_keys.iter().filter(|f| f.2 != "tournament") {
        facts.insert(format!("foreign key {table} ({}) -> {to} ({})", no_t(cols), no_t(to_cols)), "yes".into());
    }
    facts
}

fn split(list: &str) -> Vec<String> {
    list.split(',').map(|c| c.trim().to_string()).filter(|c| !c.is_empty()).collect()
}

async fn sqlite_schema(file: &Path) -> Schema {
    let url = format!("sqlite:{}?mode=rwc", file.display());
    let pool = sqlx::sqlite::SqlitePool::connect(&url).await.unwrap();
    let migrator = sqlx::migrate::Migrator::new(root().join("migrations")).await.unwrap();
    migrator.run(&pool).await.expect("SQLite's migrations apply to an empty file");
    let mut s = Schema::default();
    let tables: Vec<String> = sqlx::query(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_sqlx%'",
    )
    .fetch_all(&pool)
    .await
    .unwrap()
    .iter()
    .map(|r| r.get(0))
    .collect();
    for table in &tables {
        let sql = format!("SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('{table}')");
        let mut key = Vec::new();
        for r in sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(&pool).await.unwrap() {
            let (name, ty): (String, String) = (r.get(0), r.get(1));
            let (not_null, default, pk): (i64, Option<String>, i64) = (r.get(2), r.get(3), r.get(4));
            s.columns.insert((table.clone(), name.clone()), (compared_type(&ty, 0), not_null != 0, default));
            if pk > 0 {
                key.push((pk, name));
            }
        }
        key.sort();
        if !key.is_empty() {
            s.primary_keys.insert(table.clone(), key.into_iter().map(|(_, c)| c).collect());
        }
        let sql = format!("SELECT name, \"unique\", origin, partial FROM pragma_index_list('{table}')");
        for r in sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(&pool).await.unwrap() {
            let (name, unique, origin, partial): (String, i64, String, i64) = (r.get(0), r.get(1), r.get(2), r.get(3));
            let sql = format!("SELECT name FROM pragma_index_info('{name}') ORDER BY seqno");
            let rows = sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(&pool).await.unwrap();
            let cols: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
            match origin.as_str() {
                "pk" => {}
                "u" => s.uniques.push((table.clone(), cols)),
                _ => {
                    s.indexes.insert(name, (table.clone(), cols, unique != 0, partial != 0));
                }
            }
        }
        let sql =
            format!("SELECT id, \"table\", \"from\", \"to\" FROM pragma_foreign_key_list('{table}') ORDER BY id, seq");
        let mut keys: BTreeMap<i64, (String, Vec<String>, Vec<String>)> = BTreeMap::new();
        for r in sqlx::query(sqlx::AssertSqlSafe(sql)).fetch_all(&pool).await.unwrap() {
            let (id, to, from, to_col): (i64, String, String, Option<String>) =
                (r.get(0), r.get(1), r.get(2), r.get(3));
            let k = keys.entry(id).or_insert_with(|| (to, Vec::new(), Vec::new()));
            k.1.push(from);
            k.2.extend(to_col);
        }
        for (_, (to, from, to_cols)) in keys {
            s.foreign_keys.push((table.clone(), from, to, to_cols));
        }
    }
    pool.close().await;
    s
}

async fn postgres_schema(url: &str) -> Schema {
    let pool = sqlx::postgres::PgPool::connect(url).await.unwrap();
    let migrator = sqlx::migrate::Migrator::new(root().join("migrations_pg")).await.unwrap();
    migrator.run(&pool).await.expect("PostgreSQL's migrations apply to an empty database");
    let mut s = Schema::default();
    let columns = sqlx::query(
        "SELECT table_name::text, column_name::text, data_type::text, is_nullable::text, column_default::text \
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name NOT LIKE '\\_sqlx%'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    for r in &columns {
        let (table, name, ty, nullable): (String, String, String, String) = (r.get(0), r.get(1), r.get(2), r.get(3));
        s.columns.insert((table, name), (compared_type(&ty, 1), nullable == "NO", r.get(4)));
    }
    // every index of the schema's tables with its columns in order, and what it backs
    let indexes = sqlx::query(
        "SELECT i.relname::text, t.relname::text, ix.indisunique, ix.indisprimary, ix.indpred IS NOT NULL, \
         EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = ix.indexrelid AND c.contype = 'u'), \
         (SELECT string_agg(a.attname::text, ',' ORDER BY k.ord) FROM unnest(ix.indkey::int2[]) \
          WITH ORDINALITY AS k(attnum, ord) JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum) \
         FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid JOIN pg_class t ON t.oid = ix.indrelid \
         JOIN pg_namespace n ON n.oid = t.relnamespace \
         WHERE n.nspname = 'public' AND t.relname NOT LIKE '\\_sqlx%'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    for r in &indexes {
        let (name, table, unique, primary, partial, constraint): (String, String, bool, bool, bool, bool) =
            (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5));
        let cols = split(&r.get::<String, _>(6));
        if primary {
            s.primary_keys.insert(table, cols);
        } else if constraint {
            s.uniques.push((table, cols));
        } else {
            s.indexes.insert(name, (table, cols, unique, partial));
        }
    }
    let keys = sqlx::query(
        "SELECT t.relname::text, r.relname::text, \
         (SELECT string_agg(a.attname::text, ',' ORDER BY k.ord) FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord) \
          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum), \
         (SELECT string_agg(a.attname::text, ',' ORDER BY k.ord) FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord) \
          JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) \
         FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid \
         JOIN pg_namespace n ON n.oid = t.relnamespace WHERE c.contype = 'f' AND n.nspname = 'public'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    for r in &keys {
        let (table, to): (String, String) = (r.get(0), r.get(1));
        s.foreign_keys.push((table, split(&r.get::<String, _>(2)), to, split(&r.get::<String, _>(3))));
    }
    pool.close().await;
    s
}

/// Every difference between the two schemas' facts, one line each, less [`POSTGRES_ONLY`];
/// the ones listed in [`KNOWN_DRIFT`] are returned apart.
fn differences(sqlite: &Facts, postgres: &Facts) -> (Vec<String>, Vec<String>) {
    let mut lines = Vec::new();
    for (fact, lite) in sqlite {
        match postgres.get(fact) {
            None => lines.push((fact.clone(), format!("{fact}: SQLite only ({lite})"))),
            Some(pg) if pg != lite => lines.push((fact.clone(), format!("{fact}: SQLite {lite}, PostgreSQL {pg}"))),
            Some(_) => {}
        }
    }
    for (fact, pg) in postgres.iter().filter(|(f, _)| !sqlite.contains_key(*f) && !POSTGRES_ONLY.contains(&f.as_str()))
    {
        lines.push((fact.clone(), format!("{fact}: PostgreSQL only ({pg})")));
    }
    let (known, new): (Vec<_>, Vec<_>) = lines.into_iter().partition(|(f, _)| KNOWN_DRIFT.iter().any(|k| k.0 == f));
    (new.into_iter().map(|l| l.1).collect(), known.into_iter().map(|l| l.0).collect())
}

fn migration_files(dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".sql"))
        .collect();
    names.sort();
    names
}

#[test]
fn the_two_migration_trees_differ_only_in_dialect() {
    let sqlite_files: Vec<String> =
        migration_files("migrations").into_iter().filter(|f| !SQLITE_ONLY_FILES.contains(&f.as_str())).collect();
    assert_eq!(sqlite_files, migration_files("migrations_pg"), "the two trees' migrations pair up by name");

    let pg = PgCluster::start();
    let tmp = tempfile::tempdir().unwrap();
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let (sqlite, postgres) = rt.block_on(async {
        (
            normalise(&sqlite_schema(&tmp.path().join("schema.sqlite")).await),
            normalise(&postgres_schema(&pg.url()).await),
        )
    });
    assert!(sqlite.contains_key("column games.lease_until") && sqlite.len() > 100, "SQLite's schema read: {sqlite:#?}");
    assert!(postgres.contains_key("column games.lease_until") && postgres.len() > 100, "PostgreSQL's: {postgres:#?}");
    let (new, known) = differences(&sqlite, &postgres);
    assert!(
        new.is_empty(),
        "migrations/ and migrations_pg/ differ in more than dialect (add the change to both trees, or document \
         the difference in tests/pg/pg_migrations.rs):\n{}",
        new.join("\n")
    );
    let gone: Vec<&str> = KNOWN_DRIFT.iter().map(|k| k.0).filter(|k| !known.iter().any(|f| f == k)).collect();
    assert!(gone.is_empty(), "differences in KNOWN_DRIFT no longer found (remove them there): {gone:?}");
}
