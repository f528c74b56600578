//! Resource limits of a submission's container chosen by the user (`--memory`, `--cpus`,
//! `--pids`, `--gpus`), and the Docker device request that gives a container GPUs.
//!
//! GPUs follow `docker run --gpus`: `all` is a device request with count -1 and capability
//! `gpu`; a list of ids (`0,1` or `device=0,1`) names the devices. Docker needs a GPU
//! runtime (e.g. the NVIDIA Container Toolkit) to start such a container; without one the
//! container is created but refuses to start (see [`gpu_start_hint`]).

use std::str::FromStr;

use bollard::models::DeviceRequest;

use super::DockerOptions;

/// GPUs handed to every submission's container.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Gpus {
    /// Every GPU of the host (`--gpus all`).
    All,
    /// The GPUs with these ids or UUIDs (`--gpus 0,1`, `--gpus device=0,1`).
    Ids(Vec<String>),
}

impl FromStr for Gpus {
    type Err = String;

    /// `all`, `0,1` or `device=0,1`. Errors: an empty list or an empty id.
    fn from_str(text: &str) -> Result<Gpus, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("all") {
            return Ok(Gpus::All);
        }
        let list = text.strip_prefix("device=").unwrap_or(text);
        let ids: Vec<String> = list.split(',').map(|id| id.trim().to_string()).collect();
        if ids.iter().any(String::is_empty) {
            return Err(format!("`{text}` is not `all` or a list of GPU ids (e.g. --gpus 0,1)"));
        }
        Ok(Gpus::Ids(ids))
    }
}

impl Gpus {
    /// The Docker device request for these GPUs (what `docker run --gpus` sends).
    pub fn device_request(&self) -> DeviceRequest {
        let (count, device_ids) = match self {
            Gpus::All => (Some(-1), None),
            Gpus::Ids(ids) => (None, Some(ids.clone())),
        };
        DeviceRequest {
            driver: Some(String::new()),
            count,
            device_ids,
            capabilities: Some(vec![vec!["gpu".to_string()]]),
            options: None,
        }
    }
}

/// Limits given on the command line; `None` keeps the hardened default of
/// [`DockerOptions`] (4 GiB memory, min(4, host CPUs) CPUs, 512 pids, no GPU).
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub struct Resources {
    /// Memory limit (swap included), in bytes.
    pub memory_bytes: Option<u64>,
    /// CPU limit, in billionths of a CPU (Docker's `NanoCpus`).
    pub nano_cpus: Option<u64>,
    /// Largest number of processes and threads.
    pub pids_limit: Option<u64>,
    /// GPUs.
    pub gpus: Option<Gpus>,
}

impl Resources {
    /// Writes the limits that were given into `options`.
    pub fn apply(&self, options: &mut DockerOptions) {
        if let Some(bytes) = self.memory_bytes {
            options.memory_bytes = i64::try_from(bytes).unwrap_or(i64::MAX);
        }
        if let Some(nano) = self.nano_cpus {
            options.cpus = Some(nano as f64 / 1e9);
        }
        if let Some(pids) = self.pids_limit {
            options.pids_limit = i64::try_from(pids).unwrap_or(i64::MAX);
        }
        if self.gpus.is_some() {
            options.gpus = self.gpus.clone();
        }
    }
}

/// The one-line hint added when a container with GPUs fails to start: Docker's own
/// message ("could not select device driver") does not say what to install.
pub fn gpu_start_hint(cause: &str) -> Option<&'static str> {
    let lower = cause.to_ascii_lowercase();
    (lower.contains("device driver") || lower.contains("gpu") || lower.contains("nvidia"))
        .then_some("this Docker host has no GPU runtime: install the NVIDIA Container Toolkit, or run without --gpus")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gpus_parse_like_docker_run() {
        assert_eq!("all".parse::<Gpus>(), Ok(Gpus::All));
        assert_eq!("0,1".parse::<Gpus>(), Ok(Gpus::Ids(vec!["0".into(), "1".into()])));
        assert_eq!("device=GPU-3a".parse::<Gpus>(), Ok(Gpus::Ids(vec!["GPU-3a".into()])));
        assert!("".parse::<Gpus>().is_err());
        assert!("0,,1".parse::<Gpus>().is_err());
    }

    #[test]
    fn all_gpus_is_count_minus_one_with_the_gpu_capability() {
        let r = Gpus::All.device_request();
        assert_eq!(r.count, Some(-1));
        assert_eq!(r.device_ids, None);
        assert_eq!(r.capabilities, Some(vec![vec!["gpu".to_string()]]));
        let r = Gpus::Ids(vec!["1".into()]).device_request();
        assert_eq!((r.count, r.device_ids), (None, Some(vec!["1".to_string()])));
    }

    #[test]
    fn given_limits_replace_the_defaults_and_others_stay() {
        let mut options = DockerOptions::default();
        let r = Resources { memory_bytes: Some(256 << 20), nano_cpus: Some(500_000_000), ..Default::default() };
        r.apply(&mut options);
        assert_eq!(options.memory_bytes, 256 << 20);
        assert_eq!(options.cpus, Some(0.5));
        assert_eq!(options.pids_limit, DockerOptions::default().pids_limit);
        assert_eq!(options.gpus, None);
    }
}
