//! Helpers of the stack test (tests/pg/pg_stack.rs): the `docker` command line (the test
//! drives Docker as an operator does), a single-node swarm, a deployed stack that is removed
//! when dropped, free ports on 127.0.0.1, and a bot whose games last a few seconds.
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::e2e_support::{mjai_sim, repo};

/// Runs `docker ARGS` with `envs`, panicking with its stderr when it fails; its stdout.
pub fn docker(args: &[&str], envs: &[(&str, String)]) -> String {
    let out = Command::new("docker")
        .args(args)
        .envs(envs.iter().map(|(k, v)| (*k, v.as_str())))
        .current_dir(repo(""))
        .output()
        .unwrap_or_else(|e| panic!("cannot run docker: {e}"));
    assert!(out.status.success(), "docker {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr).trim());
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Makes this daemon a single-node swarm manager when it is in none (`docker swarm init
/// --advertise-addr 127.0.0.1`; the swarm is left in place for later runs) and labels its
/// node for the stack's database and workers. Returns the node's host name.
pub fn single_node_swarm() -> String {
    let state = docker(&["info", "--format", "{{.Swarm.LocalNodeState}}"], &[]);
    if state == "inactive" {
        docker(&["swarm", "init", "--advertise-addr", "127.0.0.1"], &[]);
    }
    let node = docker(&["info", "--format", "{{.Swarm.NodeID}}"], &[]);
    docker(&["node", "update", "--label-add", "mjai-sim.db=true", "--label-add", "mjai-sim.worker=true", &node], &[]);
    docker(&["node", "inspect", "--format", "{{.Description.Hostname}}", &node], &[])
}

/// mjai-sim's own image, built when it does not hold the binary (the release binary of
/// MJAI_SIM_BIN when set, as scripts/test prepares it; else the binary under test).
pub fn self_image() -> String {
    let mut build = mjai_sim();
    build.args(["image", "build", "--self"]);
    if let Some(bin) = std::env::var_os("MJAI_SIM_BIN").filter(|b| !b.is_empty()) {
        build.arg("--binary").arg(bin);
    }
    let out = build.output().unwrap();
    assert!(out.status.success(), "image build --self: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

pub use crate::pg_support::{free_port, poll};

/// A deployed stack (deploy/stack.yml with deploy/stack.host-network.yml); dropping it runs
/// `docker stack rm` and waits until its containers are gone, then removes its volume.
pub struct Stack {
    /// The stack's name.
    pub name: String,
    /// The variables it was deployed with.
    pub envs: Vec<(&'static str, String)>,
    removed: bool,
}

impl Stack {
    /// `docker stack deploy` of the stack `name` with `envs` (MJAI_SIM_IMAGE, ports, ...).
    pub fn deploy(name: &str, envs: Vec<(&'static str, String)>) -> Stack {
        let stack = Stack { name: name.to_string(), envs, removed: false };
        let files = ["-c", "deploy/stack.yml", "-c", "deploy/stack.host-network.yml"];
        docker(&[&["stack", "deploy"], &files[..], &[name]].concat(), &stack.envs);
        stack
    }

    /// The ids of the running containers of service `service` (`db`, `serve`, `worker`),
    /// each with its task name (`STACK_worker.SLOT.TASK`).
    pub fn containers(&self, service: &str) -> Vec<(String, String)> {
        let filter = format!("label=com.docker.swarm.service.name={}_{service}", self.name);
        let out =
            docker(&["ps", "--filter", &filter, "--format", "{{.ID}} {{.Label \"com.docker.swarm.task.name\"}}"], &[]);
        out.lines().filter_map(|l| l.split_once(' ')).map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    /// Every container (any state) of this stack.
    pub fn all_containers(&self) -> usize {
        let filter = format!("label=com.docker.stack.namespace={}", self.name);
        docker(&["ps", "-a", "-q", "--filter", &filter], &[]).lines().count()
    }

    /// `docker service scale STACK_worker=N`, waiting until it converged.
    pub fn scale_workers(&self, n: usize) {
        let spec = format!("{}_worker={n}", self.name);
        docker(&["service", "scale", "--detach=false", &spec], &[]);
    }

    /// `docker stack rm`, then waits (bounded) until none of its containers is left and
    /// removes its volume.
    pub fn remove(&mut self) {
        if std::mem::replace(&mut self.removed, true) {
            return;
        }
        docker(&["stack", "rm", &self.name], &[]);
        poll(Duration::from_secs(90), "the stack's containers to go", || (self.all_containers() == 0).then_some(()));
        let volume = format!("{}_pgdata", self.name);
        // the volume is released a moment after its container is gone
        poll(Duration::from_secs(30), "the stack's volume to be removed", || {
            let ok =
                Command::new("docker").args(["volume", "rm", "-f", &volume]).output().is_ok_and(|o| o.status.success());
            ok.then_some(())
        });
    }
}

impl Drop for Stack {
    fn drop(&mut self) {
        if !self.removed {
            self.removed = true;
            let _ = Command::new("docker").args(["stack", "rm", &self.name]).output();
        }
    }
}

/// `examples/tsumogiri`, but each `start_game` takes `secs` seconds to answer: a game lasts
/// long enough to be caught in play.
pub fn slow_start_bot(secs: f64) -> Vec<u8> {
    let source = std::fs::read_to_string(Path::new(&repo("examples/tsumogiri/bot.py"))).unwrap();
    let hook = "def decide(seat, events):\n";
    assert!(source.contains(hook), "examples/tsumogiri/bot.py changed shape");
    let wait =
        format!("    if events[0].get(\"type\") == \"start_game\":\n        import time\n        time.sleep({secs})\n");
    source.replacen(hook, &format!("{hook}{wait}"), 1).into_bytes()
}
