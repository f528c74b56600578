//! Points from han and fu (Tenhou: no kiriage mangan, kazoe yakuman at 13 han), and the
//! helper that turns a [`Payment`] into score changes for the four seats.

use super::win::Payment;

fn round_up_100(points: i32) -> i32 {
    (points + 99) / 100 * 100
}

/// Basic points (`fu * 2^(han+2)`, capped by the limits): mangan 2000 (5 han, or a base
/// above 2000), haneman 3000 (6-7), baiman 4000 (8-10), sanbaiman 6000 (11-12), kazoe yakuman
/// 8000 (13+). `yakuman > 0` gives `8000 * yakuman` and ignores han and fu.
pub fn base_points(han: u8, fu: u8, yakuman: u8) -> i32 {
    if yakuman > 0 {
        return 8000 * i32::from(yakuman);
    }
    match han {
        0 => 0,
        1..=4 => (i32::from(fu) << (han + 2)).min(2000),
        5 => 2000,
        6 | 7 => 3000,
        8..=10 => 4000,
        11 | 12 => 6000,
        _ => 8000,
    }
}

/// Payment for a win worth `base` basic points. Ron: the discarder pays 6× (dealer winner)
/// or 4× base. Tsumo: a dealer winner gets 2× base from each; a non-dealer gets 2× from the
/// dealer and 1× from the others. Every payment is rounded up to 100 points.
pub fn payment(base: i32, dealer: bool, tsumo: bool) -> Payment {
    match (tsumo, dealer) {
        (false, true) => Payment { ron: round_up_100(base * 6), ..Payment::default() },
        (false, false) => Payment { ron: round_up_100(base * 4), ..Payment::default() },
        (true, true) => Payment { tsumo_ko: round_up_100(base * 2), ..Payment::default() },
        (true, false) => {
            Payment { tsumo_oya: round_up_100(base * 2), tsumo_ko: round_up_100(base), ..Payment::default() }
        }
    }
}

impl Payment {
    /// Points the winner receives before honba and kyotaku (ron amount, or the sum of the
    /// three tsumo shares).
    pub fn total(&self, dealer: bool) -> i32 {
        if self.ron > 0 {
            self.ron
        } else if dealer {
            3 * self.tsumo_ko
        } else {
            self.tsumo_oya + 2 * self.tsumo_ko
        }
    }

    /// Score changes for seats `0..4` (points; they sum to `1000 * kyotaku`).
    ///
    /// `winner` and `oya` are seats `0..4`; `payer` is the discarder's seat for ron, `None`
    /// for tsumo. Honba: 300 per stick from the discarder on ron, 100 per stick from each
    /// payer on tsumo. Kyotaku: 1000 per riichi stick on the table, to the winner. Pao
    /// (responsibility payment) is not handled here. Seats outside `0..4` are taken modulo 4.
    pub fn deltas(&self, winner: usize, payer: Option<usize>, oya: usize, honba: u32, kyotaku: u32) -> [i32; 4] {
        let (winner, oya) = (winner % 4, oya % 4);
        let honba = honba as i32;
        let mut d = [0i32; 4];
        match payer {
            Some(p) => {
                let amount = self.ron + 300 * honba;
                d[p % 4] -= amount;
                d[winner] += amount;
            }
            None => {
                for seat in (0..4).filter(|&s| s != winner) {
                    let share = if seat == oya { self.tsumo_oya } else { self.tsumo_ko } + 100 * honba;
                    d[seat] -= share;
                    d[winner] += share;
                }
            }
        }
        d[winner] += 1000 * kyotaku as i32;
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_and_no_kiriage() {
        assert_eq!(base_points(4, 30, 0), 1920); // Tenhou: 4 han 30 fu stays 7700, no kiriage
        assert_eq!(payment(base_points(4, 30, 0), false, false).ron, 7700);
        assert_eq!(payment(base_points(3, 60, 0), true, false).ron, 11600);
        assert_eq!(base_points(4, 40, 0), 2000);
        assert_eq!(base_points(3, 70, 0), 2000);
        assert_eq!(base_points(5, 20, 0), 2000);
        assert_eq!(base_points(7, 30, 0), 3000);
        assert_eq!(base_points(8, 30, 0), 4000);
        assert_eq!(base_points(10, 30, 0), 4000);
        assert_eq!(base_points(11, 30, 0), 6000);
        assert_eq!(base_points(12, 30, 0), 6000);
        assert_eq!(base_points(13, 30, 0), 8000);
        assert_eq!(base_points(26, 30, 0), 8000); // kazoe is a single yakuman
        assert_eq!(base_points(13, 0, 2), 16000);
    }

    #[test]
    fn payments_round_up_per_payer() {
        // 1 han 30 fu: base 240; non-dealer ron 960 -> 1000; tsumo 300/500.
        let p = payment(240, false, true);
        assert_eq!((p.tsumo_oya, p.tsumo_ko), (500, 300));
        assert_eq!(payment(240, false, false).ron, 1000);
        assert_eq!(payment(240, true, false).ron, 1500);
        assert_eq!(payment(240, true, true).tsumo_ko, 500);
        // 2 han 20 fu pinfu tsumo: base 320 -> 400/700 (non-dealer), 700 all (dealer).
        let p = payment(320, false, true);
        assert_eq!((p.tsumo_oya, p.tsumo_ko), (700, 400));
        assert_eq!(payment(8000, true, false).ron, 48000);
    }

    #[test]
    fn deltas_with_honba_and_kyotaku() {
        let ron = Payment { ron: 7700, ..Payment::default() };
        assert_eq!(ron.deltas(1, Some(3), 0, 2, 1), [0, 7700 + 600 + 1000, 0, -8300]);
        let tsumo = Payment { tsumo_oya: 2000, tsumo_ko: 1000, ron: 0 };
        assert_eq!(tsumo.deltas(2, None, 0, 1, 0), [-2100, -1100, 4300, -1100]);
        let oya_tsumo = Payment { tsumo_ko: 4000, ..Payment::default() };
        assert_eq!(oya_tsumo.deltas(3, None, 3, 0, 2), [-4000, -4000, -4000, 14000]);
        assert_eq!(tsumo.total(false), 4000);
    }
}
