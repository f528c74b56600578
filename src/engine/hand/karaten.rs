//! Karaten: a concealed `3k+1` part whose only completion is a fifth tile of a kind it
//! holds four of. Not a wait (`hand::waits` leaves it out); whether it is paid as tenpai
//! at an exhaustive draw is a rule switch (`Rules::karaten_is_tenpai`: noten under Tenhou,
//! tenpai under mjai.app). Counts per tile kind, 34 kinds.

/// Karaten: the concealed `3k+1` tiles `counts` are completed only by a fifth tile of a
/// kind they hold four of (a count that may not exist; see `Rules::karaten_is_tenpai`).
pub fn karaten(counts: &[u8; 34]) -> bool {
    (0..34).any(|k| {
        let mut c = *counts;
        c[k] == 4 && {
            c[k] = 5;
            complete(&mut c, true)
        }
    })
}

/// Sets (and one pair while `pair_left`) use up `c` exactly; `c` is restored.
fn complete(c: &mut [u8; 34], pair_left: bool) -> bool {
    let Some(i) = c.iter().position(|&n| n > 0) else { return !pair_left };
    let take = |c: &mut [u8; 34], parts: &[(usize, u8)], pair_left: bool| {
        parts.iter().for_each(|&(k, n)| c[k] -= n);
        let ok = complete(c, pair_left);
        parts.iter().for_each(|&(k, n)| c[k] += n);
        ok
    };
    (pair_left && c[i] >= 2 && take(c, &[(i, 2)], false))
        || (c[i] >= 3 && take(c, &[(i, 3)], pair_left))
        || (i < 27
            && i % 9 <= 6
            && c[i + 1] > 0
            && c[i + 2] > 0
            && take(c, &[(i, 1), (i + 1, 1), (i + 2, 1)], pair_left))
}

#[cfg(test)]
mod tests {
    #[test]
    fn karaten_is_a_completion_only_by_a_fifth_tile() {
        let counts = |s: &str| {
            let mut c = [0u8; 34];
            crate::tile::parse_compact(s).unwrap().iter().for_each(|t| c[t.kind() as usize] += 1);
            c
        };
        assert!(super::karaten(&counts("1111m234p567s789s")));
        // Noten: a fifth 1m leaves 78s open.
        assert!(!super::karaten(&counts("1111m2345m567s78s")));
        assert!(!super::karaten(&counts("123m456p789s1234z")));
        assert!(!super::karaten(&counts("1112345678999m")));
    }
}
