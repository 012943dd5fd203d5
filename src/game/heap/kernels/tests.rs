//! Every kernel set against plain loops written here.

use super::super::byte_scan::{min, remove_masked_pair_values, remove_pair_values, ByteSet};
use super::super::values::ValueSet;
use super::super::wide::tests::{left_by_pairs, stream};
use super::super::wide_scan::find_in_wide_pairs;
use super::*;

/// A pseudo-random byte stream (xorshift), values below `top`.
fn bytes(len: usize, seed: u64, top: u16) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % top as u64) as u8
        })
        .collect()
}

fn set(values: impl IntoIterator<Item = u8>) -> ByteSet {
    let mut s = [0u64; 4];
    for v in values {
        s[(v >> 6) as usize] |= 1 << (v & 63);
    }
    s
}

#[test]
fn the_byte_scan_leaves_exactly_the_values_of_no_pair() {
    for (len, seed, top) in [
        (0, 1, 256),
        (5, 2, 256),
        (63, 3, 256),
        (64, 4, 40),
        (65, 5, 256),
        (200, 6, 256),
        (1000, 7, 256),
        (3000, 8, 200),
        (333, 9, 256),
        (2000, 10, 32),
    ] {
        let low = bytes(len, seed, top);
        let high = bytes(len, seed + 100, top);
        let values: Vec<u8> = (0..len).map(|i| low[i] ^ high[len - 1 - i]).collect();
        // Forty values at random, and every value (many hits a step).
        for wanted_seed in 0..21u64 {
            let picks: Vec<u8> = match wanted_seed {
                20 => (0..=255).collect(),
                _ => bytes(40, wanted_seed + 1000, 256),
            };
            let expected = set(picks.iter().copied().filter(|v| !values.contains(v)));
            // Lanes of 0xff over some of the first pairs: their values become 0xff.
            let lanes: Vec<u8> = bytes(len * wanted_seed as usize / 20, seed + 7, 2)
                .iter()
                .map(|&b| b * 0xff)
                .collect();
            let masked: Vec<u8> = (values.iter().enumerate())
                .map(|(i, &v)| v | lanes.get(i).copied().unwrap_or(0))
                .collect();
            let masked_expected = set(picks.iter().copied().filter(|v| !masked.contains(v)));
            let full: Vec<u8> = (0..len)
                .map(|i| lanes.get(i).copied().unwrap_or(0))
                .collect();
            for kernels in Kernels::every() {
                let name = kernels.name();
                let mut wanted = set(picks.iter().copied());
                remove_pair_values(&low, &high, &mut wanted, kernels);
                assert_eq!(wanted, expected, "{name} {len} {seed} {wanted_seed}");
                let mut wanted = set(picks.iter().copied());
                remove_masked_pair_values(&low, &high, &lanes, &mut wanted, kernels);
                assert_eq!(wanted, masked_expected, "{name} masked {len} {seed}");
                // The kernel itself, with lanes as long as the pairs.
                let mut wanted = set(picks.iter().copied());
                kernels.remove_pair_values(&low, &high, &full, &mut wanted);
                assert_eq!(wanted, masked_expected, "{name} full {len} {seed}");
            }
        }
    }
}

#[test]
fn a_set_of_flags_has_the_values_flagged() {
    let mut flags = [false; 256];
    for v in [0usize, 1, 31, 32, 63, 64, 127, 128, 200, 255] {
        flags[v] = true;
    }
    let expected = set([0, 1, 31, 32, 63, 64, 127, 128, 200, 255]);
    for kernels in Kernels::every() {
        assert_eq!(kernels.set_of(&flags), expected, "{}", kernels.name());
    }
    assert_eq!(min(&expected), Some(0));
    assert_eq!(min(&set([200])), Some(200));
    assert_eq!(min(&[0; 4]), None);
}

/// For each candidate `t` and heap `i`, whether some `(p, v)` of `unmarked` has
/// `g[p + i] ^ v == candidates[t][i]`, pair by pair.
fn candidates_found<T: Lane>(
    g: &[T],
    unmarked: &[(usize, T)],
    candidates: &Candidates<T>,
) -> FoundCandidates {
    let mut expected = [0u64; CANDIDATES];
    for (t, row) in candidates.iter().enumerate() {
        for (i, &c) in row.iter().enumerate() {
            if unmarked.iter().any(|&(p, v)| g[p + i] ^ v == c) {
                expected[t] |= 1 << i;
            }
        }
    }
    expected
}

#[test]
fn the_candidates_found_are_those_of_a_plain_loop_for_both_widths() {
    for (seed, top, count) in [
        (1, 512, 0),
        (2, 320, 1),
        (3, 16, 7),
        (4, 40, 100),
        (5, 2048, 333),
        (6, 256, 50),
    ] {
        let mut next = stream(seed);
        let g: Vec<u16> = (0..4000).map(|_| (next() % top) as u16).collect();
        let unmarked: Vec<(usize, u16)> = (0..count)
            .map(|_| {
                let p = next() as usize % (4000 - BLOCK_HEAPS);
                (p, (next() % top) as u16)
            })
            .collect();
        let mut candidates: Candidates<u16> = [[0; BLOCK_HEAPS]; CANDIDATES];
        for row in &mut candidates {
            row.iter_mut().for_each(|c| *c = (next() % top) as u16);
        }
        // The same, a byte each.
        let bytes: Vec<u8> = g.iter().map(|&v| v as u8).collect();
        let byte_unmarked: Vec<(usize, u8)> = unmarked.iter().map(|&(p, v)| (p, v as u8)).collect();
        let byte_candidates = candidates.map(|row| row.map(|c| c as u8));
        let expected = candidates_found(&g, &unmarked, &candidates);
        let byte_expected = candidates_found(&bytes, &byte_unmarked, &byte_candidates);
        for kernels in Kernels::every() {
            let found = kernels.find_candidates(&g, &unmarked, &candidates);
            assert_eq!(found, expected, "{} {seed}", kernels.name());
            let found = kernels.find_candidates(&bytes, &byte_unmarked, &byte_candidates);
            assert_eq!(found, byte_expected, "{} bytes {seed}", kernels.name());
        }
    }
}

#[test]
fn rows_are_marked_and_flags_read_as_a_plain_loop_does() {
    let mut next = stream(5);
    for round in 0..50 {
        const ROW: usize = 320;
        let heaps = (next() % 70) as usize;
        let partners: Vec<u16> = (0..heaps).map(|_| (next() % 700) as u16).collect();
        let (value, cap) = ((next() % 512) as u16, (next() % ROW as u64) as u16);
        let mut expected = vec![[0u8; ROW]; heaps];
        for (row, &p) in expected.iter_mut().zip(&partners) {
            row[usize::from((p ^ value).min(cap))] = 1;
        }
        let flags: Vec<u8> = expected.iter().flatten().copied().collect();
        let mut words_expected = vec![0u64; flags.len() / 64];
        for (v, &f) in flags.iter().enumerate().take(64 * words_expected.len()) {
            words_expected[v / 64] |= u64::from(f != 0) << (v % 64);
        }
        for kernels in Kernels::every() {
            let mut rows = vec![[0u8; ROW]; heaps];
            kernels.mark_wide(&mut rows, &partners, value, cap);
            assert_eq!(rows, expected, "{} {round}", kernels.name());
            let mut words = vec![0u64; flags.len() / 64];
            kernels.flag_words(&flags, &mut words);
            assert_eq!(words, words_expected, "{} {round}", kernels.name());
        }
    }
}

#[test]
fn codes_are_compressed_and_expanded_as_a_plain_loop_does() {
    let mut next = stream(9);
    for _ in 0..2000 {
        let x = next();
        for bit in 0..6u32 {
            // The bits of `x` at the positions whose bit `bit` is clear, in order.
            let positions: Vec<u32> = (0..64).filter(|p| p & (1 << bit) == 0).collect();
            let packed = (positions.iter().enumerate())
                .fold(0u32, |c, (k, &p)| c | ((x >> p & 1) as u32) << k);
            let codes = x as u32;
            let spread = (positions.iter().enumerate())
                .fold(0u64, |c, (k, &p)| c | u64::from(codes >> k & 1) << p);
            for kernels in Kernels::every() {
                assert_eq!(kernels.compress(x, bit), packed, "{} {bit}", kernels.name());
                assert_eq!(
                    kernels.expand(codes, bit),
                    spread,
                    "{} {bit}",
                    kernels.name()
                );
            }
        }
    }
}

#[test]
fn the_two_byte_scan_finds_what_a_plain_loop_finds() {
    let mut next = stream(7);
    for round in 0..600 {
        let len = 2 + (next() % 1500) as usize;
        // Values of a bound of 64 and 512 (the table lookup) and 1024 (compares only).
        let (top, bound) = [(3, 64), (40, 64), (600, 1024), (512, 512), (300, 512)][round % 5];
        let g: Vec<u16> = (0..len).map(|_| (next() % top) as u16).collect();
        let rest = len - 1 - (next() % 3) as usize;
        let unequal = round % 2 == 1;
        let mut wanted = ValueSet::default();
        wanted.grow(2 * bound);
        // Few values wanted, or many (the table lookup first).
        let count = 1 + (next() % [40, 200][round / 5 % 2]) as u32;
        for _ in 0..count {
            wanted.insert((next() % (2 * bound) as u64) as u32);
        }
        let before: Vec<u32> = wanted.iter().collect();
        // The plain loop: every pair, in order.
        let left = left_by_pairs(&g, (rest, unequal), &before);
        for kernels in Kernels::every() {
            let mut set = ValueSet::default();
            set.grow(2 * bound);
            before.iter().for_each(|&v| set.insert(v));
            let missing = before.len() as u32;
            let found = find_in_wide_pairs(&g, (rest, unequal), &mut set, missing, bound, kernels);
            assert_eq!(found as usize, left.len(), "{} {round}", kernels.name());
            assert_eq!(set.iter().collect::<Vec<_>>(), left, "{round}");
        }
    }
}

/// The table lookup alone stops with at most `TABLE_UNTIL` values missing, or at the last whole
/// step, and has then taken out exactly the values of the pairs it looked at.
#[cfg(target_arch = "x86_64")]
#[test]
fn the_table_lookup_takes_out_the_values_of_its_steps() {
    use super::x86_64::{Avx2, TABLE_UNTIL, WIDE_STEP};
    let Some(avx2) = Avx2::detect() else {
        return;
    };
    let mut next = stream(11);
    for round in 0..300 {
        let len = (next() % 3000) as usize;
        let top = [512, 320, 64][round % 3];
        let low: Vec<u16> = (0..len).map(|_| (next() % top) as u16).collect();
        let high: Vec<u16> = (0..len).map(|_| (next() % top) as u16).collect();
        let mut set = ValueSet::default();
        set.grow(1024);
        for _ in 0..1 + next() % 300 {
            set.insert((next() % 700) as u32);
        }
        let before: Vec<u32> = set.iter().collect();
        let (done, missing) = avx2.remove_many(&low, &high, &mut set, before.len() as u32);
        assert!(
            done.is_multiple_of(WIDE_STEP) && done <= len,
            "round {round}"
        );
        assert!(
            missing as usize <= TABLE_UNTIL || done + WIDE_STEP > len,
            "round {round}"
        );
        let seen: Vec<u32> = (0..done)
            .map(|i| u32::from(low[i] ^ high[len - 1 - i]))
            .collect();
        let left: Vec<u32> = (before.iter().copied())
            .filter(|v| !seen.contains(v))
            .collect();
        assert_eq!(set.iter().collect::<Vec<_>>(), left, "round {round}");
        assert_eq!(missing as usize, left.len(), "round {round}");
    }
}
