//! `step`'s argument read into one [`Action`] per row: a numpy integer array, or a
//! sequence whose items are ints (indices), dicts (mjai actions) or str (mjai JSON).

use mjai_sim_env::Action;
use numpy::{AllowTypeChange, PyArrayDescrMethods, PyArrayLike1, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

/// The actions in `value`, one per row.
pub fn parse(value: &Bound<'_, PyAny>) -> PyResult<Vec<Action>> {
    if let Ok(array) = value.cast::<PyUntypedArray>() {
        let kind = array.dtype().kind();
        if kind != b'i' && kind != b'u' {
            return Err(PyTypeError::new_err(format!(
                "actions: a numpy array of integers is expected, got dtype {}",
                array.dtype()
            )));
        }
        if array.ndim() != 1 {
            return Err(PyTypeError::new_err(format!(
                "actions: a one-dimensional array (one index per row) is expected, got {} dimensions",
                array.ndim()
            )));
        }
        let ints: PyArrayLike1<'_, i64, AllowTypeChange> = value.extract()?;
        return Ok(ints.as_array().iter().map(|&i| Action::Index(i)).collect());
    }
    if value.is_instance_of::<PyString>() || value.is_instance_of::<PyDict>() {
        return Err(PyTypeError::new_err(
            "actions: a sequence with one action per row is expected, not a single action",
        ));
    }
    let json = value.py().import("json")?;
    let mut out = Vec::new();
    for (row, item) in value.try_iter()?.enumerate() {
        let item = item?;
        if let Ok(s) = item.cast::<PyString>() {
            out.push(Action::Mjai(s.to_str()?.to_string()));
        } else if item.is_instance_of::<PyDict>() {
            let line: String = json.call_method1("dumps", (&item,))?.extract()?;
            out.push(Action::Mjai(line));
        } else if let Ok(i) = item.extract::<i64>() {
            out.push(Action::Index(i));
        } else {
            return Err(PyTypeError::new_err(format!(
                "actions[{row}]: expected an int (action index), a dict (mjai action) or a str (its JSON), got {}",
                item.get_type().name()?
            )));
        }
    }
    Ok(out)
}
