//! The constructor's Python options read into an [`EnvConfig`]: `rules`, `learners`,
//! `opponents`, `names`, `uma`, `games`.

use mjai_sim_engine::event::Seat;
use mjai_sim_engine::game::{Rules, MAX_SEATS};
use mjai_sim_env::{EnvConfig, GameSpec, Learners};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The preset named `rules` (any four- or three-player preset).
pub fn rules(name: &str) -> PyResult<Rules> {
    Rules::any_preset(name).ok_or_else(|| {
        let known: Vec<&str> = Rules::PRESETS.iter().chain(Rules::PRESETS_3P.iter()).copied().collect();
        PyValueError::new_err(format!("unknown rules preset {name:?} (known: {})", known.join(", ")))
    })
}

/// `learners`: `None` (every seat), `"all"`, `"rotating"`, a seat, or a list of seats.
pub fn learners(value: Option<&Bound<'_, PyAny>>) -> PyResult<Learners> {
    let Some(v) = value.filter(|v| !v.is_none()) else { return Ok(Learners::All) };
    if let Ok(s) = v.extract::<String>() {
        return match s.as_str() {
            "all" => Ok(Learners::All),
            "rotating" => Ok(Learners::Rotating),
            _ => Err(PyValueError::new_err(format!(
                "learners={s:?}: expected None, \"all\", \"rotating\", a seat or a list of seats"
            ))),
        };
    }
    if let Ok(seat) = v.extract::<Seat>() {
        return Ok(Learners::Seats(vec![seat]));
    }
    if let Ok(seats) = v.extract::<Vec<Seat>>() {
        return Ok(Learners::Seats(seats));
    }
    Err(PyTypeError::new_err("learners: expected None, \"all\", \"rotating\", a seat (int) or a list of seats"))
}

/// `opponents`: `None` (`rulebase`), one built-in name for every seat, or one per seat
/// of the table (entries of learner seats unused).
pub fn opponents(value: Option<&Bound<'_, PyAny>>, seats: usize) -> PyResult<[String; MAX_SEATS]> {
    let Some(v) = value.filter(|v| !v.is_none()) else {
        return Ok(std::array::from_fn(|_| "rulebase".to_string()));
    };
    if let Ok(name) = v.extract::<String>() {
        return Ok(std::array::from_fn(|_| name.clone()));
    }
    let names: Vec<String> = v
        .extract()
        .map_err(|_| PyTypeError::new_err("opponents: expected None, a built-in bot name or a list of names"))?;
    if names.len() != seats {
        return Err(PyValueError::new_err(format!("opponents has {} names, the table has {seats} seats", names.len())));
    }
    Ok(std::array::from_fn(|s| names.get(s).cloned().unwrap_or_else(|| "tsumogiri".into())))
}

/// `names`: `None` or one `start_game` name per seat of the table.
pub fn names(value: Option<Vec<String>>, seats: usize) -> PyResult<Option<[String; MAX_SEATS]>> {
    let Some(names) = value else { return Ok(None) };
    if names.len() != seats {
        return Err(PyValueError::new_err(format!("names has {} entries, the table has {seats} seats", names.len())));
    }
    Ok(Some(std::array::from_fn(|s| names.get(s).cloned().unwrap_or_default())))
}

/// `games`: `None`, or a fixed series: one dict per game with `seed` (`(nonce, key)`),
/// `seats` (per seat `None` for a learner or a built-in bot's name) and `names` (the
/// `start_game` names).
pub fn games(value: Option<Vec<Bound<'_, PyDict>>>) -> PyResult<Option<Vec<GameSpec>>> {
    let Some(games) = value else { return Ok(None) };
    let mut out = Vec::with_capacity(games.len());
    for (g, d) in games.iter().enumerate() {
        let get = |key: &str| -> PyResult<Bound<'_, PyAny>> {
            d.get_item(key)?.ok_or_else(|| PyTypeError::new_err(format!("games[{g}] has no {key:?}")))
        };
        let bad = |key: &str, what: &str| PyTypeError::new_err(format!("games[{g}][{key:?}]: expected {what}"));
        let seed: (u64, u64) = get("seed")?.extract().map_err(|_| bad("seed", "(nonce, key)"))?;
        let seats: Vec<Option<String>> =
            get("seats")?.extract().map_err(|_| bad("seats", "a list of None or bot names"))?;
        let names: Vec<String> = get("names")?.extract().map_err(|_| bad("names", "a list of str"))?;
        out.push(GameSpec { seed: [seed.0, seed.1], seats, names });
    }
    Ok(Some(out))
}

/// Checks the whole configuration (`EnvConfig::check`) as a `ValueError`.
pub fn check(config: &EnvConfig) -> PyResult<()> {
    config.check().map_err(|e| PyValueError::new_err(e.to_string()))
}
