//! The hub against a scripted process: cycles, restarts, crashes, per-request deadlines.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::{join_all, BoxFuture};
use serde_json::{json, Value};

use super::{BatchHub, BatchOptions, BatchSeat, LaunchProcess};
use crate::{Bot, BotError, Offer};

/// What the scripted process does with one cycle (its requests): answer after a delay, or fail.
type Script = Arc<dyn Fn(&[Value]) -> Result<(Duration, Vec<Value>), BotError> + Send + Sync>;

/// A process that answers by `script` and records every cycle it read.
struct Scripted {
    script: Script,
    cycles: Arc<Mutex<Vec<Vec<Value>>>>,
}

impl Bot for Scripted {
    fn exchange<'a>(&'a mut self, line: &'a str, timeout: Duration) -> BoxFuture<'a, Result<String, BotError>> {
        Box::pin(async move {
            let requests: Vec<Value> = serde_json::from_str(line).expect("a cycle is a JSON array");
            self.cycles.lock().unwrap().push(requests.clone());
            let (delay, actions) = (self.script)(&requests)?;
            if delay > timeout {
                tokio::time::sleep(timeout).await;
                return Err(BotError::Timeout(timeout.as_secs_f64()));
            }
            tokio::time::sleep(delay).await;
            Ok(Value::Array(actions).to_string())
        })
    }
    fn offer(&mut self, _offer: &Offer<'_>) {}
    fn stop(&mut self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }
    fn stderr_tail(&self) -> Vec<String> {
        vec!["scripted".into()]
    }
}

/// Echoes each request's table and seat as its action.
fn echo(requests: &[Value]) -> Vec<Value> {
    requests.iter().map(|r| json!({"type": "none", "table": r["table"], "seat": r["seat"]})).collect()
}

struct Fixture {
    hub: BatchHub,
    cycles: Arc<Mutex<Vec<Vec<Value>>>>,
}

fn hub(script: Script) -> Fixture {
    let cycles = Arc::new(Mutex::new(Vec::new()));
    let recorded = cycles.clone();
    let launch: LaunchProcess = Arc::new(move || {
        let bot = Scripted { script: script.clone(), cycles: recorded.clone() };
        Box::pin(async move { Ok(Box::new(bot) as Box<dyn Bot>) })
    });
    Fixture { hub: BatchHub::new(launch, BatchOptions::default()), cycles }
}

async fn ask(seat: &mut BatchSeat, timeout: Duration) -> Result<Value, BotError> {
    let line = format!(r#"[{{"type":"tsumo","actor":{},"pai":"?"}}]"#, 0);
    seat.exchange(&line, timeout).await.map(|a| serde_json::from_str(&a).unwrap())
}

const TWO_S: Duration = Duration::from_secs(2);

#[tokio::test(start_paused = true)]
async fn waiting_seats_share_one_cycle_and_each_gets_its_own_answer() {
    let f = hub(Arc::new(|r| Ok((Duration::from_millis(10), echo(r)))));
    let mut seats: Vec<BatchSeat> = (0..3u8).map(|s| f.hub.seat(f.hub.table(), s)).collect();
    let answers = join_all(seats.iter_mut().map(|s| ask(s, TWO_S))).await;
    for (n, answer) in answers.into_iter().enumerate() {
        let answer = answer.unwrap();
        assert_eq!(answer["seat"], n as u64, "answers in request order");
    }
    let cycles = f.cycles.lock().unwrap().clone();
    assert_eq!(cycles.len(), 1, "one cycle for the three waiting seats: {cycles:?}");
    assert_eq!(f.hub.stats().requests, 3);
    assert!(cycles[0].iter().all(|r| r.get("restart").is_none()), "nothing served before");
}

#[tokio::test(start_paused = true)]
async fn a_new_seat_for_a_table_seat_already_served_says_restart_and_others_do_not() {
    let f = hub(Arc::new(|r| Ok((Duration::ZERO, echo(r)))));
    let table = f.hub.table();
    let mut first = f.hub.seat(table, 1);
    ask(&mut first, TWO_S).await.unwrap();
    ask(&mut first, TWO_S).await.unwrap();
    first.stop().await;
    drop(first);
    let mut again = f.hub.seat(table, 1);
    ask(&mut again, TWO_S).await.unwrap();
    ask(&mut again, TWO_S).await.unwrap();
    let mut other = f.hub.seat(f.hub.table(), 1);
    ask(&mut other, TWO_S).await.unwrap();
    let flags: Vec<bool> =
        f.cycles.lock().unwrap().iter().map(|c| c[0].get("restart") == Some(&Value::Bool(true))).collect();
    assert_eq!(flags, [false, false, true, false, false]);
}

#[tokio::test(start_paused = true)]
async fn a_crash_fails_its_cycle_and_every_seat_it_served_then_a_new_process_serves() {
    let crash_on = Arc::new(Mutex::new(Some(2u64)));
    let trigger = crash_on.clone();
    let f = hub(Arc::new(move |r| {
        let table = r[0]["table"].as_u64();
        if r.len() == 1 && table == *trigger.lock().unwrap() {
            trigger.lock().unwrap().take();
            return Err(BotError::Crashed("exit status 3".into()));
        }
        Ok((Duration::ZERO, echo(r)))
    }));
    let (a, b) = (f.hub.table(), f.hub.table());
    let (mut x, mut y) = (f.hub.seat(a, 0), f.hub.seat(b, 0));
    let both = join_all([&mut x, &mut y].map(|s| ask(s, TWO_S))).await;
    assert!(both.iter().all(Result::is_ok));
    *crash_on.lock().unwrap() = Some(a);
    assert_eq!(ask(&mut x, TWO_S).await, Err(BotError::Crashed("exit status 3".into())));
    let stale = ask(&mut y, TWO_S).await.unwrap_err();
    assert!(matches!(&stale, BotError::Crashed(why) if why.contains("restarted")), "{stale:?}");
    let mut fresh = f.hub.seat(f.hub.table(), 0);
    assert!(ask(&mut fresh, TWO_S).await.is_ok());
    assert_eq!(f.hub.stats().starts, 2, "started again after the crash");
}

#[tokio::test(start_paused = true)]
async fn a_request_whose_limit_ends_before_the_answer_fails_alone() {
    let f = hub(Arc::new(|r| Ok((Duration::from_secs(3), echo(r)))));
    let (mut short, mut long) = (f.hub.seat(f.hub.table(), 0), f.hub.seat(f.hub.table(), 0));
    let (a, b) = tokio::join!(ask(&mut short, TWO_S), ask(&mut long, Duration::from_secs(20)));
    assert_eq!(a, Err(BotError::Timeout(2.0)));
    assert_eq!(b.unwrap()["table"], 1);
    assert_eq!(f.cycles.lock().unwrap().len(), 1, "both in one cycle");
    assert_eq!(f.hub.stats().starts, 1, "the process keeps serving");
}

#[tokio::test(start_paused = true)]
async fn a_wrong_number_of_actions_fails_the_cycle_but_keeps_the_process() {
    let f = hub(Arc::new(|_| Ok((Duration::ZERO, vec![json!({"type": "none"})]))));
    let (mut x, mut y) = (f.hub.seat(f.hub.table(), 0), f.hub.seat(f.hub.table(), 0));
    let (a, b) = tokio::join!(ask(&mut x, TWO_S), ask(&mut y, TWO_S));
    for r in [a, b] {
        assert!(matches!(&r, Err(BotError::Transport(m)) if m.contains("1 actions for 2 requests")), "{r:?}");
    }
    drop(x);
    assert!(ask(&mut y, TWO_S).await.is_ok(), "one request, one action");
    assert_eq!(f.hub.stats().starts, 1);
    assert_eq!(y.stderr_tail(), ["scripted"]);
}

#[tokio::test(start_paused = true)]
async fn a_closed_hub_fails_its_seats_at_once() {
    let f = hub(Arc::new(|r| Ok((Duration::ZERO, echo(r)))));
    let mut seat = f.hub.seat(f.hub.table(), 0);
    assert!(ask(&mut seat, TWO_S).await.is_ok());
    f.hub.close().await;
    assert!(matches!(ask(&mut f.hub.seat(9, 0), TWO_S).await, Err(BotError::Crashed(_))));
}
