//! The stack (deploy/stack.yml) under Docker Swarm on this machine: a single-node swarm
//! (made when the daemon is in none, and left), the stack deployed with
//! deploy/stack.host-network.yml (this kernel carries no overlay traffic between services;
//! everything listens on 127.0.0.1, on free ports), mjai-sim's own image from the binary
//! (`image build --self`).
//!
//! One test, in order: an operator command in the serve container finds the database with
//! no flag; two bots uploaded over HTTP (one with the admin token of the stack's secret)
//! are validated; league games are played by both worker replicas; `docker service scale`
//! to 0 and back loses no game (the games in play go back and are played again);
//! `docker kill` of a worker container in the middle of a game loses no game (the replica's
//! next life puts the game back, or its lease expires); `docker stack rm` leaves no
//! container of the stack and no bot container of its workers.

use std::time::Duration;

use sqlx::Row;

use crate::e2e_support::{docker_exclusive, require_docker, require_image, zip_of};
use crate::stack_support::{docker, free_port, poll, self_image, single_node_swarm, slow_start_bot, Stack};

/// The stack's games as (tournament, index, state, claimed worker name).
type Game = (i64, i64, String, Option<String>);

fn games(rt: &tokio::runtime::Runtime, pool: &sqlx::PgPool) -> Vec<Game> {
    let rows = rt.block_on(sqlx::query("SELECT t, idx, state, claimed_by FROM games").fetch_all(pool)).unwrap();
    rows.iter()
        .map(|r| {
            let by: Option<String> = r.get(3);
            (r.get(0), r.get(1), r.get(2), by.map(|b| b.split('#').next().unwrap_or_default().to_string()))
        })
        .collect()
}

fn state_of(all: &[Game], t: i64, idx: i64) -> String {
    all.iter().find(|g| g.0 == t && g.1 == idx).map(|g| g.2.clone()).unwrap_or_default()
}

#[test]
fn the_stack_plays_a_league_through_scaling_and_a_killed_worker_and_leaves_nothing() {
    let _exclusive = docker_exclusive();
    require_docker();
    require_image();
    let image = self_image();
    let host = single_node_swarm();
    let secrets = tempfile::tempdir().unwrap();
    let password = format!("pw-{:x}", rand::random::<u64>());
    let admin = format!("{:032x}{:032x}", rand::random::<u128>(), rand::random::<u128>());
    std::fs::write(secrets.path().join("db_password"), format!("{password}\n")).unwrap();
    std::fs::write(secrets.path().join("admin_token"), format!("{admin}\n")).unwrap();
    let (port, db_port) = (free_port(), free_port());
    let gid = std::fs::metadata("/var/run/docker.sock").map(|m| std::os::unix::fs::MetadataExt::gid(&m)).unwrap();
    let name = format!("mjaitest{}", std::process::id());
    let envs = vec![
        ("MJAI_SIM_IMAGE", image),
        ("MJAI_SIM_PORT", port.to_string()),
        ("MJAI_SIM_DB_PORT", db_port.to_string()),
        ("MJAI_SIM_WORKERS", "2".to_string()),
        ("MJAI_SIM_WORKER_JOBS", "1".to_string()),
        ("MJAI_SIM_LEASE", "6".to_string()),
        ("MJAI_SIM_SECRETS", secrets.path().display().to_string()),
        ("DOCKER_GID", gid.to_string()),
    ];
    let mut stack = Stack::deploy(&name, envs);
    let base = format!("http://127.0.0.1:{port}");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    let http = reqwest::Client::new();
    let get = |path: &str| -> Option<(u16, String)> {
        rt.block_on(async {
            let r = http.get(format!("{base}{path}")).timeout(Duration::from_secs(10)).send().await.ok()?;
            Some((r.status().as_u16(), r.text().await.unwrap_or_default()))
        })
    };
    poll(Duration::from_secs(120), "GET /healthz to answer 200", || {
        get("/healthz").filter(|(s, _)| *s == 200).map(|_| ())
    });

    // an operator command inside the serve container: no --db, the image's configuration
    let (serve, _) = stack.containers("serve").into_iter().next().expect("a serve container");
    let token = docker(&["exec", &serve, "mjai-sim", "serve", "author", "add", "erin"], &[]);
    assert_eq!(token.lines().count(), 1, "one token: {token}");

    // two bots over HTTP, one with erin's token, one with the admin token of the secret
    let bot = zip_of(&[("bot.py", &slow_start_bot(2.0))]);
    for (bot_name, who) in [("erinbot", &token), ("adminbot", &admin)] {
        let form = reqwest::multipart::Form::new()
            .text("name", bot_name.to_string())
            .part("file", reqwest::multipart::Part::bytes(bot.clone()).file_name("bot.zip"));
        let status = rt.block_on(async {
            let r = http.post(format!("{base}/api/bots")).bearer_auth(who).multipart(form).send().await.unwrap();
            (r.status().as_u16(), r.text().await.unwrap_or_default())
        });
        assert_eq!(status.0, 202, "upload of {bot_name}: {}", status.1);
    }
    for bot_name in ["erinbot", "adminbot"] {
        poll(Duration::from_secs(120), &format!("{bot_name} to be active"), || {
            let (s, body) = get(&format!("/api/bots/{bot_name}"))?;
            let page: serde_json::Value = serde_json::from_str(&body).ok()?;
            (s == 200 && page["entry"]["status"] == "active").then_some(())
        });
    }

    // league games, played by both worker replicas
    let url = format!("postgres://mjai:{password}@127.0.0.1:{db_port}/mjai");
    let pool = rt.block_on(sqlx::PgPool::connect(&url)).unwrap();
    let worker_of = |slot: &str| format!("{host}-{slot}");
    poll(Duration::from_secs(120), "league games done by both replicas", || {
        let all = games(&rt, &pool);
        let by: std::collections::HashSet<_> =
            all.iter().filter(|g| g.2 == "done").filter_map(|g| g.3.clone()).collect();
        (by.contains(&worker_of("1")) && by.contains(&worker_of("2"))).then_some(())
    });

    // scale to 0 and back: the games in play go back to the queue and are played again
    let in_play = poll(Duration::from_secs(60), "a game in play", || {
        let running: Vec<(i64, i64)> =
            games(&rt, &pool).iter().filter(|g| g.2 == "running").map(|g| (g.0, g.1)).collect();
        (!running.is_empty()).then_some(running)
    });
    stack.scale_workers(0);
    poll(Duration::from_secs(60), "the stopped workers' games back in the queue, their containers gone", || {
        let running = games(&rt, &pool).iter().any(|g| g.2 == "running");
        (!running && worker_containers(&host) == 0).then_some(())
    });
    stack.scale_workers(2);
    poll(Duration::from_secs(120), "the games in play at the scale-down to be done", || {
        let all = games(&rt, &pool);
        in_play.iter().all(|(t, i)| state_of(&all, *t, *i) == "done").then_some(())
    });

    // docker kill of a worker container in the middle of a game
    let (t, idx, victim) = poll(Duration::from_secs(60), "a game in play by a worker", || {
        games(&rt, &pool).into_iter().find(|g| g.2 == "running").and_then(|g| Some((g.0, g.1, g.3?)))
    });
    let slot = victim.rsplit('-').next().unwrap().to_string();
    let container = stack
        .containers("worker")
        .into_iter()
        .find(|(_, task)| task.split('.').nth(1) == Some(slot.as_str()))
        .unwrap_or_else(|| panic!("no container of worker {victim}"))
        .0;
    docker(&["kill", &container], &[]);
    poll(Duration::from_secs(120), "the killed worker's game to be played again", || {
        (state_of(&games(&rt, &pool), t, idx) == "done").then_some(())
    });
    let results: i64 = rt
        .block_on(
            sqlx::query("SELECT COUNT(*) FROM results WHERE t = $1 AND game_idx = $2")
                .bind(t)
                .bind(idx)
                .fetch_one(&pool),
        )
        .unwrap()
        .get(0);
    assert_eq!(results, 4, "one result per seat of game {t}/{idx}");
    let all = games(&rt, &pool);
    let failed: Vec<_> = all.iter().filter(|g| g.2 == "failed" || g.2 == "cancelled").collect();
    assert!(failed.is_empty(), "no game lost: {failed:?}");
    let done = all.iter().filter(|g| g.2 == "done").count();
    assert!(done >= 3, "{done} games done");
    rt.block_on(pool.close());

    // docker stack rm: nothing of the stack is left, no bot container of its workers
    stack.remove();
    assert_eq!(worker_containers(&host), 0, "a bot container of a worker is left");
}

/// Bot containers (any state) of the stack's workers (`mjai-sim.game=worker-HOST-SLOT-...`).
fn worker_containers(host: &str) -> usize {
    let prefix = format!("worker-{host}-");
    let of_stack = |c: &bollard::models::ContainerSummary| {
        c.labels.as_ref().and_then(|l| l.get("mjai-sim.game")).is_some_and(|g| g.starts_with(&prefix))
    };
    crate::e2e_support::labelled_containers().iter().filter(|c| of_stack(c)).count()
}
