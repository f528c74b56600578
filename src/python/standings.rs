//! `mjai_sim._env.standings`: the standings the CLI computes (`mjai_sim_stats::standings`,
//! the same code `mjai-sim tournament` runs) from games played in process, for
//! `mjai_sim.evaluate`.

use mjai_sim_engine::event::parse_log;
use mjai_sim_engine::game::MAX_SEATS;
use mjai_sim_stats::record::GameRecord;
use mjai_sim_stats::standings::{compute, StandingsOptions};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::options;

/// The standings of games played in process, as `standings.json` (a JSON string): the
/// code `mjai-sim tournament` runs (mean rank and pt with bootstrap intervals over the
/// sets, ratings, per-hand rates).
///
/// Args:
///     names: the bots, in standings order (a record's `seats` index this list).
///     records: one dict per game: `index` (schedule order), `set` (duplicate set: the
///         bootstrap's unit), `seats` (bot index by seat), `scores` (final scores, seat
///         order), `log` (the full mjai log, one JSON line per event) and optionally
///         `chombos` (count by seat).
///     rules: the preset the games were played under (it decides tenpai at a draw).
///     uma: placement points by rank (default the preset's table size's: 90, 45, 0, -135;
///         three players 90, 0, -90).
///     seed: the bootstrap's seed (`mjai-sim tournament` uses its seed's nonce).
///
/// Raises:
///     ValueError: an unknown preset, a log line that is not an mjai event, a seat or
///         score list of the wrong length. TypeError: a record that is not such a dict.
#[pyfunction]
#[pyo3(signature = (names, records, rules="tenhou", uma=None, seed=0))]
pub fn standings(
    names: Vec<String>,
    records: Vec<Bound<'_, PyDict>>,
    rules: &str,
    uma: Option<Vec<f64>>,
    seed: u64,
) -> PyResult<String> {
    let rules = options::rules(rules)?;
    let n = rules.players.count();
    let uma = uma.unwrap_or_else(|| mjai_sim_engine::game::default_uma(rules.players));
    let mut out = Vec::with_capacity(records.len());
    for (i, r) in records.iter().enumerate() {
        let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
            r.get_item(key)?.ok_or_else(|| PyTypeError::new_err(format!("record {i} has no {key:?}")))
        };
        let seats: Vec<usize> = get("seats")?.extract()?;
        let scores: Vec<i32> = get("scores")?.extract()?;
        if seats.len() != n || scores.len() != n {
            return Err(PyValueError::new_err(format!("record {i}: seats and scores need {n} entries each")));
        }
        let lines: Vec<String> = get("log")?.extract()?;
        let log = parse_log(&lines.join("\n")).map_err(|e| PyValueError::new_err(format!("record {i}: {e}")))?;
        let scores: [i32; MAX_SEATS] = std::array::from_fn(|s| scores.get(s).copied().unwrap_or(0));
        let (index, set): (u64, u64) = (get("index")?.extract()?, get("set")?.extract()?);
        let mut record = GameRecord::from_scores(index, set, seats, &log, scores, &rules);
        if let Some(chombos) = r.get_item("chombos")? {
            let chombos: Vec<u32> = chombos.extract()?;
            for (st, c) in record.stats.iter_mut().zip(chombos) {
                st.chombos = c;
            }
        }
        out.push(record);
    }
    let standings = compute(&names, &out, &StandingsOptions::new(uma, seed));
    serde_json::to_string(&standings).map_err(|e| PyValueError::new_err(e.to_string()))
}
