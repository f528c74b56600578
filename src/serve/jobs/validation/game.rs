//! One validation game: the bot in its seats, the built-in opponent in the others, a fresh
//! random wall, the league's runtime and limits, in its own folder; played by the arena
//! ([`run_game`], the one game runner of every command) once a slot of
//! `--max-validations` is free.

use std::path::PathBuf;

use anyhow::Context;

use mjai_sim_arena::game_run::{run_game, GameOutcome, GameSpec};
use mjai_sim_arena::launch::{BotSpec, LaunchSettings};
use mjai_sim_arena::logs::stderr_path_in;
use mjai_sim_arena::observer::Silent;
use mjai_sim_engine::game::{Rules, StartState};

use super::Games;

impl Games {
    /// One validation game under `rules` with `bot` in `seats`, in folder `game_dir`
    /// (replaced), once a slot of `--max-validations` is free.
    pub(super) async fn play(
        &self,
        game_dir: PathBuf,
        bot: &BotSpec,
        seats: &[usize],
        rules: Rules,
    ) -> anyhow::Result<GameOutcome> {
        let _slot = self.slots.acquire().await.context("the validation slots are closed")?;
        let _ = std::fs::remove_dir_all(&game_dir);
        let s = &self.settings;
        let bots = (0..rules.players.count())
            .map(|seat| match seats.contains(&seat) {
                true => bot.clone(),
                false => BotSpec::Builtin(s.opponent.clone()),
            })
            .collect();
        let spec = GameSpec {
            bots,
            names: ["0", "1", "2", "3"].map(String::from),
            seed: [rand::random::<u32>() as u64, 0],
            start: StartState::initial(rules.players),
            rules,
            options: s.options.clone(),
            settings: LaunchSettings {
                stderr_paths: std::array::from_fn(|seat| stderr_path_in(&game_dir, seat as u8)),
                ..s.launch.clone()
            },
            dir: game_dir,
            from_log: None,
            remote: s.remote.clone(),
            validation: true,
        };
        run_game(&spec, &mut Silent, self.cancel.token(), |_| {}).await
    }
}
