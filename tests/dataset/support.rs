//! Shared by the dataset tests: self-play games written as logs, the CLI, and the Parquet
//! file read back column by column.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, Int8Type, UInt32Type, UInt8Type};
use arrow_array::{Array, ArrayRef, RecordBatch};
use mjai_sim::bots::selfplay::{play_with_rules, series_config, AnswerObserver, IgnoreAnswers};
use mjai_sim::bots::{self, Agent};
use mjai_sim::engine::event::Event;
use mjai_sim::engine::game::Rules;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;

/// Plays game `index` of series `seed` between `bots` (seat order) under Tenhou rules;
/// returns its log.
pub fn play(bots: [&str; 4], seed: u64, index: u64, observer: &mut dyn AnswerObserver) -> Vec<Event> {
    let mut agents: [Box<dyn Agent>; 4] = bots.map(|b| bots::from_spec(b).expect("a built-in bot"));
    let config = series_config(seed, index, bots.map(String::from));
    play_with_rules(config, Rules::tenhou(), &mut agents, observer).expect("self-play finishes").log
}

/// Plays `games` games of series `seed` and writes each log to `dir/game-NNNNN/mjai_log.json`.
pub fn write_games(dir: &Path, bots: [&str; 4], seed: u64, games: u64) -> Vec<PathBuf> {
    (0..games)
        .map(|i| {
            let log = play(bots, seed, i, &mut IgnoreAnswers);
            write_log(&dir.join(format!("game-{i:05}")), &log)
        })
        .collect()
}

/// Writes `log` as `dir/mjai_log.json`; returns its path.
pub fn write_log(dir: &Path, log: &[Event]) -> PathBuf {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join("mjai_log.json");
    let text: String = log.iter().map(|e| e.to_json() + "\n").collect();
    std::fs::write(&path, text).unwrap();
    path
}

/// Runs the mjai-sim binary with `args`.
pub fn mjai_sim<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mjai-sim")).args(args).output().expect("mjai-sim runs")
}

/// `mjai-sim dataset PATHS --kind KIND -o OUT [extra]`, which must succeed; returns its stderr.
pub fn dataset(paths: &[&Path], kind: &str, out: &Path, extra: &[&str]) -> String {
    let mut args: Vec<std::ffi::OsString> = vec!["dataset".into()];
    args.extend(paths.iter().map(|p| p.as_os_str().to_owned()));
    args.extend(["--kind", kind, "-o"].map(Into::into));
    args.push(out.as_os_str().to_owned());
    args.extend(extra.iter().map(Into::into));
    let o = mjai_sim(&args);
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert!(o.status.success(), "mjai-sim dataset failed: {err}");
    err
}

/// The whole Parquet file, read back.
pub struct Table {
    batches: Vec<RecordBatch>,
}

impl Table {
    /// Reads `path`.
    pub fn read(path: &Path) -> Table {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let reader = ParquetRecordBatchReaderBuilder::try_new(file).expect("a Parquet file").build().unwrap();
        Table { batches: reader.map(|b| b.expect("a batch")).collect() }
    }

    /// Rows in all.
    pub fn rows(&self) -> usize {
        self.batches.iter().map(|b| b.num_rows()).sum()
    }

    /// The column names, in order.
    pub fn names(&self) -> Vec<String> {
        self.batches[0].schema().fields().iter().map(|f| f.name().clone()).collect()
    }

    fn each<T>(&self, name: &str, mut f: impl FnMut(&ArrayRef, usize) -> T) -> Vec<T> {
        let mut out = Vec::new();
        for b in &self.batches {
            let col = b.column_by_name(name).unwrap_or_else(|| panic!("no column {name}"));
            out.extend((0..b.num_rows()).map(|i| f(col, i)));
        }
        out
    }

    /// A `string` column (a null is `None`).
    pub fn opt_str(&self, name: &str) -> Vec<Option<String>> {
        self.each(name, |c, i| c.is_valid(i).then(|| c.as_string::<i32>().value(i).to_string()))
    }

    /// A `string` column.
    pub fn str(&self, name: &str) -> Vec<String> {
        self.each(name, |c, i| c.as_string::<i32>().value(i).to_string())
    }

    /// An integer column, widened (a `bool` column as 0 and 1).
    pub fn int(&self, name: &str) -> Vec<i64> {
        self.each(name, |c, i| match c.data_type() {
            arrow_schema::DataType::Boolean => i64::from(c.as_boolean().value(i)),
            _ => int_at(c, i),
        })
    }

    /// A `list<string>` column.
    pub fn strs(&self, name: &str) -> Vec<Vec<String>> {
        self.each(name, |c, i| strings(&c.as_list::<i32>().value(i)))
    }

    /// A `list<integer>` column, widened.
    pub fn ints(&self, name: &str) -> Vec<Vec<i64>> {
        self.each(name, |c, i| {
            let v = c.as_list::<i32>().value(i);
            (0..v.len()).map(|j| int_at(&v, j)).collect()
        })
    }

    /// A `list<bool>` column.
    pub fn bools(&self, name: &str) -> Vec<Vec<bool>> {
        self.each(name, |c, i| c.as_list::<i32>().value(i).as_boolean().iter().map(|b| b.unwrap()).collect())
    }

    /// A `list<list<string>>` column.
    pub fn strs2(&self, name: &str) -> Vec<Vec<Vec<String>>> {
        self.each(name, |c, i| {
            let outer = c.as_list::<i32>().value(i);
            let outer = outer.as_list::<i32>();
            (0..outer.len()).map(|j| strings(&outer.value(j))).collect()
        })
    }

    /// A `list<list<bool>>` column.
    pub fn bools2(&self, name: &str) -> Vec<Vec<Vec<bool>>> {
        self.each(name, |c, i| {
            let outer = c.as_list::<i32>().value(i);
            let outer = outer.as_list::<i32>();
            (0..outer.len()).map(|j| outer.value(j).as_boolean().iter().map(|b| b.unwrap()).collect()).collect()
        })
    }
}

fn strings(a: &ArrayRef) -> Vec<String> {
    a.as_string::<i32>().iter().map(|s| s.unwrap().to_string()).collect()
}

fn int_at(c: &ArrayRef, i: usize) -> i64 {
    use arrow_schema::DataType::*;
    match c.data_type() {
        UInt8 => i64::from(c.as_primitive::<UInt8Type>().value(i)),
        Int8 => i64::from(c.as_primitive::<Int8Type>().value(i)),
        Int32 => i64::from(c.as_primitive::<Int32Type>().value(i)),
        UInt32 => i64::from(c.as_primitive::<UInt32Type>().value(i)),
        t => panic!("not an integer column: {t}"),
    }
}
