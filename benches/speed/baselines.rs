//! The baselines of the benchmarks: each game computed plainly in Rust, as someone would
//! write it for that game alone.

use std::collections::HashMap;

/// The heap games of the naive baseline.
#[derive(Clone, Copy)]
pub enum Moves {
    Grundy,
    Officers,
    Kayles,
    Dawson,
    Lasker,
    Bash7,
}

/// Grundy's game to `n` heaps as a single-purpose solver computes it (after Flammenkamp and
/// Gangolli–Plambeck): values in bytes; the plain mex for the first 4096 heaps; then, at each
/// power of two, the mask under which the fewest heaps are rare (`popcount(v & mask)` even),
/// the rare heaps listed,
/// every pair with a rare part valued, and the other pairs scanned only until every rare value
/// below the least missing common value is found. Returns the sum of the values.
pub fn sparse_space_grundys(n: usize) -> u64 {
    const PLAIN: usize = 4096;
    let mut g: Vec<u8> = Vec::with_capacity(n);
    let mut seen = [false; 256];
    for h in 0..n.min(PLAIN) {
        seen = [false; 256];
        for a in 1..h.div_ceil(2) {
            seen[(g[a] ^ g[h - a]) as usize] = true;
        }
        g.push(seen.iter().position(|s| !s).unwrap() as u8);
    }
    let rare_under = |mask: u32, v: u8| (v as u32 & mask).count_ones().is_multiple_of(2);
    let (mut mask, mut rare) = (0, Vec::new());
    for h in g.len()..n {
        if h.is_power_of_two() {
            let mut histogram = [0usize; 256];
            for &v in &g {
                histogram[v as usize] += 1;
            }
            let rare_count = |m: u32| {
                (0..256)
                    .filter(|&v| rare_under(m, v as u8))
                    .map(|v| histogram[v])
                    .sum::<usize>()
            };
            mask = (1..256u32).min_by_key(|&m| rare_count(m)).unwrap();
            rare = (1..h).filter(|&r| rare_under(mask, g[r])).collect();
        }
        seen = [false; 256];
        for &r in rare.iter().take_while(|&&r| r < h) {
            if 2 * r != h {
                seen[(g[r] ^ g[h - r]) as usize] = true;
            }
        }
        let mut wanted = [false; 256];
        let mut missing = 0;
        let mut common_mex = 256;
        for v in 0..256 {
            if !seen[v] {
                if !rare_under(mask, v as u8) {
                    common_mex = v;
                    break;
                }
                wanted[v] = true;
                missing += 1;
            }
        }
        let mut a = 1;
        while missing > 0 && 2 * a < h {
            let v = (g[a] ^ g[h - a]) as usize;
            if wanted[v] {
                wanted[v] = false;
                missing -= 1;
            }
            a += 1;
        }
        let value = wanted.iter().position(|&w| w).unwrap_or(common_mex) as u8;
        if rare_under(mask, value) {
            rare.push(h);
        }
        g.push(value);
    }
    std::hint::black_box(&seen);
    g.iter().map(|&v| v as u64).sum()
}

/// Grundy values of heaps 0..n by the definition: every option's value, then the mex.
pub fn naive_heap(n: usize, moves: Moves) -> u64 {
    let mut g: Vec<u32> = vec![0; n];
    let mut seen: Vec<bool> = Vec::new();
    let mut values: Vec<u32> = Vec::new();
    for h in 0..n {
        values.clear();
        let split = |rest: usize, unequal: bool, values: &mut Vec<u32>| {
            for a in 1..=rest / 2 {
                if unequal && 2 * a == rest {
                    continue;
                }
                values.push(g[a] ^ g[rest - a]);
            }
        };
        match moves {
            Moves::Grundy => split(h, true, &mut values),
            Moves::Officers => {
                if h > 1 {
                    values.push(g[h - 1]);
                    split(h - 1, false, &mut values);
                }
            }
            Moves::Kayles | Moves::Dawson => {
                let takes: &[usize] = if matches!(moves, Moves::Kayles) {
                    &[1, 2]
                } else {
                    &[2]
                };
                for &t in takes {
                    if h >= t {
                        values.push(g[h - t]);
                        split(h - t, false, &mut values);
                    }
                }
            }
            Moves::Lasker => {
                for k in 1..=h {
                    values.push(g[h - k]);
                }
                split(h, false, &mut values);
            }
            Moves::Bash7 => {
                for k in 1..=h.min(7) {
                    values.push(g[h - k]);
                }
            }
        }
        seen.clear();
        seen.resize(values.len() + 1, false);
        for &v in &values {
            if (v as usize) < seen.len() {
                seen[v as usize] = true;
            }
        }
        g[h] = seen.iter().position(|s| !s).unwrap() as u32;
    }
    g.iter().map(|&v| v as u64).sum()
}

/// Wythoff's game for all a, b < n: the mex over the row, the column and the diagonal.
pub fn naive_wythoff(n: usize) -> usize {
    let mut g = vec![vec![0u32; n]; n];
    let mut seen = Vec::new();
    for a in 0..n {
        for b in 0..n {
            seen.clear();
            seen.resize(a + b + 2, false);
            for k in 1..=a {
                seen[g[a - k][b] as usize] = true;
            }
            for k in 1..=b {
                seen[g[a][b - k] as usize] = true;
            }
            for k in 1..=a.min(b) {
                seen[g[a - k][b - k] as usize] = true;
            }
            g[a][b] = seen.iter().position(|s| !s).unwrap() as u32;
        }
    }
    g.iter().flatten().filter(|&&v| v == 0).count()
}

fn mex(values: &mut [u32]) -> u32 {
    values.sort_unstable();
    let mut next = 0;
    for &v in values.iter() {
        if v == next {
            next += 1;
        } else if v > next {
            break;
        }
    }
    next
}

/// The misère Grundy value of a sum of Kayles heaps, as one would first write it: a memoized
/// recursion over the sorted heaps (zeros left out), every option of every distinct heap.
pub fn memo_misere_kayles(heaps: &[u8]) -> u32 {
    fn value(key: Vec<u8>, memo: &mut HashMap<Vec<u8>, u32>) -> u32 {
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let mut values = Vec::new();
        for i in 0..key.len() {
            if i > 0 && key[i] == key[i - 1] {
                continue;
            }
            let n = key[i];
            for take in 1..=n.min(2) {
                for a in 0..=(n - take) / 2 {
                    let mut option: Vec<u8> =
                        key[..i].iter().chain(&key[i + 1..]).copied().collect();
                    option.extend([a, n - take - a].into_iter().filter(|&h| h > 0));
                    option.sort_unstable();
                    values.push(value(option, memo));
                }
            }
        }
        let v = if values.is_empty() {
            1
        } else {
            mex(&mut values)
        };
        memo.insert(key, v);
        v
    }
    let mut key: Vec<u8> = heaps.iter().copied().filter(|&h| h > 0).collect();
    key.sort_unstable();
    value(key, &mut HashMap::new())
}

/// The xor game by memoized search over sorted heaps: every b in the box 0..=h with
/// count(b) > 0 and xor(b) == 0 is a move h -> h - b.
pub fn memo_xor_nim(h: i64) -> u64 {
    fn value(state: Vec<i64>, memo: &mut HashMap<Vec<i64>, u32>) -> u32 {
        if let Some(&v) = memo.get(&state) {
            return v;
        }
        let mut values = Vec::new();
        let mut b = vec![0i64; state.len()];
        loop {
            let mut i = b.len();
            loop {
                if i == 0 {
                    let v = mex(&mut values);
                    memo.insert(state, v);
                    return v;
                }
                i -= 1;
                if b[i] < state[i] {
                    b[i] += 1;
                    break;
                }
                b[i] = 0;
            }
            if b.iter().fold(0, |x, &y| x ^ y) == 0 {
                let mut next: Vec<i64> = state.iter().zip(&b).map(|(s, d)| s - d).collect();
                next.sort_unstable();
                values.push(value(next, memo));
            }
        }
    }
    let mut memo = HashMap::new();
    let mut total = 0u64;
    for_box(5, h, &mut |s| {
        let mut s = s.to_vec();
        s.sort_unstable();
        total += value(s, &mut memo) as u64;
    });
    total
}

/// The xor game as [`memo_xor_nim`], but enumerating only the boxes with xor 0: every
/// coordinate but the last, the last being the xor of the others when it is within its bound.
pub fn memo_xor_nim_pruned(h: i64) -> u64 {
    fn value(state: Vec<i64>, memo: &mut HashMap<Vec<i64>, u32>) -> u32 {
        if let Some(&v) = memo.get(&state) {
            return v;
        }
        let n = state.len();
        let mut values = Vec::new();
        let mut b = vec![0i64; n];
        loop {
            let last = b[..n - 1].iter().fold(0, |x, &y| x ^ y);
            if last <= state[n - 1] && (last != 0 || b[..n - 1].iter().any(|&x| x != 0)) {
                b[n - 1] = last;
                let mut next: Vec<i64> = state.iter().zip(&b).map(|(s, d)| s - d).collect();
                next.sort_unstable();
                values.push(value(next, memo));
            }
            let mut i = n - 1;
            loop {
                if i == 0 {
                    let v = mex(&mut values);
                    memo.insert(state, v);
                    return v;
                }
                i -= 1;
                if b[i] < state[i] {
                    b[i] += 1;
                    break;
                }
                b[i] = 0;
            }
        }
    }
    let mut memo = HashMap::new();
    let mut total = 0u64;
    for_box(5, h, &mut |s| {
        let mut s = s.to_vec();
        s.sort_unstable();
        total += value(s, &mut memo) as u64;
    });
    total
}

/// Staircase Nim by memoized search: coins on step i move down to step i - 1; from step 0
/// they leave.
pub fn memo_staircase(h: i64) -> u64 {
    fn value(state: Vec<i64>, memo: &mut HashMap<Vec<i64>, u32>) -> u32 {
        if let Some(&v) = memo.get(&state) {
            return v;
        }
        let mut values = Vec::new();
        for i in 0..state.len() {
            for k in 1..=state[i] {
                let mut next = state.clone();
                next[i] -= k;
                if i > 0 {
                    next[i - 1] += k;
                }
                values.push(value(next, memo));
            }
        }
        let v = mex(&mut values);
        memo.insert(state, v);
        v
    }
    let mut memo = HashMap::new();
    let mut total = 0u64;
    for_box(5, h, &mut |s| total += value(s.to_vec(), &mut memo) as u64);
    total
}

/// Calls `f` on every list of `len` counters, each 0..=h.
fn for_box(len: usize, h: i64, f: &mut dyn FnMut(&[i64])) {
    let mut s = vec![0i64; len];
    loop {
        f(&s);
        let mut i = len;
        loop {
            if i == 0 {
                return;
            }
            i -= 1;
            if s[i] < h {
                s[i] += 1;
                break;
            }
            s[i] = 0;
        }
    }
}

/// The notes' Nim task as their C++ program does it: read `n`, then `n` heaps, from the text of
/// a file; the nim-sum; `LOSE`, or `WIN` and the index and new size of the first heap whose
/// size the nim-sum lowers.
pub fn notes_nim(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).expect("the heaps file");
    let mut numbers = text
        .split_ascii_whitespace()
        .map(|w| w.parse::<u64>().unwrap());
    let n = numbers.next().unwrap_or(0) as usize;
    let heaps: Vec<u64> = numbers.take(n).collect();
    let sum = heaps.iter().fold(0, |a, h| a ^ h);
    if sum == 0 {
        return "LOSE\n".into();
    }
    let i = (0..heaps.len())
        .find(|&i| heaps[i] ^ sum < heaps[i])
        .unwrap();
    format!("WIN\n{i} {}\n", heaps[i] ^ sum)
}

/// The misère outcomes (true for P) of sums of Kayles heaps by a plain memoized search of the
/// whole sum: a sum is its sorted non-empty heaps; it is P when it has a move and every move
/// leaves an N sum (a sum with no move is won by the player to move).
pub fn memo_misere_kayles_outcomes(sums: &[Vec<u8>]) -> Vec<bool> {
    fn is_p(sum: Vec<u8>, memo: &mut HashMap<Vec<u8>, bool>) -> bool {
        if let Some(&p) = memo.get(&sum) {
            return p;
        }
        let mut p = !sum.is_empty();
        'moves: for i in 0..sum.len() {
            let n = sum[i];
            for t in 1..=n.min(2) {
                for a in 0..=(n - t) / 2 {
                    let mut option = sum.clone();
                    option.remove(i);
                    option.extend([a, n - t - a].into_iter().filter(|&h| h > 0));
                    option.sort_unstable();
                    if is_p(option, memo) {
                        p = false;
                        break 'moves;
                    }
                }
            }
        }
        memo.insert(sum, p);
        p
    }
    let mut memo = HashMap::new();
    sums.iter()
        .map(|s| {
            let mut s = s.clone();
            s.sort_unstable();
            is_p(s, &mut memo)
        })
        .collect()
}
