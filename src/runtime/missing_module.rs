//! A bot that dies for want of a Python package the ml image has (`ModuleNotFoundError: No
//! module named 'torch'` in its stderr) gets a hint naming the fix, `--image ml`, added to its
//! one-line error (terminal, `errors.json`, the grading server's rejection reason). Pure.

/// Top-level modules the ml image adds to the default one (docker/requirements-ml.txt:
/// torch 2.2.2 and what it brings, and pyarrow). numpy is in both images.
pub const ML_MODULES: [&str; 13] = [
    "torch",
    "torchgen",
    "functorch",
    "triton",
    "sympy",
    "networkx",
    "jinja2",
    "fsspec",
    "filelock",
    "mpmath",
    "markupsafe",
    "typing_extensions",
    "pyarrow",
];

/// The top-level module of the last `ModuleNotFoundError: No module named 'a.b'` line of
/// `stderr_tail` (`a`), if any.
pub fn missing_module(stderr_tail: &[String]) -> Option<&str> {
    const MARK: &str = "ModuleNotFoundError: No module named '";
    stderr_tail.iter().rev().find_map(|line| {
        let rest = &line[line.find(MARK)? + MARK.len()..];
        let name = &rest[..rest.find('\'')?];
        name.split('.').next().filter(|n| !n.is_empty())
    })
}

/// The hint for a bot whose stderr ends in a missing module the ml image has, e.g. "the bot
/// needs the module `torch`, which the ml image has (torch 2.2.2): run with `--image ml`
/// (grading server: `mjai-sim serve --image ml`)"; `None` otherwise.
pub fn ml_image_hint(stderr_tail: &[String]) -> Option<String> {
    let module = missing_module(stderr_tail)?;
    ML_MODULES.contains(&module).then(|| {
        format!(
            "the bot needs the module `{module}`, which the ml image has (torch 2.2.2, numpy 1.26.4 as \
             mjai.app): run with `--image ml` (grading server: `mjai-sim serve --image ml`)"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tail(lines: &[&str]) -> Vec<String> {
        lines.iter().map(|l| l.to_string()).collect()
    }

    #[test]
    fn torch_missing_names_the_ml_image() {
        let t = tail(&[
            "Traceback (most recent call last):",
            "  File \"/workspace/bot.py\", line 3, in <module>",
            "    import torch.nn as nn",
            "ModuleNotFoundError: No module named 'torch'",
        ]);
        assert_eq!(missing_module(&t), Some("torch"));
        let hint = ml_image_hint(&t).unwrap();
        assert!(hint.contains("`torch`") && hint.contains("--image ml"), "{hint}");
    }

    #[test]
    fn a_submodule_counts_as_its_package() {
        let t = tail(&["ModuleNotFoundError: No module named 'torch.nn'"]);
        assert_eq!(missing_module(&t), Some("torch"));
        assert!(ml_image_hint(&t).is_some());
    }

    #[test]
    fn modules_neither_image_has_get_no_hint() {
        let t = tail(&["ModuleNotFoundError: No module named 'tensorflow'"]);
        assert_eq!(missing_module(&t), Some("tensorflow"));
        assert_eq!(ml_image_hint(&t), None);
        assert_eq!(ml_image_hint(&tail(&["ZeroDivisionError: division by zero"])), None);
        assert_eq!(ml_image_hint(&tail(&["ModuleNotFoundError: No module named '"])), None);
        assert_eq!(ml_image_hint(&[]), None);
    }
}
