//! The process runtime against a real Python bot: exchange, timeout, crash, kill,
//! oversized line, closed output, invalid UTF-8, stderr cap.

use std::time::Duration;

use crate::runtime_support::{alive, assert_capped, test_submission};
use mjai_sim::runtime::process::{ProcessBot, ProcessOptions};
use mjai_sim::runtime::{Bot, BotError};

const T: Duration = Duration::from_secs(10);

async fn start(seat: u8, options: &ProcessOptions) -> (ProcessBot, tempfile::TempDir) {
    let logs = tempfile::tempdir().unwrap();
    let bot = ProcessBot::start(&test_submission(), seat, &logs.path().join("stderr.txt"), options).await.unwrap();
    (bot, logs)
}

#[tokio::test]
async fn exchanges_lines_and_passes_the_seat() {
    let (mut bot, _logs) = start(2, &ProcessOptions::default()).await;
    assert_eq!(bot.exchange("seat", T).await.unwrap(), "2");
    assert_eq!(bot.exchange("echo [{\"type\":\"start_game\"}]", T).await.unwrap(), "[{\"type\":\"start_game\"}]");
    assert_eq!(bot.exchange("anything", T).await.unwrap(), "{\"type\":\"none\"}");
    bot.stop().await;
}

#[tokio::test]
async fn unrequested_lines_are_not_taken_as_the_next_answer() {
    let (mut bot, _logs) = start(0, &ProcessOptions::default()).await;
    assert_eq!(bot.exchange("twice", T).await.unwrap(), "first");
    // Make sure "second" has arrived before the next request (the bot answers in order).
    assert_eq!(bot.exchange("echo x", T).await.unwrap(), "x");
    bot.stop().await;
}

#[tokio::test]
async fn a_late_answer_is_skipped_not_taken_as_the_next_one() {
    // riichi.dev's clock does not restart a bot that timed out: it answers the old request
    // while the next one waits
    let (mut bot, _logs) = start(0, &ProcessOptions::default()).await;
    let err = bot.exchange("late 0.5 stale", Duration::from_millis(100)).await.unwrap_err();
    assert_eq!(err, BotError::Timeout(0.1));
    assert_eq!(bot.exchange("echo fresh", T).await.unwrap(), "fresh");
    assert_eq!(bot.exchange("echo again", T).await.unwrap(), "again", "nothing is owed any more");
    bot.stop().await;
}

#[tokio::test]
async fn silent_bot_times_out() {
    let (mut bot, _logs) = start(0, &ProcessOptions::default()).await;
    let err = bot.exchange("sleep", Duration::from_millis(300)).await.unwrap_err();
    assert_eq!(err, BotError::Timeout(0.3));
    bot.stop().await;
}

#[tokio::test]
async fn exiting_bot_is_crashed_with_its_code() {
    let (mut bot, _logs) = start(0, &ProcessOptions::default()).await;
    let err = bot.exchange("exit 3", T).await.unwrap_err();
    assert_eq!(err, BotError::Crashed("exit code 3".into()));
    // Later exchanges keep failing the same way instead of hanging.
    assert!(matches!(bot.exchange("seat", T).await.unwrap_err(), BotError::Crashed(_)));
    bot.stop().await;
}

#[tokio::test]
async fn stop_kills_a_sigterm_ignoring_bot_and_its_children() {
    let (mut bot, _logs) = start(0, &ProcessOptions::default()).await;
    let pid: u32 = bot.exchange("pid", T).await.unwrap().parse().unwrap();
    let child: u32 = bot.exchange("spawn", T).await.unwrap().parse().unwrap();
    assert!(alive(pid) && alive(child));
    bot.stop().await;
    assert!(!alive(pid), "bot process {pid} survived stop");
    // The forked child was killed with the group (it may linger as a zombie until reaped).
    assert!(!alive(child), "child process {child} survived stop");
    bot.stop().await; // idempotent
}

#[tokio::test]
async fn oversized_line_is_rejected() {
    let options = ProcessOptions { line_limit: 1000, ..Default::default() };
    let (mut bot, _logs) = start(0, &options).await;
    assert_eq!(bot.exchange("big 1000", T).await.unwrap().len(), 1000);
    assert_eq!(bot.exchange("big 5000", T).await.unwrap_err(), BotError::Oversized(1000));
    bot.stop().await;
}

#[tokio::test]
async fn default_limit_is_one_mib() {
    let (mut bot, _logs) = start(0, &ProcessOptions::default()).await;
    assert_eq!(bot.exchange("big 2000000", T).await.unwrap_err(), BotError::Oversized(1 << 20));
    bot.stop().await;
}

#[tokio::test]
async fn closed_stdout_is_closed_not_crashed() {
    let (mut bot, _logs) = start(0, &ProcessOptions::default()).await;
    assert_eq!(bot.exchange("close", T).await.unwrap_err(), BotError::Closed);
    bot.stop().await;
}

#[tokio::test]
async fn invalid_utf8_is_reported() {
    let (mut bot, _logs) = start(0, &ProcessOptions::default()).await;
    assert_eq!(bot.exchange("badutf8", T).await.unwrap_err(), BotError::InvalidUtf8);
    bot.stop().await;
}

#[tokio::test]
async fn stderr_is_capped_with_a_marker_and_never_blocks_the_bot() {
    let options = ProcessOptions { stderr_cap: 100_000, ..Default::default() };
    let (mut bot, logs) = start(0, &options).await;
    // 3 MB of stderr: far past the cap and past any pipe buffer.
    assert_eq!(bot.exchange("err 3000000", T).await.unwrap(), "done");
    bot.stop().await;
    assert_capped(&logs.path().join("stderr.txt"), 100_000);
}

#[tokio::test]
async fn missing_interpreter_is_a_clear_error() {
    let options = ProcessOptions { python: "/nonexistent/python3".into(), ..Default::default() };
    let logs = tempfile::tempdir().unwrap();
    let err = ProcessBot::start(&test_submission(), 0, &logs.path().join("e.txt"), &options)
        .await
        .err()
        .expect("start must fail");
    let msg = err.to_string();
    assert!(msg.contains("/nonexistent/python3") && msg.contains("install Python"), "{msg}");
}
